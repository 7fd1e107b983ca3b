"""What the text strategies share: groups of elements, and chunks formed from their units
("sentence", "sentence_window", "recursive", "token", "headings", "code", "semantic", and the
retrieval pipeline's filler).

Principles:

- **Sections.** With `respect_sections` (the default) a `Title` starts a new group of elements
  and text is never merged across groups; the title's text joins the chunks it heads, as in
  "by_title". Without it, all text elements between two tables form one group.
- **Navigation and page furniture are left out.** Navigation always; Header, Footer and
  PageNumber unless `skip_furniture=False` (`partita.chunking._furniture`), before grouping.
- **Tables stand alone**, as in "by_title": a table ends the group before it and becomes one
  `Table` or `TableChunk`s (`partita.chunking.tables._emit`), or passes through unchanged with
  `skip_table_chunking`. These strategies always isolate tables.
- **Units never span elements.** Each element's text is cut into spans on its own; a chunk's
  text is, for each of its elements in order, the slice of that element's text from its first
  unit's start to its last unit's end, the slices joined with "\\n\\n".
- **Provenance.** Every text chunk records, in `metadata.extra["sources"]`, one record per source
  element (`partita.chunking.provenance`'s contract): `{"element_id": ..., "start": s, "end":
  e, "offset": o}`, the `[s, e)` range of that element's text the chunk took and where it stands
  in the chunk's text, `chunk.text[o : o + e - s] == element.text[s:e]`. Between records there is
  only the "\n\n" joining two elements (and, before the first, a rendered `metadata_template`
  header, `extra["text_offset"]` characters long). The records live in `extra` (undeclared
  metadata fields), which JSON writes as ordinary metadata fields and reads back into `extra`:
  they round-trip without a schema change.
- Chunks carry consolidated metadata (`partita.chunking._metadata`), `orig_elements` (unless
  `include_orig_elements=False`; an element split into so many chunks that repeating it whole
  would pass `_split_origins.REPEAT_LIMIT` is there as the chunk's part of it, as the reference
  strategies do past that limit) and deterministic ids (`partita.chunking._ids`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar

from partita.chunking._chunks import passed_through
from partita.chunking._furniture import iter_chunked_elements
from partita.chunking._ids import ChunkIds
from partita.chunking._metadata import consolidate_metadata, orig_elements_of
from partita.chunking._options import CommonOptions, Help, SharedChunkingOptions
from partita.chunking._run import ChunkingRun
from partita.chunking._split_origins import REPEAT_LIMIT, content_size, part_of
from partita.chunking.provenance import SourceRecord, source_record
from partita.elements import (
    CompositeElement,
    Element,
    Table,
    Title,
    metadata_from_fields,
    new_element,
)
from partita.text._packing import Unit, iter_packed
from partita.text._splits import iter_splits
from partita.text.sentences import iter_sentence_spans
from partita.text.sizing import Sizer

__all__ = [
    "JOINER",
    "ChunkMeasure",
    "GroupChunker",
    "TextChunkingOptions",
    "TextOptions",
    "chunk_element",
    "iter_groups",
    "iter_groups_chunks",
    "iter_sentence_pieces",
    "iter_sentence_units",
    "iter_split_chunks",
    "iter_table_output",
    "render_template",
    "span_text",
    "spans_of_units",
]

JOINER = "\n\n"
"""What joins the texts of two elements in one chunk (as the reference joins elements)."""


class TextOptions(CommonOptions, total=False):
    """The options every text strategy takes: the common ones and `respect_sections` (a text
    strategy that overlaps chunks adds `OverlapOptions`)."""

    respect_sections: Annotated[
        bool | None,
        Help("never merge text across a Title: a title starts a new group (default on)"),
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class TextChunkingOptions(SharedChunkingOptions):
    """The validated options of a text strategy: `SharedChunkingOptions` plus `respect_sections`
    (derived: `sections`, True by default); provenance is on unless `provenance=False`, page
    furniture is left out unless `skip_furniture=False`, and `overlap` may equal the window
    (whole splits of the previous chunk, shrunk until the next split fits). A text strategy
    that overlaps chunks declares `overlap` again as a constructor field (`OverlapOptions`)."""

    PROVENANCE_DEFAULT: ClassVar[bool] = True
    BOUNDED_ORIG_DEFAULT: ClassVar[bool] = True
    SKIP_FURNITURE_DEFAULT: ClassVar[bool] = True
    OVERLAP_MAY_FILL_WINDOW: ClassVar[bool] = True

    respect_sections: bool | None = None
    sections: bool = field(init=False)

    def __post_init__(self) -> None:
        SharedChunkingOptions.__post_init__(self)
        respect = self.respect_sections
        object.__setattr__(self, "sections", True if respect is None else bool(respect))


Spans = Sequence[tuple[int, int, int]]
"""A chunk's content: `(element index in the group, start, end)` per element, in order."""

GroupChunker = Callable[[Sequence[Element], ChunkIds], Iterator[Element]]
"""Chunks one group of text elements (a section, or the text between tables)."""


def iter_groups(
    elements: Iterable[Element],
    opts: SharedChunkingOptions,
    starts_group: Callable[[Element], bool] | None = None,
) -> Iterator[list[Element] | Table]:
    """Generate `elements` as groups of text elements (non-empty lists) and tables, in order. A
    group starts at each element `starts_group` accepts (default: each `Title`, with
    `respect_sections`); a table ends the group before it. Navigation, and page furniture
    when `opts.skips_furniture`, are left out (`partita.chunking._furniture`): every text
    strategy takes its elements here."""
    if starts_group is None:
        sections = getattr(opts, "sections", True)

        def starts_group(element: Element) -> bool:
            return sections and isinstance(element, Title)

    group: list[Element] = []
    for element in iter_chunked_elements(elements, opts):
        if isinstance(element, Table):
            if group:
                yield group
                group = []
            yield element
            continue
        if group and starts_group(element):
            yield group
            group = []
        group.append(element)
    if group:
        yield group


def iter_table_output(table: Table, run: ChunkingRun, ids: ChunkIds) -> Iterator[Element]:
    """A table's chunks (`partita.chunking.tables._emit`), or the table unchanged with
    `skip_table_chunking`."""
    if run.opts.skip_tables:
        yield passed_through(table, run.opts)
        return
    from partita.chunking.tables._emit import iter_table_chunks

    yield from iter_table_chunks(table, "", run, ids)


def iter_groups_chunks(
    elements: Iterable[Element],
    run: ChunkingRun,
    chunk_group: GroupChunker,
    *,
    starts_group: Callable[[Element], bool] | None = None,
) -> Iterator[Element]:
    """Generate the chunks of `elements`: each group of text elements chunked by `chunk_group`,
    each table alone (or passed through), numbered as one run. A group starts at each element
    `starts_group` accepts (default: each `Title`, with `respect_sections`)."""
    ids = ChunkIds()
    for item in iter_groups(elements, run.opts, starts_group):
        if isinstance(item, Table):
            yield from iter_table_output(item, run, ids)
        else:
            yield from chunk_group(item, ids)


def iter_sentence_pieces(
    group: Sequence[Element], run: ChunkingRun
) -> Iterator[tuple[int, int, int, bool]]:
    """The sentences of `group`'s elements (`partita.text.sentences`, CJK-aware) as `(element
    index, start, end, ends)`, in order; a sentence over the window is cut into pieces that fit
    (`partita.text._splits.iter_splits`: clauses, then words), and `ends` is False for each piece
    but its last."""
    sizer = run.sizer
    limit = run.opts.hard_max
    measure = sizer.bounded_by(limit)
    for index, element in enumerate(group):
        text = element.text
        for start, end in iter_sentence_spans(text):
            sentence = text[start:end]
            if sizer.fits(sentence, limit):
                yield index, start, end, True
                continue
            pieces = list(iter_splits(sentence, measure, limit))
            for number, split in enumerate(pieces, start=1):
                yield index, start + split.start, start + split.end, number == len(pieces)


def iter_sentence_units(
    group: Sequence[Element], run: ChunkingRun
) -> Iterator[tuple[int, int, int]]:
    """`iter_sentence_pieces` without the `ends` flag: `(element index, start, end)`."""
    for index, start, end, _ in iter_sentence_pieces(group, run):
        yield index, start, end


def span_text(group: Sequence[Element], spans: Spans) -> str:
    """The text of a chunk made of `spans` of `group`'s elements."""
    return JOINER.join(group[i].text[s:e] for i, s, e in spans)


def spans_of_units(units: Sequence[Unit]) -> list[tuple[int, int, int]]:
    """The spans of a chunk made of `units`: per element, first start to last end."""
    spans: list[tuple[int, int, int]] = []
    for unit in units:
        if spans and spans[-1][0] == unit.source:
            source, start, _ = spans[-1]
            spans[-1] = (source, start, unit.end)
        else:
            spans.append((unit.source, unit.start, unit.end))
    return spans


def chunk_element(
    group: Sequence[Element],
    spans: Spans,
    text: str,
    run: ChunkingRun,
    ids: ChunkIds,
    *,
    extra: dict[str, Any] | None = None,
    offset: int = 0,
    sources: list[SourceRecord] | None = None,
) -> Element:
    """The CompositeElement of `text`, made of `spans` of `group`: consolidated metadata of the
    elements it draws on, `orig_elements`, and (unless `provenance=False`) its provenance in
    `extra["sources"]`: `sources` when given, else the spans' records, their slices laid out
    from `offset` (the length of a header) joined by `JOINER`."""
    elements = [group[i] for i, _, _ in spans]
    unique = list({id(e): e for e in elements}.values())
    fields = consolidate_metadata(unique)
    if run.opts.include_orig:
        fields["orig_elements"] = orig_elements_of(_origins(group, spans, unique))
    if run.opts.record_sources:
        if sources is None:
            sources = []
            for i, start, end in spans:
                sources.append(source_record(group[i].element_id, start, end, offset))
                offset += end - start + len(JOINER)
        extra = {"sources": sources, **(extra or {})}
    if extra:
        fields["extra"] = extra
    return new_element(
        CompositeElement, text, ids.next_id(elements[0].element_id), metadata_from_fields(fields)
    )


def _origins(group: Sequence[Element], spans: Spans, unique: list[Element]) -> Sequence[Element]:
    """The elements a chunk's `orig_elements` holds: `unique`, except that an element split
    into so many chunks that repeating it whole in each would pass `REPEAT_LIMIT` (its pieces,
    estimated from this chunk's part of it, times its size) is there as its part
    (`_split_origins.part_of`): the output stays linear in the element's size."""
    parts: dict[int, Element] = {}
    for i, start, end in spans:
        element = group[i]
        length = len(element.text)
        if (start, end) == (0, length) or id(element) in parts:
            continue
        pieces = length // max(end - start, 1) + 1
        if pieces * content_size([element]) > REPEAT_LIMIT:
            part = part_of(element, element.text[start:end], first=start == 0)
            parts[id(element)] = part
    return [parts.get(id(e), e) for e in unique] if parts else unique


SplitsOf = Callable[[str, Callable[[str], int], int], Iterable[Any]]
"""`(text, measure, limit) -> splits` with `start`, `end`, `size`, `is_sentence`: `iter_splits`
or `iter_recursive_splits` with its separators."""


class _Blank(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return ""


def render_template(template: str, element: Element) -> str:
    """`template` with `{field}`s replaced by `element`'s metadata values (`{category}`,
    `{element_id}` too); an unset field renders empty, a sequence joined with " > "."""
    values = _Blank()
    metadata = element.metadata
    for name, value in metadata.set_fields_view().items():
        if name == "extra":
            values.update({k: v for k, v in value.items() if k not in values})
            continue
        if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
            value = " > ".join(value)
        values[name] = value
    values.setdefault("category", type(element).__name__)
    values.setdefault("element_id", element.element_id)
    return template.format_map(values)


def iter_split_chunks(
    group: Sequence[Element],
    ids: ChunkIds,
    run: ChunkingRun,
    splits_of: SplitsOf,
    *,
    template: str | None = None,
    header: str | None = None,
    chunk_extra: dict[str, Any] | None = None,
) -> Iterator[Element]:
    """The chunks of `group`: each element's text cut by `splits_of`, the splits packed greedily
    (overlap of whole splits, every chunk within the window, a rendered `template` and "\\n\\n"
    counted inside it, or the fixed `header` when given); `chunk_extra` joins each chunk's
    `metadata.extra`."""
    opts = run.opts
    sizer = run.sizer
    hard_max = opts.hard_max
    if header is not None:
        headers = [header] * len(group)
    else:
        headers = [render_template(template, e) + JOINER if template else "" for e in group]
    header_sizes = [sizer.measure(h) if h else 0 for h in headers]

    def units() -> Iterator[Unit]:
        for index, element in enumerate(group):
            limit = hard_max - header_sizes[index]
            if limit <= 0:
                raise ValueError(
                    f"Metadata length ({header_sizes[index]}) is longer than chunk size"
                    f" ({hard_max}): increase the chunk size or shorten metadata_template"
                )
            text = element.text
            measure = sizer.bounded_by(limit)
            for split in splits_of(text, measure, limit):
                ends = split.ends_sentence
                yield Unit(index, split.start, split.end, split.size, split.is_sentence, ends)

    measure = ChunkMeasure(group, headers, header_sizes, sizer, hard_max)
    for chunk in iter_packed(
        units(),
        limit=hard_max,
        overlap=opts.overlap_len,
        chunk_size=measure.size,
        grown_size=measure.grown,
    ):
        spans = spans_of_units(chunk)
        first = headers[chunk[0].source]
        extra = {"text_offset": len(first)} if first else {}
        extra.update(chunk_extra or {})
        text = first + span_text(group, spans)
        yield chunk_element(group, spans, text, run, ids, extra=extra, offset=len(first))


_TAIL = 96
"""Characters of a chunk's end read to find a cut before a join (see `Sizer.measure_appended`)."""


@dataclass(frozen=True, slots=True)
class ChunkMeasure:
    """The exact sizes of a group's chunks: `size(units)` measures a chunk whole (a single
    split from its size and its header's, tokenizing only around their join), `grown(units,
    size, unit)` from its size and the join alone where the sizer can (always for characters;
    for cl100k_base when the chunk's last `_TAIL` characters hold a cut), else whole."""

    group: Sequence[Element]
    headers: Sequence[str]
    header_sizes: Sequence[int]
    sizer: Sizer
    limit: int

    def size(self, units: Sequence[Unit]) -> int:
        source = units[0].source
        header = self.headers[source]
        if len(units) == 1 and units[0].size + self.header_sizes[source] <= self.limit:
            unit = units[0]  # -- a chunk's first split: its size is exact, so is the header's --
            if not header:
                return unit.size
            return self.sizer.measure_joined(
                header,
                "",
                self.group[source].text[unit.start : unit.end],
                left_size=self.header_sizes[source],
                right_size=unit.size,
            )
        text = header + span_text(self.group, spans_of_units(units))
        return self.sizer.measure_at_most(text, self.limit)

    def grown(self, units: Sequence[Unit], size: int, unit: Unit) -> int:
        last = units[-1]
        text = self.group[last.source].text
        if size > self.limit:  # -- an oversized single unit: anything added is over too --
            return size + 1
        # -- the chunk's last characters: back over its units of the same source, at most
        # -- `_TAIL` characters (never into the joiner or header before them) --
        start = last.start
        index = len(units) - 1
        while last.end - start < _TAIL and index > 0 and units[index - 1].source == last.source:
            index -= 1
            start = units[index].start
        tail = text[max(start, last.end - _TAIL) : last.end]
        separator = text[last.end : unit.start] if unit.source == last.source else JOINER
        right = self.group[unit.source].text[unit.start : unit.end]
        grown = self.sizer.measure_appended(
            tail, separator, right, left_size=size, right_size=unit.size
        )
        if grown is None:
            return self.size([*units, unit])
        return grown
