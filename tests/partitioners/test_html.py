"""HTML: blocks, element kinds, tables, metadata, encodings, bad input (`partitioners/html.py`)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partita.elements import (
    CodeSnippet,
    FigureCaption,
    Image,
    Link,
    ListItem,
    NarrativeText,
    Table,
    Text,
    Title,
)
from partita.errors import DocumentError, DocumentLimitError, FileReadError
from partita.partitioners.html import iter_html_elements, partition_html


def _kinds(html: str) -> list[tuple[str, str]]:
    return [(type(e).__name__, e.text) for e in partition_html(text=html)]


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<h1>A</h1><h3>C</h3><h6>F</h6>", [(Title, "A", 0), (Title, "C", 2), (Title, "F", 5)]),
        (
            "<ul><li>top<ul><li>sub</li></ul></li><li>next</li></ul>",
            [(ListItem, "top", 0), (ListItem, "sub", 1), (ListItem, "next", 0)],
        ),
        ("<dl><dt>Term</dt><dd>Means</dd></dl>", [(ListItem, "Term", 0), (ListItem, "Means", 0)]),
        ("<ol><li><p>loose item</p></li></ol>", [(ListItem, "loose item", 0)]),
        ("<p>• bulleted</p>", [(ListItem, "bulleted", 0)]),
        ("<p>Prose.</p><p>---</p>", [(NarrativeText, "Prose.", None), (Text, "---", None)]),
        ("<figure><img src='a.png' alt='Cat'><figcaption>Fig. 1</figcaption></figure>",
         [(Image, "Cat", None), (FigureCaption, "Fig. 1", None)]),
    ],
)  # fmt: skip
def test_element_kinds_and_depths(html: str, expected: list[tuple[type, str, int | None]]) -> None:
    elements = partition_html(text=html)
    assert [(type(e), e.text, e.metadata.category_depth) for e in elements] == expected


def test_text_next_to_child_blocks_gives_elements_in_order() -> None:
    assert _kinds("<div>intro <b>bold</b><p>para</p>tail</div>") == [
        ("NarrativeText", "intro bold"),
        ("NarrativeText", "para"),
        ("NarrativeText", "tail"),
    ]


def test_whitespace_is_normalized_and_br_is_a_line_break() -> None:
    assert _kinds("<p>  one\n  two&nbsp;&nbsp;three<br>four <br> </p>") == [
        ("NarrativeText", "one two three\nfour")
    ]


def test_inline_elements_do_not_add_spaces() -> None:
    assert _kinds("<p>un<b>break</b>able <i>word</i>s</p>") == [
        ("NarrativeText", "unbreakable words")
    ]


@pytest.mark.parametrize(
    "html",
    [
        "<script>x()</script><style>p{}</style><noscript>no</noscript><p>kept</p>",
        "<template><p>t</p></template><p>kept</p>",
        "<p hidden>h</p><div aria-hidden='true'>a</div><p style='display: none'>d</p><p>kept</p>",
        "<head><title>T</title></head><body><form><input value='v'><p>kept</p></form></body>",
    ],
)
def test_invisible_content_is_dropped(html: str) -> None:
    assert _kinds(html) == [("NarrativeText", "kept")]


def test_tail_text_of_dropped_elements_is_kept() -> None:
    assert _kinds("<p>before<script>x</script> after <span hidden>no</span>end</p>") == [
        ("NarrativeText", "before after end")
    ]


def test_header_footer_and_aside_are_ordinary_content() -> None:
    assert _kinds("<header>H</header><aside>A</aside><footer>F</footer>") == [
        ("NarrativeText", "H"),
        ("NarrativeText", "A"),
        ("NarrativeText", "F"),
    ]


def test_main_is_preferred_when_present() -> None:
    html = "<body><div>chrome</div><main><p>content</p></main><div>more chrome</div></body>"
    assert _kinds(html) == [("NarrativeText", "content")]


def test_pre_keeps_its_whitespace() -> None:
    (code,) = partition_html(text="<pre>\n  def f():\n      return <b>1</b>\n\n</pre>")
    assert isinstance(code, CodeSnippet)
    assert code.text == "  def f():\n      return 1"


def test_table_keeps_caption_header_and_spans() -> None:
    html = """<table><caption>Prices</caption>
      <thead><tr><th colspan="2">Item</th></tr></thead>
      <tbody><tr><td rowspan="2" class="x">Tea</td><td>1<br>each</td></tr>
      <tr><td>2</td></tr></tbody></table>"""
    (table,) = partition_html(text=html)
    assert isinstance(table, Table)
    assert table.text == "Prices Item Tea 1 each 2"
    assert table.metadata.text_as_html == (
        "<table><caption>Prices</caption>"
        '<thead><tr><th colspan="2">Item</th></tr></thead>'
        '<tbody><tr><td rowspan="2">Tea</td><td>1<br/>each</td></tr><tr><td>2</td></tr></tbody>'
        "</table>"
    )


def test_nested_table_is_flattened_into_its_cell_and_empty_rows_dropped() -> None:
    html = (
        "<table><tr><td>a</td><td><table><tr><td>b</td><td>c</td></tr></table></td></tr>"
        "<tr><td> </td><td></td></tr></table>"
    )
    (table,) = partition_html(text=html)
    assert table.text == "a b c"
    assert table.metadata.text_as_html == "<table><tr><td>a</td><td>b c</td></tr></table>"


def test_table_without_cell_text_is_skipped_and_caption_alone_kept() -> None:
    assert _kinds("<table><tr><td> </td></tr></table>") == []
    assert _kinds("<table><caption>Only</caption><tr><td></td></tr></table>") == [
        ("FigureCaption", "Only")
    ]


def test_text_is_escaped_in_table_html() -> None:
    (table,) = partition_html(text="<table><tr><td>a &lt;b&gt; &amp; c</td></tr></table>")
    assert table.text == "a <b> & c"
    assert table.metadata.text_as_html == "<table><tr><td>a &lt;b&gt; &amp; c</td></tr></table>"


def test_links_and_emphasis_are_recorded_with_offsets() -> None:
    (para,) = partition_html(
        text='<p>See <a href="/doc">the <b>docs</b></a> and <i>more</i> <a>no href</a>.</p>'
    )
    meta = para.metadata
    assert para.text == "See the docs and more no href."
    assert meta.links == (Link(text="the docs", url="/doc", start_index=4),)
    assert (meta.link_texts, meta.link_urls) == (("the docs",), ("/doc",))
    assert meta.emphasized_text_contents == ("docs", "more")
    assert meta.emphasized_text_tags == ("b", "i")


def test_image_urls_and_data_uris() -> None:
    url, data = partition_html(
        text='<p><img src="x.png" alt=""></p><p><img src="data:image/png;base64,AAAA" alt="d"></p>'
    )
    assert (url.text, url.metadata.image_url) == ("", "x.png")
    assert data.metadata.image_base64 == "AAAA"
    assert data.metadata.image_mime_type == "image/png"
    assert data.metadata.image_url is None


def test_page_numbers_and_languages_are_inherited() -> None:
    html = (
        '<html lang="en-US"><body><div data-page-number="3"><p>three</p>'
        '<p lang="de">drei</p></div><p>none</p></body></html>'
    )
    elements = partition_html(text=html)
    assert [(e.metadata.page_number, e.metadata.languages) for e in elements] == [
        (3, ("eng",)),
        (3, ("deu",)),
        (None, ("eng",)),
    ]


def test_hierarchy_ids_and_common_metadata(tmp_path: Path) -> None:
    path = tmp_path / "doc.html"
    path.write_text("<h1>Top</h1><p>Body.</p><h2>Sub</h2><ul><li>x</li></ul>", encoding="utf-8")
    title, body, sub, item = partition_html(path)
    assert body.metadata.parent_id == title.element_id
    assert sub.metadata.parent_id == title.element_id
    assert item.metadata.parent_id == sub.element_id
    assert item.metadata.section_path == ("Top", "Sub")
    assert (item.metadata.filename, item.metadata.file_directory) == ("doc.html", str(tmp_path))
    assert item.metadata.filetype == "text/html"
    assert item.metadata.detection_origin == "html"
    assert [e.element_id for e in partition_html(path)] == [
        e.element_id for e in (title, body, sub, item)
    ]
    assert len({e.element_id for e in (title, body, sub, item)}) == 4


@pytest.mark.parametrize(
    ("data", "encoding", "expected"),
    [
        ('<meta charset="windows-1252"><p>caf\u00e9</p>'.encode("cp1252"), None, "caf\u00e9"),
        ('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'
         '<p>\u201cq\u201d</p>'.encode("cp1252"), None, "\u201cq\u201d"),
        ('<?xml version="1.0" encoding="shift_jis"?><p>\u65e5\u672c</p>'.encode("shift_jis"), None,
         "\u65e5\u672c"),
        ("<p>\u00fcber</p>".encode("utf-16"), None, "\u00fcber"),
        ("<p>\u00fcber</p>".encode(), None, "\u00fcber"),
        ("<p>\u00fcber</p>".encode("latin-1"), None, "\u00fcber"),
        ("<p>\u0436</p>".encode("koi8-r"), "koi8-r", "\u0436"),
    ],
)  # fmt: skip
def test_declared_sniffed_and_given_encodings(
    data: bytes, encoding: str | None, expected: str
) -> None:
    elements = partition_html(file=io.BytesIO(data), encoding=encoding)
    assert [e.text for e in elements] == [expected]


def test_bad_input_raises_document_errors_naming_the_file(tmp_path: Path) -> None:
    binary = tmp_path / "image.html"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(DocumentError, match=r"image\.html"):
        partition_html(binary)
    deep = tmp_path / "deep.html"
    deep.write_text("<div>" * 5000 + "lost?" + "</div>" * 5000)
    with pytest.raises(DocumentLimitError, match=r"deep\.html: markup nested deeper than 2,048"):
        partition_html(deep)
    with pytest.raises(DocumentError, match="no-such-codec"):
        partition_html(file=io.BytesIO(b"<p>x</p>"), encoding="no-such-codec")
    with pytest.raises(FileReadError):
        partition_html(tmp_path / "missing.html")


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("", []),
        ("   \n", []),
        ("just text", [("NarrativeText", "just text")]),
        ("<p>unclosed <b>bold<p>next</i></div></td>", [
            ("NarrativeText", "unclosed bold"), ("NarrativeText", "next")]),
        ("<table><tr><td>cell<tr><td>row two", [("Table", "cell row two")]),
    ],
)  # fmt: skip
def test_empty_plain_and_malformed_markup_is_tolerated(
    html: str, expected: list[tuple[str, str]]
) -> None:
    assert _kinds(html) == expected


def test_iter_html_elements_is_lazy() -> None:
    elements = iter_html_elements(text="<p>one</p><p>two</p>")
    assert next(elements).text == "one"


_WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6)


def _node(
    children: st.SearchStrategy[tuple[str, list[str]]],
) -> st.SearchStrategy[tuple[str, list[str]]]:
    def wrap(tag: str) -> st.SearchStrategy[tuple[str, list[str]]]:
        return st.lists(children, min_size=1, max_size=4).map(
            lambda kids: (
                f"<{tag}> " + " ".join(h for h, _ in kids) + f" </{tag}>",
                [w for _, ws in kids for w in ws],
            )
        )

    return st.one_of(
        *(wrap(tag) for tag in ("p", "div", "span", "b", "i", "section", "blockquote", "h2")),
        st.lists(children, min_size=1, max_size=3).map(
            lambda kids: (
                "<ul>" + "".join(f"<li>{h}</li>" for h, _ in kids) + "</ul>",
                [w for _, ws in kids for w in ws],
            )
        ),
        st.lists(_WORDS, min_size=1, max_size=4).map(
            lambda cells: (
                "<table><tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr></table>",
                cells,
            )
        ),
    )


_DOCUMENTS = st.recursive(_WORDS.map(lambda w: (w, [w])), _node, max_leaves=25)


@settings(max_examples=150, deadline=None)
@given(_DOCUMENTS)
def test_every_visible_word_appears_once_in_order(document: tuple[str, list[str]]) -> None:
    html, words = document
    elements = partition_html(text=f"<body>{html}</body>")
    assert " ".join(e.text for e in elements).split() == words
