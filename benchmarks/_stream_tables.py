"""The tables of the synthetic element streams (`_streams.py`): a cell grid and its HTML.

Table kinds (`TableKnobs.kinds`, drawn by weight):

- `plain`: the original benchmark table, a grid of short cells, the first row a `<th>` header
  row in `<thead>` half the time;
- `header_rows`: two or three header rows, the first of group headers spanning columns: either
  in `<thead>` under a corner `<th>` spanning them all, or directly under `<table>` as rows of a
  blank `<td>` corner and `<th>` cells (the reference reads both as header rows); body rows start
  with a `<th>` row label in half the tables;
- `spans`: a header (one row, or two with spanning group headers) over a body whose first
  column groups rows with `rowspan` cells, with now and then a `colspan=2` cell, a rowspan in the
  last column, or a full-width section row;
- `wide`: 8-16 columns (`wide_columns`); `long`: 60-200 rows (`long_rows`).

Each table is written in its kind's own markup (`<thead>`/`<tbody>`, `<th>` cells, `rowspan`
before `colspan` as web pages often have them) or, for a `compact_share` of tables, as the
reference's own partitioners write tables (`htmlify_matrix_of_spanned_cell_texts`): `<tr>` rows
right under `<table>`, `<td>` cells only, `colspan` then `rowspan`, `<td/>` for a blank cell,
a line break in a cell as `<br/>`. The table's `text` is the cell texts in source order joined by
spaces, blank cells left out.
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["TABLE_KINDS", "CellTexts", "TableKnobs", "table_html"]

Range = tuple[int, int]
TABLE_KINDS = ("plain", "header_rows", "spans", "wide", "long")


@dataclass(frozen=True)
class TableKnobs:
    """The table knobs of a stream shape. A share of 0 draws nothing from the generator."""

    kinds: tuple[tuple[str, float], ...] = (("plain", 1.0),)
    """(kind, weight) pairs, kinds from `TABLE_KINDS`."""
    rows: Range = (3, 40)
    columns: Range = (2, 6)
    wide_columns: Range = (8, 16)
    long_rows: Range = (60, 200)
    number_cell_share: float = 0.3
    empty_cell_share: float = 0.0
    symbol_cell_share: float = 0.0
    """Cells such as "R&D", "<5%", "12.5%", "$1,234" (escaped in the HTML)."""
    cjk_cell_share: float = 0.0
    line_break_cell_share: float = 0.0
    """Cells of two lines (`<br/>` in the HTML, a space in the text)."""
    compact_share: float = 0.0
    """Share of tables written as the reference's partitioners write them."""

    def __post_init__(self) -> None:
        unknown = [kind for kind, _ in self.kinds if kind not in TABLE_KINDS]
        if unknown or not self.kinds:
            raise ValueError(f"table kinds must be among {TABLE_KINDS}, not {unknown}")


@dataclass(frozen=True)
class CellTexts:
    """Where a table's texts come from (`_streams.py` draws them from its word lists)."""

    cell: Callable[[], str]
    header: Callable[[], str]


@dataclass
class Cell:
    text: str
    header: bool = False
    colspan: int = 1
    rowspan: int = 1


Row = list[Cell]


@dataclass
class Grid:
    head: list[Row]
    body: list[Row]
    sectioned: bool = True
    """Header rows in `<thead>`, body rows in `<tbody>`; otherwise all rows under `<table>`."""


# ------------------------------------------------------------------------------------------------
# the kinds
# ------------------------------------------------------------------------------------------------


def plain_grid(rng: random.Random, knobs: TableKnobs, texts: CellTexts) -> Grid:
    """The original benchmark table (the same draws, so the `default` stream is unchanged)."""
    n_rows, n_cols = rng.randint(*knobs.rows), rng.randint(*knobs.columns)
    rows = [[Cell(texts.cell()) for _ in range(n_cols)] for _ in range(n_rows)]
    if rng.random() < 0.5:
        return Grid([[Cell(c.text, header=True) for c in rows[0]]], rows[1:])
    return Grid([], rows)


def group_header_row(rng: random.Random, texts: CellTexts, n_cols: int) -> Row:
    """Header cells covering `n_cols` columns, each spanning one to three of them."""
    cells: Row = []
    while n_cols > 0:
        span = min(n_cols, rng.randint(1, 3))
        cells.append(Cell(texts.header(), header=True, colspan=span))
        n_cols -= span
    return cells


def header_cells(texts: CellTexts, n: int) -> Row:
    return [Cell(texts.header(), header=True) for _ in range(n)]


def body_rows(texts: CellTexts, n_rows: int, n_cols: int, row_labels: bool) -> list[Row]:
    """Rows of `n_cols` cells, the first one a `<th>` row label when `row_labels`."""
    return [
        [Cell(texts.header(), header=True)] + [Cell(texts.cell()) for _ in range(n_cols - 1)]
        if row_labels
        else [Cell(texts.cell()) for _ in range(n_cols)]
        for _ in range(n_rows)
    ]


def header_rows_grid(rng: random.Random, knobs: TableKnobs, texts: CellTexts) -> Grid:
    n_rows, n_cols = rng.randint(*knobs.rows), max(3, rng.randint(*knobs.columns))
    n_head = rng.randint(2, 3)
    in_thead = rng.random() < 0.5
    head = [group_header_row(rng, texts, n_cols - 1), header_cells(texts, n_cols - 1)]
    if n_head == 3:
        units = ("USD", "%", "units", "n", "km")
        head.append([Cell(rng.choice(units), header=True) for _ in range(n_cols - 1)])
    if in_thead:
        head[0].insert(0, Cell(texts.header(), header=True, rowspan=n_head))
    else:
        for row in head:
            row.insert(0, Cell(""))
    body = body_rows(texts, n_rows, n_cols, row_labels=rng.random() < 0.5)
    return Grid(head, body, sectioned=in_thead)


def spanned_body(rng: random.Random, texts: CellTexts, n_rows: int, n_cols: int) -> list[Row]:
    """Body rows with rowspan groups in the first column and a few other merged cells."""
    covered = [0] * n_cols  # -- rows below still covered by a rowspan from above, per column --
    rows: list[Row] = []
    for r in range(n_rows):
        left = n_rows - r
        if not any(covered) and rng.random() < 0.05:
            rows.append([Cell(texts.header(), header=True, colspan=n_cols)])
            continue
        row: Row = []
        c = 0
        while c < n_cols:
            if covered[c]:
                covered[c] -= 1
                c += 1
                continue
            rowspan, colspan = 1, 1
            if c == 0 and rng.random() < 0.6:
                rowspan = min(left, rng.randint(2, 4))
            elif c == n_cols - 1 and rng.random() < 0.08:
                rowspan = min(left, rng.randint(2, 3))
            elif 0 < c < n_cols - 2 and not covered[c + 1] and rng.random() < 0.08:
                colspan = 2
            cell = Cell(texts.header() if c == 0 else texts.cell(), c == 0, colspan, rowspan)
            row.append(cell)
            for i in range(c, c + colspan):
                covered[i] = rowspan - 1
            c += colspan
        rows.append(row)
    return rows


def spans_grid(rng: random.Random, knobs: TableKnobs, texts: CellTexts) -> Grid:
    n_rows, n_cols = rng.randint(*knobs.rows), max(3, rng.randint(*knobs.columns))
    if rng.random() < 0.5:
        head = [header_cells(texts, n_cols)]
    else:
        corner = Cell(texts.header(), header=True, rowspan=2)
        head = [[corner, *group_header_row(rng, texts, n_cols - 1)]]
        head.append(header_cells(texts, n_cols - 1))
    return Grid(head, spanned_body(rng, texts, n_rows, n_cols))


def wide_grid(rng: random.Random, knobs: TableKnobs, texts: CellTexts) -> Grid:
    n_rows, n_cols = rng.randint(*knobs.rows), rng.randint(*knobs.wide_columns)
    body = body_rows(texts, n_rows, n_cols, row_labels=rng.random() < 0.5)
    return Grid([header_cells(texts, n_cols)], body)


def long_grid(rng: random.Random, knobs: TableKnobs, texts: CellTexts) -> Grid:
    n_rows, n_cols = rng.randint(*knobs.long_rows), rng.randint(*knobs.columns)
    return Grid([header_cells(texts, n_cols)], body_rows(texts, n_rows, n_cols, False))


GRIDS: dict[str, Callable[[random.Random, TableKnobs, CellTexts], Grid]] = {
    "plain": plain_grid,
    "header_rows": header_rows_grid,
    "spans": spans_grid,
    "wide": wide_grid,
    "long": long_grid,
}


# ------------------------------------------------------------------------------------------------
# markup and text
# ------------------------------------------------------------------------------------------------


def cell_markup(cell: Cell) -> str:
    """A cell in its kind's own markup: `<th>`/`<td>`, `rowspan` before `colspan`."""
    tag = "th" if cell.header else "td"
    attributes = f' rowspan="{cell.rowspan}"' if cell.rowspan > 1 else ""
    attributes += f' colspan="{cell.colspan}"' if cell.colspan > 1 else ""
    content = "<br/>".join(html.escape(line) for line in cell.text.split("\n"))
    return f"<{tag}{attributes}>{content}</{tag}>"


def compact_cell_markup(cell: Cell) -> str:
    """A cell as the reference's partitioners write it (`unstructured.common.html_table`)."""
    attributes = f' colspan="{cell.colspan}"' if cell.colspan > 1 else ""
    attributes += f' rowspan="{cell.rowspan}"' if cell.rowspan > 1 else ""
    content = " ".join("<br/>".join(html.escape(cell.text).split("\n")).split())
    return f"<td{attributes}>{content}</td>" if content else f"<td{attributes}/>"


def rows_markup(rows: list[Row], cell: Callable[[Cell], str]) -> str:
    return "".join("<tr>" + "".join(cell(c) for c in row) + "</tr>" for row in rows)


def grid_markup(grid: Grid, compact: bool) -> str:
    if compact:
        return f"<table>{rows_markup(grid.head + grid.body, compact_cell_markup)}</table>"
    if not grid.sectioned:
        return f"<table>{rows_markup(grid.head + grid.body, cell_markup)}</table>"
    parts = ["<table>"]
    if grid.head:
        parts.append(f"<thead>{rows_markup(grid.head, cell_markup)}</thead>")
    parts.append(f"<tbody>{rows_markup(grid.body, cell_markup)}</tbody></table>")
    return "".join(parts)


def grid_text(grid: Grid) -> str:
    """The cell texts in source order joined by spaces, blank cells left out."""
    texts = (" ".join(c.text.split()) for row in grid.head + grid.body for c in row)
    return " ".join(t for t in texts if t)


def table_html(rng: random.Random, knobs: TableKnobs, texts: CellTexts) -> tuple[str, str]:
    """Return a table's `text_as_html` and its `text`."""
    kinds = knobs.kinds
    if len(kinds) == 1:  # -- no draw: the `default` stream predates the kinds --
        kind = kinds[0][0]
    else:
        kind = rng.choices([k for k, _ in kinds], weights=[w for _, w in kinds])[0]
    grid = GRIDS[kind](rng, knobs, texts)
    compact = knobs.compact_share > 0 and rng.random() < knobs.compact_share
    return grid_markup(grid, compact), grid_text(grid)
