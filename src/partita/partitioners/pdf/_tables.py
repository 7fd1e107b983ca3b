"""Ruled tables: pdfplumber's table finder, cell text and `text_as_html`.

The finder (pdfplumber's "lines" strategy, computed by `_ruled_cells` in near-linear time) runs
only on pages that draw at least `_MIN_RULINGS` lines or rectangles (a cheap pre-check: a page
without rulings has no ruled table, and the finder's cost is then saved); on a page beyond the
finder's bounds (thousands of edges, a grid of more than 40,000 intersections) no ruled table is
looked for, and the page says so (`RuledTables.skipped`). A found table counts when it has at
least two columns and two non-empty cells, and two rows or one row of short one-line cells (a
table cut by a page or column break leaves its header row, or its last row, alone in a grid: its
bold header cells are then neither Titles nor paragraphs); anything less (a box drawn around a
paragraph or two, a rule under a heading) is left to the text.

Tables ruled inside but open at the sides (LaTeX's `|c|c|` between full-width horizontal rules:
no vertical line at the outer edges) are found again with vertical edges added at the ends of the
horizontal rules that run past the found table, so their first and last columns are kept.

Cells spanning several grid columns or rows get `colspan` / `rowspan`. A column holding only the
")" or "%" signs of the numbers on its left, or the "$" of those on its right, is merged into
them (`_sign_columns`). The first row is a header
row (`<thead>`, `<th>`) when its text is bold and the rest of the table's is not (or it is the
table's only row).

`horizontal_rules` lists the page's horizontal rules (thin lines and rectangles) for the
text-aligned table finder (`_aligned_tables`), which reads tables drawn with horizontal rules only.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from partita._table_html import text_table_html
from partita.partitioners.pdf._boxes import BoxIndex
from partita.partitioners.pdf._lines import BBox, Line, chars_to_lines, is_bold_font
from partita.partitioners.pdf._ruled_cells import find_cell_groups, group_bbox
from partita.partitioners.pdf._sign_columns import merge_sign_columns
from partita.text._whitespace import join_lines

__all__ = [
    "PageTable",
    "Rule",
    "RuledTables",
    "find_page_tables",
    "horizontal_rules",
    "table_html",
]

_MIN_RULINGS = 2
_RULE_THICKNESS = 2.0
_MIN_RULE_LENGTH = 20.0
_LONE_ROW_WORDS = 6
_SIDE_SLACK = 3.0

Rule = tuple[float, float, float]
"""A horizontal rule: (x0, y, x1) in PDF points, origin at the top left."""


@dataclass(frozen=True, slots=True)
class PageTable:
    """A table found on a page: its box, its text (cells in reading order) and its HTML."""

    bbox: BBox
    text: str
    html: str


@dataclass(slots=True)
class _Cell:
    bbox: BBox
    row: int
    col: int
    rowspan: int
    colspan: int
    chars: list[Mapping[str, Any]]
    text: str = ""
    lines: list[Line] = field(default_factory=list[Line])


def horizontal_rules(page: Any) -> list[Rule]:
    """Return the horizontal rules of the pdfplumber `page` (lines and thin rectangles), top to
    bottom."""
    if len(page.lines) + len(page.rects) < _MIN_RULINGS:
        return []
    rules: list[Rule] = []
    for obj in (*page.lines, *page.rects):
        x0, top, x1, bottom = obj["x0"], obj["top"], obj["x1"], obj["bottom"]
        if bottom - top <= _RULE_THICKNESS and x1 - x0 >= _MIN_RULE_LENGTH:
            rules.append((x0, (top + bottom) / 2, x1))
    rules.sort(key=lambda r: (round(r[1]), r[0]))
    joined: list[Rule] = []
    for x0, y, x1 in rules:  # -- a rule drawn in pieces (one per column) is one rule --
        if joined and abs(joined[-1][1] - y) <= 0.5 and x0 <= joined[-1][2] + 1.0:
            last = joined[-1]
            joined[-1] = (last[0], last[1], max(last[2], x1))
        else:
            joined.append((x0, y, x1))
    joined.sort(key=lambda r: (r[1], r[0]))
    return joined


@dataclass(frozen=True, slots=True)
class RuledTables:
    """The ruled tables of a page, top to bottom, and whether the finder gave up on the page."""

    tables: list[PageTable]
    skipped: bool = False
    """True when the page's rulings exceed the finder's bounds (`ruled_cells`): no ruled table
    was looked for."""


def find_page_tables(page: Any, rules: Sequence[Rule] = ()) -> RuledTables:
    """Return the ruled tables of the pdfplumber `page`; `rules` are its `horizontal_rules`."""
    if len(page.lines) + len(page.rects) < _MIN_RULINGS:
        return RuledTables([])
    found = find_cell_groups(page)
    if found is None:
        return RuledTables([], skipped=True)
    sides = [edge for cells in found for edge in _open_sides(group_bbox(cells), rules)]
    if sides:
        found = find_cell_groups(page, {"explicit_vertical_lines": sides})
        if found is None:
            return RuledTables([], skipped=True)
    tables: list[PageTable] = []
    for cells, chars in zip(found, _chars_by_table(found, page.chars), strict=True):
        table = _read_table(cells, chars)
        if table is not None:
            tables.append(table)
    tables.sort(key=lambda t: (t.bbox[1], t.bbox[0]))
    return RuledTables(tables)


def _chars_by_table(
    found: Sequence[Sequence[BBox]], chars: Sequence[Mapping[str, Any]]
) -> list[list[Mapping[str, Any]]]:
    """For each table (its cells), the page's characters whose centre is inside its box, in page
    order: a few boxes are each tested, more are found through a grid (`_boxes.BoxIndex`)."""
    boxes = [group_bbox(cells) for cells in found]
    inside: list[list[Mapping[str, Any]]] = [[] for _ in found]
    if len(boxes) <= 32:  # -- the usual case: each box tested inline --
        pairs = list(zip(boxes, inside, strict=True))
        for char in chars:
            cx = (char["x0"] + char["x1"]) / 2
            cy = (char["top"] + char["bottom"]) / 2
            for (x0, top, x1, bottom), mine in pairs:
                if x0 <= cx <= x1 and top <= cy <= bottom:
                    mine.append(char)
        return inside
    index = BoxIndex(boxes)
    for char in chars:
        cx = (char["x0"] + char["x1"]) / 2
        cy = (char["top"] + char["bottom"]) / 2
        for k in index.containing(cx, cy):
            inside[k].append(char)
    return inside


def _open_sides(bbox: BBox, rules: Sequence[Rule]) -> list[dict[str, Any]]:
    """Vertical edges at the ends of the horizontal rules that cross the found table `bbox` and
    run past it (a table open at the sides), from the first such rule to the last: those two
    must be the table's top and bottom edges, and both run past it."""
    x0, top, x1, bottom = bbox
    crossing = [
        r
        for r in rules
        if top - _SIDE_SLACK <= r[1] <= bottom + _SIDE_SLACK and r[0] < x1 and r[2] > x0
    ]
    if len(crossing) < 2:
        return []
    first = min(crossing, key=lambda r: r[1])
    last = max(crossing, key=lambda r: r[1])
    upper, lower = first[1], last[1]
    if abs(upper - top) > _SIDE_SLACK or abs(lower - bottom) > _SIDE_SLACK:
        return []  # -- the rules must close the table above and below --
    left = max(first[0], last[0])
    right = min(first[2], last[2])
    if left >= x0 - _SIDE_SLACK and right <= x1 + _SIDE_SLACK:
        return []
    return [
        {
            "object_type": "explicit_edge",
            "x0": x,
            "x1": x,
            "top": upper,
            "bottom": lower,
            "width": 0.0,
            "height": lower - upper,
            "orientation": "v",
        }
        for x in (left, right)
    ]


def _read_table(boxes: Sequence[BBox], chars: Sequence[Mapping[str, Any]]) -> PageTable | None:
    xs = sorted({round(b[0], 1) for b in boxes})
    tops = sorted({round(b[1], 1) for b in boxes})
    if len(xs) < 2:
        return None
    col_of = {x: i for i, x in enumerate(xs)}
    row_of = {top: i for i, top in enumerate(tops)}
    cells = []
    for b in boxes:
        row, col = row_of[round(b[1], 1)], col_of[round(b[0], 1)]
        rowspan = max(1, bisect_left(tops, round(b[3], 1) - 0.5) - row)
        colspan = max(1, bisect_left(xs, round(b[2], 1) - 0.5) - col)
        cells.append(_Cell(b, row, col, rowspan, colspan, []))
    cells.sort(key=lambda c: (c.row, c.col))
    bbox = (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )
    _assign_chars(cells, chars, bbox, xs, tops)
    for cell in cells:
        if cell.chars:
            cell.lines = chars_to_lines(cell.chars)
            cell.text = join_lines(line.text for line in cell.lines)
    if sum(1 for c in cells if c.text) < 2 or (len(tops) == 1 and not _is_lone_row(cells)):
        return None
    rows: list[list[_Cell]] = [[] for _ in tops]
    for cell in cells:
        rows[cell.row].append(cell)
    rows = [row for row in rows if row]
    header = _is_bold_row(rows[0]) and (len(rows) == 1 or not all(map(_is_bold_row, rows[1:])))
    html_rows = merge_sign_columns([split for row in rows for split in _split_row(row)])
    text = " ".join(cell for row in html_rows for cell, _, _ in row if cell)
    return PageTable(bbox, text, table_html(html_rows, header))


def _is_lone_row(cells: Sequence[_Cell]) -> bool:
    """True when the cells of a grid of one row read as a table's row, not as boxed layout: each
    non-empty cell one short line (`_LONE_ROW_WORDS` words at most). A table cut by a page or
    column break leaves such a row alone: its header row at the foot of a column, or its last
    row at the head of the next."""
    return all(
        len(cell.lines) == 1 and len(cell.text.split()) <= _LONE_ROW_WORDS
        for cell in cells
        if cell.text
    )


def _split_row(row: list[_Cell]) -> list[list[tuple[str, int, int]]]:
    """The row's cells, or the row cut into its text lines when the rule between them is missing:
    the row has two cells or more, each holds the same number (two or more) of lines, on the same
    baselines, and spans one grid row."""
    whole = [[(c.text, c.colspan, c.rowspan) for c in row]]
    count = len(row[0].lines)
    if count < 2 or len(row) < 2 or any(c.rowspan > 1 or len(c.lines) != count for c in row):
        return whole
    for k in range(count):
        tops = [c.lines[k].top for c in row]
        if max(tops) - min(tops) > 0.5 * row[0].lines[k].size:
            return whole
    return [[(c.lines[k].text.strip(), c.colspan, 1) for c in row] for k in range(count)]


def _assign_chars(
    cells: list[_Cell],
    chars: Sequence[Mapping[str, Any]],
    bbox: BBox,
    xs: Sequence[float],
    tops: Sequence[float],
) -> None:
    grid: dict[tuple[int, int], _Cell] = {}
    for cell in cells:
        for row in range(cell.row, cell.row + cell.rowspan):
            for col in range(cell.col, cell.col + cell.colspan):
                grid[row, col] = cell
    x0, top, x1, bottom = bbox
    for char in chars:
        cx = (char["x0"] + char["x1"]) / 2
        cy = (char["top"] + char["bottom"]) / 2
        if x0 <= cx <= x1 and top <= cy <= bottom:
            found = grid.get((bisect_right(tops, cy) - 1, bisect_right(xs, cx) - 1))
            if found is not None:
                found.chars.append(char)


def _is_bold_row(row: list[_Cell]) -> bool:
    chars = [c for cell in row for c in cell.chars if not c["text"].isspace()]
    if not chars:
        return False
    return sum(1 for c in chars if is_bold_font(c["fontname"])) * 2 > len(chars)


def table_html(
    rows: Sequence[Sequence[tuple[str, int, int]]], header: bool, header_rows: int = 1
) -> str:
    """Return the HTML of a table given as rows of (text, colspan, rowspan) cells; the first
    `header_rows` rows are the header (`<thead>`, `<th>`) when `header` is true, the others a
    `<tbody>`."""
    return text_table_html(rows, header_rows if header else 0)
