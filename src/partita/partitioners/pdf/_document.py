"""The page stream: read pages with a few pages of look-ahead, classify, and draft elements.

Pages are read one at a time; `WINDOW` pages are kept ahead of the one being drafted (so the
body font and the running headers are known before the first page is decided) and only the band
texts of the `WINDOW` pages behind it. Memory therefore stays bounded whatever the page count.
"""

from __future__ import annotations

import re
import warnings
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from typing import Any, Protocol

from partita.elements import (
    CoordinatesMetadata,
    Element,
    Footer,
    Header,
    Link,
    ListItem,
    NarrativeText,
    PageBreak,
    PageNumber,
    Table,
    Text,
    Title,
)
from partita.errors import PartitaWarning
from partita.partitioners._build import Draft
from partita.partitioners._text import BULLET_LINE, NUMBERED_LINE
from partita.partitioners.pdf._blocks import Block, ends_with_leader
from partita.partitioners.pdf._fonts import FontStats
from partita.partitioners.pdf._furniture import (
    WINDOW,
    BandText,
    PageBands,
    band_texts,
    crowded_numbers,
    furniture_kind,
    page_numbers_of,
)
from partita.partitioners.pdf._limits import ContentLeftOutWarning
from partita.partitioners.pdf._lines import BBox
from partita.partitioners.pdf._outline import outline_key
from partita.partitioners.pdf._pages import PageContent
from partita.partitioners.pdf._tables import PageTable
from partita.text._scripts import is_cjk

__all__ = [
    "COUNT_FAILURE",
    "OUTLINE_FAILURE",
    "NoTextLayerWarning",
    "iter_pdf_drafts",
    "page_failure",
]

OUTLINE_FAILURE = "cannot read the outline"
COUNT_FAILURE = "cannot read the page count"


_MAX_TITLE_LINES = 3
_FURNITURE_TYPES: dict[str, type[Element]] = {
    "Header": Header,
    "Footer": Footer,
    "PageNumber": PageNumber,
}
_MAX_TITLE_WORDS = 20
_MAX_BOLD_TITLE_WORDS = 12
_MAX_CJK_TITLE_CHARS = 40
_TITLE_STOPPERS = frozenset(".,;、，；")
_DOTTED_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3})+)\.?\s+\S")
_SECTION_NUMBER = re.compile(r"^(\d{1,2}(?:\.\d{1,3})*)\.\s+\S")
_LEADING_NUMBER = re.compile(r"^[(\[]?\d{1,3}(?:[.,]\d{1,3})*[)\]]?\.?\s+")
_MAX_COMMAS = 2
_MAX_REPORT_TITLE_WORDS = 12
_MIN_CAPS_LETTERS = 5
_CENTRE_SHARE = 0.04
_PART_HEADING = re.compile(r"^part\s+[ivx]{1,4}\b(?!\s*[,;])", re.IGNORECASE)
_ITEM_HEADING = re.compile(r"^item\s+\d{1,2}[a-z]?\s*[.:]\s*(?:$|[A-Z(])", re.IGNORECASE)
_STATEMENT_TITLE = re.compile(
    r"^(?:(?:consolidated|combined|condensed|standalone)\s+)*(?:balance\s+sheets?|"
    r"statements?\s+of\s+(?:income|operations|earnings|cash\s+flows?|comprehensive|financial\s+"
    r"position|changes|(?:stock|share)holders|equity|retained)|income\s+statements?|"
    r"(?:comprehensive\s+)?income\s+statements?|cash\s+flows?\s+statements?)",
    re.IGNORECASE,
)
_NOT_TEXT = re.compile(
    "[\ue000-\uf8ff\u2610-\u2612\u25a0\u25a1\u2713-\u2718]|(?:^|\\s)[¨þ](?:\\s|$)"
)
"""Glyphs that draw no text: private-use symbols (a checkbox in a symbol font, "No \uf078"),
ballot boxes and check marks, and the "¨" and "þ" that Wingdings boxes decode to."""
_CJK_CHAPTER = re.compile(r"^第[一二三四五六七八九十百千〇零0-9０-９]+[章节節部篇编編]")


class NoTextLayerWarning(PartitaWarning):
    """Some pages are images without a text layer; partita does no OCR, so they give no text."""


class PdfSource(Protocol):
    """An open PDF, read page by page (pdfplumber's `_open.OpenPdf` or `pdfium.OpenPdfium`)."""

    @property
    def name(self) -> str:
        """The document's name in messages."""
        ...

    @property
    def origin(self) -> str:
        """The elements' `detection_origin`: the library that read the characters."""
        ...

    def guarded(self, what: str) -> AbstractContextManager[None]:
        """Run the body with failures turned into a `DocumentError` starting with `what`."""
        ...

    def page_count(self) -> int:
        """The number of pages."""
        ...

    def read_outline(self) -> dict[str, int]:
        """{outline_key(title): depth} of the outline's entries."""
        ...

    def read_page(self, index: int) -> PageContent:
        """The content of page `index` (1-based)."""
        ...

    def close(self) -> None:
        """Release the document."""
        ...


def iter_pdf_drafts(
    opened: PdfSource,
    *,
    pages: Iterable[int] | None,
    starting_page_number: int,
    include_page_breaks: bool,
    include_headers_footers: bool,
) -> Iterator[Draft]:
    """Generate the drafts of the `opened` PDF, page by page.

    Warns `ContentLeftOutWarning` for each page with content left out (see `limits`).
    """
    name = opened.name
    wanted = None if pages is None else set(pages)
    with opened.guarded(OUTLINE_FAILURE):
        outline = opened.read_outline()
    stats = FontStats()
    ahead: deque[tuple[PageContent, list[BandText | None], PageBands]] = deque()
    behind: deque[PageBands] = deque(maxlen=WINDOW)
    drafter = _PageDrafter(
        stats, outline, starting_page_number, include_headers_footers, opened.origin
    )
    image_only: list[int] = []
    with opened.guarded(COUNT_FAILURE):
        count = opened.page_count()
    for index in range(1, count + 1):
        if wanted is not None and index not in wanted:
            continue
        with opened.guarded(page_failure(index)):
            content = opened.read_page(index)
        for cut in content.cuts:
            warnings.warn(ContentLeftOutWarning(f"{name}: page {index}: {cut}"), stacklevel=2)
        if content.image_only:
            image_only.append(index)
        _count_fonts(content, stats)
        bands = _bands(content)
        ahead.append((content, bands, PageBands(b for b in bands if b is not None)))
        if len(ahead) > WINDOW:
            yield from _draft_next(ahead, behind, drafter, include_page_breaks)
    while ahead:
        yield from _draft_next(ahead, behind, drafter, include_page_breaks)
    if image_only:
        shown = ", ".join(map(str, image_only[:10])) + (", ..." if len(image_only) > 10 else "")
        warnings.warn(
            NoTextLayerWarning(
                f"{name}: {len(image_only)} page(s) are images without a text layer "
                f"(pages {shown}); partita does no OCR, so they give no text"
            ),
            stacklevel=2,
        )


def page_failure(index: int) -> str:
    """How the message of a failure to read page `index` starts."""
    return f"cannot read page {index}"


def _count_fonts(content: PageContent, stats: FontStats) -> None:
    for line in content.lines:
        stats.add_line(line.size, line.bold, line.char_count)
    for item in content.items:
        if isinstance(item, Block) and len(item.lines) <= _MAX_TITLE_LINES:
            text = " ".join(line.text for line in item.lines)
            if _is_heading_like(text):
                stats.note_heading_candidate(item.size, item.bold)


def _bands(content: PageContent) -> list[BandText | None]:
    summary: list[tuple[str, float, float]] = []
    for item in content.items:
        if isinstance(item, Block):
            _, top, _, bottom = item.bbox
            summary.append((" ".join(line.text for line in item.lines), top, bottom))
        else:
            summary.append(("", -1e9, -1e9))
    bands = band_texts(summary, content.height)
    return [
        b if isinstance(item, Block) else None for b, item in zip(bands, content.items, strict=True)
    ]


def _draft_next(
    ahead: deque[tuple[PageContent, list[BandText | None], PageBands]],
    behind: deque[PageBands],
    drafter: _PageDrafter,
    include_page_breaks: bool,
) -> Iterator[Draft]:
    content, bands, indexed = ahead.popleft()
    neighbours = [*behind, *(other for _, _, other in ahead)]
    yield from drafter.draft_page(content, bands, neighbours)
    if include_page_breaks:
        yield Draft(PageBreak, "", {"page_number": drafter.page_number(content)})
    behind.append(indexed)


class _PageDrafter:
    """Turns a page's paragraphs and tables into drafts, with the document's typography."""

    def __init__(
        self,
        stats: FontStats,
        outline: dict[str, int],
        starting_page_number: int,
        include_headers_footers: bool,
        origin: str,
    ) -> None:
        self._stats = stats
        self._origin = origin
        self._outline = outline
        self._start = starting_page_number
        self._include_furniture = include_headers_footers

    def page_number(self, content: PageContent) -> int:
        return self._start + content.index - 1

    def draft_page(
        self,
        content: PageContent,
        bands: list[BandText | None],
        neighbours: list[PageBands],
    ) -> Iterator[Draft]:
        page_number = self.page_number(content)
        numbers = page_numbers_of(bands, neighbours)
        crowded = crowded_numbers(bands)
        footers: list[Draft] = []
        list_indents: list[float] = []
        marked = [
            isinstance(item, Block) and _list_marked(item.first.text) for item in content.items
        ]
        for index, (item, band) in enumerate(zip(content.items, bands, strict=True)):
            meta: dict[str, Any] = {
                "page_number": page_number,
                "coordinates": _coordinates(item.bbox, content),
                "detection_origin": self._origin,
            }
            if isinstance(item, PageTable):
                list_indents.clear()
                meta["text_as_html"] = item.html
                yield Draft(Table, item.text, meta)
                continue
            text, links = item.text_and_links()
            if not text:
                continue
            if links:
                meta["links"] = links
            heading = self._stats.is_heading_class(item.size, item.bold)
            kind = furniture_kind(
                text,
                band,
                neighbours,
                heading=heading,
                page_numbers=numbers,
                crowded=index in crowded,
            )
            if kind is not None:
                if self._include_furniture:
                    meta["category_depth"] = 0
                    draft = Draft(_FURNITURE_TYPES[kind], text, meta)
                    if band is not None and not band.at_top:
                        footers.append(draft)
                    else:
                        yield draft
                continue
            alone = not (index > 0 and marked[index - 1]) and not (
                index + 1 < len(marked) and marked[index + 1]
            )
            draft = self._body_draft(item, text, meta, list_indents, alone, content.width)
            if draft.cls is not ListItem:
                list_indents.clear()
            yield draft
        yield from footers

    def _body_draft(
        self,
        block: Block,
        text: str,
        meta: dict[str, Any],
        list_indents: list[float],
        alone: bool,
        page_width: float,
    ) -> Draft:
        bullet = BULLET_LINE.match(text)
        numbered = None if bullet else NUMBERED_LINE.match(text)
        if numbered:
            # -- typography beats list markers: "1. Introduction" in a heading font is a Title --
            depth = self._numbered_title_depth(block, text, numbered.end(), alone)
            if depth is not None:
                meta["category_depth"] = depth
                return Draft(Title, text, meta)
        if bullet or numbered:
            x0 = block.first.x0
            while list_indents and list_indents[-1] > x0 + 2:
                list_indents.pop()
            if not list_indents or list_indents[-1] < x0 - 2:
                list_indents.append(x0)
            meta["category_depth"] = len(list_indents) - 1
            if bullet:
                shift = bullet.end()
                text = text[shift:]
                if "links" in meta:
                    meta["links"] = _shift_links(meta["links"], shift)
            return Draft(ListItem, text, meta)
        depth = self._title_depth(block, text, page_width)
        if depth is not None:
            meta["category_depth"] = depth
            return Draft(Title, text, meta)
        if not any(c.isalpha() for c in text):
            return Draft(Text, text, meta)
        return Draft(NarrativeText, text, meta)

    def _numbered_title_depth(self, block: Block, text: str, end: int, alone: bool) -> int | None:
        """The depth of a list-numbered paragraph that is a heading, or None for a list item."""
        if len(block.lines) > 2 or _word_count(text) > _MAX_BOLD_TITLE_WORDS:
            return None
        if not _heading_word_follows(text[end:]) or not _is_heading_like(text):
            return None
        from_outline = self._outline.get(outline_key(text)) if self._outline else None
        if from_outline is not None:
            return from_outline
        stats = self._stats
        if stats.is_heading_class(block.size, block.bold):
            return stats.heading_depth(block.size, block.bold)
        # -- body font: only "1. Introduction" alone, not next to other list items --
        section = _SECTION_NUMBER.match(text)
        if alone and section and len(block.lines) == 1 and _word_count(text) <= 8:
            return section.group(1).count(".")
        return None

    def _title_depth(self, block: Block, text: str, page_width: float) -> int | None:
        if len(block.lines) > _MAX_TITLE_LINES:
            return None
        from_outline = self._outline.get(outline_key(text)) if self._outline else None
        if from_outline is not None:
            return from_outline
        if not _is_heading_like(text):
            return None
        number = _LEADING_NUMBER.match(text)
        if number and not _heading_word_follows(text[number.end() :]):
            return None
        stats = self._stats
        if stats.is_heading_class(block.size, block.bold):
            larger = stats.is_heading_class(block.size, False)
            short = len(block.lines) <= 2 and _word_count(text) <= _MAX_BOLD_TITLE_WORDS
            if larger or short or _report_heading_depth(block, text, page_width) is not None:
                return stats.heading_depth(block.size, block.bold)
            return None
        report_depth = _report_heading_depth(block, text, page_width)
        if report_depth is not None:
            return report_depth
        if len(block.lines) == 1 and _word_count(text) <= 8:
            numbered = _DOTTED_NUMBER.match(text)
            if numbered:
                return numbered.group(1).count(".")
            if _CJK_CHAPTER.match(text):
                return 0
        return None


def _report_heading_depth(block: Block, text: str, page_width: float) -> int | None:
    """The depth of a heading of a report set in the body font, or None: a part or item heading
    ("PART II", "Item 7. Management's Discussion ..."), a financial statement's title
    ("Consolidated Balance Sheets", "CONSOLIDATED STATEMENTS OF INCOME (continued)", alone or
    on one of the up to three lines of a block naming the company and the units), or a
    line in capitals centred on the page ("NOTES TO FINANCIAL STATEMENTS"; a line in capitals
    at the left margin opens a clause as often as a section: "IL EST RÉSOLU À L'UNANIMITÉ");
    each of one or two lines, with few words."""
    if _word_count(text) <= _MAX_TITLE_WORDS and any(
        _STATEMENT_TITLE.match(line.text.strip()) for line in block.lines
    ):  # -- "COMPANY NAME / CONSOLIDATED BALANCE SHEETS / (in millions)", centred as one --
        return 2
    if len(block.lines) > 2 or _word_count(text) > _MAX_REPORT_TITLE_WORDS:
        return None
    if _PART_HEADING.match(text):
        return 0
    if _ITEM_HEADING.match(text):
        return 1
    letters = [c for c in text if c.isalpha()]
    if (
        len(letters) >= _MIN_CAPS_LETTERS
        and all(c.isupper() for c in letters)
        and not text.endswith(":")  # -- a speaker's name in a transcript, a form's label --
        and _centred(block.bbox, page_width)
    ):
        return 2
    return None


def _centred(bbox: BBox, page_width: float) -> bool:
    """True when `bbox` is centred on the page (within `_CENTRE_SHARE` of its width) without
    filling most of the line."""
    x0, _, x1, _ = bbox
    middle = (x0 + x1) / 2
    return abs(middle - page_width / 2) <= _CENTRE_SHARE * page_width and x1 - x0 < 0.7 * page_width


def _list_marked(text: str) -> bool:
    return bool(BULLET_LINE.match(text) or NUMBERED_LINE.match(text))


def _heading_word_follows(rest: str) -> bool:
    """True when `rest` (the text after a number) starts with a word that is not lowercase."""
    rest = rest.lstrip(" \t\u00a0\u3000\"'“‘「『(")
    return len(rest) >= 2 and rest[0].isalpha() and not rest[0].islower()


def _is_heading_like(text: str) -> bool:
    text = text.strip()
    if not text or text[-1] in _TITLE_STOPPERS or ends_with_leader(text):
        return False  # -- a table of contents entry ("1.2 Scope ..... 7") is no heading --
    if text.count(",") + text.count("，") > _MAX_COMMAS:
        return False
    if _NOT_TEXT.search(text):
        return False  # -- a checkbox line of a form ("Yes \uf0a3 No \uf078") is no heading --
    letters = sum(1 for c in text if c.isalpha())
    if letters < 2:
        return False
    cjk = sum(1 for c in text if is_cjk(c))
    if cjk > len(text) // 2:
        return len(text) <= _MAX_CJK_TITLE_CHARS
    return _word_count(text) <= _MAX_TITLE_WORDS


def _word_count(text: str) -> int:
    return len(text.split())


def _shift_links(links: tuple[Link, ...], shift: int) -> tuple[Link, ...]:
    out: list[Link] = []
    for link in links:
        start = (link.start_index or 0) - shift
        if start >= 0:
            out.append(Link(link.text, link.url, start))
    return tuple(out)


def _coordinates(bbox: BBox, content: PageContent) -> CoordinatesMetadata:
    x0, top, x1, bottom = (round(v, 2) for v in bbox)
    height = content.height
    y_top, y_bottom = round(height - top, 2), round(height - bottom, 2)
    return CoordinatesMetadata(
        points=((x0, y_top), (x0, y_bottom), (x1, y_bottom), (x1, y_top)),
        system="PointSpace",
        layout_width=content.width,
        layout_height=height,
    )
