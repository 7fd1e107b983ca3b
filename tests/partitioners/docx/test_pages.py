"""Page numbers: rendered breaks, hard breaks, page-break-before, section breaks, PageBreak
elements (`partitioners/docx/pages.py`)."""

from __future__ import annotations

from docx.enum.section import WD_SECTION
from docx.enum.text import WD_BREAK

from partita.elements import Element
from tests.partitioners.docx.builders import (
    append_body_xml,
    append_paragraph_xml,
    new_document,
    partition,
    styled_paragraph,
)


def _pages(elements: list[Element]) -> list[tuple[str, str, int | None]]:
    return [(e.category, e.text, e.metadata.page_number) for e in elements]


def test_no_breaks_means_no_page_numbers() -> None:
    doc = new_document()
    doc.add_paragraph("One.")
    doc.add_paragraph("Two.")
    assert [e.metadata.page_number for e in partition(doc)] == [None, None]


def test_hard_page_breaks_count_in_logical_mode() -> None:
    doc = new_document()
    doc.add_paragraph("First page.")
    doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    doc.add_paragraph("Second page.")
    paragraph = doc.add_paragraph("Still second")
    paragraph.add_run().add_break(WD_BREAK.PAGE)
    paragraph.add_run(" and third")
    doc.add_paragraph("Third page.")
    assert _pages(partition(doc)) == [
        ("NarrativeText", "First page.", 1),
        ("NarrativeText", "Second page.", 2),
        ("NarrativeText", "Still second\n and third", 2),
        ("NarrativeText", "Third page.", 3),
    ]


def test_page_break_before_and_section_breaks() -> None:
    doc = new_document()
    doc.add_paragraph("One.")
    append_body_xml(doc, styled_paragraph("Two.", None, "<w:pageBreakBefore/>"))
    doc.add_section(WD_SECTION.NEW_PAGE)
    doc.add_paragraph("Three.")
    doc.add_section(WD_SECTION.CONTINUOUS)
    doc.add_paragraph("Still three.")
    doc.add_section(WD_SECTION.ODD_PAGE)
    doc.add_paragraph("Five (odd).")
    assert [e.metadata.page_number for e in partition(doc)] == [1, 2, 3, 3, 5]


def test_rendered_breaks_win_over_hard_breaks() -> None:
    doc = new_document()
    doc.add_paragraph("Page one.")
    doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    paragraph = doc.add_paragraph()
    append_paragraph_xml(paragraph, "<w:r><w:lastRenderedPageBreak/><w:t>Page two.</w:t></w:r>")
    paragraph = doc.add_paragraph()
    append_paragraph_xml(
        paragraph,
        '<w:r><w:t xml:space="preserve">Flows over </w:t><w:lastRenderedPageBreak/>'
        "<w:t>the page.</w:t></w:r>",
    )
    doc.add_paragraph("Page three.")
    assert [e.metadata.page_number for e in partition(doc)] == [1, 2, 2, 3]


def test_page_break_elements_and_starting_page_number() -> None:
    doc = new_document()
    doc.add_paragraph("A.")
    doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    doc.add_paragraph("B.")
    assert _pages(partition(doc, include_page_breaks=True, starting_page_number=10)) == [
        ("NarrativeText", "A.", 10),
        ("PageBreak", "", 10),
        ("NarrativeText", "B.", 11),
    ]


def test_page_numbers_change_ids_deterministically() -> None:
    doc = new_document()
    doc.add_paragraph("Same text.")
    doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    doc.add_paragraph("Same text.")
    first, second = partition(doc)
    assert first.element_id != second.element_id
    assert [e.element_id for e in partition(doc)] == [first.element_id, second.element_id]
