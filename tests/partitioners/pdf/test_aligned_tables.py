"""Tables between horizontal rules on dense ruled grids, read in time linear in the grid.

A grid of cells starting in lowercase is no table between its outer rules (its columns read as
prose); the regions between rules were each read whole, so a page of N rules with its grid
cost N**2 regions times the grid's cells: a 300 x 400 grid took 128 s of CPU (over 36 s at
150 x 200). These tests bound the CPU time this process spends (not the wall-clock time), so
they hold on a busy machine; the PDF is parsed in this process (`isolation="none"`).
"""

from __future__ import annotations

import io
import math
import resource
import string
import warnings
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import html as lxml_html
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from partita.elements import Element
from partita.partitioners.pdf import _aligned_tables as aligned_tables
from partita.partitioners.pdf import partition_pdf
from partita.partitioners.pdf._aligned_tables import find_aligned_tables
from partita.partitioners.pdf._limits import ContentLeftOutWarning
from partita.partitioners.pdf._lines import Line

_CELL_WIDTH, _CELL_HEIGHT, _MARGIN = 24.0, 10.0, 36.0


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _letter(row: int, column: int) -> str:
    return chr(ord("a") + (row + column) % 26)


def _ruled_grid_pdf(rows: int, columns: int) -> bytes:
    """One page ruled into `rows` x `columns` cells of 24 x 10 pt, a lowercase letter in 5 pt
    type in each (`_letter`), on a page as large as the grid."""
    width = 2 * _MARGIN + columns * _CELL_WIDTH
    height = 2 * _MARGIN + rows * _CELL_HEIGHT
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(width, height), invariant=1)
    canvas.setLineWidth(0.3)
    top = height - _MARGIN
    for r in range(rows + 1):
        canvas.line(_MARGIN, top - r * _CELL_HEIGHT, width - _MARGIN, top - r * _CELL_HEIGHT)
    for c in range(columns + 1):
        x = _MARGIN + c * _CELL_WIDTH
        canvas.line(x, top, x, top - rows * _CELL_HEIGHT)
    text = canvas.beginText()
    text.setFont("Helvetica", 5)
    for r in range(rows):
        for c in range(columns):
            text.setTextOrigin(_MARGIN + c * _CELL_WIDTH + 2, top - (r + 1) * _CELL_HEIGHT + 3)
            text.textOut(_letter(r, c))
    canvas.drawText(text)
    canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _grid(element: Element) -> list[list[str]]:
    root = lxml_html.fromstring(element.metadata.text_as_html or "")
    return [[str(cell.xpath("string()")) for cell in tr] for tr in root.iter("tr")]


def test_a_dense_ruled_grid_of_lowercase_letters_is_partitioned_in_seconds(tmp_path: Path) -> None:
    path = tmp_path / "grid.pdf"
    path.write_bytes(_ruled_grid_pdf(300, 400))
    before = _cpu_seconds()
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        elements = partition_pdf(filename=path, metadata_filename="grid.pdf", isolation="none")
    spent = _cpu_seconds() - before
    assert spent < 30.0, f"{spent:.1f} s of CPU"
    assert [str(w.message) for w in warned if w.category is ContentLeftOutWarning] == [
        "grid.pdf: page 1: stopped after 100,000 glyphs",
        "grid.pdf: page 1: ruled tables were not looked for: its rulings exceed the table "
        "finder's bounds (its text is read as paragraphs)",
        "grid.pdf: page 1: tables between horizontal rules were looked for only until the "
        "search bound (its text is read as paragraphs)",
    ]
    # -- from the top, a header row and two body rows between every third rule (with a third
    # body row, the column reads as prose), until the search bound --
    tables = [e for e in elements if e.category == "Table"]
    assert elements[: len(tables)] == tables
    assert len(tables) == 11
    for t, table in enumerate(tables):
        assert _grid(table) == [[_letter(3 * t + r, c) for c in range(400)] for r in range(3)]
        assert "<thead><tr><th>" in (table.metadata.text_as_html or "")
    assert all(set(e.text) <= set(string.ascii_lowercase + " ") for e in elements)


def _grid_lines(rows: int, columns: int) -> list[Line]:
    return [
        Line(
            _letter(r, c), 38.0 + 24 * c, 38.0 + 10 * r, 40.8 + 24 * c, 43.0 + 10 * r, 5.0, False, 1
        )
        for r in range(rows)
        for c in range(columns)
    ]


def test_the_search_between_the_rules_of_a_grid_is_linear_in_its_lines() -> None:
    lines = _grid_lines(300, 400)
    rules = [(36.0, 36.0 + 10 * r, 36.0 + 24 * 400) for r in range(301)]
    before = _cpu_seconds()
    found = find_aligned_tables(lines, rules, 3072.0)
    spent = _cpu_seconds() - before
    assert spent < 10.0, f"{spent:.1f} s of CPU"
    assert len(found.tables) == 7
    for t, table in enumerate(found.tables):
        assert table.bbox == (36.0, 36.0 + 30 * t, 36.0 + 24 * 400, 66.0 + 30 * t)
        assert table.text == " ".join(_letter(3 * t + r, c) for r in range(3) for c in range(400))
    assert found.gave_up
    assert found.rest == lines[7 * 3 * 400 :]


# -- the header row of a table between rules -----------------------------------------------------


def _header_cells_one_by_one(
    head: list[aligned_tables._Row], columns: list[tuple[float, float]]
) -> list[tuple[str, int, int]]:
    """`aligned_tables._header_cells` as it was: each line tested with every column, and with
    every cell started before it."""
    spans: list[tuple[int, int, list[str]]] = []
    for row in head:
        for line in row.lines:
            over = [i for i, (lo, hi) in enumerate(columns) if line.x0 < hi and lo < line.x1]
            over = over or [aligned_tables._nearest(columns, line)]
            lo, hi = over[0], over[-1]
            for k, (a, b, texts) in enumerate(spans):
                if a <= hi and lo <= b:
                    spans[k] = (min(a, lo), max(b, hi), [*texts, line.text.strip()])
                    break
            else:
                spans.append((lo, hi, [line.text.strip()]))
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


_X = st.sampled_from([0.0, 10.0, 25.0, 40.0, 55.0, 70.0, 85.0, 100.0, 130.0, math.nan])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(_X, _X), min_size=1, max_size=8),
    st.lists(
        st.lists(st.tuples(_X, _X, st.sampled_from(["A", "b c", " D "])), max_size=6), max_size=3
    ),
    st.booleans(),
)
def test_header_cells_are_those_of_testing_every_column_and_cell(
    intervals: list[tuple[float, float]],
    head_lines: list[list[tuple[float, float, str]]],
    ordered: bool,
) -> None:
    """Columns as `_columns` gives them (disjoint, left to right) or any intervals at all; header
    lines anywhere, over several columns, between them or over each other."""
    columns = intervals
    if ordered:  # -- disjoint, left to right --
        columns = []
        for lo, hi in sorted((lo, hi) for lo, hi in set(intervals) if lo < hi):
            if not columns or columns[-1][1] < lo:
                columns.append((lo, hi))
        columns = columns or [(0.0, 10.0)]
    head = []
    for row_lines in head_lines:
        row = aligned_tables._Row()
        for x0, x1, text in row_lines:
            row.add(Line(text, x0, 0.0, x1, 8.0, 8.0, False, len(text)))
        if row.lines:
            head.append(row)
    expected = _header_cells_one_by_one(head, columns)
    assert repr(aligned_tables._header_cells(head, columns)) == repr(expected)
