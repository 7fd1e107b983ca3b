"""Hostile PDF files, built in code: reference cycles, bombs, floods, fan-outs, huge numbers.

Each builder writes a PDF by hand with `pdf_file` (numbered objects, a correct cross-reference
table or stream, deterministic bytes); compressed bombs are built in constant memory
(`flate_bomb`). The PDF partitioner's regression tests (`tests/partitioners/pdf/
test_pdf_hostile.py`) partition the same bytes and assert the exact result; the bounds they meet
are listed in `partita/partitioners/pdf/_limits.py`.
"""

from __future__ import annotations

import base64
import io
import struct
import zlib
from collections.abc import Mapping

from tests.robustness.cases import HostileCase

__all__ = [
    "CASES",
    "FONT",
    "catalog_and_pages",
    "compressed_stream",
    "flate_bomb",
    "one_page",
    "page",
    "pdf_file",
    "stream",
    "text_content",
]

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
"""A standard 14 font: no font file, so no stream to decode."""

_HUGE_REAL = b"9" * 400 + b".0"
"""A real number that overflows a double: pdfminer reads it as infinity."""

_HUGE_INT = b"9" * 400
"""An integer far beyond PDF's 32 bits, which Python reads exactly."""


# -- writing PDFs ----------------------------------------------------------------------------------


def stream(data: bytes, extra: bytes = b"") -> bytes:
    """Return a stream object's body: its dictionary (with `extra` entries) and `data`, flate
    compressed."""
    return compressed_stream(zlib.compress(data, 9), extra)


def compressed_stream(data: bytes, extra: bytes = b"") -> bytes:
    """Return a stream object's body holding already flate-compressed `data`."""
    return b"<< /Filter /FlateDecode %s/Length %d >>\nstream\n%s\nendstream" % (
        extra,
        len(data),
        data,
    )


def flate_bomb(prefix: bytes, filler: bytes, repeats: int, suffix: bytes = b"") -> bytes:
    """Return a zlib stream of `prefix`, `filler` `repeats` times, then `suffix`, built in
    constant memory: `filler` is compressed once into a byte-aligned block (a full flush) that is
    repeated, and the checksum is computed over the repeats."""
    first = zlib.compressobj(9)
    start = first.compress(prefix) + first.flush(zlib.Z_FULL_FLUSH)
    body = zlib.compressobj(9)
    block = (body.compress(filler) + body.flush(zlib.Z_FULL_FLUSH))[2:]  # -- no zlib header --
    last = zlib.compressobj(9)
    end = (last.compress(suffix) + last.flush(zlib.Z_FULL_FLUSH))[2:]
    adler = zlib.adler32(prefix)
    for _ in range(repeats):
        adler = zlib.adler32(filler, adler)
    adler = zlib.adler32(suffix, adler)
    return start + block * repeats + end + b"\x03\x00" + struct.pack(">I", adler)


def pdf_file(
    objects: Mapping[int, bytes], *, root: int = 1, trailer: bytes = b"", padding: int = 0
) -> bytes:
    """Return a PDF file holding `objects` (number -> body) and a cross-reference table whose
    trailer adds the entries `trailer`; `padding` bytes of a comment make the file larger."""
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    if padding:
        out.write(b"%" + b"x" * padding + b"\n")
    offsets: dict[int, int] = {}
    for number in sorted(objects):
        offsets[number] = out.tell()
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, objects[number]))
    size = max(objects) + 1
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % size)
    for number in range(1, size):
        if number in offsets:
            out.write(b"%010d 00000 n \n" % offsets[number])
        else:
            out.write(b"0000000000 65535 f \n")
    out.write(
        b"trailer\n<< /Size %d /Root %d 0 R %s>>\nstartxref\n%d\n%%%%EOF\n"
        % (size, root, trailer, xref)
    )
    return out.getvalue()


def catalog_and_pages(kids: list[int]) -> dict[int, bytes]:
    """Objects 1 (catalog) and 2 (the page tree root, over the page objects `kids`)."""
    refs = b" ".join(b"%d 0 R" % kid for kid in kids)
    return {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [%s] /Count %d >>" % (refs, len(kids)),
    }


def page(
    contents: bytes,
    resources: bytes = b"<< /Font << /F1 3 0 R >> >>",
    mediabox: bytes = b"[0 0 612 792]",
) -> bytes:
    """A page object whose `/Contents` entry is `contents` (e.g. b"5 0 R" or an array)."""
    return b"<< /Type /Page /Parent 2 0 R /MediaBox %s /Resources %s /Contents %s >>" % (
        mediabox,
        resources,
        contents,
    )


def text_content(*lines: str, size: float = 12, top: float = 720) -> bytes:
    """Content operators that show `lines` in /F1 at `size`, one below the other from `top`."""
    ops = [b"BT /F1 %g Tf 14 TL 72 %g Td" % (size, top)]
    for line in lines:
        ops.append(b"(%s) Tj T*" % line.encode("latin-1"))
    ops.append(b"ET")
    return b" ".join(ops)


def one_page(content: bytes, **objects: bytes) -> bytes:
    """A one-page PDF whose page (object 4) draws the stream body `content` (object 5); keyword
    arguments replace the page's `resources` or `mediabox`."""
    return pdf_file({**catalog_and_pages([4]), 3: FONT, 4: page(b"5 0 R", **objects), 5: content})


# -- reference cycles and chains, page trees -----------------------------------------------------


def self_referencing_page_tree() -> bytes:
    """207 bytes: the catalog's /Pages is object 2, whose value is a reference to itself."""
    return pdf_file({1: b"<< /Type /Catalog /Pages 2 0 R >>", 2: b"2 0 R"})


def self_referencing_contents() -> bytes:
    """A page whose /Contents are a text stream and object 6, a reference to itself."""
    return pdf_file(
        {
            **catalog_and_pages([4]),
            3: FONT,
            4: page(b"[5 0 R 6 0 R]"),
            5: stream(text_content("Text before the cycle.")),
            6: b"6 0 R",
        }
    )


def reference_cycle() -> bytes:
    """The page's /XObject resources and first content stream are references that cycle
    (7 -> 8 -> 7), its text in a second content stream."""
    return pdf_file(
        {
            **catalog_and_pages([4]),
            3: FONT,
            4: page(b"[7 0 R 5 0 R]", b"<< /Font << /F1 3 0 R >> /XObject 8 0 R >>"),
            5: stream(text_content("Text after the cycle.")),
            7: b"8 0 R",
            8: b"7 0 R",
        }
    )


def long_reference_chain(length: int = 5_000) -> bytes:
    """The page's /Contents is the first of `length` objects each referring to the next; the
    last is the text stream."""
    objects = {**catalog_and_pages([4]), 3: FONT, 4: page(b"10 0 R")}
    for k in range(length - 1):
        objects[10 + k] = b"%d 0 R" % (11 + k)
    objects[10 + length - 1] = stream(text_content("Text at the end of the chain."))
    return pdf_file(objects)


def deep_page_tree(depth: int = 3_000) -> bytes:
    """A page tree `depth` levels deep: each /Pages node's only kid is the next one."""
    objects = {1: b"<< /Type /Catalog /Pages 10 0 R >>", 3: FONT}
    for k in range(depth):
        objects[10 + k] = b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % (11 + k)
    objects[10 + depth] = (
        b"<< /Type /Page /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
        b"/Contents 5 0 R >>"
    )
    objects[5] = stream(text_content("Text at the bottom of the page tree."))
    return pdf_file(objects)


def xref_prev_cycle(entries: int = 60_000) -> bytes:
    """1.2 MB: a cross-reference table of `entries` entries whose trailer's /Prev names the
    table itself."""
    objects = {
        **catalog_and_pages([4]),
        3: FONT,
        4: page(b"5 0 R"),
        5: stream(text_content("Text of a file whose cross-reference repeats.")),
        entries: b"null",
    }
    data = pdf_file(objects)
    start = int(data[data.rindex(b"startxref\n") + 10 :].split()[0])
    return data.replace(b"/Root 1 0 R >>", b"/Root 1 0 R /Prev %d >>" % start)


def huge_xref_range() -> bytes:
    """No page tree, and a cross-reference stream whose /Index claims a billion objects: pdfminer
    looks for pages among all of them."""
    body = [
        b"%PDF-1.7\n",
    ]
    objects = {
        1: b"<< /Type /Catalog >>",
        3: FONT,
        4: b"<< /Type /Page /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
        b"/Contents 5 0 R >>",
        5: stream(text_content("A page outside any page tree.")),
    }
    out = io.BytesIO()
    out.write(b"".join(body))
    offsets = {}
    for number, value in sorted(objects.items()):
        offsets[number] = out.tell()
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, value))
    entries = b"".join(
        struct.pack(">BIH", 1, offsets[n], 0) if n in offsets else struct.pack(">BIH", 0, 0, 0)
        for n in range(6)
    )
    xref = out.tell()
    out.write(
        b"6 0 obj\n%s\nendobj\nstartxref\n%d\n%%%%EOF\n"
        % (
            stream(
                entries,
                b"/Type /XRef /Size 1000000000 /Index [0 1000000000] /W [1 4 2] /Root 1 0 R ",
            ),
            xref,
        )
    )
    return out.getvalue()


# -- bombs -----------------------------------------------------------------------------------------


def flate_bomb_contents() -> bytes:
    """1.5 MB: a content stream that inflates to 1.5 GB (a line of text, then spaces)."""
    data = flate_bomb(text_content("Text before the bomb.") + b"\n", b" " * (1 << 20), 1500)
    return one_page(compressed_stream(data))


def double_flate_bomb() -> bytes:
    """A content stream deflated twice: a few KB inflate to 1.5 MB, which inflate to 1.5 GB."""
    first = zlib.compressobj(9)
    start = first.compress(text_content("Text before the bomb.") + b"\n")
    start += first.flush(zlib.Z_FULL_FLUSH)
    body = zlib.compressobj(9)
    block = (body.compress(b" " * (1 << 20)) + body.flush(zlib.Z_FULL_FLUSH))[2:]
    # -- the inner stream, `start + block * 1500 + end`, deflated again block by block --
    adler = zlib.adler32(text_content("Text before the bomb.") + b"\n")
    for _ in range(1500):
        adler = zlib.adler32(b" " * (1 << 20), adler)
    end = b"\x03\x00" + struct.pack(">I", adler)
    outer = flate_bomb(start, block, 1500, end)
    return one_page(
        b"<< /Filter [/FlateDecode /FlateDecode] /Length %d >>\nstream\n%s\nendstream"
        % (len(outer), outer)
    )


def object_stream_bomb() -> bytes:
    """The page's font lives in an object stream whose 16 MB of `[` (16 million tokens to
    parse) inflate from 16 KB."""
    objects = b"3 0 "
    data = flate_bomb(objects + FONT + b" ", b"[" * (1 << 20), 16)
    body = {
        **catalog_and_pages([4]),
        4: page(b"5 0 R"),
        5: stream(text_content("Text in a font from a bombed object stream.")),
        6: compressed_stream(data, b"/Type /ObjStm /N 1 /First %d " % len(objects)),
    }
    # -- object 3 is the first object of stream 6: a cross-reference stream says so --
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n")
    offsets = {}
    for number, value in sorted(body.items()):
        offsets[number] = out.tell()
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, value))
    entries = b"".join(
        struct.pack(">BIH", 2, 6, 0)
        if n == 3
        else struct.pack(">BIH", 1, offsets[n], 0)
        if n in offsets
        else struct.pack(">BIH", 0, 0, 0)
        for n in range(7)
    )
    xref = out.tell()
    out.write(
        b"7 0 obj\n%s\nendobj\nstartxref\n%d\n%%%%EOF\n"
        % (stream(entries, b"/Type /XRef /Size 7 /W [1 4 2] /Root 1 0 R "), xref)
    )
    return out.getvalue()


def cmap_range_bomb() -> bytes:
    """A font whose ToUnicode CMap maps one range of four billion codes (`bfrange`)."""
    cmap = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
        b"1 begincodespacerange <00> <FF> endcodespacerange "
        b"1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange endcmap end end"
    )
    font = (
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding "
        b"/ToUnicode 6 0 R >>"
    )
    return pdf_file(
        {
            **catalog_and_pages([4]),
            3: font,
            4: page(b"5 0 R"),
            5: stream(text_content("Text in a font with a huge CMap.")),
            6: stream(cmap),
        }
    )


def _cid_font_pdf(widths: bytes, font_file: bytes | None) -> bytes:
    """A page with a line in Helvetica and a word (CIDs 1-5) in an Identity-H CID font whose
    `/W` array is `widths` and whose TrueType font file, when given, is `font_file`."""
    descriptor = b"<< /Type /FontDescriptor /FontName /Hostile /Flags 4 /ItalicAngle 0 >>"
    if font_file is not None:
        descriptor = descriptor[:-2] + b"/FontFile2 9 0 R >>"
    objects = {
        **catalog_and_pages([4]),
        3: FONT,
        4: page(b"5 0 R", b"<< /Font << /F1 3 0 R /F2 6 0 R >> >>"),
        5: stream(
            text_content("Text in a standard font.") + b" BT /F2 12 Tf 72 600 Td <00010002> Tj ET"
        ),
        6: b"<< /Type /Font /Subtype /Type0 /BaseFont /Hostile /Encoding /Identity-H "
        b"/DescendantFonts [7 0 R] >>",
        7: b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Hostile /CIDSystemInfo "
        b"<< /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 8 0 R "
        b"/W %s >>" % widths,
        8: descriptor,
    }
    if font_file is not None:
        objects[9] = stream(font_file)
    return pdf_file(objects)


def cid_widths_range() -> bytes:
    """A CID font whose `/W` gives one width to the CIDs 0 to 4,000,000,000."""
    return _cid_font_pdf(b"[0 4000000000 500]", None)


def truetype_cmap_range() -> bytes:
    """An embedded TrueType font (and no ToUnicode) whose cmap maps codes 0 to 2**32-1 in one
    format-12 group."""
    subtable = struct.pack(">HHIII", 12, 0, 28, 0, 1) + struct.pack(">III", 0, 0xFFFFFFFF, 0)
    cmap = struct.pack(">HH", 0, 1) + struct.pack(">HHL", 3, 10, 12) + subtable
    header = b"\x00\x01\x00\x00" + struct.pack(">HHHH", 1, 0, 0, 0)
    font = header + struct.pack(">4sLLL", b"cmap", 0, 28, len(cmap)) + cmap
    return _cid_font_pdf(b"[]", font)


def ascii85_whitespace(spaces: int = 400_000) -> bytes:
    """An ASCII85 content stream led by `spaces` spaces: pdfminer's regular expressions for
    its `<~` and `~>` marks backtrack over them quadratically."""
    encoded = base64.a85encode(text_content("Text after the spaces."))
    data = b" " * spaces + encoded + b"~>"
    return one_page(
        b"<< /Filter /ASCII85Decode /Length %d >>\nstream\n%s\nendstream" % (len(data), data)
    )


def predictor_flood() -> bytes:
    """A content stream of 60 MB, inflated from 60 KB, behind a PNG predictor that pdfminer
    undoes byte by byte in Python."""
    row = b"\x00" + b" " * 1023  # -- filter type 0 (none), then a row of 1,023 spaces --
    data = flate_bomb(b"\x00" + b" " * 1023, row * 1024, 60)
    return one_page(compressed_stream(data, b"/DecodeParms << /Predictor 12 /Columns 1023 >> "))


def png_predictor_columns() -> bytes:
    """A content stream with a PNG predictor of ten billion columns (a row buffer of 10 GB),
    its data one short row."""
    data = zlib.compress(b"\x00" + text_content("Text behind a predictor."), 9)
    return one_page(
        compressed_stream(data, b"/DecodeParms << /Predictor 12 /Columns 10000000000 >> ")
    )


def string_of_escapes(count: int = 1_000_000) -> bytes:
    """The document's /Title is a string of `count` escapes (2 MB): pdfminer's lexer copied the
    string once per escape."""
    title = b"(" + b"\\n" * count + b")"
    return pdf_file(
        {
            **catalog_and_pages([4]),
            3: FONT,
            4: page(b"5 0 R"),
            5: stream(text_content("Text of a document with a long title.")),
            6: b"<< /Title %s >>" % title,
        },
        trailer=b"/Info 6 0 R ",
    )


# -- floods and fan-outs ---------------------------------------------------------------------------


def operator_flood(padding: int = 0) -> bytes:
    """114 KB (plus `padding`): 45 MB of path operators, 20 million tokens."""
    ops = b"0 0 m 10 10 l S " * 4096
    data = flate_bomb(text_content("Text before the flood.") + b"\n", ops, 700)
    return pdf_file(
        {**catalog_and_pages([4]), 3: FONT, 4: page(b"5 0 R"), 5: compressed_stream(data)},
        padding=padding,
    )


def glyph_flood() -> bytes:
    """35 KB: 12.8 million glyphs, 1,000 to a string."""
    shows = (b"(" + b"A" * 1000 + b") Tj ") * 64
    data = flate_bomb(b"BT /F1 1 Tf 72 720 Td (Text before the flood.) Tj\n", shows, 200)
    return one_page(compressed_stream(data))


def huge_string() -> bytes:
    """One string of 50 million glyphs (a 50 MB token), after a line of text."""
    data = flate_bomb(
        text_content("Text before the string.") + b" BT /F1 1 Tf 72 600 Td (",
        b"A" * (1 << 20),
        50,
        b") Tj ET",
    )
    return one_page(compressed_stream(data))


def contents_array_flood(count: int = 90_000) -> bytes:
    """A page whose /Contents array holds `count` references to one small stream (3 tokens each:
    the array stays under `_pdfminer_bounds.MAX_OBJECT_TOKENS`, so the page's bounds cut it)."""
    refs = b"[" + b" ".join([b"5 0 R"] * count) + b"]"
    return pdf_file(
        {
            **catalog_and_pages([4]),
            3: FONT,
            4: page(refs),
            5: stream(text_content("Repeated.")),
        }
    )


def xobject_fan_out(levels: int = 10, fan: int = 10) -> bytes:
    """3 KB: form XObjects X0..X`levels`, each drawing the next `fan` times, the last a word:
    the page draws X0 once, so the word would be drawn `fan` ** `levels` times."""
    objects: dict[int, bytes] = {**catalog_and_pages([4]), 3: FONT}
    first = 10
    form = b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] "
    for k in range(levels):
        draws = b" ".join([b"/X Do"] * fan)
        objects[first + k] = stream(
            draws, form + b"/Resources << /XObject << /X %d 0 R >> >> " % (first + k + 1)
        )
    objects[first + levels] = stream(
        text_content("Leaf.", top=400), form + b"/Resources << /Font << /F1 3 0 R >> >> "
    )
    objects[4] = page(b"5 0 R", b"<< /Font << /F1 3 0 R >> /XObject << /X %d 0 R >> >>" % first)
    objects[5] = stream(text_content("Text before the fan-out.") + b" /X Do")
    return pdf_file(objects)


def deep_forms(depth: int = 100) -> bytes:
    """Form XObjects nested `depth` deep, each drawing the next once; the deepest shows a word."""
    objects: dict[int, bytes] = {**catalog_and_pages([4]), 3: FONT}
    first = 10
    form = b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] "
    for k in range(depth):
        objects[first + k] = stream(
            b"/X Do", form + b"/Resources << /XObject << /X %d 0 R >> >> " % (first + k + 1)
        )
    objects[first + depth] = stream(
        text_content("Too deep.", top=400), form + b"/Resources << /Font << /F1 3 0 R >> >> "
    )
    objects[4] = page(b"5 0 R", b"<< /Font << /F1 3 0 R >> /XObject << /X %d 0 R >> >>" % first)
    objects[5] = stream(text_content("Text before the forms.") + b" /X Do")
    return pdf_file(objects)


def save_state_flood() -> bytes:
    """40 KB: 16 million `q` (save the graphics state) without a `Q`."""
    data = flate_bomb(text_content("Text before the flood.") + b"\n", b"q " * 32768, 500)
    return one_page(compressed_stream(data))


def open_array_flood() -> bytes:
    """40 KB: 32 million `[` (arrays opened, never closed) in a content stream."""
    data = flate_bomb(text_content("Text before the flood.") + b"\n", b"[" * 65536, 500)
    return one_page(compressed_stream(data))


def inline_image_flood() -> bytes:
    """An inline image whose data (8 MB of `E`, never `EI`) pdfminer gathered quadratically."""
    data = flate_bomb(
        text_content("Text before the image.") + b"\nBI /W 1 /H 1 /BPC 8 /CS /G ID ",
        b"E" * (1 << 20),
        8,
    )
    return one_page(compressed_stream(data))


def ruled_grid(
    columns: int = 300, rows: int = 400, *, vertical: bool = True, filled: int = 20
) -> bytes:
    """A page ruled into `columns` x `rows` cells (only horizontal rules unless `vertical`), a
    digit in each cell of the first column and of the last `filled` rows."""
    width, height = 2 * 72 + columns * 12, 2 * 72 + rows * 10
    ops = [b"0.2 w"]
    for r in range(rows + 1):
        y = 72 + r * 10
        ops.append(b"72 %d m %d %d l S" % (y, 72 + columns * 12, y))
    if vertical:
        for c in range(columns + 1):
            x = 72 + c * 12
            ops.append(b"%d 72 m %d %d l S" % (x, x, 72 + rows * 10))
    ops.append(b"BT /F1 6 Tf")
    for r in range(rows):
        for c in range(columns if r < filled else 1):
            y = 72 + (rows - 1 - r) * 10 + 2
            ops.append(b"1 0 0 1 %d %d Tm (%d) Tj" % (74 + c * 12, y, (r + c) % 10))
    ops.append(b"ET")
    return one_page(stream(b"\n".join(ops)), mediabox=b"[0 0 %d %d]" % (width, height))


def rules_with_prose(rules: int = 400) -> bytes:
    """`rules` horizontal rules of one width, two columns of prose between each pair: every
    region between two rules is a candidate table, and none is one."""
    height = 2 * 72 + rules * 10
    ops = [b"0.5 w"]
    for r in range(rules):
        y = 72 + r * 10
        ops.append(b"72 %d m 540 %d l S" % (y, y))
    ops.append(b"BT /F1 6 Tf")
    for r in range(rules - 1):
        y = 72 + r * 10 + 3
        ops.append(b"1 0 0 1 80 %d Tm (the quick brown fox jumps over the dog) Tj" % y)
        ops.append(b"1 0 0 1 320 %d Tm (and runs away into the woods again) Tj" % y)
    ops.append(b"ET")
    return one_page(stream(b"\n".join(ops)), mediabox=b"[0 0 612 %d]" % height)


# -- huge numbers ----------------------------------------------------------------------------------


def infinite_font_size() -> bytes:
    """A line in a font size that overflows to infinity (its height NaN), between two lines."""
    return one_page(
        stream(
            text_content("Normal text above.", top=720)
            + b" BT /F1 %s Tf 72 600 Td (Infinite size) Tj ET " % _HUGE_REAL
            + text_content("Normal text below.", top=500)
        )
    )


def infinite_text_position() -> bytes:
    """A line moved to an infinite position (`Td`), alone on its page: NaN where partita
    computed font classes."""
    return one_page(
        stream(b"BT /F1 12 Tf %s %s Td (Lost in space) Tj ET" % (_HUGE_REAL, _HUGE_REAL))
    )


def infinite_matrices() -> bytes:
    """A line drawn with an overflowing text matrix and one whose matrix overflows as a product
    (1e300 squared), around normal text."""
    big = b"1" + b"0" * 300 + b".0"
    return one_page(
        stream(
            text_content("Normal text above.", top=720)
            + b" BT /F1 12 Tf %s 0 0 %s 72 600 Tm (Infinite matrix) Tj ET "
            % (_HUGE_REAL, _HUGE_REAL)
            + b" q %s 0 0 %s 0 0 cm %s 0 0 %s 0 0 cm " % ((big,) * 4)
            + b"BT /F1 12 Tf 72 600 Td (Overflowing) Tj ET Q "
            + text_content("Normal text below.", top=500)
        )
    )


def huge_integers() -> bytes:
    """Integers of 400 digits as a font size, a kerning amount and a line width."""
    return one_page(
        stream(
            b"%s w BT /F1 %s Tf /F1 12 Tf 72 700 Td [(Huge) %s (integers)] TJ ET"
            % (_HUGE_INT, _HUGE_INT, _HUGE_INT)
        )
    )


def infinite_media_box() -> bytes:
    """A page whose /MediaBox overflows to infinity."""
    return one_page(
        stream(text_content("Text on an infinite page.")),
        mediabox=b"[0 0 %s %s]" % (_HUGE_REAL, _HUGE_REAL),
    )


def outline_web(levels: int = 40) -> bytes:
    """An outline of `levels` items, each one's /First and /Next both the next item: walked as
    a tree, 2 ** `levels` entries."""
    objects: dict[int, bytes] = {
        1: b"<< /Type /Catalog /Pages 2 0 R /Outlines 10 0 R >>",
        2: b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        3: FONT,
        4: page(b"5 0 R"),
        5: stream(
            text_content("Chapter") + b" " + text_content("Text under the chapter.", top=600)
        ),
        10: b"<< /Type /Outlines /First 11 0 R /Last 11 0 R >>",
    }
    for k in range(levels):
        nxt = 12 + k
        links = (
            b"/First %d 0 R /Last %d 0 R /Next %d 0 R " % (nxt, nxt, nxt) if k + 1 < levels else b""
        )
        objects[11 + k] = b"<< /Title (Chapter) /Dest [4 0 R /Fit] %s>>" % links
    return pdf_file(objects)


CASES: list[HostileCase] = [
    HostileCase("pdf/self-referencing-page-tree", "self-ref.pdf", self_referencing_page_tree),
    HostileCase(
        "pdf/self-referencing-contents", "self-ref-contents.pdf", self_referencing_contents
    ),
    HostileCase("pdf/reference-cycle", "cycle.pdf", reference_cycle),
    HostileCase("pdf/long-reference-chain", "chain.pdf", long_reference_chain),
    HostileCase("pdf/deep-page-tree", "deep-tree.pdf", deep_page_tree),
    HostileCase("pdf/xref-prev-cycle", "xref-prev.pdf", xref_prev_cycle),
    HostileCase("pdf/huge-xref-range", "xref-range.pdf", huge_xref_range),
    HostileCase("pdf/flate-bomb", "flate-bomb.pdf", flate_bomb_contents),
    HostileCase("pdf/double-flate-bomb", "double-flate-bomb.pdf", double_flate_bomb),
    HostileCase("pdf/object-stream-bomb", "objstm-bomb.pdf", object_stream_bomb),
    HostileCase("pdf/cmap-range-bomb", "cmap-bomb.pdf", cmap_range_bomb),
    HostileCase("pdf/cid-widths-range", "cid-widths.pdf", cid_widths_range),
    HostileCase("pdf/truetype-cmap-range", "truetype-cmap.pdf", truetype_cmap_range),
    HostileCase("pdf/png-predictor-columns", "predictor.pdf", png_predictor_columns),
    HostileCase("pdf/predictor-flood", "predictor-flood.pdf", predictor_flood),
    HostileCase("pdf/ascii85-whitespace", "ascii85.pdf", ascii85_whitespace),
    HostileCase("pdf/string-of-escapes", "escapes.pdf", string_of_escapes),
    HostileCase("pdf/operator-flood", "operators.pdf", operator_flood),
    HostileCase("pdf/operator-flood-400kb", "operators-400kb.pdf", lambda: operator_flood(300_000)),
    HostileCase("pdf/glyph-flood", "glyphs.pdf", glyph_flood),
    HostileCase("pdf/huge-string", "huge-string.pdf", huge_string),
    HostileCase("pdf/contents-array-flood", "contents-array.pdf", contents_array_flood),
    HostileCase("pdf/xobject-fan-out", "fan-out.pdf", xobject_fan_out),
    HostileCase("pdf/deep-forms", "deep-forms.pdf", deep_forms),
    HostileCase("pdf/save-state-flood", "q-flood.pdf", save_state_flood),
    HostileCase("pdf/open-array-flood", "arrays.pdf", open_array_flood),
    HostileCase("pdf/inline-image-flood", "inline-image.pdf", inline_image_flood),
    HostileCase("pdf/dense-ruled-grid", "grid.pdf", ruled_grid),
    HostileCase("pdf/rules-with-prose", "rules.pdf", rules_with_prose),
    HostileCase("pdf/infinite-font-size", "inf-size.pdf", infinite_font_size),
    HostileCase("pdf/infinite-text-position", "inf-position.pdf", infinite_text_position),
    HostileCase("pdf/infinite-matrices", "inf-matrices.pdf", infinite_matrices),
    HostileCase("pdf/huge-integers", "huge-ints.pdf", huge_integers),
    HostileCase("pdf/infinite-media-box", "inf-mediabox.pdf", infinite_media_box),
    HostileCase("pdf/outline-web", "outline.pdf", outline_web),
]
