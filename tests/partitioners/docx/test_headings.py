"""Headings: built-in and localized style names, basedOn chains, outline levels, custom mapping,
numbered headings, and the hierarchy they give (`partitioners/docx/styles.py`)."""

from __future__ import annotations

import pytest

from partita.elements import NarrativeText, Title
from tests.partitioners.docx.builders import (
    add_numbering,
    add_paragraph_style,
    append_body_xml,
    kinds,
    new_document,
    partition,
    styled_paragraph,
)


def test_builtin_heading_styles_give_titles_with_depth() -> None:
    doc = new_document()
    doc.add_heading("Doc title", level=0)
    doc.add_paragraph("Sub", style="Subtitle")
    doc.add_heading("Chapter", level=1)
    doc.add_heading("Section", level=2)
    doc.add_heading("Deep", level=9)
    doc.add_paragraph("Body text.")
    assert kinds(partition(doc)) == [
        ("Title", "Doc title", 0),
        ("Title", "Sub", 1),
        ("Title", "Chapter", 0),
        ("Title", "Section", 1),
        ("Title", "Deep", 8),
        ("NarrativeText", "Body text.", None),
    ]


@pytest.mark.parametrize(
    ("style_id", "name", "depth"),
    [
        ("1", "标题 1", 0),
        ("2", "标题 2", 1),
        ("a3", "標題 3", 2),
        ("berschrift1", "Überschrift 1", 0),
        ("Titre2", "Titre 2", 1),
        ("Ttulo1", "Título 1", 0),
        ("10", "Заголовок 1", 0),
        ("11", "見出し 2", 1),
        ("x", "标题3", 2),
        ("t", "标题", 0),
        ("st", "副标题", 1),
    ],
)
def test_localized_heading_style_names(style_id: str, name: str, depth: int) -> None:
    doc = new_document()
    add_paragraph_style(doc, style_id, name, based_on="Normal")
    append_body_xml(doc, styled_paragraph("总则", style_id))
    append_body_xml(doc, styled_paragraph("正文内容。", None))
    elements = partition(doc)
    assert kinds(elements)[0] == ("Title", "总则", depth)
    assert isinstance(elements[1], NarrativeText)


def test_style_id_is_matched_when_the_name_is_missing() -> None:
    doc = new_document()
    add_paragraph_style(doc, "heading5", "", based_on="Normal")
    append_body_xml(doc, styled_paragraph("Named by id", "heading5"))
    assert kinds(partition(doc)) == [("Title", "Named by id", 4)]


def test_custom_style_based_on_a_heading_inherits_its_level() -> None:
    doc = new_document()
    add_paragraph_style(doc, "MyHead", "My Head", based_on="Heading2")
    add_paragraph_style(doc, "MyHeadRed", "My Head Red", based_on="MyHead")
    append_body_xml(doc, styled_paragraph("Inherited", "MyHeadRed"))
    assert kinds(partition(doc)) == [("Title", "Inherited", 1)]


def test_chinese_custom_style_chain_to_localized_heading() -> None:
    doc = new_document()
    add_paragraph_style(doc, "1", "标题 1", based_on="Normal")
    add_paragraph_style(doc, "kb1", "知识库一级标题", based_on="1")
    append_body_xml(doc, styled_paragraph("第一章 总则", "kb1"))
    assert kinds(partition(doc)) == [("Title", "第一章 总则", 0)]


def test_outline_level_on_the_paragraph_makes_a_heading() -> None:
    doc = new_document()
    append_body_xml(doc, styled_paragraph("Outlined", None, '<w:outlineLvl w:val="2"/>'))
    append_body_xml(doc, styled_paragraph("Body text level", None, '<w:outlineLvl w:val="9"/>'))
    assert kinds(partition(doc)) == [
        ("Title", "Outlined", 2),
        ("NarrativeText", "Body text level", None),
    ]


def test_outline_level_inherited_through_the_style_chain() -> None:
    doc = new_document()
    add_paragraph_style(
        doc, "Outline1", "Kapitel", based_on="Normal", ppr='<w:outlineLvl w:val="0"/>'
    )
    add_paragraph_style(doc, "Outline1b", "Kapitel fett", based_on="Outline1")
    append_body_xml(doc, styled_paragraph("Kapitel eins", "Outline1b"))
    assert kinds(partition(doc)) == [("Title", "Kapitel eins", 0)]


def test_explicit_body_outline_level_stops_heading_inheritance() -> None:
    doc = new_document()
    add_paragraph_style(
        doc, "NotHead", "Looks Like Heading", based_on="Heading1", ppr='<w:outlineLvl w:val="9"/>'
    )
    append_body_xml(doc, styled_paragraph("Styled like a heading", "NotHead"))
    assert kinds(partition(doc)) == [("NarrativeText", "Styled like a heading", None)]


def test_heading_styles_option_maps_custom_styles() -> None:
    doc = new_document()
    add_paragraph_style(doc, "KBTop", "KB Top", based_on="Normal")
    add_paragraph_style(doc, "KBTopRed", "KB Top Red", based_on="KBTop")
    append_body_xml(doc, styled_paragraph("Mapped", "KBTop"))
    append_body_xml(doc, styled_paragraph("Mapped through basedOn", "KBTopRed"))
    assert kinds(partition(doc)) == [
        ("NarrativeText", "Mapped", None),
        ("NarrativeText", "Mapped through basedOn", None),
    ]
    assert kinds(partition(doc, heading_styles={"kb top": 1})) == [
        ("Title", "Mapped", 1),
        ("Title", "Mapped through basedOn", 1),
    ]


def test_numbered_headings_keep_their_rendered_number() -> None:
    doc = new_document()
    add_numbering(doc, 40, [("decimal", "%1"), ("decimal", "%1.%2")])
    for level, text in [(0, "Intro"), (0, "Requirements"), (1, "Scope"), (1, "Limits"), (0, "End")]:
        ppr = f'<w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="40"/></w:numPr>'
        append_body_xml(doc, styled_paragraph(text, f"Heading{level + 1}", ppr))
    assert [e.text for e in partition(doc)] == [
        "1 Intro",
        "2 Requirements",
        "2.1 Scope",
        "2.2 Limits",
        "3 End",
    ]


def test_chinese_numbered_heading() -> None:
    doc = new_document()
    add_paragraph_style(doc, "1", "标题 1", based_on="Normal")
    add_numbering(doc, 41, [("chineseCounting", "第%1章")])
    ppr = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="41"/></w:numPr>'
    for text in ["总则", "范围", "术语"]:
        append_body_xml(doc, styled_paragraph(text, "1", ppr))
    assert [e.text for e in partition(doc)] == ["第一章 总则", "第二章 范围", "第三章 术语"]


def test_titles_never_come_from_text_alone() -> None:
    doc = new_document()
    run = doc.add_paragraph().add_run("INTRODUCTION")
    run.bold = True
    doc.add_paragraph("Short line")
    assert [type(e) for e in partition(doc)] == [NarrativeText, NarrativeText]


def test_parent_id_and_section_path_follow_headings() -> None:
    doc = new_document()
    doc.add_heading("Chapter", level=1)
    doc.add_paragraph("Intro text.")
    doc.add_heading("Section", level=2)
    doc.add_paragraph("Section text.")
    doc.add_heading("Next chapter", level=1)
    doc.add_paragraph("More.")
    chapter, intro, section, text, nxt, more = partition(doc)
    assert isinstance(chapter, Title)
    assert intro.metadata.parent_id == chapter.element_id
    assert section.metadata.parent_id == chapter.element_id
    assert text.metadata.parent_id == section.element_id
    assert nxt.metadata.parent_id is None
    assert more.metadata.parent_id == nxt.element_id
    assert text.metadata.section_path == ("Chapter", "Section")
    assert more.metadata.section_path == ("Next chapter",)
