"""The inspector's model: a document's elements and its chunks, each chunk's extent over them.

PRINCIPLES

- **Extents come from provenance, nothing else.** A chunk's extent is its
  `metadata.extra["sources"]` records (`partita.chunking.provenance`), each resolved to the index
  of the element it names and the character range of that element's text. Nothing is guessed
  from text matching: a chunk without records has an empty extent and is counted as unmapped,
  and a record naming an element the run was not given is left out and counted too.
- **Overlaps are facts of the model.** A range of an element taken by two or more chunks (an
  overlap tail, a repeated table header) is one `Overlap`, with the chunks that share it; the page
  shows them, the tests check them.
- **Sizes as the chunker's users count them.** Characters are `len(chunk.text)`; tokens are
  counted by any `Callable[[str], int]` (the command passes cl100k_base, which works offline).
- **The page's JSON is compact but plain.** `model_to_json` writes elements as short arrays and
  chunks as small objects with one-letter keys, documented at `model_to_json`; the HTML page
  reads nothing else.
- **Tables are shown from their HTML, sanitized here.** Only table structure survives
  (`table`, `tr`, `td`, `th`, ... and `colspan`/`rowspan` with digits); every other tag is dropped
  (its text kept, that of `script`/`style` dropped too) and every other attribute removed.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from html.parser import HTMLParser
from typing import Any, NamedTuple

from partita.chunking.provenance import sources_of
from partita.elements import Element

__all__ = [
    "ChunkView",
    "ElementView",
    "Extent",
    "InspectionModel",
    "Overlap",
    "inspection_model",
    "model_to_json",
    "sanitized_table_html",
]


class Extent(NamedTuple):
    """A range of one element's text in a chunk: `elements[element].text[start:end]`."""

    element: int
    start: int
    end: int


class Overlap(NamedTuple):
    """A range of one element's text that several `chunks` (their indices, ascending) share."""

    element: int
    start: int
    end: int
    chunks: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ElementView:
    """One element as the page shows it."""

    index: int
    """Its position in the document, from 0."""
    element_id: str
    category: str
    text: str
    page: int | None
    html: str | None
    """A table's `text_as_html`, sanitized (`sanitized_table_html`); None for other elements."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ChunkView:
    """One chunk as the page shows it: its sizes, headings, pages and extent."""

    index: int
    category: str
    characters: int
    tokens: int
    heading_path: tuple[str, ...]
    pages: tuple[int, int] | None
    """The first and last page of the elements it was taken from; None when they have none."""
    extents: tuple[Extent, ...]
    """Its records resolved, in the chunk's text order."""
    text: str

    @property
    def element_indices(self) -> tuple[int, ...]:
        """The indices of the elements the chunk takes text from, ascending."""
        return tuple(sorted({extent.element for extent in self.extents}))


@dataclass(frozen=True, slots=True, kw_only=True)
class InspectionModel:
    """A document's elements, its chunks and where they overlap."""

    title: str
    settings: Mapping[str, Any]
    """The chunking strategy and options the chunks were made with, for the page's header."""
    elements: tuple[ElementView, ...]
    chunks: tuple[ChunkView, ...]
    overlaps: tuple[Overlap, ...]
    unresolved_records: int
    """Records naming an element that is not among `elements` (left out of the extents)."""

    @property
    def unmapped_chunks(self) -> tuple[int, ...]:
        """The indices of the chunks with an empty extent (no provenance records)."""
        return tuple(chunk.index for chunk in self.chunks if not chunk.extents)

    def chunks_of(self, element: int) -> tuple[int, ...]:
        """The indices of the chunks that take text from element `element`, ascending."""
        return tuple(c.index for c in self.chunks if any(e.element == element for e in c.extents))


def inspection_model(
    elements: Sequence[Element],
    chunks: Iterable[Element],
    *,
    count_tokens: Callable[[str], int],
    title: str = "",
    settings: Mapping[str, Any] | None = None,
) -> InspectionModel:
    """Return the model of `chunks` made from `elements` with provenance on.

    `count_tokens` counts a chunk's tokens; `title` and `settings` (strategy and options) are
    shown in the page's header.
    """
    index_of: dict[str, int] = {}
    for index, element in enumerate(elements):
        index_of.setdefault(element.element_id, index)
    views = tuple(_element_view(index, element) for index, element in enumerate(elements))
    chunk_views: list[ChunkView] = []
    unresolved = 0
    for number, chunk in enumerate(chunks):
        extents: list[Extent] = []
        for record in sources_of(chunk):
            found = index_of.get(record["element_id"])
            if found is None:
                unresolved += 1
                continue
            extents.append(Extent(found, record["start"], record["end"]))
        chunk_views.append(_chunk_view(number, chunk, tuple(extents), views, count_tokens))
    return InspectionModel(
        title=title,
        settings=dict(settings or {}),
        elements=views,
        chunks=tuple(chunk_views),
        overlaps=tuple(_iter_overlaps(chunk_views)),
        unresolved_records=unresolved,
    )


def _element_view(index: int, element: Element) -> ElementView:
    html = element.metadata.text_as_html
    return ElementView(
        index=index,
        element_id=element.element_id,
        category=element.category,
        text=element.text,
        page=element.metadata.page_number,
        html=sanitized_table_html(html) if html else None,
    )


def _chunk_view(
    index: int,
    chunk: Element,
    extents: tuple[Extent, ...],
    elements: Sequence[ElementView],
    count_tokens: Callable[[str], int],
) -> ChunkView:
    metadata = chunk.metadata
    heading_path = metadata.section_path or (metadata.extra or {}).get("heading_path") or ()
    pages = [p for p in (elements[e.element].page for e in extents) if p is not None]
    if not pages and metadata.page_number is not None:
        pages = [metadata.page_number]
    return ChunkView(
        index=index,
        category=chunk.category,
        characters=len(chunk.text),
        tokens=count_tokens(chunk.text),
        heading_path=tuple(str(h) for h in heading_path),
        pages=(min(pages), max(pages)) if pages else None,
        extents=extents,
        text=chunk.text,
    )


def _iter_overlaps(chunks: Sequence[ChunkView]) -> Iterable[Overlap]:
    """Generate the ranges of element text that two or more chunks share, by element, then
    position: a sweep over each element's range boundaries."""
    ranges: dict[int, list[tuple[int, int, int]]] = {}
    for chunk in chunks:
        for extent in chunk.extents:
            ranges.setdefault(extent.element, []).append((extent.start, extent.end, chunk.index))
    for element in sorted(ranges):
        held = ranges[element]
        if len({c for _, _, c in held}) < 2:
            continue
        cuts = sorted({p for start, end, _ in held for p in (start, end)})
        pending: Overlap | None = None
        for lo, hi in itertools.pairwise(cuts):
            sharing = tuple(sorted({c for start, end, c in held if start <= lo and hi <= end}))
            if len(sharing) < 2:
                if pending is not None:
                    yield pending
                    pending = None
                continue
            if pending is not None and pending.chunks == sharing and pending.end == lo:
                pending = pending._replace(end=hi)
                continue
            if pending is not None:
                yield pending
            pending = Overlap(element, lo, hi, sharing)
        if pending is not None:
            yield pending


def model_to_json(model: InspectionModel) -> str:
    """Return the page's data: one JSON object, safe to embed in a `<script>` element.

    Keys: `title`, `settings`, `types` (the categories, in order of first appearance),
    `elements` (each `[type index, text, page or null, sanitized html or null]`), `chunks` (each
    `{"y": category, "n": characters, "k": tokens, "h": heading path, "p": [first, last] pages or
    null, "r": [[element, start, end], ...]}`), `overlaps` (each `[element, start, end, [chunks]]`)
    and `unresolved` (records naming no known element). "</" is written "<\\/", so the text can
    close no element.
    """
    types: dict[str, int] = {}
    for view in model.elements:
        types.setdefault(view.category, len(types))
    data = {
        "title": model.title,
        "settings": model.settings,
        "types": list(types),
        "elements": [[types[v.category], v.text, v.page, v.html] for v in model.elements],
        "chunks": [
            {
                "y": c.category,
                "n": c.characters,
                "k": c.tokens,
                "h": list(c.heading_path),
                "p": list(c.pages) if c.pages else None,
                "r": [list(e) for e in c.extents],
            }
            for c in model.chunks
        ],
        "overlaps": [[o.element, o.start, o.end, list(o.chunks)] for o in model.overlaps],
        "unresolved": model.unresolved_records,
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--")


_TABLE_TAGS = frozenset(
    {"table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "th", "td", "br"}
)
_VOID_TAGS = frozenset({"col", "br"})
_DROPPED_WITH_TEXT = frozenset({"script", "style", "template", "noscript", "iframe", "object"})


def sanitized_table_html(html: str) -> str:
    """Return `html` with only table structure kept: the table tags, `colspan` and `rowspan`
    (digits only), and text (escaped). Other tags are dropped, their text kept, except those of
    `script`, `style` and the like, dropped whole."""
    sanitizer = _TableSanitizer()
    sanitizer.feed(html)
    sanitizer.close()
    return "".join(sanitizer.out)


class _TableSanitizer(HTMLParser):
    """Rebuilds HTML from the parser's events, keeping the table tags and span attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED_WITH_TEXT:
            self._skipping += 1
            return
        if self._skipping or tag not in _TABLE_TAGS:
            return
        kept = "".join(
            f' {name}="{value}"'
            for name, value in attrs
            if name in ("colspan", "rowspan") and value and value.isascii() and value.isdigit()
        )
        self.out.append(f"<{tag}{kept}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED_WITH_TEXT:
            return
        self.handle_starttag(tag, attrs)
        if tag in _TABLE_TAGS and tag not in _VOID_TAGS and not self._skipping:
            self.out.append(f"</{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED_WITH_TEXT:
            self._skipping = max(0, self._skipping - 1)
            return
        if not self._skipping and tag in _TABLE_TAGS and tag not in _VOID_TAGS:
            self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.out.append(escape(data, quote=False))
