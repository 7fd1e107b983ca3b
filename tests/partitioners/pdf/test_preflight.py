"""The preflight (`pdfium.preflight`) weighs a page by PDFium's reading rules: each rule, with the
bypass forms of the families that once ended the process, refuses in a fraction of a second;
ordinary pages pass."""

from __future__ import annotations

import io
import time
from collections.abc import Callable

import pdfplumber
import pytest

from partita.partitioners.pdf._limits import DocumentBudget
from partita.partitioners.pdf._open import guarded
from partita.partitioners.pdf.pdfium._content_scan import decode_name, iter_drawn, nesting_costs
from partita.partitioners.pdf.pdfium._preflight import Preflight
from tests.partitioners.pdf.structured_docs import structured_docs
from tests.robustness.hostile_pdf import compressed_stream, flate_bomb, one_page, text_content
from tests.robustness.hostile_pdfium import (
    RESOURCES,
    clip_flood,
    embedded_font_bomb,
    fan_out,
    inline_image_bomb,
    inline_jpegs,
    marked_content_nesting,
    type3_fan_out,
    unicode_expansion,
)
from tests.robustness.pdf_parts import OPERANDS

_CPU_SECONDS = 5.0
"""CPU time a refusal may take at most (it takes milliseconds to a few hundred; the bound only
has to fail for work that grows with what the page claims)."""


def refusal_of(data: bytes) -> str | None:
    """The preflight's verdict on the first page of `data`, checked to take little CPU."""
    started = time.process_time()
    budget = DocumentBudget("hostile.pdf", len(data))
    with pdfplumber.open(io.BytesIO(data)) as pdf, guarded("hostile.pdf", "x", budget):
        verdict = Preflight().refusal(pdf.pages[0].page_obj)
    assert time.process_time() - started < _CPU_SECONDS
    return verdict


# -- forms: names, comments, string operands, resources --------------------------------------------


@pytest.mark.parametrize("operand", OPERANDS)
@pytest.mark.parametrize("resources", RESOURCES)
def test_a_fan_out_is_weighed_whatever_its_operands_and_resources(
    operand: str, resources: str
) -> None:
    verdict = refusal_of(fan_out(operands=(operand,), resources=resources))
    assert verdict is not None
    assert "weighs more than" in verdict


def test_a_fan_out_whose_page_inherits_its_resources_is_weighed() -> None:
    verdict = refusal_of(fan_out(operands=("escaped",), resources_on_parent=True))
    assert verdict is not None


def test_a_small_fan_out_is_left_to_pdfium() -> None:
    assert refusal_of(fan_out(levels=2, fan=3, operands=("string",))) is None


@pytest.mark.parametrize(
    ("content", "names"),
    [
        (b"/X1 Do", [b"X1"]),
        (b"/#58#31 Do", [b"X1"]),
        (b"/X#31 %a comment\n Do", [b"X1"]),
        (b"(X1)Do", [b"X1"]),
        (b"(X\\061) Do", [b"X1"]),
        (b"<5831> Do", [b"X1"]),
        (b"<58 3> Do", [b"X0"]),
        (b"/X1\x00Do", [b"X1"]),
        (b"(X(1)) Do", [None]),  # -- nested parentheses: not read, weighed as the heaviest --
        (b"/Dog Do /X2 Dot", [b"Dog"]),
        (b"/DoX 1 2 re f", []),
    ],
)
def test_do_operands_are_read_as_pdfium_reads_them(
    content: bytes, names: list[bytes | None]
) -> None:
    assert [name for op, name in iter_drawn(content) if op == "Do"] == names


def test_escaped_names_decode_like_pdfium() -> None:
    assert decode_name(b"#58#31") == b"X1"
    assert decode_name(b"A#2") == b"A#2"  # -- no two characters after #: kept --
    assert decode_name(b"plain") == b"plain"


# -- glyph procedures, inline images ---------------------------------------------------------------


@pytest.mark.parametrize("operand", ["plain", "escaped", "string"])
def test_a_type3_glyph_drawing_a_fan_out_is_weighed(operand: str) -> None:
    verdict = refusal_of(type3_fan_out(operands=(operand,)))
    assert verdict is not None
    assert "Type3" in verdict


@pytest.mark.parametrize(
    "filters",
    [(b"/Fl",), (b"/FlateDecode",), (b"/AHx", b"/Fl"), (b"/A85", b"/Fl"), (b"/Fl", b"/Fl")],
    ids=lambda filters: "-".join(f.decode().strip("/") for f in filters),
)
def test_an_inline_image_inflating_past_the_bound_is_refused(filters: tuple[bytes, ...]) -> None:
    verdict = refusal_of(inline_image_bomb(64, image_filters=filters))
    assert verdict is not None
    assert "inline images decode to more than" in verdict


def _lzw_zeros(mib: int) -> bytes:
    """LZW data (early change, as PDF writes it) decoding to at least `mib` MiB of zeros: each
    code after the first names the run before it plus one zero, the table cleared when full."""
    codes: list[tuple[int, int]] = []  # -- (code, width) --
    produced = 0
    while produced < mib << 20:
        codes.append((256, 9))
        codes.append((0, 9))
        table, run, width = 258, 1, 9
        while table < 4094 and produced < mib << 20:
            codes.append((table, width))
            run += 1
            produced += run
            table += 1
            width = {511: 10, 1023: 11, 2047: 12}.get(table, width)
    codes.append((257, width))
    bits = "".join(format(code, f"0{width}b") for code, width in codes)
    bits += "0" * (-len(bits) % 8)
    return int(bits, 2).to_bytes(len(bits) // 8, "big")


@pytest.mark.parametrize(
    ("name", "data"),
    [
        (b"/LZW", _lzw_zeros(24)),
        (b"/RL", b"\x81\x00" * (200_000)),  # -- 128 zeros each: 25.6 MB --
    ],
)
def test_lzw_and_runlength_inline_images_are_measured(name: bytes, data: bytes) -> None:
    image = b"BI /W 1 /H 1 /BPC 8 /CS /G /F %s ID\n%s\nEI" % (name, data)
    page = one_page(compressed_stream(_deflate(text_content("Image.") + b"\n" + image)))
    verdict = refusal_of(page)
    assert verdict is not None
    assert "inline images decode to more than" in verdict
    small = b"BI /W 1 /H 1 /BPC 8 /CS /G /F %s ID\n%s\nEI" % (name, data[:100])
    assert refusal_of(one_page(compressed_stream(_deflate(small)))) is None


def _deflate(data: bytes) -> bytes:
    import zlib

    return zlib.compress(data)


def test_a_small_inline_image_is_left_to_pdfium() -> None:
    assert refusal_of(inline_image_bomb(1)) is None


@pytest.mark.parametrize("image_filter", [b"/DCT", b"/DCTDecode", b"/CCF"])
def test_inline_images_claiming_billions_of_pixels_are_refused(image_filter: bytes) -> None:
    verdict = refusal_of(inline_jpegs(count=2, image_filter=image_filter))
    assert verdict is not None
    assert "pixels" in verdict


# -- fonts -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("ranges", [False, True])
def test_a_tounicode_entry_of_thousands_of_characters_is_refused(ranges: bool) -> None:
    verdict = refusal_of(unicode_expansion(ranges=ranges))
    assert verdict is not None
    assert "ToUnicode" in verdict


def test_a_short_tounicode_expansion_is_left_to_pdfium() -> None:
    assert refusal_of(unicode_expansion(expansion=3, shows=50)) is None


@pytest.mark.parametrize("filters", [(b"/FlateDecode", b"/FlateDecode"), (b"/FlateDecode",)])
def test_a_font_program_decoding_to_gigabytes_is_refused(filters: tuple[bytes, ...]) -> None:
    verdict = refusal_of(embedded_font_bomb(1024, filters=filters))
    assert verdict is not None
    assert "font program" in verdict


# -- nesting ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("operator", [b"BMC", b"BDC"])
@pytest.mark.parametrize("glyph_every", [0, 1])
def test_deep_marked_content_is_refused(operator: bytes, glyph_every: int) -> None:
    verdict = refusal_of(marked_content_nesting(40_000, operator=operator, glyph_every=glyph_every))
    assert verdict == "its marked content or clip paths nest too deeply"


@pytest.mark.parametrize("rule", [b"W", b"W*"])
@pytest.mark.parametrize("shape", ["shifted", "triangle"])
def test_a_clip_flood_is_refused(rule: bytes, shape: str) -> None:
    assert refusal_of(clip_flood(40_000, rule=rule, shape=shape)) == (
        "its marked content or clip paths nest too deeply"
    )


def test_closed_sequences_and_restored_clips_cost_nothing_more() -> None:
    tagged = b"/P BDC BT (x) Tj ET EMC\n" * 5_000
    clipped = b"q 0 0 1 1 re W n Q\n" * 5_000
    assert nesting_costs(tagged, lambda data, image: None) == (5_000, 0)
    assert nesting_costs(clipped, lambda data, image: None) == (0, 0)


def test_a_q_or_emc_inside_a_string_comment_or_image_closes_nothing() -> None:
    hidden = b"/P BMC (EMC) Tj % EMC\n BI /W 4 /H 1 /BPC 8 /CS /G ID EMC  EI\n" * 3_000
    marks, _ = nesting_costs(hidden, lambda data, image: image.data_start + 4)
    assert marks == 3_000 * 3_001 // 2


# -- ordinary pages --------------------------------------------------------------------------------


@pytest.mark.parametrize("doc", structured_docs(), ids=lambda doc: doc.name)
def test_ordinary_pages_are_left_to_pdfium(doc: object) -> None:
    data: bytes = doc.data  # type: ignore[attr-defined]
    budget = DocumentBudget("doc.pdf", len(data))
    preflight = Preflight()
    with pdfplumber.open(io.BytesIO(data)) as pdf, guarded("doc.pdf", "x", budget):
        verdicts = {preflight.refusal(page.page_obj) for page in pdf.pages}
    # -- the Chinese document uses reportlab's standard CJK font, not embedded: PDFium would
    # -- substitute one and drop glyphs, so pdfminer reads it --
    expected = (
        {"it uses a CID-keyed font whose program the file does not embed"}
        if doc.cjk  # type: ignore[attr-defined]
        else {None}
    )
    assert verdicts == expected


def _few_marks(levels: int) -> Callable[[], bytes]:
    def build() -> bytes:
        data = flate_bomb(text_content("Marked.") + b"\n", b"/P BMC ", levels)
        return one_page(compressed_stream(data))

    return build


def test_a_few_hundred_open_sequences_pass() -> None:
    assert refusal_of(_few_marks(300)()) is None
