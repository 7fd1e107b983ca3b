"""One page to its content in reading order: paragraphs and tables.

`page_content` makes one pass over a page's characters (after the table finder, when it runs),
then takes the financial statements (`_statements`) and the text-aligned tables
(`_aligned_tables`) out of its lines and orders what is left. A page with ruled tables is read
once more for its statements, whose lines the ruled tables may hold, and once more when a
statement replaces some of them.
Its page is anything offering what the stages read of a pdfplumber page: a pdfplumber page whose
content `read_page` has run under the page bounds (`_interpreter`), or a page read by PDFium
(`pdfium._page`). `read_page` releases pdfplumber's caches for the page before returning, so
only this compact summary outlives the page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from partita.partitioners.pdf._aligned_tables import find_aligned_tables
from partita.partitioners.pdf._blocks import Block, lines_to_blocks
from partita.partitioners.pdf._interpreter import read_layout
from partita.partitioners.pdf._layout import reading_order
from partita.partitioners.pdf._limits import DocumentBudget
from partita.partitioners.pdf._lines import (
    MAX_LINK_CHECKS,
    BBox,
    Line,
    LinkArea,
    LinkFinder,
    chars_to_lines,
)
from partita.partitioners.pdf._links import page_links
from partita.partitioners.pdf._statements import find_statements, settle_statements
from partita.partitioners.pdf._tables import (
    PageTable,
    RuledTables,
    find_page_tables,
    horizontal_rules,
)

__all__ = ["PageContent", "page_content", "read_page"]


@dataclass(slots=True)
class PageContent:
    """What a page holds, in reading order."""

    index: int
    """1-based position of the page in the file."""
    width: float
    height: float
    items: list[Block | PageTable]
    lines: list[Line]
    """Every line of text outside tables (for font statistics)."""
    image_only: bool
    """True when the page has images but no characters: a scan without a text layer."""
    cuts: tuple[str, ...] = ()
    """What was left out of the page, and why (see `_interpreter.read_layout`)."""


def read_page(page: Any, index: int, budget: DocumentBudget) -> PageContent:
    """Return the content of the pdfplumber `page`, the `index`-th of its file, read within
    the document's `budget`; the page's caches are released before returning."""
    try:
        cuts = read_layout(page, budget).cuts
        return page_content(page, index, cuts, page_links(page))
    finally:
        page.close()


def page_content(
    page: Any, index: int, cuts: tuple[str, ...], links: Sequence[LinkArea]
) -> PageContent:
    """Return the content of `page`, the `index`-th of its file: anything offering what the
    stages read of a pdfplumber page (`chars`, `lines`, `rects`, `edges`, `bbox`, `width`,
    `height`, `images`), whose reading left out what `cuts` say, with its URI `links`."""
    chars = page.chars
    rules = horizontal_rules(page) if chars else []
    ruled = find_page_tables(page, rules) if chars else RuledTables([])
    tables = ruled.tables
    if ruled.skipped:
        cuts += (
            "ruled tables were not looked for: its rulings exceed the table finder's bounds "
            "(its text is read as paragraphs)",
        )
    finder = LinkFinder(links)
    lines = chars_to_lines(chars, exclude=[t.bbox for t in tables], links=finder)
    # -- financial statements: on a page with ruled tables, looked for in all its lines (a
    # -- statement's shaded rows are ruled tables of their own, see `settle_statements`) --
    found = find_statements(chars_to_lines(chars) if tables else lines)
    if found.tables and not tables:
        tables, lines = found.tables, found.rest
    elif found.tables:
        statements, tables = settle_statements(found, tables)
        if statements:
            finder = LinkFinder(links)
            taken = [t.bbox for t in (*tables, *statements)]
            lines = chars_to_lines(chars, exclude=taken, links=finder)
            tables = sorted([*tables, *statements], key=lambda t: (t.bbox[1], t.bbox[0]))
    if finder.exhausted:
        cuts += (
            f"link areas were matched to its characters only until {MAX_LINK_CHECKS:,} "
            "tests (later characters carry no link)",
        )
    image_only = not chars and bool(page.images)
    width, height = float(page.width), float(page.height)
    aligned = find_aligned_tables(lines, rules, height, [t.bbox for t in tables])
    lines = aligned.rest
    if aligned.tables:
        tables = sorted([*tables, *aligned.tables], key=lambda t: (t.bbox[1], t.bbox[0]))
    if aligned.gave_up:
        cuts += (
            "tables between horizontal rules were looked for only until the search bound "
            "(its text is read as paragraphs)",
        )
    boxes: list[BBox] = [line.bbox for line in lines] + [t.bbox for t in tables]
    order = reading_order(boxes, width)
    items: list[Block | PageTable] = []
    run: list[Line] = []
    for i in order:
        if i < len(lines):
            run.append(lines[i])
            continue
        items.extend(lines_to_blocks(run))
        run = []
        items.append(tables[i - len(lines)])
    items.extend(lines_to_blocks(run))
    return PageContent(index, width, height, items, lines, image_only, cuts)
