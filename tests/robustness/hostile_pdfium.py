"""Hostile PDFs aimed at PDFium: content that makes an unbounded parser allocate or spin.

partita's default PDF backend parses pages with PDFium (pypdfium2), which has no bound on the
work or memory a page costs; a preflight (`partita.partitioners.pdf.pdfium._preflight`) weighs
each page first and sends heavy ones to the bounded pdfminer interpreter. These families, from a
security review, slip past the preflight or cost PDFium gigabytes or minutes in a part of the
file it does not weigh. Each builder takes the sizes and the form of the attack as arguments
(`generate_pdfium` draws them at random); `CASES` are the canonical files, at sizes that crash
or hang partita at commit ae720c0 (measured by `benchmarks/measure_hostile_pdf.py`; each
builder's docstring says what it does there). All are read by the pdfplumber backend.

- form fan-out (`fan_out`, `type3_fan_out`): forms drawing forms, `fan` ** `levels` draws, with
  the `Do` operand written so a `/Name Do` scan misses it (`pdf_parts.OPERANDS`), with the
  forms' resources missing (`RESOURCES`), or drawn by a Type3 glyph procedure;
- `inline_image_bomb` (flate data inflating to a gigabyte; PDFium inflates it whole to find
  `EI`) and `inline_jpegs` (JPEGs claiming 65000 x 65000 pixels, decoded line by line);
- `unicode_expansion` (one code mapped to thousands of characters) and `embedded_font_bomb`
  (a real TrueType program followed by gigabytes of zeros);
- `marked_content_nesting` and `clip_flood`: state that every later object copies;
- `annotation_flood` (the page dictionary), a dense ruled grid filled with text
  (`hostile_pdf.ruled_grid`, partita's table finder) and `long_string` (PDFium's text of a
  page stopped at 32,767 characters, silently).
"""

from __future__ import annotations

from collections.abc import Sequence

from tests.robustness.cases import HostileCase
from tests.robustness.hostile_pdf import (
    FONT,
    catalog_and_pages,
    page,
    pdf_file,
    ruled_grid,
    text_content,
)
from tests.robustness.pdf_parts import (
    FORM,
    bombed_data,
    draw,
    encoded_stream,
    filter_names,
    jpeg,
    one_page,
    repeated,
    tiny_truetype,
)

__all__ = [
    "CASES",
    "CLIP_SHAPES",
    "RESOURCES",
    "annotation_flood",
    "clip_flood",
    "embedded_font_bomb",
    "fan_out",
    "inline_image_bomb",
    "inline_jpegs",
    "long_string",
    "marked_content_nesting",
    "type3_fan_out",
    "unicode_expansion",
]

RESOURCES = ("own", "missing", "inherited")
"""Where a form finds the next form: its own `/Resources`; a `/Resources` reference to an object
that does not exist (PDFium then uses the page's resources, which name every form); no
`/Resources` at all (the page's, too)."""

LEAF = b"BT /F1 12 Tf 72 400 Td (Leaf.) Tj ET"
"""What the last form of a fan-out draws by default."""


# -- form fan-out ----------------------------------------------------------------------------------


def _forms(
    first: int,
    levels: int,
    fan: int,
    operands: Sequence[str],
    resources: str,
    filters: Sequence[bytes],
    leaf: bytes,
) -> dict[int, bytes]:
    """Objects `first`..`first + levels`: forms X0..X`levels-1`, each drawing the next `fan`
    times (the j-th draw written as `operands[j % len(operands)]`), and X`levels` drawing
    `leaf` (in Helvetica as /F1)."""
    objects: dict[int, bytes] = {}
    for k in range(levels):
        name = b"X%d" % (k + 1)
        draws = b"\n".join(draw(name, operands[j % len(operands)]) for j in range(fan))
        if resources == "own":
            extra = b"/Resources << /XObject << /%s %d 0 R >> >> " % (name, first + k + 1)
        elif resources == "missing":
            extra = b"/Resources 999999 0 R "
        elif resources == "inherited":
            extra = b""
        else:
            raise ValueError(f"unknown resources form {resources!r}")
        objects[first + k] = encoded_stream(draws, FORM + extra, filters)
    own = b"/Resources << /Font << /F1 3 0 R >> >> " if resources == "own" else b""
    objects[first + levels] = encoded_stream(leaf, FORM + own, filters)
    return objects


def _xobjects(first: int, levels: int, resources: str) -> bytes:
    """The page's /XObject entries: X0 alone, or every form when they use the page's."""
    count = 1 if resources == "own" else levels + 1
    return b" ".join(b"/X%d %d 0 R" % (k, first + k) for k in range(count))


def fan_out(
    levels: int = 10,
    fan: int = 8,
    *,
    operands: Sequence[str] = ("escaped",),
    resources: str = "own",
    filters: Sequence[bytes] = (b"/FlateDecode",),
    leaf: bytes = LEAF,
    resources_on_parent: bool = False,
) -> bytes:
    """A page drawing form X0 once; X0..X`levels-1` each draw the next `fan` times, the last
    draws `leaf`: `fan` ** `levels` draws of it. `operands` are the forms the draws are written
    in (in turn, `pdf_parts.OPERANDS`), `resources` where each form finds the next
    (`RESOURCES`), `filters` the streams' filters; with `resources_on_parent` the page inherits
    its resources from the page tree node.

    At ae720c0, 10 levels of 8 (2^30 draws) with escaped, partly escaped, commented, string or
    hex operands, or missing resources, abort the process (SIGABRT at the 4 GiB limit, 10-15
    s); plain operands with own or inherited resources are sent to pdfminer by the preflight.
    PDFium draws forms at most about 40 deep."""
    first = 10
    objects: dict[int, bytes] = {**catalog_and_pages([4]), 3: FONT}
    objects.update(_forms(first, levels, fan, operands, resources, filters, leaf))
    resources_dict = b"<< /Font << /F1 3 0 R >> /XObject << %s >> >>" % _xobjects(
        first, levels, resources
    )
    if resources_on_parent:
        objects[2] = objects[2][:-2] + b"/Resources %s >>" % resources_dict
        objects[4] = page(b"5 0 R").replace(b"/Resources << /Font << /F1 3 0 R >> >> ", b"")
    else:
        objects[4] = page(b"5 0 R", resources_dict)
    content = text_content("Text before the fan-out.") + b"\n" + draw(b"X0", operands[0])
    objects[5] = encoded_stream(content, b"", filters)
    return pdf_file(objects)


def type3_fan_out(
    levels: int = 6,
    fan: int = 32,
    *,
    operands: Sequence[str] = ("plain",),
    resources: str = "own",
    shows: int = 1,
    glyph: bytes | None = None,
    leaf: bytes = LEAF,
) -> bytes:
    """A Type3 font whose glyph "A" draws form X0 (the forms of `fan_out`: `fan` ** `levels`
    draws of `leaf`), or runs `glyph` when given; a line showing "A" `shows` times in it, after
    a line in Helvetica. PDFium parses the glyph procedure when it measures the glyph.

    At ae720c0, 4 levels of 32 (2^20 draws) are read in 5 s at 1.8 GB; 6 levels (2^30) abort
    the process (SIGABRT, 16 s): the preflight does not look into fonts."""
    first = 20
    objects: dict[int, bytes] = {**catalog_and_pages([4]), 3: FONT}
    objects.update(_forms(first, levels, fan, operands, resources, (b"/FlateDecode",), leaf))
    xobjects = _xobjects(first, levels, resources)
    objects[6] = (
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] "
        b"/FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a 7 0 R >> "
        b"/Encoding << /Type /Encoding /Differences [65 /a] >> /FirstChar 65 /LastChar 65 "
        b"/Widths [1000] /Resources << /Font << /F1 3 0 R >> /XObject << %s >> >> >>" % xobjects
    )
    procedure = glyph if glyph is not None else draw(b"X0", operands[0])
    objects[7] = encoded_stream(b"1000 0 0 0 1000 1000 d1\n" + procedure)
    objects[4] = page(
        b"5 0 R", b"<< /Font << /F1 3 0 R /T3 6 0 R >> /XObject << %s >> >>" % xobjects
    )
    objects[5] = encoded_stream(
        text_content("Text before the glyphs.")
        + b"\nBT /T3 12 Tf 72 600 Td (%s) Tj ET" % (b"A" * shows)
    )
    return pdf_file(objects)


# -- inline images ---------------------------------------------------------------------------------


def inline_image(
    mib: int, filters: Sequence[bytes] = (b"/Fl",), size: tuple[int, int] = (1, 1)
) -> bytes:
    """An inline image (`BI` .. `EI`) of `size` pixels (width, height) whose data `filters`
    decode to `mib` MiB of zeros (`pdf_parts.bombed_data`)."""
    data = bombed_data(filters, mib)
    return b"BI /W %d /H %d /BPC 8 /CS /G /F %s ID\n%s\nEI" % (
        *size,
        filter_names(filters),
        data,
    )


def inline_image_bomb(
    mib: int = 1024,
    *,
    images: int = 1,
    image_filters: Sequence[bytes] = (b"/Fl",),
    stream_filters: Sequence[bytes] = (b"/FlateDecode",),
    size: tuple[int, int] = (1, 1),
) -> bytes:
    """A page whose content stream (encoded by `stream_filters`: with flate, a few KB) holds
    `images` inline images of `size` pixels whose data (about `mib` KB) `image_filters`
    decode to `mib` MiB of zeros, between two lines of text.

    At ae720c0 one image of 1 GiB aborts the process (SIGABRT at 3.8 GB, 8 s): PDFium
    inflates the whole image to find where it ends; the content stream is 1 MB, under the
    preflight's bound."""
    image = inline_image(mib, image_filters, size)
    content = (
        text_content("Text before the image.")
        + b"\n"
        + b"\n".join([image] * images)
        + b"\n"
        + text_content("Text after the image.", top=600)
    )
    return one_page(encoded_stream(content, b"", stream_filters))


def inline_jpegs(
    count: int = 20, size: tuple[int, int] = (65_000, 65_000), *, image_filter: bytes = b"/DCT"
) -> bytes:
    """A page of `count` inline JPEG images (`/F /DCT`), each claiming `size` pixels (width,
    height) in its frame header and its `/W` and `/H`, between two lines of text.

    At ae720c0, 20 images of 65000 x 65000 take 33 s (50 MB): PDFium decodes every line of
    each to find where it ends."""
    image = jpeg(*size)
    ops = [text_content("Text before the images.")]
    for k in range(count):
        ops.append(
            b"q 10 0 0 10 %d 500 cm BI /W %d /H %d /BPC 8 /CS /G /F %s ID\n%s\nEI Q"
            % (20 + 12 * (k % 40), *size, image_filter, image)
        )
    ops.append(text_content("Text after the images.", top=400))
    return one_page(encoded_stream(b"\n".join(ops)))


# -- fonts -----------------------------------------------------------------------------------------


def unicode_expansion(
    expansion: int = 16_000,
    shows: int = 2_000,
    *,
    codes: int = 1,
    split: int = 1,
    ranges: bool = False,
) -> bytes:
    """A Helvetica font whose ToUnicode CMap maps each of `codes` codes (from "A") to
    `expansion` characters (`bfchar`, or `bfrange` when `ranges`), and a line showing those
    codes `shows` times in all, in `split` strings, after a line of plain text.

    At ae720c0, 16,000 characters shown 2,000 times abort the process (SIGABRT, 2 s)."""
    units = b"".join(b"%04X" % (0x61 + k % 26) for k in range(expansion))
    if ranges:
        entries = b"<41> <%02X> [%s]" % (
            0x40 + codes,
            b" ".join(b"<%s>" % units for _ in range(codes)),
        )
        section = b"1 beginbfrange\n%s\nendbfrange" % entries
    else:
        entries = b"\n".join(b"<%02X> <%s>" % (0x41 + c, units) for c in range(codes))
        section = b"%d beginbfchar\n%s\nendbfchar" % (codes, entries)
    cmap = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
        b"/CMapName /Hostile def 1 begincodespacerange <00> <FF> endcodespacerange "
        b"%s endcmap CMapName currentdict /CMap defineresource pop end end" % section
    )
    font = (
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding "
        b"/ToUnicode 6 0 R >>"
    )
    glyphs = bytes(0x41 + k % codes for k in range(shows))
    per = max(1, -(-shows // split))
    strings = b" ".join(b"(%s) Tj" % glyphs[k : k + per] for k in range(0, shows, per))
    content = text_content("Text before the expansion.")
    content += b"\nBT /F2 1 Tf 72 600 Td %s ET" % strings
    return one_page(
        encoded_stream(content),
        b"<< /Font << /F1 3 0 R /F2 7 0 R >> >>",
        o6=encoded_stream(cmap),
        o7=font,
    )


def embedded_font_bomb(
    mib: int = 3072, *, filters: Sequence[bytes] = (b"/FlateDecode", b"/FlateDecode")
) -> bytes:
    """A page showing "AAA" in an embedded TrueType font whose decoded `/FontFile2` is a real
    program (`pdf_parts.tiny_truetype`) followed by `mib` MiB of zeros, after a line in
    Helvetica. `filters` encode the font file (flate twice: a few KB; once: about `mib` KB).

    At ae720c0, 3 GiB abort the process (SIGABRT at 3.5 GB, 3 s): PDFium decodes the whole
    program when it loads the font."""
    program = tiny_truetype()
    data = bombed_data(filters, mib, prefix=program)
    font_file = encoded_stream(data, b"/Length1 %d " % len(program), filters, encoded=True)
    font = (
        b"<< /Type /Font /Subtype /TrueType /BaseFont /Hostile /FirstChar 65 /LastChar 65 "
        b"/Widths [1000] /Encoding /WinAnsiEncoding /FontDescriptor 8 0 R >>"
    )
    descriptor = (
        b"<< /Type /FontDescriptor /FontName /Hostile /Flags 32 /FontBBox [0 0 1000 1000] "
        b"/ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 9 0 R >>"
    )
    content = text_content("Text before the font.") + b"\nBT /F2 12 Tf 72 600 Td (AAA) Tj ET"
    return one_page(
        encoded_stream(content),
        b"<< /Font << /F1 3 0 R /F2 7 0 R >> >>",
        o7=font,
        o8=descriptor,
        o9=font_file,
    )


# -- state that every later object copies --------------------------------------------------------


def marked_content_nesting(
    levels: int = 200_000, *, operator: bytes = b"BMC", glyph_every: int = 0
) -> bytes:
    """A page that opens `levels` marked-content sequences (`/P BMC`, or `/P<<>>BDC` as
    `operator` b"BDC"), closing none, with a one-glyph text object after every `glyph_every`
    of them (0: none), and a line of text at the end.

    At ae720c0, 200,000 levels abort the process (SIGABRT, 3 s, 2.7 GB); 20,000 levels with a
    glyph at each take 2.5 GB."""
    tag = b"/P BMC " if operator == b"BMC" else b"/P<<>>BDC "
    glyph = b"BT /F1 1 Tf 72 100 Td (a) Tj ET\n"
    unit = tag * glyph_every + b"\n" + glyph if glyph_every else tag + b"\n"
    body = repeated(unit, levels // max(glyph_every, 1), suffix=text_content("Text inside."))
    return one_page(encoded_stream(body, encoded=True))


CLIP_SHAPES = {
    "shifted": (b"0 0 600 800 re", b"1 0 600 800 re"),
    "triangle": (b"0 0 m 600 0 l 0 800 l h",),
    "same": (b"0 0 600 800 re",),
}
"""Clip paths `clip_flood` draws in turn. PDFium replaces the last clip rectangle by a new one
it contains, so "same" does not grow the clip (nor does the review's `0 0 1 1 re W n`);
rectangles that do not contain each other ("shifted") and other paths ("triangle") are each
kept."""


def clip_flood(
    count: int = 40_000, *, rule: bytes = b"W", shape: str = "shifted", glyph: bool = True
) -> bytes:
    """A page that intersects the clip with a path of `CLIP_SHAPES[shape]` `count` times
    (`W n`, or `W* n` as `rule`), each followed (when `glyph`) by a one-glyph text object inside
    the clip, then a line of text. PDFium keeps the clip so far with every text object.

    At ae720c0, 10,000 shifted clips cost PDFium 1.1 GB; 40,000 abort the process."""
    paths = CLIP_SHAPES[shape]
    show = b" BT /F1 1 Tf 72 100 Td (a) Tj ET" if glyph else b""
    unit = b"".join(b"%s %s n%s\n" % (path, rule, show) for path in paths)
    body = repeated(unit, count // len(paths), suffix=text_content("Text after the clips."))
    return one_page(encoded_stream(body, encoded=True))


# -- the page dictionary, tables and text ---------------------------------------------------------

_LINK = (
    b"<< /Type /Annot /Subtype /Link /Rect [72 700 200 712] /Border [0 0 0] "
    b"/A << /S /URI /URI (https://example.com/) >> >>"
)


def annotation_flood(count: int = 200_000, *, indirect: bool = False) -> bytes:
    """A page whose `/Annots` array holds `count` link annotations written inline (118 bytes
    each), or, when `indirect`, `count` references to one annotation object.

    At ae720c0, 200,000 inline links (23 MB) take 21 s (pdfminer parsing the page
    dictionary)."""
    if indirect:
        annots = b"[" + b" ".join([b"6 0 R"] * count) + b"]"
    else:
        annots = b"[" + b"\n".join([_LINK] * count) + b"]"
    body = page(b"5 0 R")[:-2] + b"/Annots %s >>" % annots
    return pdf_file(
        {
            **catalog_and_pages([4]),
            3: FONT,
            4: body,
            5: encoded_stream(text_content("A page with many links.")),
            6: _LINK,
        }
    )


def long_string(chars: int = 180_000, *, size: float = 1, form: str = "literal") -> bytes:
    """A page showing one string of `chars` characters (numbered words "w000001. ", 9
    characters each) in Helvetica at `size` pt, written as a literal string, a hex string or a
    one-string `TJ` array (`form` "literal", "hex" or "array"), after a line of text.

    At ae720c0, 180,000 characters give 32,767 of them and no warning: PDFium's text of the
    page stops there."""
    words = b"".join(b"w%06d. " % k for k in range(-(-chars // 9)))[:chars]
    if form == "literal":
        shown = b"(%s) Tj" % words
    elif form == "hex":
        shown = b"<%s> Tj" % words.hex().encode()
    elif form == "array":
        shown = b"[(%s)] TJ" % words
    else:
        raise ValueError(f"unknown string form {form!r}")
    content = text_content("Text before the string.")
    content += b"\nBT /F1 %g Tf 10 600 Td %s ET" % (size, shown)
    return one_page(encoded_stream(content))


def filled_grid() -> bytes:
    """`hostile_pdf.ruled_grid` of 300 x 400 cells with a digit in every cell (120,000 glyphs).

    At ae720c0 it takes 2 s: the page stops at 100,000 glyphs and its rulings exceed the table
    finder's bounds (the review's 191 s was not reproduced)."""
    return ruled_grid(300, 400, filled=400)


CASES: list[HostileCase] = [
    HostileCase("pdf/fanout-escaped-names", "fanout-escaped.pdf", fan_out),
    HostileCase(
        "pdf/fanout-comment-before-do",
        "fanout-comment.pdf",
        lambda: fan_out(operands=("comment",)),
    ),
    HostileCase(
        "pdf/fanout-missing-resources",
        "fanout-missing.pdf",
        lambda: fan_out(operands=("plain",), resources="missing"),
    ),
    HostileCase(
        "pdf/fanout-string-operands", "fanout-string.pdf", lambda: fan_out(operands=("string",))
    ),
    HostileCase("pdf/fanout-hex-operands", "fanout-hex.pdf", lambda: fan_out(operands=("hex",))),
    HostileCase("pdf/type3-glyph-fanout", "type3-fanout.pdf", type3_fan_out),
    HostileCase("pdf/inline-image-inflation", "inline-image-bomb.pdf", inline_image_bomb),
    HostileCase("pdf/tounicode-expansion", "tounicode.pdf", unicode_expansion),
    HostileCase("pdf/embedded-font-bomb", "font-bomb.pdf", embedded_font_bomb),
    HostileCase("pdf/marked-content-nesting", "bmc.pdf", marked_content_nesting),
    HostileCase(
        "pdf/marked-content-nesting-bdc",
        "bdc.pdf",
        lambda: marked_content_nesting(operator=b"BDC"),
    ),
    HostileCase("pdf/clip-flood", "clips.pdf", clip_flood),
    HostileCase("pdf/inline-jpeg-dimensions", "jpegs.pdf", inline_jpegs),
    HostileCase("pdf/annotation-flood", "annots.pdf", annotation_flood),
    HostileCase("pdf/dense-ruled-grid-filled", "grid-filled.pdf", filled_grid),
    HostileCase("pdf/long-text-string", "long-string.pdf", long_string),
]
