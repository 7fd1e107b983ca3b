"""Structure-aware generators of the hostile PDF families of `hostile_pdfium`.

A generator is `(rng: random.Random) -> bytes`: it draws the shape of one attack (sizes, nesting,
the way the preflight is bypassed, filters) and builds the file with `hostile_pdfium`'s
builders, always at sizes that would exhaust an unbounded parser (billions of draws, gigabytes
decoded, hundreds of thousands of nested states). Every drawn value comes from `rng`, so a
seed gives the same file. `GENERATORS` maps each family's canonical case name to its generator,
plus "pdf/mixed", whose files put one family inside another (a fan-out of forms each holding an
inline JPEG, a Type3 glyph that inflates an image, ...). Files build in well under a second, in
constant memory, and weigh at most a few MB (the annotation flood up to 50 MB).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from tests.robustness.hostile_pdf import ruled_grid
from tests.robustness.hostile_pdfium import (
    CLIP_SHAPES,
    LEAF,
    annotation_flood,
    clip_flood,
    embedded_font_bomb,
    fan_out,
    inline_image,
    inline_image_bomb,
    inline_jpegs,
    long_string,
    marked_content_nesting,
    type3_fan_out,
    unicode_expansion,
)
from tests.robustness.pdf_parts import OPERANDS, jpeg

__all__ = ["GENERATORS", "Generator"]

Generator = Callable[[random.Random], bytes]

_BYPASSES = ("escaped", "partly-escaped", "comment", "string", "hex")
"""Operand forms a `/Name Do` scan does not see."""
_STREAM_FILTERS: tuple[tuple[bytes, ...], ...] = (
    (b"/FlateDecode",),
    (b"/Fl",),
    (b"/ASCIIHexDecode", b"/FlateDecode"),
    (b"/AHx", b"/Fl"),
    (b"/A85", b"/Fl"),
    (b"/Fl", b"/Fl"),
)
"""Filter chains a small stream is written with (the first undone first)."""
_BOMB_FILTERS: tuple[tuple[bytes, ...], ...] = (
    (b"/Fl",),
    (b"/FlateDecode",),
    (b"/AHx", b"/Fl"),
    (b"/Fl", b"/AHx"),
    (b"/Fl", b"/Fl"),
    (b"/A85", b"/FlateDecode"),
)
"""Filter chains of bombed data (`pdf_parts.bombed_data`: one flate filter at least)."""


def _fan_shape(rng: random.Random, low: int = 26, high: int = 40) -> tuple[int, int]:
    """(levels, fan) drawing 2 ** `low` to 2 ** `high` times, at most 36 levels (PDFium draws
    forms about 40 deep)."""
    fan = rng.choice((2, 3, 4, 6, 8, 12, 16, 32, 64))
    draws = 2 ** rng.uniform(low, high)
    levels = max(2, min(36, math.ceil(math.log(draws) / math.log(fan))))
    return levels, fan


def _operands(rng: random.Random, primary: str) -> tuple[str, ...]:
    """`primary`, alone or in turn with a few other forms (a plain draw among them keeps the
    bypass: a scan then counts one draw of each form where there are `fan`)."""
    if rng.random() < 0.5:
        return (primary,)
    others = rng.sample(OPERANDS, rng.randint(1, 3))
    return (primary, *others)


def _fan_out_family(primary: str, resources: str | None = None) -> Generator:
    """A generator of form fan-outs whose first operand form is `primary`, with `resources`
    (or resources drawn at random)."""

    def generate(rng: random.Random) -> bytes:
        levels, fan = _fan_shape(rng)
        chosen = resources or rng.choice(("own", "own", "missing", "inherited"))
        return fan_out(
            levels,
            fan,
            operands=_operands(rng, primary),
            resources=chosen,
            filters=rng.choice(_STREAM_FILTERS),
            resources_on_parent=rng.random() < 0.2,
        )

    generate.__doc__ = f"Form fan-outs drawing through {primary} operands."
    return generate


def _missing_resources(rng: random.Random) -> bytes:
    levels, fan = _fan_shape(rng)
    operands = ("plain",) if rng.random() < 0.6 else _operands(rng, rng.choice(OPERANDS))
    return fan_out(
        levels,
        fan,
        operands=operands,
        resources="missing",
        filters=rng.choice(_STREAM_FILTERS),
        resources_on_parent=rng.random() < 0.3,
    )


def _type3(rng: random.Random) -> bytes:
    levels, fan = _fan_shape(rng, 24, 36)
    return type3_fan_out(
        levels,
        fan,
        operands=_operands(rng, rng.choice(OPERANDS)),
        resources=rng.choice(("own", "missing", "inherited")),
        shows=rng.choice((1, 1, 2, 10, 200)),
    )


def _inline_image(rng: random.Random) -> bytes:
    size = (1, 1) if rng.random() < 0.5 else (rng.randint(1, 65_535), rng.randint(1, 65_535))
    return inline_image_bomb(
        rng.randint(1024, 4096),
        images=rng.choice((1, 1, 1, 2, 4)),
        image_filters=rng.choice(_BOMB_FILTERS),
        stream_filters=rng.choice(_STREAM_FILTERS),
        size=size,
    )


def _unicode(rng: random.Random) -> bytes:
    expansion = rng.randint(4_000, 32_000)
    return unicode_expansion(
        expansion,
        rng.randint(32_000_000 // expansion, 128_000_000 // expansion),
        codes=rng.randint(1, 4),
        split=rng.choice((1, 1, 10, 200)),
        ranges=rng.random() < 0.3,
    )


def _font(rng: random.Random) -> bytes:
    filters = rng.choice(((b"/FlateDecode", b"/FlateDecode"), *_BOMB_FILTERS))
    return embedded_font_bomb(rng.randint(1024, 4096), filters=filters)


def _nesting(operator: bytes) -> Generator:
    def generate(rng: random.Random) -> bytes:
        glyph_every = rng.choice((0, 0, 1, 2, 5))
        # -- the decoded content stays under the preflight's 4 MB: ~7 or 10 bytes a level --
        levels = rng.randint(100_000, 350_000) if not glyph_every else rng.randint(15_000, 60_000)
        chosen = operator if rng.random() < 0.8 else rng.choice((b"BMC", b"BDC"))
        return marked_content_nesting(levels, operator=chosen, glyph_every=glyph_every)

    generate.__doc__ = f"Marked content opened with {operator.decode()} and never closed."
    return generate


def _clips(rng: random.Random) -> bytes:
    shape = rng.choice((*CLIP_SHAPES, "shifted"))
    glyph = rng.random() < 0.85
    # -- at most 3.6 MB of decoded content (60 bytes a clip with its glyph, 30 without): the
    # -- preflight sends a page over 4 MB to pdfminer --
    count = rng.randint(30_000, 60_000 if glyph else 120_000)
    return clip_flood(count, rule=rng.choice((b"W", b"W*")), shape=shape, glyph=glyph)


def _jpegs(rng: random.Random) -> bytes:
    side = rng.randint(30_000, 65_535)
    size = (side, side) if rng.random() < 0.6 else (rng.randint(20_000, 65_535), side)
    return inline_jpegs(
        rng.randint(12, 60), size, image_filter=rng.choice((b"/DCT", b"/DCTDecode", b"[/DCT]"))
    )


def _annotations(rng: random.Random) -> bytes:
    return annotation_flood(rng.randint(150_000, 400_000), indirect=rng.random() < 0.3)


def _grid(rng: random.Random) -> bytes:
    columns, rows = rng.randint(150, 400), rng.randint(150, 500)
    return ruled_grid(
        columns, rows, vertical=rng.random() < 0.8, filled=rng.choice((rows, rows // 2, 20))
    )


def _long_string(rng: random.Random) -> bytes:
    return long_string(
        rng.randint(40_000, 400_000),
        size=rng.choice((0.5, 1, 4)),
        form=rng.choice(("literal", "literal", "hex", "array")),
    )


def _mixed(rng: random.Random) -> bytes:
    """A fan-out of forms whose leaf is another family's content (an inline JPEG, an inline
    image bomb, a marked-content nest, a clip flood, a long string), or a Type3 glyph doing one
    of these; the draws multiply the leaf's cost."""
    kind = rng.choice(("jpeg", "image", "nesting", "clips", "string"))
    if kind == "jpeg":
        leaf = b"BI /W 20000 /H 20000 /BPC 8 /CS /G /F /DCT ID\n%s\nEI" % jpeg(20_000, 20_000)
    elif kind == "image":
        leaf = inline_image(rng.randint(16, 128), rng.choice(_BOMB_FILTERS))
    elif kind == "nesting":
        leaf = b"/P BMC " * rng.randint(500, 5_000) + LEAF
    elif kind == "clips":
        leaf = b"0 0 600 800 re W n 1 0 600 800 re W n BT /F1 1 Tf 72 100 Td (a) Tj ET\n" * 200
    else:
        leaf = b"BT /F1 1 Tf 10 600 Td (%s) Tj ET" % (b"w000001. " * rng.randint(500, 5_000))
    levels, fan = _fan_shape(rng, 14, 24)
    operands = _operands(rng, rng.choice(_BYPASSES))
    if rng.random() < 0.3:
        return type3_fan_out(levels, fan, operands=operands, leaf=leaf)
    resources = rng.choice(("own", "missing"))
    return fan_out(levels, fan, operands=operands, resources=resources, leaf=leaf)


GENERATORS: dict[str, Generator] = {
    "pdf/fanout-escaped-names": _fan_out_family("escaped"),
    "pdf/fanout-comment-before-do": _fan_out_family("comment"),
    "pdf/fanout-missing-resources": _missing_resources,
    "pdf/fanout-string-operands": _fan_out_family("string"),
    "pdf/fanout-hex-operands": _fan_out_family("hex"),
    "pdf/type3-glyph-fanout": _type3,
    "pdf/inline-image-inflation": _inline_image,
    "pdf/tounicode-expansion": _unicode,
    "pdf/embedded-font-bomb": _font,
    "pdf/marked-content-nesting": _nesting(b"BMC"),
    "pdf/marked-content-nesting-bdc": _nesting(b"BDC"),
    "pdf/clip-flood": _clips,
    "pdf/inline-jpeg-dimensions": _jpegs,
    "pdf/annotation-flood": _annotations,
    "pdf/dense-ruled-grid-filled": _grid,
    "pdf/long-text-string": _long_string,
    "pdf/mixed": _mixed,
}
"""Each family's generator, by the name of its canonical case (`hostile_pdfium.CASES`)."""
