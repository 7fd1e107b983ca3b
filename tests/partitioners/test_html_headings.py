"""HTML: bold paragraphs that look like headings are Titles (`partitioners/_html_headings.py`)."""

from __future__ import annotations

import pytest

from partita.elements import NarrativeText, Title
from partita.partitioners._html_headings import bold_heading_depth, is_bold_style
from partita.partitioners.html import partition_html
from tests.shared import CORPUS, needs_corpus

_FILING = """<html><body>
<p><b>PART II</b></p>
<p style="font-weight:bold">Item 7. Management's Discussion and Analysis of Financial Condition
and Results of Operations</p>
<p>Revenue grew, as <b>Net revenues increased 12%.</b> Costs fell.</p>
<p><span style="font-weight: 700">CONSOLIDATED STATEMENTS OF INCOME</span></p>
<p><strong>YEARS ENDED DECEMBER 31, 2021 AND 2020</strong></p>
<p><b>We may not be able to compete effectively against larger companies.</b></p>
<p><b>(In millions)</b></p>
<div><span style="font-weight:bold">Liquidity and Capital Resources</span></div>
<p>Ordinary prose, not bold at all.</p>
</body></html>"""


def test_bold_paragraphs_that_look_like_headings_are_titles_with_depths() -> None:
    kinds = [
        (type(e).__name__, e.metadata.category_depth, " ".join(e.text.split()[:3]))
        for e in partition_html(text=_FILING)
    ]
    assert kinds == [
        ("Title", 0, "PART II"),
        ("Title", 1, "Item 7. Management's"),
        ("NarrativeText", None, "Revenue grew, as"),
        ("Title", 2, "CONSOLIDATED STATEMENTS OF"),
        ("NarrativeText", None, "YEARS ENDED DECEMBER"),
        ("NarrativeText", None, "We may not"),
        ("NarrativeText", None, "(In millions)"),
        ("Title", 2, "Liquidity and Capital"),
        ("NarrativeText", None, "Ordinary prose, not"),
    ]


def test_bold_titles_give_section_paths() -> None:
    elements = partition_html(text=_FILING)
    last = elements[-1]
    assert last.metadata.section_path == (
        "PART II",
        "Item 7. Management's Discussion and Analysis of Financial Condition and Results of"
        " Operations",
        "Liquidity and Capital Resources",
    )


@pytest.mark.parametrize(
    ("html", "kind"),
    [
        ("<p><b>Overview</b> of the year.</p>", NarrativeText),  # -- bold start of prose --
        ("<p>Overview <b>of the year</b></p>", NarrativeText),
        ("<p><i>Overview</i></p>", NarrativeText),  # -- italic is not bold --
        ("<p style='font-weight:normal'>Overview</p>", NarrativeText),
        ("<p><b>Overview</b> <b>and Outlook</b></p>", Title),  # -- bold runs, a space between --
        ("<p style='font-weight:600'>Overview</p>", Title),
        ("<ul><li><b>Overview</b></li></ul>", None),  # -- a list item stays one --
    ],
)
def test_only_wholly_bold_paragraphs_are_titles(html: str, kind: type | None) -> None:
    (element,) = partition_html(text=html)
    if kind is None:
        assert element.category == "ListItem"
    else:
        assert type(element) is kind


def test_bold_in_a_table_cell_is_table_text() -> None:
    elements = partition_html(
        text="<table><tr><td><b>Total revenue</b></td><td>5</td></tr></table>"
    )
    assert [e.category for e in elements] == ["Table"]


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("PART I", 0),
        ("Part IV.", 0),
        ("ITEM 1A. RISK FACTORS", 1),
        ("Item 9B. Other Information.", 1),
        ("NOTE 3. REVENUE RECOGNITION", 2),
        ("Consolidated Balance Sheets", 2),
        ("Disaggregation of revenue", 2),  # -- sentence case, one long word of two --
        ("Total revenue grew by twelve percent during the year.", None),
        ("The company competes with larger companies", None),
        ("Current assets:", None),
        ("December 31, 2021", None),
        ("For the Years Ended December 31, 2021 and 2020", None),
        ("(Amounts in millions)", None),
        ("2021", None),
        ("A" * 151, None),
        (" ".join(["Word"] * 17), None),
    ],
)
def test_bold_heading_depth(text: str, depth: int | None) -> None:
    assert bold_heading_depth(text) == depth


def test_is_bold_style() -> None:
    assert is_bold_style("font-size:10pt;font-weight:bold;")
    assert is_bold_style("FONT-WEIGHT: 800")
    assert is_bold_style("font-weight:bolder")
    assert not is_bold_style("font-weight:400")
    assert not is_bold_style("font-weight:normal")
    assert not is_bold_style("color: bold-red")


@needs_corpus
def test_ten_k_bold_headings_are_titles() -> None:
    elements = partition_html(CORPUS / "unstructured/example-10k.html")
    titles = {
        " ".join(e.text.split()): e.metadata.category_depth
        for e in elements
        if isinstance(e, Title)
    }
    assert titles["PART I"] == 0
    assert titles["PART II"] == 0
    assert titles["ITEM 1. BUSINESS"] == 1
    assert titles["ITEM 1A. RISK FACTORS"] == 1
    assert titles["ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY FINANCIAL INFORMATION"] == 1
    assert titles["CONSOLIDATED BALANCE SHEETS"] == 2
    assert titles["CONSOLIDATED STATEMENTS OF CASH FLOWS"] == 2
    items = [t for t, depth in titles.items() if depth == 1]
    assert len(items) >= 15
    # -- prose stays prose: the narrative outnumbers the titles by far --
    narrative = sum(isinstance(e, NarrativeText) for e in elements)
    assert narrative > 4 * len(titles)
