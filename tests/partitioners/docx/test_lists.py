"""Lists: numbering and list styles to ListItems with depth and rendered labels; TOC entries;
typed bullets (`partitioners/docx/numbering.py`, `blocks.py`)."""

from __future__ import annotations

import pytest

from partita.partitioners.docx._numbering import format_number
from tests.partitioners.docx.builders import (
    add_numbering,
    add_paragraph_style,
    append_body_xml,
    kinds,
    new_document,
    partition,
    styled_paragraph,
    xml,
)


def _numbered(text: str, num_id: int, level: int = 0) -> str:
    return styled_paragraph(
        text, None, f'<w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num_id}"/></w:numPr>'
    )


def test_list_styles_give_list_items_with_depth() -> None:
    doc = new_document()
    doc.add_paragraph("Intro.")
    doc.add_paragraph("first bullet", style="List Bullet")
    doc.add_paragraph("nested bullet", style="List Bullet 2")
    doc.add_paragraph("continued", style="List Continue")
    assert kinds(partition(doc)) == [
        ("NarrativeText", "Intro.", None),
        ("ListItem", "first bullet", 0),
        ("ListItem", "nested bullet", 1),
        ("ListItem", "continued", 0),
    ]


def test_numbered_list_renders_labels_and_levels() -> None:
    doc = new_document()
    add_numbering(doc, 50, [("decimal", "%1."), ("lowerLetter", "%2)"), ("lowerRoman", "(%3)")])
    for text, level in [
        ("one", 0),
        ("sub a", 1),
        ("sub b", 1),
        ("deep", 2),
        ("two", 0),
        ("sub again", 1),
    ]:
        append_body_xml(doc, _numbered(text, 50, level))
    assert kinds(partition(doc)) == [
        ("ListItem", "1. one", 0),
        ("ListItem", "a) sub a", 1),
        ("ListItem", "b) sub b", 1),
        ("ListItem", "(i) deep", 2),
        ("ListItem", "2. two", 0),
        ("ListItem", "a) sub again", 1),
    ]


def test_bullet_lists_drop_the_bullet() -> None:
    doc = new_document()
    add_numbering(doc, 51, [("bullet", "\uf0b7"), ("bullet", "o")])
    append_body_xml(doc, _numbered("apples", 51))
    append_body_xml(doc, _numbered("green", 51, 1))
    assert kinds(partition(doc)) == [("ListItem", "apples", 0), ("ListItem", "green", 1)]


def test_start_override_restarts_a_list_of_the_same_definition() -> None:
    doc = new_document()
    add_numbering(doc, 52, [("decimal", "%1.")])
    numbering = doc.part.numbering_part.element
    numbering.append(
        xml(
            '<w:num w:numId="53"><w:abstractNumId w:val="152"/><w:lvlOverride w:ilvl="0">'
            '<w:startOverride w:val="1"/></w:lvlOverride></w:num>'
        )
    )
    numbering.append(xml('<w:num w:numId="54"><w:abstractNumId w:val="152"/></w:num>'))
    for text, num in [("a", 52), ("b", 52), ("restart", 53), ("next", 53), ("continues", 54)]:
        append_body_xml(doc, _numbered(text, num))
    assert [e.text for e in partition(doc)] == [
        "1. a",
        "2. b",
        "1. restart",
        "2. next",
        "3. continues",
    ]


def test_numbering_from_the_style() -> None:
    doc = new_document()
    doc.add_paragraph("alpha", style="List Number")
    doc.add_paragraph("beta", style="List Number")
    elements = partition(doc)
    assert [(e.category, e.metadata.category_depth) for e in elements] == [("ListItem", 0)] * 2
    assert [e.text for e in elements] == ["1. alpha", "2. beta"]


def test_num_id_zero_removes_style_numbering() -> None:
    doc = new_document()
    add_paragraph_style(
        doc, "Plain", "Plain", based_on="Normal", ppr='<w:numPr><w:numId w:val="0"/></w:numPr>'
    )
    append_body_xml(doc, styled_paragraph("no number", "Plain"))
    assert kinds(partition(doc)) == [("NarrativeText", "no number", None)]


def test_num_id_zero_on_a_list_styled_paragraph_makes_it_a_paragraph() -> None:
    # -- Word shows such a paragraph without a bullet (docling's word_sample.docx has one) --
    doc = new_document()
    doc.add_paragraph("first bullet", style="List Bullet")
    append_body_xml(
        doc,
        styled_paragraph(
            "Also, don't forget:",
            "ListBullet",
            '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="0"/></w:numPr>',
        ),
    )
    assert kinds(partition(doc)) == [
        ("ListItem", "first bullet", 0),
        ("NarrativeText", "Also, don't forget:", None),
    ]


def test_chinese_list_labels() -> None:
    doc = new_document()
    add_numbering(doc, 55, [("chineseCounting", "%1、")])
    for text in ["甲", "乙"] + [f"项{i}" for i in range(9)]:
        append_body_xml(doc, _numbered(text, 55))
    texts = [e.text for e in partition(doc)]
    assert texts[:2] == ["一、 甲", "二、 乙"]
    assert texts[9:] == ["十、 项7", "十一、 项8"]


def test_typed_bullet_is_a_list_item_without_its_bullet() -> None:
    doc = new_document()
    doc.add_paragraph("• typed bullet item")
    doc.add_paragraph("- a dash is just text")
    assert kinds(partition(doc)) == [
        ("ListItem", "typed bullet item", 0),
        ("NarrativeText", "- a dash is just text", None),
    ]


def test_toc_entries_are_list_items_not_titles() -> None:
    doc = new_document()
    add_paragraph_style(doc, "TOC1", "toc 1", based_on="Normal")
    add_paragraph_style(doc, "TOC2", "toc 2", based_on="Normal")
    doc.add_paragraph("Contents", style="TOC Heading")
    append_body_xml(doc, styled_paragraph("Chapter\t1", "TOC1"))
    append_body_xml(doc, styled_paragraph("Section\t2", "TOC2"))
    assert kinds(partition(doc)) == [
        ("Title", "Contents", 0),
        ("ListItem", "Chapter\t1", 0),
        ("ListItem", "Section\t2", 1),
    ]


def test_list_items_nest_under_their_heading() -> None:
    doc = new_document()
    doc.add_heading("Steps", level=1)
    doc.add_paragraph("first", style="List Bullet")
    doc.add_paragraph("inner", style="List Bullet 2")
    heading, first, inner = partition(doc)
    assert first.metadata.parent_id == heading.element_id
    assert inner.metadata.parent_id == first.element_id
    assert inner.metadata.section_path == ("Steps",)


@pytest.mark.parametrize(
    ("value", "fmt", "expected"),
    [
        (4, "upperRoman", "IV"),
        (1994, "lowerRoman", "mcmxciv"),
        (28, "lowerLetter", "bb"),
        (3, "upperLetter", "C"),
        (7, "decimalZero", "07"),
        (22, "ordinal", "22nd"),
        (13, "ordinal", "13th"),
        (10, "chineseCounting", "十"),
        (21, "chineseCounting", "二十一"),
        (105, "chineseCounting", "一百零五"),
        (110, "chineseCounting", "一百一十"),
        (2, "ideographTraditional", "乙"),
        (3, "decimalEnclosedCircle", "③"),
        (12, "decimalFullWidth", "１２"),
        (5, "someUnknownFormat", "5"),
    ],
)
def test_format_number(value: int, fmt: str, expected: str) -> None:
    assert format_number(value, fmt) == expected
