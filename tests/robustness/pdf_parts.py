"""Parts of hand-written hostile PDFs: encoded streams, `Do` operands, repeated content built in
constant memory, a tiny TrueType program and a JPEG that lies about its size.

`hostile_pdf` writes whole files (`pdf_file`, `flate_bomb`); these are the pieces
`hostile_pdfium` and `generate_pdfium` assemble them from. Everything is deterministic.
"""

from __future__ import annotations

import base64
import binascii
import struct
import zlib
from collections.abc import Sequence

from tests.robustness.hostile_pdf import FONT, catalog_and_pages, page, pdf_file

__all__ = [
    "FLATE",
    "FORM",
    "OPERANDS",
    "bombed_data",
    "draw",
    "encoded_stream",
    "filter_names",
    "jpeg",
    "one_page",
    "repeated",
    "tiny_truetype",
]

FORM = b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] "
"""The start of a form XObject's dictionary."""

FLATE = (b"/FlateDecode", b"/Fl")
_HEX = (b"/ASCIIHexDecode", b"/AHx")
_A85 = (b"/ASCII85Decode", b"/A85")

OPERANDS = ("plain", "escaped", "partly-escaped", "comment", "string", "hex")
"""How a `Do` operand may be written: `/X1 Do`, `/#58#31 Do`, `/X#31 Do`, `/X1 %c<newline> Do`,
`(X1) Do`, `<5831> Do`. PDFium (at 159.0.8149) draws the form named X1 for each."""

_JPEG_8X8 = base64.b64decode(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4"
    "UG1RV19iZ2hnPk1xeXBkeFxlZ2P/wAALCAAIAAgBAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QA"
    "tRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0"
    "NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2"
    "t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/ACv/2Q=="
)
"""A baseline grayscale JPEG of 8 x 8 pixels (written once by Pillow)."""


def filter_names(filters: Sequence[bytes]) -> bytes:
    """The value of a `/Filter` entry: one name, or an array of names."""
    return filters[0] if len(filters) == 1 else b"[" + b" ".join(filters) + b"]"


def _encode(data: bytes, name: bytes) -> bytes:
    if name in FLATE:
        return zlib.compress(data, 9)
    if name in _HEX:
        return binascii.hexlify(data) + b">"
    if name in _A85:
        return base64.a85encode(data) + b"~>"
    raise ValueError(f"no encoder for the filter {name!r}")


def encoded_stream(
    data: bytes,
    extra: bytes = b"",
    filters: Sequence[bytes] = (b"/FlateDecode",),
    *,
    encoded: bool = False,
) -> bytes:
    """Return a stream object's body holding `data` encoded by `filters` (PDF names, the first
    undone first: "/FlateDecode" or "/Fl", "/ASCIIHexDecode" or "/AHx", "/ASCII85Decode" or
    "/A85"), with the dictionary entries `extra`; when `encoded`, `data` already is."""
    if not encoded:
        for name in reversed(filters):
            data = _encode(data, name)
    return b"<< /Filter %s %s/Length %d >>\nstream\n%s\nendstream" % (
        filter_names(filters),
        extra,
        len(data),
        data,
    )


def bombed_data(
    filters: Sequence[bytes], mib: int, prefix: bytes = b"", byte: bytes = b"\0"
) -> bytes:
    """Return data that `filters` (the first undone first) decode to `prefix` then `mib` MiB of
    `byte`, built in constant memory: the data is kept as a head, a block repeated, and an end,
    and each filter encodes them apart (a flate filter compresses a repeated block once, as
    `hostile_pdf.flate_bomb` does, about 64 KB of the blocks before it at a time). Once data
    is deflated, a base85 filter encodes it whole. Raises `ValueError` without a flate filter,
    or for a base85 filter before it with a `prefix` not a multiple of 4 bytes."""
    if not any(name in FLATE for name in filters):
        raise ValueError("a bomb needs a flate filter")
    head, block, repeats, end = prefix, byte * (1 << 20), mib, b""
    for name in reversed(filters):
        if name in FLATE:
            group = max(1, (1 << 16) // len(block))
            block, end = block * group, block * (repeats % group) + end
            head, block, end = _deflated_parts(head, block, repeats // group, end)
            repeats //= group
        elif name in _A85 and (len(head) % 4 or len(block) % 4):
            if len(block) * repeats > 64 << 20:
                raise ValueError("a base85 prefix must be a multiple of 4 bytes")
            head, block, repeats, end = b"", b"", 0, _encode(head + block * repeats + end, name)
        else:  # -- the encoded parts concatenate: no mark but the last one --
            mark = 1 if name in _HEX else 2
            head = _encode(head, name)[:-mark] if head else b""
            block = _encode(block, name)[:-mark]
            end = _encode(end, name)
    return head + block * repeats + end


def _deflated_parts(head: bytes, block: bytes, repeats: int, end: bytes) -> tuple[bytes, ...]:
    """(start, block, end) of the zlib stream of `head`, `block` `repeats` times and `end`:
    `block` is compressed once into a byte-aligned deflate block (a full flush), and the
    checksum computed over the repeats."""
    first = zlib.compressobj(9)
    start = first.compress(head) + first.flush(zlib.Z_FULL_FLUSH)
    body = zlib.compressobj(9)
    middle = (body.compress(block) + body.flush(zlib.Z_FULL_FLUSH))[2:]  # -- no zlib header --
    last = zlib.compressobj(9)
    tail = (last.compress(end) + last.flush(zlib.Z_FULL_FLUSH))[2:]
    adler = _adler_combine(
        zlib.adler32(head), _adler_repeated(block, repeats), len(block) * repeats
    )
    adler = zlib.adler32(end, adler)
    return start, middle, tail + b"\x03\x00" + struct.pack(">I", adler)


_ADLER_BASE = 65521


def _adler_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two pieces from theirs and the second's length (zlib's
    `adler32_combine`)."""
    rem = second_length % _ADLER_BASE
    low = ((first & 0xFFFF) + (second & 0xFFFF) - 1) % _ADLER_BASE
    high = (rem * (first & 0xFFFF) + (first >> 16) + (second >> 16) - rem) % _ADLER_BASE
    return low | high << 16


def _adler_repeated(block: bytes, repeats: int) -> int:
    """The Adler-32 of `block` `repeats` times, by doubling (no pass over the repeats)."""
    total = 1  # -- the checksum of nothing --
    power, power_length = zlib.adler32(block), len(block)
    while repeats:
        if repeats & 1:
            total = _adler_combine(total, power, power_length)
        power = _adler_combine(power, power, power_length)
        power_length *= 2
        repeats >>= 1
    return total


def draw(name: bytes, operand: str = "plain") -> bytes:
    """Return the operator drawing the XObject `name` (e.g. b"X1") with its operand written as
    `operand` (one of `OPERANDS`)."""
    if operand == "plain":
        return b"/%s Do" % name
    if operand == "escaped":
        return b"/" + b"".join(b"#%02X" % c for c in name) + b" Do"
    if operand == "partly-escaped":
        return b"/%s#%02X Do" % (name[:-1], name[-1])
    if operand == "comment":
        return b"/%s %%c\n Do" % name
    if operand == "string":
        return b"(%s) Do" % name
    if operand == "hex":
        return b"<%s> Do" % binascii.hexlify(name)
    raise ValueError(f"unknown operand form {operand!r}")


def repeated(unit: bytes, count: int, prefix: bytes = b"", suffix: bytes = b"") -> bytes:
    """Return `prefix`, `unit` `count` times, then `suffix`, deflated in constant memory
    (one deflated block of about 64 KB of units, repeated)."""
    per = max(1, (1 << 16) // len(unit))
    parts = _deflated_parts(prefix, unit * per, count // per, unit * (count % per) + suffix)
    return parts[0] + parts[1] * (count // per) + parts[2]


def one_page(
    content: bytes, resources: bytes = b"<< /Font << /F1 3 0 R >> >>", **objects: bytes
) -> bytes:
    """A one-page PDF: catalog 1, pages 2, Helvetica 3, the page 4 (with `resources`) drawing
    the stream body `content` (object 5); `objects` add numbered objects ("o6"=... is 6)."""
    extra = {int(key[1:]): value for key, value in objects.items()}
    return pdf_file(
        {**catalog_and_pages([4]), 3: FONT, 4: page(b"5 0 R", resources), 5: content, **extra}
    )


def jpeg(width: int, height: int) -> bytes:
    """A baseline JPEG whose frame header claims `width` x `height` pixels (at most 65535 each);
    its scan holds 8 x 8."""
    frame = _JPEG_8X8.index(b"\xff\xc0")
    return _JPEG_8X8[: frame + 5] + struct.pack(">HH", height, width) + _JPEG_8X8[frame + 9 :]


def tiny_truetype() -> bytes:
    """A valid TrueType program (FreeType loads it) of two glyphs, .notdef and a square for
    "A", 1000 units to the em, with a (3, 1) cmap: the tables FreeType needs and no more."""
    square = struct.pack(">hhhhhHH", 1, 0, 0, 1000, 1000, 3, 0) + bytes([1, 1, 1, 1])
    square += struct.pack(">4h4h", 0, 1000, 0, -1000, 0, 0, 1000, 0)
    cmap4 = struct.pack(">7H", 4, 32, 0, 4, 4, 1, 0)
    cmap4 += struct.pack(">2HH2H2h2H", 0x41, 0xFFFF, 0, 0x41, 0xFFFF, 1 - 0x41, 1, 0, 0)
    head = (0x10000, 0x10000, 0, 0x5F0F3CF5, 0, 1000, 0, 0, 0, 0, 1000, 1000, 0, 8, 2, 0, 0)
    hhea = (0x10000, 800, -200, 0, 1000, 0, 0, 1000, 1, 0, 0, 0, 0, 0, 0, 0, 2)
    tables = {
        b"cmap": struct.pack(">HHHHI", 0, 1, 3, 1, 12) + cmap4,
        b"glyf": square,
        b"head": struct.pack(">IIIIHHqqhhhhHHhhh", *head),
        b"hhea": struct.pack(">IhhhHhhhhhh4hhH", *hhea),
        b"hmtx": struct.pack(">HhHh", 500, 0, 1000, 0),
        b"loca": struct.pack(">3H", 0, 0, len(square) // 2),
        b"maxp": struct.pack(">IH13H", 0x10000, 2, 4, 1, 0, 0, 2, *[0] * 8),
        b"post": struct.pack(">IIhhIIIII", 0x30000, 0, -100, 50, 0, 0, 0, 0, 0),
    }
    count = len(tables)
    power = 1 << (count.bit_length() - 1)
    shift = power.bit_length() - 1
    header = struct.pack(">IHHHH", 0x10000, count, power * 16, shift, (count - power) * 16)
    offset = len(header) + 16 * count
    directory, body = b"", b""
    for tag, table in sorted(tables.items()):
        padded = table + b"\0" * (-len(table) % 4)
        checksum = sum(struct.unpack(f">{len(padded) // 4}I", padded)) & 0xFFFFFFFF
        directory += struct.pack(">4sIII", tag, checksum, offset + len(body), len(table))
        body += padded
    return header + directory + body
