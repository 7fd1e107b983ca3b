"""Hostile HTML (`tests/robustness/hostile_html.py`): the exact result or typed error of each."""

from __future__ import annotations

import io

import pytest

from partita import partition
from partita.elements import Element, Link
from partita.errors import DocumentError, DocumentLimitError
from partita.partitioners import _html_limits
from partita.partitioners._detect import detect_format
from partita.partitioners.html import decode_html, partition_html
from partita.partitioners.markdown import partition_md
from partita.partitioners.text import partition_text
from tests.robustness.hostile_html import (
    CASES,
    DECLARED_CHARSETS_NOT_TEXT,
)

_BUILDERS = {case.name: case.build for case in CASES}


def _partition_case(name: str) -> list[Element]:
    case = next(case for case in CASES if case.name == name)
    return partition(file=io.BytesIO(case.build()), metadata_filename=case.filename)


def _texts(elements: list[Element]) -> list[str]:
    return [element.text for element in elements]


def test_case_names_are_unique_and_prefixed_by_their_format() -> None:
    names = [case.name for case in CASES]
    assert len(set(names)) == len(names)
    assert all(name.split("/")[0] in {"html", "md", "text", "detect"} for name in names)


# -- control characters: dropped (C0, DEL), replaced (U+FFFE, U+FFFF, surrogates) --


def test_control_characters_in_table_cells_are_dropped_from_text_and_html() -> None:
    (table,) = _partition_case("html/control-character-in-table-cell")
    assert table.text == "ab c d e"
    assert table.metadata.text_as_html == "<table><tr><td>ab</td><td>c d e</td></tr></table>"


def test_references_to_control_characters_are_dropped_and_noncharacters_replaced() -> None:
    (table,) = _partition_case("html/control-character-reference-in-table-cell")
    assert table.text == "ab \ufffdc"
    assert table.metadata.text_as_html == "<table><tr><td>ab \ufffdc</td></tr></table>"


def test_dropping_control_characters_moves_link_and_emphasis_offsets() -> None:
    (para,) = _partition_case("html/control-characters-around-a-link")
    assert para.text == "see the link"
    assert para.metadata.links == (Link(text="the link", url="/u", start_index=4),)
    assert para.metadata.emphasized_text_contents == ("link",)


def test_markdown_table_cells_and_html_blocks_drop_control_characters() -> None:
    table, html_table = _partition_case("md/control-character-in-table-and-html-block")
    assert table.text == "a b c d"
    assert "\x01" not in (table.metadata.text_as_html or "")
    assert html_table.metadata.text_as_html == "<table><tr><td>ef</td></tr></table>"


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<p>\x01\x02</p><p>kept</p>", ["kept"]),
        ("<p>one\x01<br>\x02<br>two</p>", ["one\ntwo"]),
        ("<pre>co\x01de\x0c</pre>", ["code\x0c"]),
        ("<img alt='a\x01lt' src='x.png'>", ["alt"]),
        # -- the separators U+001C-U+001F are whitespace to normalization, like tabs --
        ("<p>a&#x1;b c&#x1F;d &#xFFFF;</p>", ["ab c d \ufffd"]),
        ("<table><caption>c\x01ap</caption><tr><td>x</td></tr></table>", ["cap x"]),
    ],
)
def test_control_characters_anywhere_in_html(html: str, expected: list[str]) -> None:
    assert _texts(partition_html(text=html)) == expected


def test_lone_surrogates_in_given_text_become_replacement_characters() -> None:
    assert _texts(partition_html(text="<table><tr><td>a\ud800b</td></tr></table>")) == ["a\ufffdb"]


# -- format detection --


def test_a_run_of_comments_without_a_tag_is_detected_as_text_in_linear_time() -> None:
    # -- the old regex backtracked 2**30 times here; this test would not finish --
    data = _BUILDERS["detect/comment-run-without-tag"]()
    assert detect_format(data, "comments.txt") == "text"
    assert detect_format(b"<!---->" * 30 + b"\n<p>x</p>", None) == "html"
    assert detect_format(b"<!-- unclosed <p>x</p>", None) == "text"


# -- declared encodings --


@pytest.mark.parametrize("label", DECLARED_CHARSETS_NOT_TEXT)
def test_a_declared_codec_that_is_no_text_encoding_is_ignored(label: str) -> None:
    elements = _partition_case(f"html/meta-charset-{label}")
    assert _texts(elements) == ["caf\u00e9 na\u00efve"]


def test_a_declared_ebcdic_code_page_is_ignored() -> None:
    assert _texts(_partition_case("html/meta-charset-cp037")) == ["plain ASCII text"]


def test_a_declared_unicode_escape_is_ignored() -> None:
    assert _texts(_partition_case("html/meta-charset-unicode-escape")) == ["C:\\new\\table \\x41"]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # -- WHATWG labels Python does not know, and their browser decoders --
        ('<meta charset="x-mac-roman"><p>caf\u00e9</p>'.encode("mac-roman"), "caf\u00e9"),
        ('<meta charset="windows-31j"><p>\u2460</p>'.encode("cp932"), "\u2460"),
        ('<meta charset="gb2312"><p>\u20ac</p>'.encode("gb18030"), "\u20ac"),
        ('<meta charset=" Latin1 "><p>\u201cq\u201d</p>'.encode("cp1252"), "\u201cq\u201d"),
        # -- a byte-oriented page that declares UTF-16 is UTF-8 --
        ('<meta charset="utf-16"><p>\u00fcber</p>'.encode(), "\u00fcber"),
        # -- an unknown label, then a known one: the known one counts --
        (b'<meta charset="foo"><meta charset="koi8-r"><p>\xd6</p>', "\u0436"),
        # -- the "replacement" labels are ignored: detection decides --
        ('<meta charset="iso-2022-kr"><p>caf\u00e9</p>'.encode(), "caf\u00e9"),
        # -- a stale legacy declaration above UTF-8 content loses to the content --
        ('<meta charset="iso-8859-1"><p>caf\u00e9</p>'.encode(), "caf\u00e9"),
        ('<meta charset="windows-1251"><p>\u043c\u0438\u0440</p>'.encode(), "\u043c\u0438\u0440"),
        # -- a declaration whose bytes do not decode loses to detection --
        (b'<meta charset="utf-8"><p>caf\xe9</p>', "caf\u00e9"),
        # -- damaged UTF-8: the valid sequences stay readable --
        ("<p>na\u00efve \u00fcber caf\u00e9 \xff</p>".encode()[:-6] + b"\xff</p>",
         "na\u00efve \u00fcber caf\u00e9 \ufffd"),
    ],
)  # fmt: skip
def test_declared_encodings_need_evidence(data: bytes, expected: str) -> None:
    assert _texts(partition_html(file=io.BytesIO(data))) == [expected]


@pytest.mark.parametrize("encoding", ["rot13", "undefined", "base64", "no-such-codec"])
def test_an_explicit_encoding_that_cannot_decode_raises_a_document_error(encoding: str) -> None:
    for partitioner in (partition_html, partition_md, partition_text):
        with pytest.raises(DocumentError, match=rf"^page: cannot decode as {encoding}"):
            partitioner(file=io.BytesIO(b"<p>x</p>"), encoding=encoding, metadata_filename="page")


def test_an_explicit_whatwg_label_is_understood() -> None:
    assert decode_html("caf\u00e9".encode("mac-roman"), "x-mac-roman") == "caf\u00e9"
    assert decode_html("caf\u00e9".encode("utf-16-le"), "unicodefeff") == "caf\u00e9"
    # -- a name Python knows keeps Python's meaning: "utf-16" reads the byte-order mark --
    assert decode_html("caf\u00e9".encode("utf-16-be"), "utf-16be") == "caf\u00e9"
    assert decode_html("caf\u00e9".encode("utf-16"), "utf-16") == "caf\u00e9"


@pytest.mark.parametrize("partitioner", [partition_md, partition_text])
def test_a_utf16_byte_order_mark_before_an_odd_number_of_bytes_is_no_crash(
    partitioner: object,
) -> None:
    assert callable(partitioner)
    elements = partitioner(file=io.BytesIO(b"\xff\xfea\x00b\x00c"))
    assert _texts(elements) == ["ab\ufffd"]


# -- bounds (`partita.partitioners._html_limits`) --


def test_a_text_node_over_libxml2s_10_mb_is_read_whole() -> None:
    (para,) = _partition_case("html/text-node-over-10-mb")
    assert para.text == " ".join(["word"] * (3 << 20))


def test_a_data_uri_over_10_mb_is_kept_with_the_text_around_it() -> None:
    para, image = _partition_case("html/data-uri-over-10-mb")
    assert (para.text, image.text) == ("before after", "pic")
    assert image.metadata.image_base64 == "A" * (12 << 20)
    assert image.metadata.image_mime_type == "image/png"


@pytest.mark.parametrize(
    ("case", "limit", "message"),
    [
        ("html/nesting-past-libxml2-limit", "nesting depth",
         "deep.html: markup nested deeper than 2,048 elements"),
        ("html/attribute-flood-in-one-tag", "attributes per tag",
         "attributes.html: a tag has more than 256 attributes"),
        ("html/link-url-repeated-across-blocks", "output size",
         "link-url.html: the document gives more than 268,435,456 characters"),
        ("html/document-over-size-bound", "document size",
         "huge.html: the document is larger than 33,554,432 bytes"),
        ("md/reference-url-at-every-use", "output size",
         "references.md: the document gives more than 268,435,456 characters"),
        ("md/front-matter-in-every-element", "output size",
         "front-matter.md: the document gives more than 268,435,456 characters"),
    ],
)  # fmt: skip
def test_documents_past_a_bound_raise_a_limit_error_naming_it(
    case: str, limit: str, message: str
) -> None:
    with pytest.raises(DocumentLimitError) as caught:
        _partition_case(case)
    assert caught.value.limit == limit
    assert str(caught.value).startswith(message)


def test_a_tag_flood_is_refused_before_parsing() -> None:
    with pytest.raises(DocumentLimitError, match="2,000,001 tags, more than 2,000,000") as caught:
        partition_html(text="<br>" * 2_000_001, metadata_filename="br.html")
    assert caught.value.limit == "tags"


def test_the_element_flood_passes_the_element_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _BUILDERS["html/element-flood"]().count(b"<p>") > _html_limits.MAX_ELEMENTS
    monkeypatch.setattr(_html_limits, "MAX_ELEMENTS", 1_000)
    assert len(partition_html(text="<p>a</p>" * 1_000)) == 1_000
    with pytest.raises(DocumentLimitError, match="more than 1,000 elements") as caught:
        partition_html(text="<p>a</p>" * 1_001)
    assert caught.value.limit == "elements"


@pytest.mark.parametrize(
    "markup",
    [
        # -- quoted values hold spaces, `<` and `>`; an unclosed quote runs to the end --
        "<p " + " ".join(f'a{i}="x > y < z"' for i in range(256)) + ">text</p>",
        "<p>" + "a < b " * 2000 + "</p>",
        '<a href="unclosed>' + "word " * 2000,
        "<p title='" + "x " * 5000 + "'>text</p>",
        # -- a `<` in a script, a style, a textarea or a comment starts no tag --
        "<script>for (i = 0; i<n; i++) {" + "f(a, b); " * 500 + "}</script><p>text</p>",
        "<STYLE>a<b " + "c d " * 500 + "</STYLE><p>text</p>",
        "<!-- a<b " + "c d " * 500 + "--><p>text</p>",
        "<textarea>a<b " + "c d " * 500 + "</textarea><p>text</p>",
    ],
)
def test_long_tags_and_texts_within_the_attribute_bound_parse(markup: str) -> None:
    partition_html(text=markup)


@pytest.mark.parametrize(
    "markup",
    [
        "<p " + " ".join(f"a{i}" for i in range(257)) + ">text</p>",
        "<p x='<<<' " + " ".join(f"a{i}=1" for i in range(257)) + ">text</p>",
        "<p>" + "x" * 5000 + "</p><img " + " ".join(f"a{i}" for i in range(300)) + ">",
    ],
)
def test_a_tag_of_more_than_256_attributes_is_refused(markup: str) -> None:
    with pytest.raises(DocumentLimitError, match="more than 256 attributes"):
        partition_html(text=markup)


# -- what a browser shows and libxml2's tree hides (`partita.partitioners._html_repair`) --


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("html/content-after-html-end", [("NarrativeText", "alpha"), ("NarrativeText", "beta"),
                                         ("NarrativeText", "gamma delta")]),
        ("html/bare-text-in-table", [("NarrativeText", "alpha gamma"), ("NarrativeText", "delta"),
                                     ("Table", "beta")]),
        ("html/head-after-body", [("NarrativeText", "alpha"), ("NarrativeText", "beta"),
                                  ("NarrativeText", "gamma")]),
        # -- `gamma</g>delta`: the end tag is no HTML, browsers show "gammadelta" --
        ("html/html-in-unclosed-svg", [("NarrativeText", "alpha"), ("NarrativeText", "beta"),
                                       ("NarrativeText", "gammadelta")]),
    ],
)  # fmt: skip
def test_text_libxml2_misplaces_is_read_where_browsers_show_it(
    case: str, expected: list[tuple[str, str]]
) -> None:
    assert [(type(e).__name__, e.text) for e in _partition_case(case)] == expected


@pytest.mark.parametrize(
    ("html", "texts", "table_html"),
    [
        ("<table><td>a</td><th>b</th></table>", ["a b"],
         "<table><tr><td>a</td><th>b</th></tr></table>"),
        ("<table><tbody><td>a</td><tr><td>b</td></tr><td>c</td></tbody></table>", ["a b c"],
         "<table><tbody><tr><td>a</td></tr><tr><td>b</td></tr><tr><td>c</td></tr></tbody></table>"),
        ("<table><caption>c</caption>tail<tr><td>a</td></tr></table>", ["tail", "c a"],
         "<table><caption>c</caption><tr><td>a</td></tr></table>"),
        # -- a table in a row closes its table, to browsers: it comes after it --
        ("<table><tr><td>a</td></tr><table><tr><td>b</td></tr></table></table>", ["a", "b"],
         "<table><tr><td>a</td></tr></table>"),
        ("<table><form>f<input></form><li>i</li><tr><td>a</td></tr></table>", ["f", "i", "a"],
         "<table><tr><td>a</td></tr></table>"),
    ],
)  # fmt: skip
def test_misplaced_table_content_and_implied_rows(
    html: str, texts: list[str], table_html: str
) -> None:
    elements = partition_html(text=html)
    assert _texts(elements) == texts
    assert next(e for e in elements if e.category == "Table").metadata.text_as_html == table_html


def test_a_svg_without_html_in_it_is_still_dropped() -> None:
    html = "<svg><text>label</text><foreignObject><p>inside</p></foreignObject></svg><p>kept</p>"
    assert _texts(partition_html(text=html)) == ["kept"]


def test_main_is_still_preferred_with_content_after_the_body() -> None:
    html = "<body><div>chrome</div><main><p>content</p></main></body><p>after</p>"
    assert _texts(partition_html(text=html)) == ["content"]


@pytest.mark.parametrize(
    ("value", "page"),
    [("7", 7), (" 12 ", 12), ("2147483647", 2147483647), ("2147483648", 3), ("9" * 30, 3),
     ("1e3", 3)],
)  # fmt: skip
def test_a_page_number_beyond_32_bits_is_ignored(value: str, page: int) -> None:
    html = f'<div data-page-number="3"><p data-page-number="{value}">x</p></div>'
    (para,) = partition_html(text=html)
    assert para.metadata.page_number == page


@pytest.mark.parametrize(
    "html",
    [
        # -- tables in rows, 1,500 deep: each closes the one before, to browsers --
        "<table><tr><td>c</td></tr>" * 1_500,
        # -- a block misplaced in each table, holding the next table (found by fuzzing) --
        "<table><tr><td>c</td></tr><div>d " * 1_000,
    ],
)
def test_deeply_nested_misplaced_table_content_keeps_every_word(html: str) -> None:
    words = " ".join(e.text for e in partition_html(text=html)).split()
    assert words.count("c") == html.count("<td>c")
    assert words.count("d") == html.count("<div>d")
