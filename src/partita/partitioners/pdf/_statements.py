"""Financial statements: tables of labelled numbers aligned by whitespace, without rules.

An income statement, balance sheet or cash-flow statement sets each row as a *label* at the
left ("Total cost of revenue", indented under "Cost of revenue:") and *values* in columns to its
right, right-aligned, with "$" at a column's left edge and the ")" of a negative or a "%"
hanging past the digits (often drawn as separate glyphs, or in a shaded band the ruled-table
finder reads as a table of its own row). Read as text, such a page gives one number per line.

Principles:

- **Pieces.** Each row of the page is cut into text and value pieces (`_statement_rows`): "$"
  joins the number after it, ")" and "%" the number before it, across lines too.
- **Rows.** Lines on one baseline form a row. A *value row* holds a number, a label (its first
  text piece, if any) ending before its values and no table-of-contents entry, and text after
  its last number only (at most `_MAX_SIDE_WORDS` words a piece: "3 years"; text between
  numbers is the label of a second table beside it, prose beside a table is no cell). A *label
  row* is one short line in the label column (at most `_OUTDENT_EM` em left of the labels: a
  section's label stands out to their left) ending before the values ("Revenue:").
- **Regions.** A statement is a run of value rows and label rows, each within `_MAX_GAP_EM` em
  of the row before and in about one font size, ending at its last labelled value row (a lone
  number below is its page number), with up to `_MAX_LEADING_LABELS` label rows over its first
  value row ("ASSETS", "Current assets:"). It counts when it has at least `_MIN_VALUE_ROWS`
  value rows, most of them labelled by row labels (not lines of running text, which start in
  lowercase or end with a hyphen), and reads as figures: two value columns or more, or most
  numbers written with a separator, sign or currency (a table of contents' page numbers do
  not count).
- **Columns.** The right edges of the digits of all its numbers, clustered (gaps wider than
  `_COLUMN_GAP_EM` em part two columns), then the columns of text cells outside them ("Over
  life of lease"); a number goes to the column of the nearest edge, a dash or a text cell to
  the column whose extent holds its middle. Column 0 is the label. At most `_MAX_COLUMNS`.
- **Header rows.** The rows at the region's top whose values are all years, and the rows just
  above it (up to `_MAX_HEADER_ROWS` in all) of short pieces, no number but years, each over
  the value columns or a unit line ("(In millions, except per share amounts)"), or several
  pieces one of which is over the value columns (the label column's heading beside theirs). A
  header piece over several columns spans them (`colspan`). A centred statement title above
  reaches the label column alone, so it stops the header. Header rows are `<th>` unless one is
  a row of plain names (not bold, no year, no unit line): then they are the table's first rows.
- **Cells.** "$ 72,361" reads "$72,361", "(8,122 )" reads "(8,122)", "12 %" reads "12%"
  (`_sign_columns.tighten`). A label row without a colon at its end, just above a value row
  whose label starts in lowercase, or is indented further while the label row reaches the
  labels' right edge (a long line that wrapped), is the first line of that row's label.
- **Ruled tables.** A statement's rows may be shaded bands, or a column a shaded strip, that the
  ruled-table finder reads as tables of their own; `settle_statements` decides which stand.

Cost: every pass is linear in the page's lines and words, but for one sort of the region's
numbers; the header search looks at most `_MAX_HEADER_ROWS` rows above each region.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from partita.partitioners.pdf._blocks import ends_with_leader
from partita.partitioners.pdf._layout import union_intervals
from partita.partitioners.pdf._lines import BBox, Line
from partita.partitioners.pdf._sign_columns import tighten
from partita.partitioners.pdf._statement_rows import NUM, TEXT, Piece, Row, statement_rows
from partita.partitioners.pdf._tables import PageTable, table_html

__all__ = ["Statements", "find_statements", "settle_statements"]

_MAX_GAP_EM = 2.2
_MAX_SIZE_STEP = 2.0
_MIN_VALUE_ROWS = 3
_MAX_SIDE_WORDS = 4
_MAX_LABEL_WORDS = 30
_MAX_LABEL_ROW_WORDS = 16
_OUTDENT_EM = 4.0
_MAX_LEADING_LABELS = 3
_COLUMN_GAP_EM = 1.4
_MAX_HEADER_ROWS = 4
_MAX_HEADER_WORDS = 10
_SLACK = 6.0
"""Points by which a statement may reach out of a ruled table and still lie within it."""
_MAX_COLUMNS = 24
"""More value columns than any statement has: pieces are matched to columns one by one."""

_YEAR = re.compile(r"(?:19|20)\d\d")
_UNITS = re.compile(
    r"\(?\s*(?:\$|dollars|amounts|in)\b.*\b(?:millions|thousands|billions)\b", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Statements:
    """The statement tables of a page, top to bottom, and the lines left outside them."""

    tables: list[PageTable]
    rest: list[Line]


def find_statements(lines: Sequence[Line]) -> Statements:
    """Return the financial-statement tables among `lines` (top to bottom, as `chars_to_lines`
    gives them) and the lines left outside them, in their order (see the module docstring)."""
    rows = statement_rows(lines)
    if sum(1 for row in rows if row.numbers) < _MIN_VALUE_ROWS:
        return Statements([], list(lines))
    used = [False] * len(rows)
    tables: list[PageTable] = []
    start = 0
    floor = 0  # -- rows above it belong to an earlier table or were passed --
    while start < len(rows):
        if not _is_value_row(rows[start]):
            start += 1
            continue
        end = _region_end(rows, start)
        table = _statement(rows, floor, start, end, used)
        if table is not None:
            tables.append(table)
            floor = end
        start = end  # -- a run's later rows make a shorter run, no statement either --
    if not tables:
        return Statements([], list(lines))
    rest = [line for row, done in zip(rows, used, strict=True) if not done for line in row.lines]
    return Statements(tables, rest)


def settle_statements(
    found: Statements, ruled: Sequence[PageTable]
) -> tuple[list[PageTable], list[PageTable]]:
    """The statements and ruled tables of a page that stand, where they overlap.

    A statement's rows may be shaded bands, or one of its columns a shaded strip, or its body a
    grid ruled below its header rows, that the ruled-table finder reads as tables of their own:
    a statement overlapping only ruled tables of one row, or ruled tables it holds and adds to
    (header rows above them, value columns beside them), replaces them. Any other ruled table
    of several rows stands, and the statement goes: one reaching out of the statement (a grid
    the statement found only part of, a table beside it in the other column), or one holding
    all the statement has (a table ruled whole, read by its rulings).
    Each statement is tested against each ruled table: a page has a handful of each."""
    kept: list[PageTable] = []
    dropped: set[int] = set()
    for statement in found.tables:
        over = [k for k, table in enumerate(ruled) if _overlaps(statement.bbox, table.bbox)]
        if any(
            ruled[k].html.count("<tr>") > 1 and not _adds_to(statement.bbox, ruled[k].bbox)
            for k in over
        ):
            continue
        kept.append(statement)
        dropped.update(over)
    return kept, [table for k, table in enumerate(ruled) if k not in dropped]


def _adds_to(statement: BBox, table: BBox) -> bool:
    """True when the `statement` box holds the ruled `table`'s and reaches out of it above, left
    or right by more than `_SLACK` points."""
    return _within(table, statement) and (
        statement[1] < table[1] - _SLACK
        or statement[0] < table[0] - _SLACK
        or statement[2] > table[2] + _SLACK
    )


def _overlaps(a: BBox, b: BBox) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _within(inner: BBox, outer: BBox, slack: float = _SLACK) -> bool:
    """True when `inner` reaches no further than `slack` points out of `outer` on any side."""
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def _is_value_row(row: Row) -> bool:
    numbers = row.numbers
    if not numbers:
        return False
    label = row.label
    if label is not None:
        if len(label.text.split()) > _MAX_LABEL_WORDS or ends_with_leader(label.text):
            return False
        if label.x1 > numbers[0].x0:
            return False
    rest = row.pieces[1 if label else 0 :]
    last_number = max(k for k, p in enumerate(rest) if p.kind == NUM)
    # -- text between numbers is the label of a second table beside this one --
    return all(
        p.kind != TEXT or (k > last_number and len(p.text.split()) <= _MAX_SIDE_WORDS)
        for k, p in enumerate(rest)
    )


def _is_label_row(row: Row, values_left: float, labels_left: float) -> bool:
    """True when `row` is one short line of text in the label column: at most
    `_OUTDENT_EM` em left of the labels so far (a section's label stands out to the left of its
    rows), ending before the values."""
    if len(row.pieces) != 1 or row.pieces[0].kind != TEXT:
        return False
    piece = row.pieces[0]
    if len(piece.text.split()) > _MAX_LABEL_ROW_WORDS:
        return False
    return (
        piece.x0 >= labels_left - _OUTDENT_EM * row.size and piece.x1 < values_left - 0.5 * row.size
    )


# -- regions -------------------------------------------------------------------------------------


def _region_end(rows: Sequence[Row], start: int) -> int:
    """One past the last row of the run of value and label rows from `start` (a value row)."""
    values_left = min(p.x0 for p in rows[start].values)
    label = rows[start].label
    labels_left = float("-inf")  # -- the labels' left edge (not a year row's heading's) --
    if label is not None and not _is_year_row(rows[start]):
        labels_left = label.x0
    last_value = start
    k = start + 1
    while k < len(rows):
        row, prev = rows[k], rows[k - 1]
        if abs(row.size - prev.size) > _MAX_SIZE_STEP:
            break
        if row.top - prev.bottom > _MAX_GAP_EM * max(row.size, prev.size):
            break
        if _is_value_row(row):
            values_left = min(values_left, min(p.x0 for p in row.values))
            label = row.label
            if label is not None and not _is_year_row(row):
                labels_left = min(labels_left, label.x0) if labels_left > -1e9 else label.x0
            if row.label is not None or len(row.numbers) > 1:
                last_value = k  # -- a lone number below the table is its page number --
        elif not _is_label_row(row, values_left, labels_left):
            break
        k += 1
    return last_value + 1


def _statement(
    rows: Sequence[Row], floor: int, start: int, end: int, used: list[bool]
) -> PageTable | None:
    region = list(range(start, end))
    head = 0  # -- header rows at the top of the region: the years --
    while head < len(region) and _is_year_row(rows[region[head]]):
        head += 1
    body = region[head:]
    value_rows = [i for i in body if _is_value_row(rows[i])]
    if len(value_rows) < _MIN_VALUE_ROWS:
        return None
    label_texts = [label.text for i in value_rows if (label := rows[i].label) is not None]
    labelled = len(label_texts)
    if labelled * 2 < len(value_rows) or labelled < 2 or _reads_as_prose(label_texts):
        return None
    size = rows[start].size
    anchors = _anchors([p.anchor for i in value_rows for p in rows[i].numbers], size)
    if len(anchors) > _MAX_COLUMNS:
        return None
    numbers = [p.text for i in value_rows for p in rows[i].numbers]
    figures = sum(1 for t in numbers if any(c in t for c in ",.$€£¥(%"))
    if len(anchors) < 2 and figures * 2 < len(numbers):
        return None
    side = [p for i in value_rows for p in rows[i].pieces if p is not rows[i].label]
    columns = _columns(anchors, side, size)
    if len(columns) > _MAX_COLUMNS:
        return None
    values_left = columns[0].lo
    k = start - 1
    if not head:  # -- section labels over the first value row ("ASSETS", "Current assets:") --
        labels = [p.x0 for i in value_rows if (p := rows[i].label) is not None]
        lowest, highest = min(labels) - _OUTDENT_EM * size, max(labels) + _OUTDENT_EM * size
        while k >= floor and start - k <= _MAX_LEADING_LABELS:
            row, below = rows[k], rows[k + 1]
            if below.top - row.bottom > _MAX_GAP_EM * max(row.size, below.size):
                break
            if not _is_label_row(row, values_left, lowest) or row.pieces[0].x0 > highest:
                break
            k -= 1
        body = [*range(k + 1, start), *body]
        region = [*range(k + 1, start), *region]
    above: list[int] = []  # -- header rows above the region --
    while k >= floor and len(above) + head < _MAX_HEADER_ROWS:
        row, below = rows[k], rows[k + 1]
        if below.top - row.bottom > _MAX_GAP_EM * max(row.size, below.size):
            break
        if not _is_header_row(row, values_left):
            break
        above.append(k)
        k -= 1
    header_rows = [*reversed(above), *region[:head]]
    html_rows = [_header_cells(rows[i], columns, values_left) for i in header_rows]
    html_rows.extend(_body_cells(rows, body, columns))
    for i in (*header_rows, *body):
        used[i] = True
    chosen = [rows[i] for i in (*header_rows, *body)]
    box: BBox = (
        min(line.x0 for row in chosen for line in row.lines),
        min(row.top for row in chosen),
        max(line.x1 for row in chosen for line in row.lines),
        max(row.bottom for row in chosen),
    )
    text = " ".join(cell for row in html_rows for cell, _, _ in row if cell)
    # -- a plain row of column names over the table is its first row, not a header row: only
    # -- bold names, years and unit lines make a header --
    header = bool(header_rows) and not any(_plain_names(rows[i]) for i in header_rows)
    html = table_html(html_rows, header, len(header_rows))
    return PageTable(box, text, html)


def _reads_as_prose(labels: Sequence[str]) -> bool:
    """True when most labels read as lines of running text, not row labels: they start in
    lowercase or end with a hyphen (a paragraph's lines beside a chart's tick values)."""
    prose = 0
    for label in labels:
        letters = [c for c in label if c.isalpha()]
        prose += bool(letters and letters[0].islower()) or label.rstrip().endswith("-")
    return prose * 2 > len(labels)


def _plain_names(row: Row) -> bool:
    """True when `row` is several names in the body's type: no year, no unit line, not bold."""
    return (
        len(row.pieces) > 1
        and not all(line.bold for line in row.lines)
        and not any(_YEAR.fullmatch(p.text) or _UNITS.match(p.text) for p in row.pieces)
    )


def _is_year_row(row: Row) -> bool:
    values = row.values
    return bool(values) and all(_YEAR.fullmatch(p.text) for p in values)


def _is_header_row(row: Row, values_left: float) -> bool:
    """True when `row` may head the columns: short pieces, no number but years, each over the
    value columns or a unit line; or, for a row of several pieces, one of them over the value
    columns (the label column's heading beside the columns' headings)."""
    pieces = row.pieces
    if not pieces:
        return False
    if any(p.kind == NUM and not _YEAR.fullmatch(p.text) for p in pieces):
        return False
    if any(len(p.text.split()) > _MAX_HEADER_WORDS for p in pieces):
        return False
    over = [p.x0 >= values_left - 1.0 * row.size for p in pieces]
    if len(pieces) > 1 and any(over):
        return True
    return all(o or _UNITS.match(p.text) for p, o in zip(pieces, over, strict=True))


# -- columns and cells ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Column:
    lo: float
    hi: float
    anchor: float | None
    """The right edge of a value column's digits; None for a column of text cells."""


def _anchors(anchors: list[float], size: float) -> list[float]:
    """The value columns' right edges: `anchors` clustered, each cluster's largest edge."""
    out: list[float] = []
    for anchor in sorted(anchors):
        if out and anchor - out[-1] <= _COLUMN_GAP_EM * size:
            out[-1] = anchor
        else:
            out.append(anchor)
    return out


def _nearest(values: Sequence[float], x: float) -> int:
    """The index of the value of the sorted `values` nearest `x`."""
    k = bisect_left(values, x)
    if k == len(values) or (k > 0 and x - values[k - 1] <= values[k] - x):
        return k - 1
    return k


def _columns(anchors: Sequence[float], side: Sequence[Piece], size: float) -> list[_Column]:
    """The value columns (their numbers' extent, to their right edge), then the columns of the
    text cells standing outside them ("3 years", "Over life of lease"), left to right."""
    lefts, rights = list(anchors), list(anchors)
    for piece in side:
        if piece.kind == NUM:
            k = _nearest(anchors, piece.anchor)
            lefts[k] = min(lefts[k], piece.x0)
            rights[k] = max(rights[k], piece.x1)
    columns = [_Column(lo, hi, a) for lo, hi, a in zip(lefts, rights, anchors, strict=True)]
    loose = [p for p in side if p.kind != NUM and _inside(columns, p, size) is None]
    for lo, hi in union_intervals([(p.x0, p.x1) for p in loose]):
        columns.append(_Column(lo, hi, None))
    columns.sort(key=lambda c: c.lo)
    return columns


def _inside(columns: Sequence[_Column], piece: Piece, size: float) -> int | None:
    """The column whose extent (widened by half an em) holds the middle of `piece`."""
    middle = (piece.x0 + piece.x1) / 2
    for k, column in enumerate(columns):
        if column.lo - 0.5 * size <= middle <= column.hi + 0.5 * size:
            return k
    return None


def _column_of(piece: Piece, columns: Sequence[_Column], size: float) -> int:
    if piece.kind == NUM:
        numeric = [k for k, c in enumerate(columns) if c.anchor is not None]
        edges = [columns[k].anchor or 0.0 for k in numeric]
        return numeric[_nearest(edges, piece.anchor)]
    found = _inside(columns, piece, size)
    if found is not None:
        return found
    middle = (piece.x0 + piece.x1) / 2
    return min(
        range(len(columns)),
        key=lambda k: min(abs(columns[k].lo - middle), abs(columns[k].hi - middle)),
    )


def _empty_row(text: str, columns: Sequence[_Column]) -> list[tuple[str, int, int]]:
    return [(text, 1, 1), *(("", 1, 1) for _ in columns)]


def _body_cells(
    rows: Sequence[Row], body: Sequence[int], columns: Sequence[_Column]
) -> list[list[tuple[str, int, int]]]:
    labels_right = max((p.x1 for i in body for p in rows[i].pieces[:1]), default=0.0)
    out: list[list[tuple[str, int, int]]] = []
    pending: Piece | None = None  # -- a wrapped label's first line --
    for i in body:
        row = rows[i]
        size = row.size
        label = row.label
        if not row.values:  # -- a label row --
            if pending is not None:
                out.append(_empty_row(pending.text, columns))
            text = " ".join(p.text for p in row.pieces)
            first = row.pieces[0]
            long = first.x1 >= labels_right - 3 * size
            pending = Piece(text, first.x0, first.x1, TEXT, first.x1)
            if text.endswith(":") or len(row.pieces) > 1:
                out.append(_empty_row(text, columns))
                pending = None
            elif not long:  # -- a short line: a section label, or a label only wrapped if the
                # -- next starts in lowercase --
                pending.anchor = -1.0
            continue
        cells = [""] * (len(columns) + 1)
        if label is not None:
            cells[0] = label.text
            if pending is not None and (
                label.text[:1].islower()
                or (pending.anchor >= 0 and label.x0 > pending.x0 + 0.5 * size)
            ):
                cells[0] = f"{pending.text} {label.text}"
                pending = None
        if pending is not None:
            out.append(_empty_row(pending.text, columns))
            pending = None
        for piece in row.pieces[1:] if label is not None else row.pieces:
            k = _column_of(piece, columns, size) + 1
            cells[k] = f"{cells[k]} {piece.text}".strip()
        out.append([(tighten(c), 1, 1) for c in cells])
    if pending is not None:
        out.append(_empty_row(pending.text, columns))
    return out


def _header_cells(
    row: Row, columns: Sequence[_Column], values_left: float
) -> list[tuple[str, int, int]]:
    """The header row's cells: column 0 for a piece left of the values, else the columns the
    piece overlaps (the nearest one when none), pieces over a shared column joined."""
    spans: list[tuple[int, int, str]] = []
    for piece in row.pieces:
        if piece.x1 < values_left - 0.5 * row.size:
            lo = hi = 0
        else:
            over = [k for k, c in enumerate(columns) if piece.x0 < c.hi and c.lo < piece.x1]
            if over:
                lo, hi = over[0] + 1, over[-1] + 1
            else:
                lo = hi = 1 + _column_of(
                    Piece(piece.text, piece.x0, piece.x1, TEXT, piece.x1), columns, row.size
                )
        if spans and lo <= spans[-1][1]:
            a, b, text = spans[-1]
            spans[-1] = (min(a, lo), max(b, hi), f"{text} {piece.text}")
        else:
            spans.append((lo, hi, piece.text))
    cells: list[tuple[str, int, int]] = []
    column = 0
    for lo, hi, text in spans:
        cells.extend(("", 1, 1) for _ in range(lo - column))
        cells.append((tighten(text), hi - lo + 1, 1))
        column = hi + 1
    cells.extend(("", 1, 1) for _ in range(len(columns) + 1 - column))
    return cells
