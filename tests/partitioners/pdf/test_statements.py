"""Financial statements aligned by whitespace read as tables, cell by cell (`statements`).

Each statement is drawn with reportlab as filings set them (`statement_docs`) and its table
compared with what was drawn: header rows (unit line, a line over the columns, the years),
labels with their values, "$" columns, parenthesized negatives with the ")" drawn apart, dashes,
"%" drawn apart, a notes column, a statement continued on the next page.
"""

from __future__ import annotations

import io

from lxml import html as lxml_html

from partita.elements import Element
from partita.partitioners.pdf import partition_pdf
from partita.partitioners.pdf._lines import Line
from partita.partitioners.pdf._sign_columns import merge_sign_columns, tighten
from partita.partitioners.pdf._statements import Statements, find_statements, settle_statements
from partita.partitioners.pdf._tables import PageTable
from tests.partitioners.pdf.statement_docs import (
    Row,
    Statement,
    expected_grid,
    statement_pdf,
)

_INCOME = Statement(
    "Consolidated Statements of Income",
    ["2023", "2022", "2021"],
    [
        Row("Revenue:"),
        Row("Product", [64699, 72732, 71074], indent=1, dollar=True),
        Row("Service and other", [147216, 125538, 97014], indent=1),
        Row("Total revenue", [211915, 198270, 168088], indent=2),
        Row("Cost of revenue", [65863, 62650, 52232]),
        Row("Other income (expense), net", [-14, 6, "—"]),
        Row("Restructuring", ["—", -1146, -207]),
        Row("Net income", [72361, 72738, 61271], dollar=True),
        Row("Earnings per share:"),
        Row("Basic", [9.72, 9.7, 8.12], indent=1, dollar=True),
        Row("Diluted", [9.68, 9.65, 8.05], indent=1, dollar=True),
    ],
    span="Year Ended June 30,",
)

_BALANCE = Statement(
    "CONSOLIDATED BALANCE SHEETS",
    ["2023", "2022"],
    [
        Row("Assets"),
        Row("Cash and cash equivalents", [34704, 13931], dollar=True, note="4"),
        Row("Short-term investments", [76558, 90826], note="4"),
        Row("Accounts receivable, net", [48688, 44261], note="5"),
        Row("Inventories", [2500, 3742], note="6"),
        Row("Total current assets", [184257, 169684]),
        Row("Gross margin percentage", ["69%", "68%"]),
    ],
    unit="(In millions)",
    notes=True,
    title_style="bold",
    continued=True,
    extra_rows=[
        Row("Liabilities"),
        Row("Accounts payable", [18095, 19000], dollar=True, note="8"),
        Row("Short-term debt", ["—", 2749], note="9"),
        Row("Accumulated other comprehensive loss", [-6343, -4678], note="10"),
        Row("Total liabilities", [205753, 198298]),
    ],
)

_CASH = Statement(
    "Statements of Cash Flows",
    ["2023", "2022", "2021", "2020"],
    [
        Row("Operations"),
        Row("Net income", [72361, 72738, 61271, 44281], dollar=True),
        Row("Depreciation, amortization, and other", [13861, 14460, 11686, 12796], indent=1),
        Row("Stock-based compensation expense", [9611, 7502, 6118, 5289], indent=1),
        Row("Net recognized losses (gains) on investments", [196, 409, -1249, -219], indent=1),
        Row("Deferred income taxes", [-6059, -5702, -150, 11], indent=1),
        Row("Net cash from operations", [87582, 89035, 76740, 60675]),
    ],
    unit="(In millions)",
    title_style="large",
)


def _grid(element: Element) -> list[list[str]]:
    root = lxml_html.fromstring(element.metadata.text_as_html or "")
    return [
        [" ".join((cell.text_content() or "").split()) for cell in tr if cell.tag in ("td", "th")]
        for tr in root.iter("tr")
    ]


def _tables(data: bytes) -> list[Element]:
    elements = partition_pdf(file=io.BytesIO(data), isolation="none")
    return [e for e in elements if e.category == "Table"]


def _cell_score(got: list[list[str]], want: list[list[str]]) -> tuple[int, int]:
    """(cells read as drawn, cells drawn), row by row and cell by cell."""
    right = sum(
        1
        for g_row, w_row in zip(got, want, strict=False)
        for g, w in zip(g_row, w_row, strict=False)
        if g == w
    )
    return right, sum(len(row) for row in want)


def test_statements_are_read_cell_by_cell() -> None:
    statements = [_INCOME, _BALANCE, _CASH]
    tables = _tables(statement_pdf(statements))
    expected = [
        expected_grid(_INCOME, _INCOME.rows),
        expected_grid(_BALANCE, _BALANCE.rows),
        expected_grid(_BALANCE, _BALANCE.extra_rows),
        expected_grid(_CASH, _CASH.rows),
    ]
    assert len(tables) == len(expected)
    right = total = 0
    for table, want in zip(tables, expected, strict=True):
        got = _grid(table)
        assert got == want
        r, t = _cell_score(got, want)
        right, total = right + r, total + t
    print(f"statement cells read as drawn: {right}/{total} ({right / total:.1%})")


def test_a_statement_on_shaded_bands_is_one_table() -> None:
    shaded = Statement(
        "Consolidated Statements of Operations",
        _INCOME.years,
        _INCOME.rows,
        span=_INCOME.span,
        shaded=True,
    )
    tables = _tables(statement_pdf([shaded]))
    assert [_grid(t) for t in tables] == [expected_grid(shaded, shaded.rows)]


def test_a_statement_has_its_header_rows_in_thead_and_its_labels_with_their_numbers() -> None:
    (table,) = _tables(statement_pdf([_INCOME]))
    html = table.metadata.text_as_html or ""
    head = html.split("</thead>")[0]
    assert head.count("<tr>") == 3
    assert '<th colspan="3">Year Ended June 30,</th>' in head
    assert "Other income (expense), net (14) 6 —" in table.text
    assert "Net income $72,361 $72,738 $61,271" in table.text


def test_the_continued_statement_repeats_its_title_on_the_next_page() -> None:
    elements = partition_pdf(file=io.BytesIO(statement_pdf([_BALANCE])), isolation="none")
    titles = [(e.metadata.page_number, e.text) for e in elements if e.category == "Title"]
    assert titles == [
        (1, "CONSOLIDATED BALANCE SHEETS"),
        (2, "CONSOLIDATED BALANCE SHEETS (continued)"),
    ]


def test_prose_with_numbers_and_a_table_of_contents_are_no_statements() -> None:
    def line(text: str, x0: float, top: float) -> Line:
        return Line(text, x0, top, x0 + 5.0 * len(text), top + 9, 9.0, False, len(text))

    prose = [
        line("Revenue grew by 7% in 2023 as cloud services expanded", 72, 100 + 12 * k)
        for k in range(6)
    ]
    contents = [
        item
        for k, (title, page) in enumerate(
            [("Business", "3"), ("Risk Factors", "12"), ("Properties", "31"), ("Legal", "33")]
        )
        for item in (line(title, 72, 300 + 12 * k), line(page, 500, 300 + 12 * k))
    ]
    found = find_statements([*prose, *contents])
    assert found.tables == []
    assert len(found.rest) == len(prose) + len(contents)


def test_a_paragraph_beside_a_chart_s_tick_values_is_no_statement() -> None:
    # -- a two-column paper: the left column's lines of running text stand at the heights of
    # -- the tick values of a chart in the right column (mineru's demo2.pdf, page 4) --
    def line(text: str, x0: float, top: float) -> Line:
        return Line(text, x0, top, x0 + 4.0 * len(text), top + 9, 9.0, False, len(text))

    texts = [
        "of the synthetic stereo scene from a single camera",
        "perspective, along with the ground truth disparity,",
        "occlusion map, and discontinuity map. The results of",
        "temporal stereo matching are given for uniform addi-",
        "tive noise confined to the ranges of the feedback",
    ]
    ticks = ["1", "0.8", "0.6", "0.4", "0.2"]
    lines = [
        item
        for k, (text, tick) in enumerate(zip(texts, ticks, strict=True))
        for item in (line(text, 54, 100 + 12 * k), line(tick, 330, 100 + 12 * k))
    ]
    found = find_statements(lines)
    assert found.tables == []
    assert len(found.rest) == len(lines)


def test_sign_columns_join_their_numbers() -> None:
    rows = [
        [("Net change", 1, 1), ("$", 1, 1), ("(14", 1, 1), (")", 1, 1), ("12", 1, 1), ("%", 1, 1)],
        [("Other", 1, 1), ("", 1, 1), ("6", 1, 1), ("", 1, 1), ("3", 1, 1), ("", 1, 1)],
    ]
    assert merge_sign_columns(rows) == [
        [("Net change", 1, 1), ("$(14)", 1, 1), ("12%", 1, 1)],
        [("Other", 1, 1), ("6", 1, 1), ("3", 1, 1)],
    ]
    spanned = [[("Total", 2, 1), (")", 1, 1)], [("a", 1, 1), ("b", 1, 1), (")", 1, 1)]]
    assert merge_sign_columns(spanned) == [[("Total)", 2, 1)], [("a", 1, 1), ("b)", 1, 1)]]
    assert tighten("(2 )") == "(2)"
    assert tighten("12 %") == "12%"
    assert tighten("$ 7") == "$7"


def test_a_statement_replaces_the_ruled_tables_it_holds_and_adds_to() -> None:
    statement = PageTable((36, 100, 560, 400), "statement", "<table></table>")
    found = Statements([statement], [])
    band = PageTable((36, 200, 560, 212), "band", "<table><tr></tr></table>")
    body = PageTable((36, 140, 560, 400), "grid", "<table><tr></tr><tr></tr></table>")
    whole = PageTable((30, 96, 566, 404), "grid", "<table><tr></tr><tr></tr></table>")
    longer = PageTable((36, 140, 560, 600), "grid", "<table><tr></tr><tr></tr></table>")
    # -- shaded bands, and a grid ruled below the statement's header rows, are replaced --
    assert settle_statements(found, [band, body]) == ([statement], [])
    # -- a grid holding all the statement has, or reaching out of it, stands --
    assert settle_statements(found, [whole]) == ([], [whole])
    assert settle_statements(found, [band, longer]) == ([], [band, longer])
