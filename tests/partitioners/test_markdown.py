"""Markdown: headings, lists, tables, code, front matter, HTML blocks (`markdown.py`)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partita import elements_from_json, elements_to_json
from partita.elements import (
    CodeSnippet,
    Image,
    Link,
    ListItem,
    NarrativeText,
    Table,
    Text,
    Title,
)
from partita.errors import DocumentError
from partita.partitioners.markdown import iter_md_elements, partition_md


def _shape(md: str) -> list[tuple[type, str, int | None]]:
    return [(type(e), e.text, e.metadata.category_depth) for e in partition_md(text=md)]


@pytest.mark.parametrize(
    ("md", "expected"),
    [
        ("# One\n\n### Three\n\n###### Six",
         [(Title, "One", 0), (Title, "Three", 2), (Title, "Six", 5)]),
        ("Top\n===\n\nSub\n---\n", [(Title, "Top", 0), (Title, "Sub", 1)]),
        ("A paragraph\nwrapped.\n\n***\n\n---", [(NarrativeText, "A paragraph wrapped.", None)]),
        ("- a\n  - b\n    1. c\n- d", [(ListItem, "a", 0), (ListItem, "b", 1), (ListItem, "c", 2),
                                     (ListItem, "d", 0)]),
        ("- first\n\n  more\n  - nested\n\n  after",
         [(ListItem, "first\nmore", 0), (ListItem, "nested", 1), (ListItem, "after", 0)]),
        ("- [ ] todo\n- [x] done", [(ListItem, "[ ] todo", 0), (ListItem, "[x] done", 0)]),
        ("> quoted\n> text\n\n> second", [(NarrativeText, "quoted text", None),
                                          (NarrativeText, "second", None)]),
        ("!!!", [(Text, "!!!", None)]),
    ],
)  # fmt: skip
def test_block_kinds_and_depths(md: str, expected: list[tuple[type, str, int | None]]) -> None:
    assert _shape(md) == expected


def test_code_keeps_its_whitespace_and_language() -> None:
    fenced, indented = partition_md(
        text="```python extra\ndef f():\n    return  1\n\n```\n\n    raw  x\n"
    )
    assert isinstance(fenced, CodeSnippet)
    assert fenced.text == "def f():\n    return  1"
    assert fenced.metadata.extra == {"code_language": "python"}
    assert isinstance(indented, CodeSnippet)
    assert (indented.text, indented.metadata.extra) == ("raw  x", None)


def test_pipe_table_has_a_thead() -> None:
    (table,) = partition_md(text="| a | b |\n|:--|--:|\n| 1 | x < y & |\n| 2 |\n")
    assert isinstance(table, Table)
    assert table.text == "a b 1 x < y & 2"
    assert table.metadata.text_as_html == (
        "<table><thead><tr><th>a</th><th>b</th></tr></thead>"
        "<tbody><tr><td>1</td><td>x &lt; y &amp;</td></tr><tr><td>2</td><td></td></tr></tbody>"
        "</table>"
    )


def test_inline_links_emphasis_breaks_and_reference_links() -> None:
    (para,) = partition_md(
        text="See [the **docs**](/d) and *it*  \nnext `co  de` [ref][r].\n\n[r]: https://r.example\n"
    )
    meta = para.metadata
    assert para.text == "See the docs and it\nnext co de ref."
    assert meta.links == (
        Link(text="the docs", url="/d", start_index=4),
        Link(text="ref", url="https://r.example", start_index=31),
    )
    assert meta.emphasized_text_contents == ("docs", "it")
    assert meta.emphasized_text_tags == ("b", "i")


def test_links_in_joined_list_paragraphs_keep_their_offsets() -> None:
    (item,) = partition_md(text="- [a](u)\n\n  then [b](v)\n")
    assert item.text == "a\nthen b"
    assert [(link.text, link.start_index) for link in item.metadata.links or ()] == [
        ("a", 0),
        ("b", 7),
    ]
    assert all(
        item.text[link.start_index or 0 :].startswith(link.text or "")
        for link in item.metadata.links or ()
    )


def test_images_follow_their_paragraph() -> None:
    para, image = partition_md(text="Look ![a *cat*](cat.png) here")
    assert (type(para), para.text) == (NarrativeText, "Look here")
    assert (type(image), image.text, image.metadata.image_url) == (Image, "a cat", "cat.png")


def test_footnotes_come_last_with_their_labels() -> None:
    texts = [e.text for e in partition_md(text="Claim[^n].\n\n[^n]: Source.\n\nMore.")]
    assert texts == ["Claim[^n].", "More.", "[^n] Source."]


def test_front_matter_is_metadata_not_text() -> None:
    md = "---\ntitle: Doc\nlang: fr\ndate: 2024-05-01\ntags: [a, b]\n---\n# Bonjour\n"
    (title,) = partition_md(text=md)
    assert title.text == "Bonjour"
    assert title.metadata.languages == ("fra",)
    assert title.metadata.extra == {
        "front_matter": {"title": "Doc", "lang": "fr", "date": "2024-05-01", "tags": ["a", "b"]}
    }
    assert elements_to_json(elements_from_json(text=elements_to_json([title]))) == elements_to_json(
        [title]
    )


@pytest.mark.parametrize("front", ["a: [unclosed", "key: {bad", "\tx: 1"])
def test_invalid_front_matter_is_kept_raw(front: str) -> None:
    (para,) = partition_md(text=f"---\n{front}\n---\nBody")
    assert para.text == "Body"
    assert para.metadata.extra == {"front_matter": front}


def test_yaml_alias_bombs_are_not_expanded() -> None:
    levels = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    levels += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 8)]
    (para,) = partition_md(text="---\n" + "\n".join(levels) + "\n---\nBody")
    assert isinstance((para.metadata.extra or {})["front_matter"], str)


def test_html_blocks_go_through_the_html_partitioner() -> None:
    elements = partition_md(
        text='# T\n\n<table><tr><td colspan="2">cell</td></tr></table>\n\n<p>p</p>\n'
    )
    assert [(type(e), e.text) for e in elements] == [
        (Title, "T"),
        (Table, "cell"),
        (NarrativeText, "p"),
    ]
    assert elements[1].metadata.text_as_html == '<table><tr><td colspan="2">cell</td></tr></table>'
    assert {e.metadata.detection_origin for e in elements} == {"md"}


def test_html_block_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "deep.md"
    path.write_text("<div>" * 2100 + "x" + "</div>" * 2100 + "\n")
    with pytest.raises(DocumentError, match=r"deep\.md"):
        partition_md(path)


def test_metadata_hierarchy_and_bytes(tmp_path: Path) -> None:
    path = tmp_path / "doc.md"
    path.write_bytes("# T\u00eate\n\nCorps.\n\n## Sous\n\n- x\n".encode("cp1252"))
    title, body, sub, item = partition_md(path)
    assert title.text == "T\u00eate"
    assert body.metadata.parent_id == title.element_id
    assert item.metadata.parent_id == sub.element_id
    assert item.metadata.section_path == ("T\u00eate", "Sous")
    assert (item.metadata.filename, item.metadata.filetype) == ("doc.md", "text/markdown")
    assert [
        e.element_id
        for e in partition_md(file=io.BytesIO(path.read_bytes()), metadata_filename=str(path))
    ] == [e.element_id for e in (title, body, sub, item)]


def test_nesting_that_markdown_it_would_truncate_raises(tmp_path: Path) -> None:
    (element,) = partition_md(text=">" * 90 + " deep words")
    assert element.text == "deep words"
    path = tmp_path / "deep.md"
    path.write_text(">" * 5000 + " deep words")
    with pytest.raises(DocumentError, match=r"deep\.md: blocks nested deeper"):
        partition_md(path)
    with pytest.raises(DocumentError, match="nested deeper"):
        partition_md(text="".join("  " * i + "- item\n" for i in range(300)))


def test_deeply_nested_inline_markup_is_kept_as_text() -> None:
    (element,) = partition_md(text="*" * 3000 + "x" + "*" * 3000 + " " + "[" * 3000 + "y")
    assert "x" in element.text
    assert element.text.endswith("y")


def test_iter_md_elements_is_lazy() -> None:
    elements = iter_md_elements(text="one\n\ntwo")
    assert next(elements).text == "one"


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6)
_LINE = st.lists(_WORD, min_size=1, max_size=5).map(" ".join)
_BLOCK = st.one_of(
    _LINE,
    _LINE.map(lambda s: "## " + s),
    _LINE.map(lambda s: "> " + s),
    st.lists(_LINE, min_size=1, max_size=3).map(lambda items: "\n".join("- " + i for i in items)),
    st.lists(_LINE, min_size=1, max_size=3).map(
        lambda items: "\n".join(f"{n}. {i}" for n, i in enumerate(items, 1))
    ),
    _LINE.map(lambda s: "*" + s + "* **" + s + "**"),
    _LINE.map(lambda s: f"[{s}](http://x)"),
    st.lists(_WORD, min_size=2, max_size=4).map(
        lambda cells: "| " + " | ".join(cells) + " |\n|" + "---|" * len(cells)
    ),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_BLOCK, min_size=1, max_size=8))
def test_every_word_appears_once_in_order(blocks: list[str]) -> None:
    md = "\n\n".join(blocks)
    words = md.replace("](http://x)", " ").translate(str.maketrans("#>-*[]|.", "        ")).split()
    words = [w for w in words if not w.isdigit()]
    elements = partition_md(text=md)
    assert " ".join(e.text for e in elements).split() == words
