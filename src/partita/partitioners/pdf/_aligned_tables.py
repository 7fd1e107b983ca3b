"""Tables without vertical lines: text set in aligned columns, alone or between horizontal rules.

Works on a page's lines (`_lines.Line`: a printed line is already split at gaps wider than
`SEGMENT_GAP_EM` em, so a table row is several lines on one baseline). Lines on one baseline form
a *row*; the *columns* of a set of rows are the x-ranges left between the vertical strips of
white that run through all of them (whatever the cells' alignment: left, right or centred). A
set of rows is aligned when no row has two lines in one column.

- **Between horizontal rules** (booktabs: a rule above and below the header and one at the
  bottom). Two or more rules of the same extent, each within 40% of the page height of the one
  before, bound a region; its rows form a table when every line in it lies inside the rules'
  extent, the columns are at least two, at least half of the body rows fill two cells or more,
  and the cells are short (median at most 5 words, at most a quarter over 10): two columns of
  prose between a page's header and footer rules are not a table. The columns are taken from
  the body (the rows below the second rule when there are three or more); the rows above that
  rule (at most three, with short cells too) are the header, joined column by column into one
  header row; a header cell spanning several body columns gets `colspan`. No column may read as
  prose (a third or more of its cells, three or more, starting in lowercase). From each rule
  the regions to the later ones are tried longest first, and the first table is taken; each
  region is first held to these conditions in constant time (`_rule_regions`).
- **Aligned text alone** needs stronger evidence, as prose, lists, two-column pages and forms
  also have wide gaps: consecutive rows of one font size, each with two or more lines, no gap
  between rows above 1.5 em and row pitches within a factor of 1.5 of each other (the header's
  excepted), aligned into at least three columns over at least three rows; short cells (median
  at most 3 words, at most a fifth over 6: no column of prose); no column of labels (half or
  more of its cells ending in ':' is a form); and a bold first row over a regular body, or a
  numeric column (two thirds or more of its body cells numbers), or a full grid of at least
  four rows and four columns. A bold row of two or more lines just above such a run, set off
  from it by a wider gap (a tall header row, or header cells boxed apart from the body's), is
  tried as its first row before the run alone; the rules above still apply (its pitch at most
  twice the body's), so a header row set apart is not left outside its table as headings.

Columns holding only the ")" or "%" of the numbers beside them, or their "$", are merged into
those numbers' cells (`_sign_columns`). The first row is the header (`<th>`) when it is bold and
the rest is not, or when it stands above the second rule. The table's text is its cells joined
by spaces, row by row; its lines are taken out of the page's text.
"""

from __future__ import annotations

import itertools
import re
import statistics
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from partita.partitioners.pdf._growing_columns import RunColumns, is_prose
from partita.partitioners.pdf._layout import union_intervals
from partita.partitioners.pdf._lines import BBox, Line
from partita.partitioners.pdf._rule_regions import (
    MAX_HEAD_ROWS,
    REGION_LONG_SHARE,
    REGION_LONG_WORDS,
    REGION_MEDIAN_WORDS,
    RULE_SLACK,
    search_rule_regions,
)
from partita.partitioners.pdf._sign_columns import merge_sign_columns
from partita.partitioners.pdf._tables import PageTable, Rule, table_html

__all__ = ["MAX_REGION_WORK", "AlignedTables", "find_aligned_tables"]

_MAX_ROW_GAP_EM = 1.5
_MAX_PITCH_RATIO = 1.5
_MIN_FILL = 0.7

MAX_REGION_WORK = 300_000
"""Candidate regions between rules tried, plus the rows inside each, per page. Each rule of a
region is tried with each later one, longest first, so a page of N rules of one extent with
prose between them counts N**3 / 6 (400 rules: 10 million); a real ruled table of 60 rows counts
at most 36,000. Beyond it the page's remaining regions are not searched, and the page says so
(its text is still read). A region that cannot be a table costs constant time to try (see
`_rule_regions`, which bounds the rest of the search's cost apart)."""
_NUMBER = re.compile(r"[-+−–(]?[$€£¥]?\d[\d,.\s]*%?\)?[*†‡]?|[-–—]|n/?a", re.I)

_Interval = tuple[float, float]


@dataclass(slots=True)
class _Row:
    lines: list[Line] = field(default_factory=list[Line])
    top: float = float("inf")
    bottom: float = float("-inf")

    def add(self, line: Line) -> None:
        self.lines.append(line)
        self.top = min(self.top, line.top)
        self.bottom = max(self.bottom, line.bottom)

    @property
    def size(self) -> float:
        return self.lines[0].size

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2

    @property
    def bold(self) -> bool:
        return all(line.bold for line in self.lines)


@dataclass(frozen=True, slots=True)
class AlignedTables:
    """The aligned tables of a page, top to bottom, and the lines left outside them."""

    tables: list[PageTable]
    rest: list[Line]
    gave_up: bool = False
    """True when the search between rules stopped at `MAX_REGION_WORK`."""


def find_aligned_tables(
    lines: Sequence[Line],
    rules: Sequence[Rule],
    page_height: float,
    ruled: Sequence[BBox] = (),
) -> AlignedTables:
    """Return the aligned tables among `lines` (top to bottom) and the lines left outside them,
    in their order. `rules` are the page's horizontal rules, `ruled` the boxes of the tables
    already found with the ruling finder (rule regions overlapping them are left alone)."""
    rows = _rows(lines)
    if not any(len(row.lines) > 1 for row in rows):
        return AlignedTables([], list(lines))
    used = [False] * len(rows)
    tables: list[PageTable] = []
    gave_up = not _ruled_region_tables(rows, used, rules, page_height, ruled, tables)
    for run in _runs(rows, used):
        table = None
        head = _head_row(rows, used, run)
        if head is not None:  # -- a tall header row, set off from the body by a wider gap --
            table = _aligned_table([rows[head], *(rows[i] for i in run)])
            if table is not None:
                run = [head, *run]
        if table is None:
            table = _aligned_table([rows[i] for i in run])
        if table is not None:
            tables.append(table)
            for i in run:
                used[i] = True
    if not tables:
        return AlignedTables([], list(lines), gave_up)
    tables.sort(key=lambda t: (t.bbox[1], t.bbox[0]))
    rest = [line for row, done in zip(rows, used, strict=True) if not done for line in row.lines]
    return AlignedTables(tables, rest, gave_up)


def _ruled_region_tables(
    rows: Sequence[_Row],
    used: list[bool],
    rules: Sequence[Rule],
    page_height: float,
    ruled: Sequence[BBox],
    tables: list[PageTable],
) -> bool:
    """Append to `tables` the tables between rules (the longest from each rule on, see
    `rule_regions`); return False when the search stopped at its bounds."""

    def is_table(box: BBox, ys: Sequence[float], inside: list[int]) -> bool:
        table = _ruled_region_table(rows, used, box, ys, inside)
        if table is not None:
            tables.append(table)
        return table is not None

    return search_rule_regions(
        [row.lines for row in rows],
        [row.middle for row in rows],
        used,
        rules,
        page_height,
        ruled,
        is_table,
        MAX_REGION_WORK,
    )


def _rows(lines: Sequence[Line]) -> list[_Row]:
    rows: list[_Row] = []
    for line in lines:
        if rows:
            row = rows[-1]
            last = row.lines[-1]
            margin = 0.3 * line.size
            if (
                line.x0 >= last.x1 - 0.5
                and line.top < row.bottom - margin
                and (line.bottom > row.top + margin)
            ):
                row.add(line)
                continue
        row = _Row()
        row.add(line)
        rows.append(row)
    return rows


# -- columns -------------------------------------------------------------------------------------


def _columns(rows: Sequence[_Row], at_least: int = 0) -> list[_Interval] | None:
    """The columns of `rows`, or None when a row has two lines in one column or the columns are
    fewer than `at_least`."""
    columns = union_intervals([(line.x0, line.x1) for row in rows for line in row.lines])
    if len(columns) < at_least:
        return None
    starts = [c[0] for c in columns]
    for row in rows:
        seen: set[int] = set()
        for line in row.lines:
            index = bisect_right(starts, line.x0) - 1
            if index in seen:
                return None
            seen.add(index)
    return columns


def _cells(row: _Row, columns: Sequence[_Interval]) -> list[str]:
    """The row's texts by column ("" where empty); lines in one column are joined."""
    cells = [""] * len(columns)
    for line in row.lines:
        index = _nearest(columns, line)
        cells[index] = f"{cells[index]} {line.text.strip()}".strip()
    return cells


def _nearest(columns: Sequence[_Interval], line: Line) -> int:
    """The column holding the middle of `line`, else the nearest (the left one of two as
    near); `columns` are disjoint, left to right, so only the two around it are candidates."""
    middle = (line.x0 + line.x1) / 2
    index = (
        bisect_right(columns, (middle, float("inf"))) - 1
    )  # -- the last starting at or before --
    if index >= 0 and middle <= columns[index][1]:
        return index
    best, distance = 0, float("inf")
    for k in (index, index + 1):
        if 0 <= k < len(columns):
            lo, hi = columns[k]
            d = min(abs(middle - lo), abs(middle - hi))
            if d < distance:
                best, distance = k, d
    return best


def _spanned(columns: Sequence[_Interval], line: Line) -> list[int]:
    return [i for i, (lo, hi) in enumerate(columns) if line.x0 < hi and lo < line.x1]


# -- tables between horizontal rules -------------------------------------------------------------


def _ruled_region_table(
    rows: Sequence[_Row], used: list[bool], box: BBox, ys: Sequence[float], inside: list[int]
) -> PageTable | None:
    x0, top, x1, _ = box
    if len(inside) < 2 or any(used[i] for i in inside):
        return None
    for i in inside:
        for line in rows[i].lines:
            if line.x0 < x0 - RULE_SLACK or line.x1 > x1 + RULE_SLACK:
                return None
    split = ys[1] if len(ys) >= 3 else top
    head = [rows[i] for i in inside if rows[i].middle < split]
    body = [rows[i] for i in inside if rows[i].middle >= split]
    if not body:
        return None
    columns = _columns(body)
    if columns is None or len(columns) < 2:
        return None
    grid = [_cells(row, columns) for row in body]
    if sum(1 for cells in grid if sum(1 for c in cells if c) >= 2) * 2 < len(grid):
        return None
    if not _region_cells_short([c for cells in grid for c in cells if c]):
        return None
    if _prose_column(grid, len(columns)):
        return None
    head_texts = [line.text for row in head for line in row.lines]
    if len(head) > MAX_HEAD_ROWS or (head and not _region_cells_short(head_texts)):
        return None
    html_rows: list[list[tuple[str, int, int]]] = []
    header = bool(head)
    if head:
        html_rows.append(_header_cells(head, columns))
    elif len(body) > 1 and body[0].bold and not any(row.bold for row in body[1:]):
        header = True
    html_rows.extend([(c, 1, 1) for c in cells] for cells in grid)
    for i in inside:
        used[i] = True
    return _table(box, html_rows, header)


def _header_cells(head: Sequence[_Row], columns: Sequence[_Interval]) -> list[tuple[str, int, int]]:
    """The header rows joined into one row of cells: a line spanning several body columns is one
    cell over them (`colspan`); lines over the same columns are joined top to bottom (each to
    the first cell, in the order they were started, over any of its columns).

    Each column remembers the first cell over it, so a line costs the columns it spans."""
    los = [lo for lo, _ in columns]
    his = [hi for _, hi in columns]
    ordered = all(a < b for a, b in itertools.pairwise(los)) and all(
        a < b for a, b in itertools.pairwise(his)
    )
    spans: list[tuple[int, int, list[str]]] = []  # -- (first column, last column, texts) --
    none = sum(len(row.lines) for row in head)  # -- more than any index of `spans` --
    first_over = [none] * len(columns)
    for row in head:
        for line in row.lines:
            if ordered:  # -- the columns `_spanned` gives, found by bisection --
                lo, hi = bisect_right(his, line.x0), bisect_left(los, line.x1) - 1
            else:
                over = _spanned(columns, line)
                lo, hi = (over[0], over[-1]) if over else (0, -1)
            if lo > hi:
                lo = hi = _nearest(columns, line)
            k = min(first_over[lo : hi + 1])
            if k == none:
                first_over[lo : hi + 1] = [len(spans)] * (hi - lo + 1)
                spans.append((lo, hi, [line.text.strip()]))
                continue
            a, b, texts = spans[k]
            texts.append(line.text.strip())
            spans[k] = (min(a, lo), max(b, hi), texts)
            for c in itertools.chain(range(lo, a), range(b + 1, hi + 1)):
                first_over[c] = min(first_over[c], k)
    spans.sort()
    cells: list[tuple[str, int, int]] = []
    column = 0
    for lo, hi, texts in spans:
        if lo < column:
            cells[-1] = (f"{cells[-1][0]} {' '.join(texts)}", cells[-1][1], 1)
            continue
        cells.extend(("", 1, 1) for _ in range(lo - column))
        cells.append((" ".join(texts), hi - lo + 1, 1))
        column = hi + 1
    cells.extend(("", 1, 1) for _ in range(len(columns) - column))
    return cells


# -- aligned text alone --------------------------------------------------------------------------


def _runs(rows: Sequence[_Row], used: Sequence[bool]) -> list[list[int]]:
    """Maximal runs of consecutive, close, aligned rows of two or more lines each; a row of one
    line inside one of the run's columns (a cell wrapped or continued) may stand between them."""
    runs: list[list[int]] = []
    run: list[int] = []
    columns = RunColumns()
    for i, row in enumerate(rows):
        if run and not used[i]:
            prev = rows[run[-1]]
            gap = row.top - prev.bottom
            # -- the run's `_columns` with this row added, kept incrementally --
            if (
                abs(row.size - prev.size) <= 1.5
                and -0.2 * row.size < gap <= _MAX_ROW_GAP_EM * row.size
                and columns.add(i, row.lines)
            ):
                run.append(i)
                continue
        if run:
            runs.append(run)
        run = [i] if not used[i] and len(row.lines) > 1 else []
        columns = RunColumns()
        columns.add(i, row.lines, at_least=0)
    if run:
        runs.append(run)
    out: list[list[int]] = []
    for r in runs:
        while len(rows[r[-1]].lines) < 2:
            r.pop()
        if sum(1 for i in r if len(rows[i].lines) > 1) >= 3:
            out.append(r)
    return out


def _head_row(rows: Sequence[_Row], used: Sequence[bool], run: Sequence[int]) -> int | None:
    """The row just above `run` when it may be the run's header although `_runs` left it out
    (set off by a gap wider than `_MAX_ROW_GAP_EM` em: a tall header row, a boxed header cell):
    free, two lines or more, bold over a body that is not, in about the body's font size."""
    k = run[0] - 1
    if k < 0 or used[k]:
        return None
    head, first = rows[k], rows[run[0]]
    if len(head.lines) < 2 or not head.bold or any(rows[i].bold for i in run):
        return None
    if abs(head.size - first.size) > 1.5 or first.top - head.bottom < -0.2 * first.size:
        return None
    return k


def _aligned_table(rows: Sequence[_Row]) -> PageTable | None:
    columns = _columns(rows)
    if columns is None or len(columns) < 3:
        return None
    pitches = [b.top - a.top for a, b in itertools.pairwise(rows)]
    body_pitches = pitches[1:] or pitches
    if max(body_pitches) > _MAX_PITCH_RATIO * min(body_pitches):
        return None
    if pitches[0] > 2 * statistics.median(body_pitches):
        return None
    grid = [_cells(row, columns) for row in rows]
    filled = [c for cells in grid for c in cells if c]
    multi = [cells for cells, row in zip(grid, rows, strict=True) if len(row.lines) > 1]
    if sum(1 for cells in multi for c in cells if c) < _MIN_FILL * len(multi) * len(columns):
        return None
    if not _short_cells(filled, median_words=3, long_words=6, long_share=0.2):
        return None
    if _prose_column(grid, len(columns)):
        return None
    for k in range(len(columns)):
        column = [cells[k] for cells in grid if cells[k]]
        if sum(1 for c in column if c.endswith(":")) * 2 >= len(column):
            return None
    header = rows[0].bold and not any(row.bold for row in rows[1:])
    numeric = any(
        _numeric([cells[k] for cells in grid[1:] if cells[k]]) for k in range(len(columns))
    )
    full = len(rows) >= 4 and len(columns) >= 4 and len(filled) == len(rows) * len(columns)
    if not (header or numeric or full):
        return None
    box = (
        min(line.x0 for row in rows for line in row.lines),
        min(row.top for row in rows),
        max(line.x1 for row in rows for line in row.lines),
        max(row.bottom for row in rows),
    )
    return _table(box, [[(c, 1, 1) for c in cells] for cells in grid], header)


def _region_cells_short(cells: Sequence[str]) -> bool:
    return _short_cells(
        cells,
        median_words=REGION_MEDIAN_WORDS,
        long_words=REGION_LONG_WORDS,
        long_share=REGION_LONG_SHARE,
    )


def _short_cells(
    cells: Sequence[str], *, median_words: int, long_words: int, long_share: float
) -> bool:
    if not cells:
        return False
    words = [len(c.split()) for c in cells]
    long = sum(1 for w in words if w > long_words)
    return statistics.median(words) <= median_words and long <= long_share * len(words)


def _prose_column(grid: Sequence[Sequence[str]], width: int) -> bool:
    """True when a column reads as wrapped prose: a third or more of its cells (three or more)
    start in lowercase, continuing the sentence of the line above."""
    for k in range(width):
        column = [cells[k] for cells in grid if cells[k]]
        if is_prose(len(column), sum(1 for c in column if c[0].islower())):
            return True
    return False


def _numeric(cells: Sequence[str]) -> bool:
    return len(cells) >= 2 and sum(1 for c in cells if _NUMBER.fullmatch(c)) * 3 >= 2 * len(cells)


def _table(box: BBox, rows: list[list[tuple[str, int, int]]], header: bool) -> PageTable:
    rows = merge_sign_columns(rows)
    text = " ".join(cell for row in rows for cell, _, _ in row if cell)
    return PageTable(box, text, table_html(rows, header))
