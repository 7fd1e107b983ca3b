"""The parts of the hostile PDFs do what the cases say they do: PDFium draws every `Do` operand
form, bombs decode to exactly what they claim through every filter chain, the TrueType program
is one FreeType loads, and the JPEG claims the size it is given."""

from __future__ import annotations

import base64
import binascii
import io
import zlib

import pypdfium2  # type: ignore[import-untyped]
import pytest
from PIL import Image, ImageFont

from tests.robustness.hostile_pdfium import RESOURCES, fan_out
from tests.robustness.pdf_parts import OPERANDS, bombed_data, jpeg, repeated, tiny_truetype

_FILTER_CHAINS = [
    (b"/Fl",),
    (b"/AHx", b"/Fl"),
    (b"/Fl", b"/AHx"),
    (b"/Fl", b"/A85"),
    (b"/Fl", b"/AHx", b"/A85"),
    (b"/A85", b"/Fl", b"/FlateDecode"),
    (b"/Fl", b"/Fl"),
]


def _decode(data: bytes, filters: tuple[bytes, ...]) -> bytes:
    for name in filters:
        if name in (b"/Fl", b"/FlateDecode"):
            data = zlib.decompress(data)
        elif name == b"/AHx":
            data = binascii.unhexlify(data.rstrip(b">"))
        else:
            data = base64.a85decode(data.removesuffix(b"~>"))
    return data


@pytest.mark.parametrize("operand", OPERANDS)
@pytest.mark.parametrize("resources", RESOURCES)
def test_pdfium_draws_every_operand_form(operand: str, resources: str) -> None:
    # -- 2 levels of 3: the page's text, X0, 3 X1, 9 leaves each holding a text object --
    document = pypdfium2.PdfDocument(fan_out(2, 3, operands=(operand,), resources=resources))
    try:
        assert sum(1 for _ in document[0].get_objects(max_depth=10)) == 1 + 1 + 3 + 9 + 9
    finally:
        document.close()


@pytest.mark.parametrize("filters", _FILTER_CHAINS, ids=lambda f: b"+".join(f).decode())
def test_bombed_data_decodes_to_its_claim(filters: tuple[bytes, ...]) -> None:
    data = bombed_data(filters, 3, prefix=b"head")
    assert len(data) < 100_000
    assert _decode(data, filters) == b"head" + bytes(3 << 20)


def test_bombed_data_needs_a_flate_filter() -> None:
    with pytest.raises(ValueError, match="flate"):
        bombed_data((b"/AHx",), 1)


def test_repeated_content_is_exact() -> None:
    data = repeated(b"q ", 100_003, b"BT", b"ET")
    assert zlib.decompress(data) == b"BT" + b"q " * 100_003 + b"ET"


def test_tiny_truetype_loads_in_freetype() -> None:
    font = ImageFont.truetype(io.BytesIO(tiny_truetype()), 40)
    assert font.getbbox("A") == (0, -8, 40, 32)


def test_jpeg_claims_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", None)  # -- Pillow refuses it, rightly --
    assert Image.open(io.BytesIO(jpeg(65_000, 30_000))).size == (65_000, 30_000)
