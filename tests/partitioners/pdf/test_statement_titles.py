"""Statement and section titles of annual reports, scored over generated filings.

Each filing (`statement_docs.filing_pdf`) has a cover (bold titles, a checkbox line), an MD&A
page (a part heading and an item heading in the body font, a bold section heading, a heading
in capitals) and its statements (titles in capitals, bold or large, centred; a continued
statement repeats its title), each page under a running head in capitals and a "Table of
Contents" link, over its page number. Titles found are compared with the titles drawn:
precision and recall must reach 0.95, and the furniture must be furniture.
"""

from __future__ import annotations

import io

from partita.partitioners.pdf import partition_pdf
from tests.partitioners.pdf.statement_docs import Row, Statement, filing_pdf

_STYLES = ("caps", "bold", "large")
_TITLES = (
    "Consolidated Statements of Income",
    "Consolidated Balance Sheets",
    "Consolidated Statements of Cash Flows",
    "Statements of Operations",
    "Consolidated Statements of Comprehensive Income",
)
_COMPANIES = ("Acme Corp", "Northwind Traders", "Contoso Ltd", "Fabrikam Inc", "Tailspin Toys")


def _statement(k: int, title: str) -> Statement:
    rows = [
        Row("Revenue", [1000 + 37 * k, 900 + 11 * k, 800], dollar=True),
        Row("Cost of revenue", [-(400 + k), -380, -350], indent=1),
        Row("Gross margin", [600 + 36 * k, 520 + 11 * k, 450]),
        Row("Other, net", ["—", 12, -(3 + k)], indent=1),
        Row("Net income", [500 + k, 430, 390], dollar=True),
    ]
    return Statement(
        title,
        ["2023", "2022", "2021"],
        rows,
        title_style=_STYLES[k % len(_STYLES)],
        span="Year Ended December 31," if k % 2 else "",
        continued=k % 3 == 0,
        extra_rows=rows[:3],
    )


def test_statement_titles_precision_and_recall() -> None:
    found = drawn = right = 0
    for n, company in enumerate(_COMPANIES):
        statements = [_statement(n + k, title) for k, title in enumerate(_TITLES[: 2 + n % 3])]
        data, titles = filing_pdf(company, statements)
        elements = partition_pdf(file=io.BytesIO(data), isolation="none")
        got = {(e.metadata.page_number, e.text) for e in elements if e.category == "Title"}
        want = set(titles)
        found, drawn, right = found + len(got), drawn + len(want), right + len(got & want)
        furniture = {
            (e.category, e.text) for e in elements if e.category in ("Header", "PageNumber")
        }
        assert ("Header", company.upper()) in furniture, company
        assert ("Header", "Table of Contents") in furniture, company
        assert sum(1 for e in elements if e.category == "PageNumber") == len(
            {e.metadata.page_number for e in elements}
        )
    precision, recall = right / found, right / drawn
    print(f"statement titles: precision {precision:.3f}, recall {recall:.3f} ({right} of {drawn})")
    assert precision >= 0.95
    assert recall >= 0.95
