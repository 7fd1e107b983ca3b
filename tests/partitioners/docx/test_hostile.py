"""Hostile .docx files: the exact result or typed error each case of
`tests/robustness/hostile_docx.py` gives (`partitioners/docx/limits.py`, `losses.py`).

Each test partitions the case's bytes in-process. The floods whose bound takes seconds to reach
at its real value are also run at a lowered bound on a smaller file, so the tests stay fast; the
robustness suite runs the full-size files under the contract's time and memory limits.
"""

from __future__ import annotations

import io
import zipfile

import pytest

from partita.elements import Element
from partita.errors import DocumentError, DocumentLimitError
from partita.partitioners.docx import _limits as limits
from partita.partitioners.docx import partition_docx
from partita.partitioners.docx._losses import DocxContentWarning
from partita.partitioners.docx._numbering import format_number
from partita.partitioners.docx._package import count_zip_entries
from tests.robustness import hostile_docx as hostile
from tests.robustness.hostile_docx import CASES, docx_package, streamed_body

NAME = "hostile.docx"


def _build(case_name: str) -> bytes:
    (case,) = [case for case in CASES if case.name == case_name]
    return case.build()


def _partition(data: bytes) -> list[Element]:
    return partition_docx(file=io.BytesIO(data), metadata_filename=NAME)


def _limit_error(data: bytes, limit: str) -> DocumentLimitError:
    with pytest.raises(DocumentLimitError) as info:
        _partition(data)
    assert info.value.limit == limit
    assert info.value.filename == NAME
    assert str(info.value).startswith(f"{NAME}: ")
    return info.value


def _texts(elements: list[Element]) -> list[tuple[str, str, int | None]]:
    return [(e.category, e.text, e.metadata.category_depth) for e in elements]


# -- tables --


def test_huge_grid_span_is_clamped_to_63_columns() -> None:
    (table,) = _partition(_build("docx/huge-grid-span"))
    assert table.text == "x y"
    assert table.metadata.text_as_html == (
        '<table><tr><td colspan="63">x</td><td>y</td></tr></table>'
    )


def test_odd_table_numbers_read_as_word_reads_them() -> None:
    (table,) = _partition(_build("docx/odd-table-numbers"))
    assert table.text == "a b c d e"
    assert table.metadata.text_as_html == (
        '<table><tr><td colspan="63"></td><td>a</td><td>b</td><td>c</td><td>d</td></tr>'
        '<tr><td colspan="63">e</td></tr></table>'
    )


def test_cell_with_many_paragraphs_is_linear() -> None:
    (table,) = _partition(_build("docx/cell-with-many-paragraphs"))
    assert table.text == " ".join(["x"] * 100_000)
    assert table.metadata.text_as_html == "<table><tr><td>" + "\n".join(["x"] * 100_000) + (
        "</td></tr></table>"
    )


# -- lists --


@pytest.mark.parametrize(
    "case_name",
    [
        "docx/list-start-1e10-lower-letter",
        "docx/list-start-1e12-lower-roman",
        "docx/huge-start-override",
    ],
)
def test_huge_list_starts_are_clamped_to_32_bits_and_written_in_decimal(case_name: str) -> None:
    elements = _partition(_build(case_name))
    assert _texts(elements) == [
        ("ListItem", "2147483647. one", 0),
        ("ListItem", "2147483648. two", 0),
    ]


def test_letters_stop_at_30_repeats() -> None:
    elements = _partition(_build("docx/list-letters-past-780"))
    assert [e.text for e in elements] == ["z" * 30 + ". one", "781. two"]


def test_a_start_that_is_not_a_number_starts_at_one() -> None:
    elements = _partition(_build("docx/list-start-not-a-number"))
    assert [e.text for e in elements] == ["1. one", "2. two"]


@pytest.mark.parametrize(
    ("value", "fmt", "expected"),
    [
        (3999, "lowerRoman", "mmmcmxcix"),
        (4000, "upperRoman", "4000"),
        (10**12, "lowerRoman", str(10**12)),
        (780, "upperLetter", "Z" * 30),
        (781, "lowerLetter", "781"),
        (10**10, "lowerLetter", str(10**10)),
        (10**12, "chineseCounting", str(10**12)),
        (-5, "lowerRoman", "-5"),
    ],
)
def test_format_number_keeps_labels_short(value: int, fmt: str, expected: str) -> None:
    assert format_number(value, fmt) == expected


def test_long_level_text_is_cut_at_64_characters_with_a_warning() -> None:
    with pytest.warns(DocxContentWarning, match="list label templates cut short: 1$"):
        elements = _partition(_build("docx/long-level-text"))
    assert len(elements) == 1000
    assert elements[0].text == "1" + "." * 62 + " item"
    assert elements[-1].text == "1000" + "." * 62 + " item"


def test_list_levels_outside_0_to_8_give_depths_within_it() -> None:
    elements = _partition(_build("docx/huge-list-levels"))
    assert _texts(elements) == [
        ("ListItem", "huge", 8),  # -- no level 2147483647: no label; a list style: a ListItem --
        ("ListItem", "negative", 0),
        ("ListItem", "1. junk", 0),  # -- an ilvl that is not a number is level 0 --
    ]


def test_numbering_style_chain_resolves_once() -> None:
    elements = _partition(_build("docx/numbering-style-chain"))
    assert len(elements) == 5000
    assert (elements[0].text, elements[-1].text) == ("1. item", "5000. item")


# -- inline content --


def test_symbols_that_are_no_characters_are_dropped_and_counted() -> None:
    with pytest.warns(DocxContentWarning) as record:
        (paragraph,) = _partition(_build("docx/symbols-outside-unicode"))
    assert paragraph.text == "sym:A"  # -- F0A7 is a private-use font glyph: dropped silently --
    (warning,) = record
    assert str(warning.message) == (
        f"{NAME}: content left out: symbols that are not characters: 4;"
        " symbols without a character code: 2"
    )


def test_text_after_an_entity_reference_is_kept() -> None:
    with pytest.warns(DocxContentWarning, match="unexpanded entity references: 4$"):
        first, second = _partition(_build("docx/entity-reference-tail"))
    assert first.text == "before  after  end"
    assert second.text == "link"
    assert second.metadata.link_urls == ("http://example.com/",)


def test_entity_bomb_in_an_attribute_is_a_limit_error() -> None:
    error = _limit_error(_build("docx/entity-bomb-in-attribute"), "XML parser limits")
    assert "amplification" in str(error)


def test_nested_hyperlink_fields_keep_the_outermost_link() -> None:
    with pytest.warns(DocxContentWarning, match="hyperlinks nested in another: 19999$"):
        (paragraph,) = _partition(_build("docx/nested-hyperlink-fields"))
    assert paragraph.text == "a" * 20_000
    assert paragraph.metadata.link_texts == ("a" * 20_000,)
    assert paragraph.metadata.link_urls == ("http://x.example/",)


def test_run_flood_is_one_paragraph() -> None:
    (paragraph,) = _partition(_build("docx/run-flood"))
    assert paragraph.text == "a" * 700_000


def test_footnote_chain_follows_from_a_queue() -> None:
    elements = _partition(_build("docx/footnote-chain"))
    assert len(elements) == 3001
    assert [e.text for e in elements[:3]] == ["body[1]", "note 1[2]", "note 2[3]"]
    assert elements[-1].text == "note 3000[3001]"


def test_field_begin_flood_gives_nothing() -> None:
    data = docx_package(
        streamed_body(
            '<w:fldChar w:fldCharType="begin"/>',
            10_000,
            before="<w:p><w:r>",
            after="<w:t>an instruction, hidden</w:t></w:r></w:p>",
        )
    )
    assert _partition(data) == []
    assert len(_build("docx/field-begin-flood")) < 200_000


def test_style_chain_is_followed_32_styles_deep() -> None:
    elements = _partition(_build("docx/style-chain"))
    titles = [e.text for e in elements if e.category == "Title"]
    assert len(elements) == 10_000
    assert titles == [f"p{i}" for i in range(10_000 - limits.MAX_STYLE_CHAIN, 10_000)]


# -- size bounds --


def test_paragraph_flood_is_refused_by_its_part_size() -> None:
    data = _build("docx/paragraph-flood")
    assert len(data) < 1_000_000
    error = _limit_error(data, "part size")
    assert "word/document.xml" in str(error)


def test_a_part_understating_its_size_fails_its_checksum() -> None:
    with pytest.raises(DocumentError, match="Bad CRC-32") as info:
        _partition(_build("docx/understated-part-size"))
    assert not isinstance(info.value, DocumentLimitError)


def test_document_size_is_bounded_over_all_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_TOTAL_BYTES", 100_000)
    data = docx_package(hostile.paragraph("x" * 60_000), styles="<!--" + "s" * 60_000 + "-->")
    error = _limit_error(data, "document size")
    assert "100,000" in str(error)


def test_xml_node_flood_is_refused_before_parsing() -> None:
    error = _limit_error(_build("docx/xml-node-flood"), "XML nodes")
    assert "3,000,000" in str(error)


@pytest.mark.parametrize(
    ("case_name", "unit", "before", "after"),
    [
        ("docx/empty-cell-flood", "<w:tc/>", "<w:tbl><w:tr>", "</w:tr></w:tbl>"),
        ("docx/section-flood", "<w:p><w:pPr><w:sectPr/></w:pPr></w:p>", "", ""),
        ("docx/xml-node-flood", "<w:p/>", "", ""),
    ],
)
def test_block_floods_are_refused_by_the_block_budget(
    monkeypatch: pytest.MonkeyPatch, case_name: str, unit: str, before: str, after: str
) -> None:
    assert case_name in {case.name for case in CASES}
    monkeypatch.setattr(limits, "MAX_BLOCKS", 1000)
    _partition(docx_package(streamed_body(unit, 998, before=before, after=after)))
    error = _limit_error(
        docx_package(streamed_body(unit, 1001, before=before, after=after)), "blocks"
    )
    assert "1,000 paragraphs, tables, rows and cells" in str(error)


def test_element_flood_is_refused_by_the_element_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "docx/element-flood" in {case.name for case in CASES}
    monkeypatch.setattr(limits, "MAX_ELEMENTS", 100)
    assert len(_partition(docx_package(hostile.paragraph("a") * 100))) == 100
    error = _limit_error(docx_package(hostile.paragraph("a") * 101), "elements")
    assert "more than 100 elements" in str(error)


def test_link_url_amplification_is_refused_by_the_output_budget() -> None:
    error = _limit_error(_build("docx/link-url-amplification"), "output size")
    assert f"{limits.MAX_OUTPUT_CHARS:,}" in str(error)


def test_deep_nesting_is_a_limit_error() -> None:
    error = _limit_error(_build("docx/deep-content-controls"), "XML parser limits")
    assert "depth" in str(error)
    assert "XML_PARSE_HUGE" not in str(error)


def test_huge_text_node_is_a_limit_error() -> None:
    error = _limit_error(_build("docx/huge-text-node"), "XML parser limits")
    assert "Text node too long" in str(error)


def test_zip_entry_flood_is_refused_before_listing() -> None:
    _limit_error(_build("docx/zip-entry-flood"), "zip entries")


def test_lzma_part_is_a_document_error() -> None:
    with pytest.raises(DocumentError, match="compression method 14"):
        _partition(_build("docx/lzma-part"))


def test_a_zip_version_the_zip_module_lacks_is_a_document_error() -> None:
    with pytest.raises(DocumentError, match=r"zip: zip file version 19\.4"):
        _partition(_build("docx/unsupported-zip-version"))


def test_zip_entries_are_counted_where_the_zip_module_reads_them() -> None:
    plain = docx_package(hostile.paragraph("x"))
    with_comment = io.BytesIO()
    with zipfile.ZipFile(with_comment, "w") as archive:
        for name in ("a", "b", "c"):
            archive.writestr(name, b"PK\x01\x02 in the content")
        archive.comment = b"PK\x01\x02 in the comment"
    for data in (plain, with_comment.getvalue(), _build("docx/zip-entry-flood")):
        assert count_zip_entries(data) == len(zipfile.ZipFile(io.BytesIO(data)).infolist())
    assert count_zip_entries(b"PK\x03\x04 no end record") == 0
