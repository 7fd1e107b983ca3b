"""Inline content: links, emphasis, fields, revisions, content controls, breaks, notes
(`partitioners/docx/runs.py`, `notes.py`)."""

from __future__ import annotations

from partita.elements import Link
from tests.partitioners.docx.builders import (
    add_hyperlink,
    add_notes_part,
    append_paragraph_xml,
    new_document,
    partition,
)


def test_hyperlinks_fill_links_with_offsets() -> None:
    doc = new_document()
    paragraph = doc.add_paragraph("See ")
    add_hyperlink(paragraph, "the docs", "https://example.com/docs")
    paragraph.add_run(" and ")
    add_hyperlink(paragraph, "这里", "https://example.cn/")
    (element,) = partition(doc)
    meta = element.metadata
    assert element.text == "See the docs and 这里"
    assert meta.links == (
        Link("the docs", "https://example.com/docs", 4),
        Link("这里", "https://example.cn/", 17),
    )
    assert meta.link_texts == ("the docs", "这里")
    assert meta.link_urls == ("https://example.com/docs", "https://example.cn/")
    for link in meta.links:
        assert link.start_index is not None
        assert element.text[link.start_index :].startswith(link.text or "")


def test_internal_anchor_is_plain_text() -> None:
    doc = new_document()
    paragraph = doc.add_paragraph()
    append_paragraph_xml(
        paragraph, '<w:hyperlink w:anchor="_Toc1"><w:r><w:t>Go</w:t></w:r></w:hyperlink>'
    )
    (element,) = partition(doc)
    assert element.text == "Go"
    assert element.metadata.links is None


def test_hyperlink_field_shows_result_and_is_a_link() -> None:
    doc = new_document()
    paragraph = doc.add_paragraph("Visit ")
    append_paragraph_xml(paragraph, '<w:r><w:fldChar w:fldCharType="begin"/></w:r>')
    append_paragraph_xml(
        paragraph,
        '<w:r><w:instrText xml:space="preserve"> HYPERLINK "https://x.org/a" \\o "tip" '
        "</w:instrText></w:r>",
    )
    append_paragraph_xml(paragraph, '<w:r><w:fldChar w:fldCharType="separate"/></w:r>')
    append_paragraph_xml(paragraph, "<w:r><w:t>x.org</w:t></w:r>")
    append_paragraph_xml(paragraph, '<w:r><w:fldChar w:fldCharType="end"/></w:r>')
    (element,) = partition(doc)
    assert element.text == "Visit x.org"
    assert element.metadata.links == (Link("x.org", "https://x.org/a", 6),)


def test_field_instructions_are_dropped_results_kept() -> None:
    doc = new_document()
    paragraph = doc.add_paragraph("Page ")
    for fragment in [
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r>',
        '<w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r>',
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r>',
        "<w:r><w:t>7</w:t></w:r>",
        '<w:r><w:fldChar w:fldCharType="end"/></w:r>',
        '<w:fldSimple w:instr=" NUMPAGES "><w:r><w:t xml:space="preserve"> of 9</w:t></w:r>'
        "</w:fldSimple>",
    ]:
        append_paragraph_xml(paragraph, fragment)
    (element,) = partition(doc)
    assert element.text == "Page 7 of 9"


def test_revisions_keep_insertions_and_drop_deletions() -> None:
    doc = new_document()
    paragraph = doc.add_paragraph("Keep ")
    append_paragraph_xml(
        paragraph, '<w:del w:id="1" w:author="a"><w:r><w:delText>old </w:delText></w:r></w:del>'
    )
    append_paragraph_xml(
        paragraph, '<w:ins w:id="2" w:author="a"><w:r><w:t>new</w:t></w:r></w:ins>'
    )
    (element,) = partition(doc)
    assert element.text == "Keep new"


def test_content_controls_are_unwrapped_and_placeholders_dropped() -> None:
    doc = new_document()
    paragraph = doc.add_paragraph("Name: ")
    append_paragraph_xml(
        paragraph, "<w:sdt><w:sdtContent><w:r><w:t>Ada</w:t></w:r></w:sdtContent></w:sdt>"
    )
    empty = doc.add_paragraph("Date: ")
    append_paragraph_xml(
        empty,
        "<w:sdt><w:sdtPr><w:showingPlcHdr/></w:sdtPr><w:sdtContent><w:r>"
        "<w:t>Click here to enter a date.</w:t></w:r></w:sdtContent></w:sdt>",
    )
    assert [e.text for e in partition(doc)] == ["Name: Ada", "Date:"]


def test_line_breaks_tabs_and_hyphens() -> None:
    doc = new_document()
    paragraph = doc.add_paragraph()
    append_paragraph_xml(
        paragraph,
        "<w:r><w:t>line one</w:t><w:br/><w:t>two</w:t><w:tab/><w:t>col</w:t><w:noBreakHyphen/>"
        "<w:t>x</w:t><w:softHyphen/><w:t>y</w:t></w:r>",
    )
    (element,) = partition(doc)
    assert element.text == "line one\ntwo\tcol-xy"


def test_empty_paragraphs_are_dropped() -> None:
    doc = new_document()
    doc.add_paragraph("")
    doc.add_paragraph("   ")
    doc.add_paragraph("Text.")
    assert [e.text for e in partition(doc)] == ["Text."]


def test_bold_and_italic_runs_merge_into_emphasis() -> None:
    doc = new_document()
    paragraph = doc.add_paragraph("Plain ")
    paragraph.add_run("bold ").bold = True
    paragraph.add_run("words").bold = True
    paragraph.add_run(" and ")
    paragraph.add_run("italic").italic = True
    paragraph.add_run(" off").bold = False
    (element,) = partition(doc)
    assert element.metadata.emphasized_text_contents == ("bold words", "italic")
    assert element.metadata.emphasized_text_tags == ("b", "i")


def test_heading_style_bold_is_not_emphasis() -> None:
    doc = new_document()
    doc.add_heading("Bold by style", level=1)
    (element,) = partition(doc)
    assert element.metadata.emphasized_text_contents is None


def test_footnotes_and_endnotes_follow_their_paragraph_with_marks() -> None:
    doc = new_document()
    add_notes_part(doc, "footnote", {1: "A footnote.", 2: "Second note."})
    add_notes_part(doc, "endnote", {1: "An endnote."})
    doc.add_heading("Notes", level=1)
    paragraph = doc.add_paragraph("Claim")
    append_paragraph_xml(paragraph, '<w:r><w:footnoteReference w:id="2"/></w:r>')
    paragraph.add_run(" and more")
    append_paragraph_xml(paragraph, '<w:r><w:endnoteReference w:id="1"/></w:r>')
    again = doc.add_paragraph("Other")
    append_paragraph_xml(again, '<w:r><w:footnoteReference w:id="1"/></w:r>')
    append_paragraph_xml(again, '<w:r><w:footnoteReference w:id="2"/></w:r>')
    elements = partition(doc)
    assert [e.text for e in elements] == [
        "Notes",
        "Claim[1] and more[i]",
        "[1] Second note.",
        "[i] An endnote.",
        "Other[2][1]",
        "[2] A footnote.",
    ]
    heading = elements[0]
    assert all(e.metadata.parent_id == heading.element_id for e in elements[1:])
