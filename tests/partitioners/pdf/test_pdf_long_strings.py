"""A page showing one very long string: PDFium keeps 32,767 bytes of each string it parses
(`pdfium.chars.PDFIUM_MAX_STRING_BYTES`), so such a page is read by pdfminer's interpreter and
both backends give the same text, cut at the page's bound with a warning."""

from __future__ import annotations

import io
import warnings

import pypdfium2  # type: ignore[import-untyped]
import pytest

from partita.elements import Element
from partita.partitioners.pdf import partition_pdf
from partita.partitioners.pdf._limits import (
    GLYPH_TOKENS,
    MAX_PAGE_GLYPHS,
    MAX_PAGE_TOKENS,
    DocumentBudget,
)
from partita.partitioners.pdf.pdfium._chars import (
    MAX_FAITHFUL_OBJECT_CHARS,
    PDFIUM_MAX_STRING_BYTES,
)
from partita.partitioners.pdf.pdfium._page import read_pdfium_page
from tests.robustness.hostile_pdf import one_page, stream

_LETTERS = b"abcdefghij"


def _long_string_pdf(chars: int, form: str = "literal") -> bytes:
    """A one-page PDF showing one string of `chars` letters in 1-pt Helvetica, written as a
    literal string (`form` "literal") or a hex string ("hex")."""
    letters = (_LETTERS * (chars // len(_LETTERS) + 1))[:chars]
    shown = b"(%s) Tj" % letters if form == "literal" else b"<%s> Tj" % letters.hex().encode()
    return one_page(stream(b"BT /F1 1 Tf 10 700 Td %s ET" % shown))


def _partition(data: bytes, backend: str) -> tuple[list[Element], list[str]]:
    """The elements of `data` read by `backend`, and the messages of the warnings raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        elements = partition_pdf(
            file=io.BytesIO(data), metadata_filename="long.pdf", backend=backend
        )
    return elements, [f"{w.category.__name__}: {w.message}" for w in caught]


def _text(elements: list[Element]) -> str:
    return "".join(element.text for element in elements)


@pytest.mark.parametrize("form", ["literal", "hex"])  # -- PDFium cuts both the same way --
def test_a_string_beyond_the_page_bound_gives_the_same_text_and_warning_on_both_backends(
    form: str,
) -> None:
    data = _long_string_pdf(180_000, form)
    pdfium, pdfium_said = _partition(data, "pdfium")
    plumber, plumber_said = _partition(data, "pdfplumber")
    warning = (
        f"ContentLeftOutWarning: long.pdf: page 1: stopped after {MAX_PAGE_TOKENS:,} content"
        " tokens (operators and operands; forms, paths and glyphs drawn counted as several)"
    )
    assert pdfium_said == plumber_said == [warning]
    # -- each glyph counts as GLYPH_TOKENS tokens: the page's tokens run out before its glyphs --
    assert MAX_PAGE_TOKENS // GLYPH_TOKENS - 1_000 < len(_text(pdfium)) < MAX_PAGE_GLYPHS
    assert len(_text(pdfium)) == len(_text(plumber)) <= MAX_PAGE_TOKENS // GLYPH_TOKENS
    assert _text(pdfium) == _text(plumber)
    assert _text(pdfium).startswith("abcdefghijabc")


def test_a_string_longer_than_pdfium_keeps_is_read_whole_without_a_warning() -> None:
    data = _long_string_pdf(50_000)
    pdfium, pdfium_said = _partition(data, "pdfium")
    plumber, plumber_said = _partition(data, "pdfplumber")
    assert pdfium_said == plumber_said == []
    assert len(_text(pdfium)) == 50_000 > PDFIUM_MAX_STRING_BYTES
    assert _text(pdfium) == _text(plumber)
    assert {e.metadata.detection_origin for e in pdfium} == {"pdfium"}


def test_a_page_whose_text_object_may_hold_a_cut_string_is_not_read_by_pdfium() -> None:
    data = _long_string_pdf(MAX_FAITHFUL_OBJECT_CHARS)
    budget = DocumentBudget("long.pdf", len(data))
    document = pypdfium2.PdfDocument(data)
    try:
        assert read_pdfium_page(document, 0, budget) is None
    finally:
        document.close()
    assert budget.glyphs == 0  # -- nothing charged: pdfminer's reading charges the page --


def test_a_page_whose_text_objects_are_all_shorter_is_read_by_pdfium() -> None:
    data = _long_string_pdf(MAX_FAITHFUL_OBJECT_CHARS - 1)
    budget = DocumentBudget("long.pdf", len(data))
    document = pypdfium2.PdfDocument(data)
    try:
        page = read_pdfium_page(document, 0, budget)
    finally:
        document.close()
    assert page is not None
    assert (
        "".join(char["text"] for char in page.chars)
        == (_LETTERS * (MAX_FAITHFUL_OBJECT_CHARS // len(_LETTERS) + 1))[
            : MAX_FAITHFUL_OBJECT_CHARS - 1
        ].decode()
    )
    assert budget.glyphs == MAX_FAITHFUL_OBJECT_CHARS - 1


def test_pdfium_keeps_only_the_first_32767_bytes_of_a_string() -> None:
    # -- the cut this module works around, in PDFium itself: when a new PDFium keeps more, the
    # -- bound `PDFIUM_MAX_STRING_BYTES` should follow it --
    document = pypdfium2.PdfDocument(_long_string_pdf(40_000))
    try:
        textpage = document[0].get_textpage()
        assert textpage.count_chars() == PDFIUM_MAX_STRING_BYTES == 32_767
        textpage.close()
    finally:
        document.close()
