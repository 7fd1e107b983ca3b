"""Hostile PDFs (`tests/robustness/hostile_pdf.py`): the exact result or typed error of each.

The robustness suite runs every case in a child process with partita's real bounds
(`partita/partitioners/pdf/_limits.py`) under a time and memory limit. Here each case runs
in-process; the floods, whose cost is the bound they exhaust (a few seconds at the real values),
run with smaller bounds (`smaller_bounds`) so that each test takes a fraction of a second: the
bound is met the same way, and its message names the value in force.
"""

from __future__ import annotations

import io
import math
import zlib
from collections.abc import Iterator

import pytest
from pdfminer.pdfdocument import PDFDocument
from pdfminer.pdfparser import PDFParser
from pdfminer.pdftypes import PDFObjRef, PDFStream, resolve1

from partita.elements import Element, Title
from partita.errors import DocumentLimitError
from partita.partitioners.pdf import _aligned_tables as aligned_tables
from partita.partitioners.pdf import _limits as limits
from partita.partitioners.pdf import partition_pdf
from partita.partitioners.pdf._limits import ContentLeftOutWarning
from tests.robustness.hostile_pdf import (
    CASES,
    flate_bomb,
    long_reference_chain,
    one_page,
    stream,
    text_content,
)

_CASES = {case.name: case for case in CASES}


def _partition(name: str, backend: str = "pdfium", *, patched: bool = False) -> list[Element]:
    """Partition the case; `patched`: in this process, where the test's patched bounds hold (the
    isolating worker process reads the module's own values)."""
    case = _CASES[name]
    return partition_pdf(
        file=io.BytesIO(case.build()),
        metadata_filename=case.filename,
        backend=backend,
        isolation="none" if patched else "process",
    )


def _texts(elements: list[Element]) -> list[str]:
    return [element.text for element in elements]


@pytest.fixture
def smaller_bounds(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The page and document work bounds at a few thousandths of their real values."""
    monkeypatch.setattr(limits, "MAX_PAGE_TOKENS", 30_000)
    monkeypatch.setattr(limits, "MAX_PAGE_GLYPHS", 5_000)
    monkeypatch.setattr(limits, "MAX_DOCUMENT_TOKENS", 60_000)
    monkeypatch.setattr(limits, "MAX_DOCUMENT_GLYPHS", 8_000)
    monkeypatch.setattr(limits, "TOKENS_PER_BYTE", 0)
    monkeypatch.setattr(limits, "GLYPHS_PER_BYTE", 0)
    monkeypatch.setattr(limits, "MAX_OPEN_ITEMS", 10_000)
    return


def test_case_names_are_unique_and_prefixed_by_their_format() -> None:
    names = [case.name for case in CASES]
    assert len(set(names)) == len(names)
    assert all(
        name.startswith("pdf/") and case.filename.endswith(".pdf") for name, case in _CASES.items()
    )


# -- references and page trees ---------------------------------------------------------------------


def test_a_page_tree_that_refers_to_itself_is_an_empty_document() -> None:
    assert len(_CASES["pdf/self-referencing-page-tree"].build()) == 207
    assert _partition("pdf/self-referencing-page-tree") == []


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("pdf/self-referencing-contents", "Text before the cycle."),
        ("pdf/reference-cycle", "Text after the cycle."),
    ],
)
def test_a_reference_cycle_reads_as_null_and_the_rest_of_the_page_is_read(
    name: str, text: str
) -> None:
    assert _texts(_partition(name)) == [text]


def test_a_chain_of_references_longer_than_the_bound_is_refused() -> None:
    with pytest.raises(DocumentLimitError) as caught:
        _partition("pdf/long-reference-chain")
    assert str(caught.value) == "chain.pdf: object 10 starts a chain of more than 32 references"
    assert caught.value.limit == "reference chain"
    assert caught.value.filename == "chain.pdf"


def test_a_chain_within_the_bound_is_followed_to_its_end() -> None:
    data = long_reference_chain(limits.MAX_REFERENCE_CHAIN)
    assert _texts(partition_pdf(file=io.BytesIO(data))) == ["Text at the end of the chain."]


def test_a_page_tree_deeper_than_the_bound_is_refused() -> None:
    with pytest.raises(
        DocumentLimitError, match=r"^deep-tree\.pdf: its page tree is more than 256 levels deep$"
    ) as caught:
        _partition("pdf/deep-page-tree")
    assert caught.value.limit == "page tree depth"


def test_a_cross_reference_section_naming_itself_as_previous_is_read_once() -> None:
    assert _texts(_partition("pdf/xref-prev-cycle")) == [
        "Text of a file whose cross-reference repeats."
    ]


def test_the_scan_for_pages_outside_a_page_tree_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_PAGE_SCAN_OBJECTS", 5_000)
    with pytest.raises(DocumentLimitError) as caught:
        _partition("pdf/huge-xref-range", patched=True)
    assert str(caught.value) == (
        "xref-range.pdf: it has no page tree and more than 5,000 objects to scan for pages"
    )
    assert caught.value.limit == "objects scanned for pages"


# -- bombs -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "filename"),
    [("pdf/flate-bomb", "flate-bomb.pdf"), ("pdf/double-flate-bomb", "double-flate-bomb.pdf")],
)
def test_a_stream_inflating_beyond_the_bound_is_refused_before_it_is_produced(
    name: str, filename: str
) -> None:
    with pytest.raises(DocumentLimitError) as caught:
        _partition(name)
    assert str(caught.value) == f"{filename}: a stream decodes to more than 67,108,864 bytes"
    assert caught.value.limit == "decoded stream size"


def test_an_object_stream_of_millions_of_tokens_is_refused(smaller_bounds: None) -> None:
    with pytest.raises(DocumentLimitError) as caught:
        _partition("pdf/object-stream-bomb", backend="pdfplumber", patched=True)
    assert str(caught.value) == "objstm-bomb.pdf: its streams hold more than 60,000 tokens to parse"
    assert caught.value.limit == "parsed tokens"


def test_a_cmap_range_of_four_billion_codes_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_CMAP_ENTRIES", 50_000)
    with pytest.raises(DocumentLimitError) as caught:
        _partition("pdf/cmap-range-bomb", backend="pdfplumber", patched=True)
    assert str(caught.value) == "cmap-bomb.pdf: its CMaps map more than 50,000 codes"
    assert caught.value.limit == "CMap entries"


def test_a_truetype_cmap_group_of_four_billion_codes_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(limits, "MAX_CMAP_ENTRIES", 50_000)
    with pytest.raises(DocumentLimitError) as caught:
        _partition("pdf/truetype-cmap-range", backend="pdfplumber", patched=True)
    assert str(caught.value) == "truetype-cmap.pdf: its CMaps map more than 50,000 codes"
    assert caught.value.limit == "CMap entries"


@pytest.mark.timeout(20)
@pytest.mark.parametrize("name", ["pdf/cmap-range-bomb", "pdf/truetype-cmap-range"])
def test_cmap_bombs_are_read_by_pdfium(name: str) -> None:
    # -- the CMaps pdfminer's bounds refuse do not reach Python with PDFium, which maps the codes
    # -- it meets in C++: the page is read --
    elements = _partition(name)
    assert elements
    assert all(element.metadata.detection_origin == "pdfium" for element in elements)


def test_an_object_stream_bomb_is_refused_by_the_pdfium_backend_too() -> None:
    # -- the page's fonts are looked up through pdfminer before PDFium is given the page
    # -- (`pdfium.preflight`), which parses the bombed object stream under the token bounds:
    # -- its one object of 16 million tokens meets the bound on one object first --
    with pytest.raises(DocumentLimitError) as caught:
        _partition("pdf/object-stream-bomb")
    assert caught.value.limit == "object tokens"


def test_cid_width_ranges_are_clamped_to_the_cids_pdf_allows() -> None:
    # -- the CID font's glyphs have no Unicode mapping: the first reads as a bullet --
    assert _texts(_partition("pdf/cid-widths-range")) == ["Text in a standard font.", "\u2022"]


def test_ascii85_marks_are_found_in_linear_time() -> None:
    assert _texts(_partition("pdf/ascii85-whitespace")) == ["Text after the spaces."]


def test_predictor_work_counts_against_the_token_budget(smaller_bounds: None) -> None:
    with pytest.raises(DocumentLimitError) as caught:
        _partition("pdf/predictor-flood", patched=True)
    assert str(caught.value) == (
        "predictor-flood.pdf: its streams hold more than 60,000 tokens to parse"
    )
    assert caught.value.limit == "parsed tokens"


def test_a_predictor_row_wider_than_the_data_is_clamped_and_decodes_the_same() -> None:
    assert _texts(_partition("pdf/png-predictor-columns")) == ["Text behind a predictor."]


def test_a_string_of_a_million_escapes_is_read_in_linear_time() -> None:
    assert _texts(_partition("pdf/string-of-escapes")) == ["Text of a document with a long title."]


# -- floods: the page stops at its bound, or the document is refused -------------------------------


@pytest.mark.parametrize(
    ("name", "text", "cut"),
    [
        (
            "pdf/operator-flood-400kb",
            "Text before the flood.",
            "stopped after 30,000 content tokens (operators and operands; forms, paths and glyphs"
            " drawn counted as several)",
        ),
        ("pdf/glyph-flood", "Text before the flood." + "A" * 4978, "stopped after 5,000 glyphs"),
        (  # -- each glyph counts as tokens too: 5,000 glyphs of "Repeated." count 30,000 --
            "pdf/contents-array-flood",
            "Repeated.",
            "stopped after 30,000 content tokens (operators and operands; forms, paths and glyphs"
            " drawn counted as several)",
        ),
        (
            "pdf/open-array-flood",
            "Text before the flood.",
            "stopped at arrays or dictionaries left open with more than 10,000 items",
        ),
        (
            "pdf/huge-string",
            "Text before the string.",
            "stopped at a token longer than 4,194,304 bytes",
        ),
    ],
)
def test_a_page_beyond_its_bound_keeps_what_was_drawn_and_warns(
    smaller_bounds: None, name: str, text: str, cut: str
) -> None:
    filename = _CASES[name].filename
    with pytest.warns(ContentLeftOutWarning) as warned:
        elements = _partition(name, patched=True)
    assert _texts(elements) == [text]
    assert [str(w.message) for w in warned] == [f"{filename}: page 1: {cut}"]


@pytest.mark.parametrize(
    "name",
    [
        "pdf/operator-flood",
        "pdf/xobject-fan-out",
        "pdf/save-state-flood",
        "pdf/inline-image-flood",
    ],
)
def test_a_document_beyond_its_token_budget_is_refused(
    smaller_bounds: None, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    # -- less than a page's tokens, its glyphs' weight left out (the fan-out draws text) --
    monkeypatch.setattr(limits, "MAX_DOCUMENT_TOKENS", 10_000)
    with pytest.raises(DocumentLimitError) as caught:
        _partition(name, patched=True)
    filename = _CASES[name].filename
    assert str(caught.value) == (
        f"{filename}: its pages hold more than 10,000 content tokens to parse"
    )
    assert caught.value.limit == "parsed tokens"


def test_glyphs_count_against_the_page_not_the_documents_tokens(
    smaller_bounds: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # -- 5,000 glyphs count 25,000 of the page's 30,000 tokens, a few dozen of the document's --
    monkeypatch.setattr(limits, "MAX_DOCUMENT_TOKENS", 2_000)
    case = _CASES["pdf/glyph-flood"]
    with pytest.warns(ContentLeftOutWarning) as warned:
        (element,) = partition_pdf(
            file=io.BytesIO(case.build()),
            metadata_filename=case.filename,
            backend="pdfplumber",
            isolation="none",
        )
    assert element.text == "Text before the flood." + "A" * (limits.MAX_PAGE_GLYPHS - 22)
    assert [str(w.message) for w in warned] == [
        f"{case.filename}: page 1: stopped after 5,000 glyphs"
    ]


def test_the_page_cut_stops_at_the_bound_exactly(smaller_bounds: None) -> None:
    text = "Text before the flood." + "A" * (limits.MAX_PAGE_GLYPHS - 22)
    (element,) = list(_partition_quietly_patched("pdf/glyph-flood"))
    assert element.text == text


def _partition_quietly(name: str) -> list[Element]:
    with pytest.warns(ContentLeftOutWarning):
        return _partition(name)


def _partition_quietly_patched(name: str) -> list[Element]:
    with pytest.warns(ContentLeftOutWarning):
        return _partition(name, patched=True)


def test_forms_nested_deeper_than_the_bound_are_not_drawn() -> None:
    with pytest.warns(ContentLeftOutWarning) as warned:
        elements = _partition("pdf/deep-forms")
    assert _texts(elements) == ["Text before the forms."]
    assert [str(w.message) for w in warned] == [
        "deep-forms.pdf: page 1: 1 form XObject(s) nested more than 32 deep were not drawn"
    ]


def test_forms_within_the_depth_bound_are_drawn() -> None:
    from tests.robustness.hostile_pdf import deep_forms

    elements = partition_pdf(file=io.BytesIO(deep_forms(limits.MAX_FORM_DEPTH - 1)))
    assert _texts(elements) == ["Text before the forms.", "Too deep."]


# -- quadratic page stages -------------------------------------------------------------------------


def test_a_dense_ruled_grid_is_read_without_ruled_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(aligned_tables, "MAX_REGION_WORK", 20_000)
    with pytest.warns(ContentLeftOutWarning) as warned:
        elements = _partition("pdf/dense-ruled-grid", patched=True)
    assert [str(w.message) for w in warned] == [
        "grid.pdf: page 1: ruled tables were not looked for: its rulings exceed the table "
        "finder's bounds (its text is read as paragraphs)",
        "grid.pdf: page 1: tables between horizontal rules were looked for only until the search "
        "bound (its text is read as paragraphs)",
    ]
    # -- every digit is read: 300 in each of the 20 filled rows, one in each other row --
    assert sum(len(e.text.replace(" ", "")) for e in elements) == 20 * 300 + 380
    assert elements[0].text.startswith("0 1 2 3 4 5 6 7 8 9 0 1 2")


def test_rules_with_prose_between_them_stop_the_search_at_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(aligned_tables, "MAX_REGION_WORK", 20_000)
    with pytest.warns(ContentLeftOutWarning) as warned:
        elements = _partition("pdf/rules-with-prose", patched=True)
    assert [str(w.message) for w in warned] == [
        "rules.pdf: page 1: tables between horizontal rules were looked for only until the "
        "search bound (its text is read as paragraphs)"
    ]
    assert (
        _texts(elements)
        == [
            "the quick brown fox jumps over the dog",
            "and runs away into the woods again",
        ]
        * 399
    )


# -- huge numbers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "texts", "dropped"),
    [
        ("pdf/infinite-font-size", ["Normal text above.", "Normal text below."], 13),
        ("pdf/infinite-text-position", [], 13),
        ("pdf/infinite-matrices", ["Normal text above.", "Normal text below."], 26),
    ],
)
def test_text_drawn_at_infinite_or_nan_positions_is_left_out_with_a_warning(
    name: str, texts: list[str], dropped: int
) -> None:
    with pytest.warns(ContentLeftOutWarning) as warned:
        elements = _partition(name)
    assert _texts(elements) == texts
    assert [str(w.message) for w in warned] == [
        f"{_CASES[name].filename}: page 1: {dropped} character(s) drawn at positions or sizes "
        "out of range (not finite, or beyond ±1e+09 pt) were left out"
    ]


def test_integers_of_400_digits_are_clamped_to_what_pdf_allows() -> None:
    elements = _partition("pdf/huge-integers")
    assert sorted(_texts(elements)) == ["Huge", "integers"]
    for element in elements:
        assert element.metadata.coordinates is not None
        assert all(math.isfinite(v) for point in element.metadata.coordinates.points for v in point)
    # -- the kerning of 2**31-1 thousandths of 12 pt moves "integers" 25.8 million pt left --
    (integers,) = [e for e in elements if e.text == "integers"]
    assert integers.metadata.coordinates is not None
    assert integers.metadata.coordinates.points[0][0] == pytest.approx(-25769703.08, abs=0.01)


def test_an_infinite_media_box_is_read_as_us_letter() -> None:
    (element,) = _partition("pdf/infinite-media-box")
    assert element.text == "Text on an infinite page."
    assert element.metadata.coordinates is not None
    assert (
        element.metadata.coordinates.layout_width,
        element.metadata.coordinates.layout_height,
    ) == (612.0, 792.0)


def test_an_outline_whose_links_meet_is_read_once_per_item() -> None:
    elements = _partition("pdf/outline-web")
    assert [(type(e), e.text, e.metadata.category_depth) for e in elements] == [
        (Title, "Chapter", 0),
        (type(elements[1]), "Text under the chapter.", None),
    ]


# -- pdfminer outside partita is unchanged ---------------------------------------------------------


def test_pdfminer_decodes_without_partitas_bound_outside_a_partita_document() -> None:
    data = flate_bomb(b"", b" " * (1 << 20), 80)  # -- 80 MiB, beyond the 64 MiB bound --
    decoded = PDFStream({"Filter": _literal("FlateDecode"), "Length": len(data)}, data).get_data()
    assert len(decoded) == 80 << 20


def test_pdfminer_follows_long_chains_outside_a_partita_document() -> None:
    parser = PDFParser(io.BytesIO(long_reference_chain(100)))
    document = PDFDocument(parser)
    assert isinstance(resolve1(PDFObjRef(document, 10)), PDFStream)


def _corrupted_flate_streams() -> list[bytes]:
    """A flate stream (text, then 3,000 pseudo-random bytes), truncated or with bits flipped."""
    state = 1
    noise = bytearray()
    for _ in range(3000):
        state = (state * 1103515245 + 12345) % 2**31
        noise.append(state >> 23)
    data = zlib.compress(text_content("Some text.") + bytes(noise))
    out = [data, data[:-1], data[:-4], data[: len(data) // 2]]
    for position in (3, 40, len(data) // 2, len(data) - 6, len(data) - 3, len(data) - 1):
        flipped = bytearray(data)
        flipped[position] ^= 0x55
        out.append(bytes(flipped))
    return out


@pytest.mark.parametrize("data", _corrupted_flate_streams())
def test_flate_decoding_within_a_document_gives_what_pdfminer_gives(data: bytes) -> None:
    def decoded(budget: limits.DocumentBudget | None) -> bytes:
        token = limits.ACTIVE.set(budget)
        try:
            return PDFStream({"Filter": _literal("FlateDecode")}, data).get_data()
        finally:
            limits.ACTIVE.reset(token)

    assert decoded(limits.DocumentBudget("x.pdf", 1000)) == decoded(None)


def test_a_well_formed_document_draws_the_same_within_the_bounds() -> None:
    data = one_page(stream(text_content("One line.", "Another line.")))
    assert _texts(partition_pdf(file=io.BytesIO(data))) == ["One line. Another line."]


def _literal(name: str) -> object:
    from pdfminer.psparser import LIT

    return LIT(name)
