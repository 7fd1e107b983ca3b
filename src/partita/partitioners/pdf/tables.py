"""Ruled tables: pdfplumber's table finder, cell text and `text_as_html`.

The finder runs only on pages that draw at least `_MIN_RULINGS` lines or rectangles (a cheap
pre-check: a page without rulings has no ruled table, and the finder's cost is then saved). A
found table counts when it has at least two rows, two columns and two non-empty cells; anything
less (a box drawn around a paragraph, a rule under a heading) is left to the text.

Cells spanning several grid columns or rows get `colspan` / `rowspan`. The first row is a header
row (`<thead>`, `<th>`) when its text is bold and the rest of the table's is not.
"""

from __future__ import annotations

import html
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from partita.partitioners._text import join_lines
from partita.partitioners.pdf.lines import BBox, chars_to_lines, is_bold_font

__all__ = ["PageTable", "find_page_tables"]

_MIN_RULINGS = 2


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


def find_page_tables(page: Any) -> list[PageTable]:
    """Return the ruled tables of the pdfplumber `page`, top to bottom."""
    if len(page.lines) + len(page.rects) < _MIN_RULINGS:
        return []
    tables: list[PageTable] = []
    for found in page.find_tables():
        table = _read_table(found.cells, page.chars)
        if table is not None:
            tables.append(table)
    tables.sort(key=lambda t: (t.bbox[1], t.bbox[0]))
    return tables


def _read_table(boxes: Sequence[BBox], chars: Sequence[Mapping[str, Any]]) -> PageTable | None:
    xs = sorted({round(b[0], 1) for b in boxes})
    tops = sorted({round(b[1], 1) for b in boxes})
    if len(xs) < 2 or len(tops) < 2:
        return None
    cells = [
        _Cell(
            b,
            tops.index(round(b[1], 1)),
            xs.index(round(b[0], 1)),
            max(1, bisect_left(tops, round(b[3], 1) - 0.5) - tops.index(round(b[1], 1))),
            max(1, bisect_left(xs, round(b[2], 1) - 0.5) - xs.index(round(b[0], 1))),
            [],
        )
        for b in boxes
    ]
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
            cell.text = join_lines(line.text for line in chars_to_lines(cell.chars))
    if sum(1 for c in cells if c.text) < 2:
        return None
    rows: list[list[_Cell]] = [[] for _ in tops]
    for cell in cells:
        rows[cell.row].append(cell)
    rows = [row for row in rows if row]
    header = len(rows) > 1 and _is_bold_row(rows[0]) and not all(_is_bold_row(r) for r in rows[1:])
    text = " ".join(c.text for c in cells if c.text)
    return PageTable(bbox, text, _html(rows, header))


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


def _html(rows: list[list[_Cell]], header: bool) -> str:
    parts = ["<table>"]
    for index, row in enumerate(rows):
        if header and index == 0:
            parts.append("<thead>")
        elif index == (1 if header else 0):
            parts.append("<tbody>")
        tag = "th" if header and index == 0 else "td"
        parts.append("<tr>")
        for cell in row:
            attrs = ""
            if cell.colspan > 1:
                attrs += f' colspan="{cell.colspan}"'
            if cell.rowspan > 1:
                attrs += f' rowspan="{cell.rowspan}"'
            parts.append(f"<{tag}{attrs}>{html.escape(cell.text, quote=False)}</{tag}>")
        parts.append("</tr>")
        if header and index == 0:
            parts.append("</thead>")
    if len(rows) > (1 if header else 0):
        parts.append("</tbody>")
    parts.append("</table>")
    return "".join(parts)
