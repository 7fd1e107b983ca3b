"""Plain text: blocks, list items, titles, ids and metadata (see `partitioners/text.py`)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from partita.elements import (
    ListItem,
    NarrativeText,
    Text,
    Title,
    document_key,
    element_id_for,
)
from partita.partitioners.text import partition_text


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(type(e).__name__, e.text) for e in partition_text(text=text)]


def test_blocks_become_paragraphs_with_wrapped_lines_joined() -> None:
    assert _kinds("First line\nwraps here.\n\nSecond paragraph.") == [
        ("NarrativeText", "First line wraps here."),
        ("NarrativeText", "Second paragraph."),
    ]


def test_cjk_lines_join_without_a_space() -> None:
    assert _kinds("中文没有空格，\n所以换行时不加空格。") == [
        ("NarrativeText", "中文没有空格，所以换行时不加空格。")
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("INTRODUCTION\n\nBody text.", ("Title", "INTRODUCTION")),
        ("第一章 总则\n\n正文。", ("Title", "第一章 总则")),
        ("Ends with a period.\n\nBody.", ("NarrativeText", "Ends with a period.")),
        ("Dear friends,\n\nBody.", ("NarrativeText", "Dear friends,")),
        (
            "one two three four five six seven eight nine ten eleven twelve thirteen\n\nB.",
            (
                "NarrativeText",
                "one two three four five six seven eight nine ten eleven twelve thirteen",
            ),
        ),
        ("12345\n\nBody.", ("Text", "12345")),
        ("Last line alone", ("NarrativeText", "Last line alone")),
    ],
)
def test_heading_rule(text: str, expected: tuple[str, str]) -> None:
    assert _kinds(text)[0] == expected


def test_setext_underlines_make_titles_with_depth() -> None:
    elements = partition_text(text="Top\n===\n\nSub\n---\n\nBody.")
    assert [(type(e), e.text, e.metadata.category_depth) for e in elements] == [
        (Title, "Top", 0),
        (Title, "Sub", 1),
        (NarrativeText, "Body.", None),
    ]


def test_numbered_headings_get_depth_from_their_number() -> None:
    elements = partition_text(text="2 Scope\n\n2.1 Terms\n\n2.1.3 Units\n\nBody.")
    assert [e.metadata.category_depth for e in elements if isinstance(e, Title)] == [0, 1, 2]


def test_list_items_strip_bullets_keep_numbers_and_nest_by_indent() -> None:
    text = "Intro:\n- apple\n  - green\n    apple\n- pear\n1. first\n2) second\n一、总则"
    elements = partition_text(text=text)
    assert [(type(e).__name__, e.text, e.metadata.category_depth) for e in elements] == [
        ("NarrativeText", "Intro:", None),
        ("ListItem", "apple", 0),
        ("ListItem", "green apple", 1),
        ("ListItem", "pear", 0),
        ("ListItem", "1. first", 0),
        ("ListItem", "2) second", 0),
        ("ListItem", "一、总则", 0),
    ]


def test_no_text_is_lost() -> None:
    text = "Title here\n\nSome   spaced\ttext.\n\n• a\n• b\n\n\f\nAfter form feed."
    joined = "".join(e.text for e in partition_text(text=text))
    squeeze = "".join(text.replace("•", "").split())
    assert "".join(joined.split()) == squeeze


def test_ids_are_the_reference_hash_numbered_in_order_under_a_bare_name() -> None:
    text = "INTRODUCTION\n\nSame.\n\nSame."
    elements = partition_text(text=text, metadata_filename="intro.txt")
    # -- sha256("intro.txtINTRODUCTIONNone0"), as unstructured's partition_text names it --
    assert elements[0].element_id == "3feeef82934b7515c9e21a042afc1828"
    assert [e.element_id for e in elements] == [
        element_id_for("intro.txt", e.text, None, i) for i, e in enumerate(elements)
    ]
    assert elements[1].element_id != elements[2].element_id


def test_ids_of_text_without_a_name_are_keyed_by_its_content() -> None:
    text = "INTRODUCTION\n\nSame.\n\nSame."
    elements = partition_text(text=text)
    key = document_key(None, None, hashlib.sha256(text.encode()).hexdigest())
    assert [e.element_id for e in elements] == [
        element_id_for(None, e.text, None, i, key=key) for i, e in enumerate(elements)
    ]
    assert [e.element_id for e in partition_text(text=text)] == [e.element_id for e in elements]
    other = partition_text(text="INTRODUCTION\n\nOther.")
    assert other[0].element_id != elements[0].element_id


def test_metadata_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Heading\n\nBody text.", encoding="utf-8")
    title, body = partition_text(path)
    for element in (title, body):
        assert element.metadata.filename == "notes.txt"
        assert element.metadata.file_directory == str(tmp_path)
        assert element.metadata.filetype == "text/plain"
        assert element.metadata.page_number is None
        assert element.metadata.last_modified is not None
    assert body.metadata.parent_id == title.element_id
    assert body.metadata.section_path == ("Heading",)
    key = document_key(str(tmp_path), "notes.txt")
    assert title.element_id == element_id_for("notes.txt", "Heading", None, 0, key=key)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("héllo wörld".encode(), "héllo wörld"),
        ("\ufeffbom".encode(), "bom"),
        ("utf16 text".encode("utf-16"), "utf16 text"),
        (b"caf\xe9 cr\xe8me", "café crème"),
    ],
)
def test_encodings(tmp_path: Path, data: bytes, expected: str) -> None:
    path = tmp_path / "x.txt"
    path.write_bytes(data)
    assert [e.text for e in partition_text(path)] == [expected]


def test_empty_text_has_no_elements() -> None:
    assert partition_text(text="  \n\n \t ") == []


def test_uncategorized_text_is_text() -> None:
    assert type(partition_text(text="----")[0]) is Text
    assert ListItem.category == "ListItem"


def test_korean_lines_join_with_a_space() -> None:
    # -- Hangul separates words with spaces and wraps at them; Chinese and Japanese do not --
    assert _kinds("한국어는 띄어쓰기를\n사용합니다.") == [
        ("NarrativeText", "한국어는 띄어쓰기를 사용합니다.")
    ]
    assert _kinds("日本語は空白なしで\n改行します。") == [
        ("NarrativeText", "日本語は空白なしで改行します。")
    ]
