"""Headers and footers: Header / Footer / PageNumber elements after the body
(`docx/furniture.py`)."""

from __future__ import annotations

import pytest

from partita.elements import Footer, Header
from tests.partitioners.docx.builders import new_document, partition


def test_headers_and_footers_follow_the_body() -> None:
    doc = new_document()
    section = doc.sections[0]
    section.header.paragraphs[0].text = "Company Confidential"
    section.footer.paragraphs[0].text = "Footer line"
    section.footer.add_paragraph("second line")
    doc.add_heading("Body heading", level=1)
    doc.add_paragraph("Body.")
    elements = partition(doc)
    assert [(e.category, e.text) for e in elements] == [
        ("Title", "Body heading"),
        ("NarrativeText", "Body."),
        ("Header", "Company Confidential"),
        ("Footer", "Footer line\nsecond line"),
    ]
    header, footer = elements[2:]
    assert isinstance(header, Header)
    assert isinstance(footer, Footer)
    assert header.metadata.header_footer_type == "primary"
    assert header.metadata.page_number is None
    assert elements[0].metadata.parent_id is None


def test_first_page_header_only_with_a_distinct_first_page() -> None:
    doc = new_document()
    section = doc.sections[0]
    section.header.paragraphs[0].text = "Running head"
    section.first_page_header.paragraphs[0].text = "Cover head"
    doc.add_paragraph("Body.")
    section.different_first_page_header_footer = False
    assert [e.text for e in partition(doc) if e.category == "Header"] == ["Running head"]
    section.different_first_page_header_footer = True
    headers = [e for e in partition(doc) if e.category == "Header"]
    assert [(e.text, e.metadata.header_footer_type) for e in headers] == [
        ("Running head", "primary"),
        ("Cover head", "first_page"),
    ]


def test_repeated_and_empty_headers_are_emitted_once_or_not_at_all() -> None:
    doc = new_document()
    doc.sections[0].header.paragraphs[0].text = "Same"
    doc.add_paragraph("One.")
    second = doc.add_section()
    second.header.is_linked_to_previous = False
    second.header.paragraphs[0].text = "Same"
    third = doc.add_section()
    third.header.is_linked_to_previous = False
    doc.add_paragraph("Two.")
    assert [e.text for e in partition(doc) if e.category == "Header"] == ["Same"]


def test_headers_and_footers_can_be_left_out() -> None:
    doc = new_document()
    doc.sections[0].header.paragraphs[0].text = "Head"
    doc.add_paragraph("Body.")
    assert [e.category for e in partition(doc, include_headers_footers=False)] == ["NarrativeText"]


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("2", "PageNumber"),
        ("- 2 -", "PageNumber"),
        ("Page 2 of 9", "PageNumber"),
        ("2 cups", "Footer"),
    ],
)
def test_a_footer_holding_only_a_page_number_is_a_page_number(text: str, category: str) -> None:
    doc = new_document()
    doc.sections[0].footer.paragraphs[0].text = text
    doc.add_paragraph("Body.")
    footer = partition(doc)[-1]
    assert (footer.category, footer.text) == (category, text)
    assert footer.metadata.header_footer_type == "primary"
