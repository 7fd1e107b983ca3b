"""How large a stream's data decodes, measured without keeping it, and where inline data ends.

PDFium decodes some data whole while it parses a page, with no bound: an inline image's data
(to find where it ends), an embedded font program, a mesh shading. The preflight asks here how
large that data decodes, stopping as soon as the answer passes the bound it asks about, so the
question costs at most the bound's worth of work, never the bomb's.

Filters are those of the PDF specification, with the abbreviations inline images use:
ASCIIHex (`AHx`) and ASCII85 (`A85`) are decoded (they only shrink), then Flate (`Fl`), LZW
and RunLength (`RL`) are inflated piece by piece up to the bound. DCT (JPEG) and CCITTFax data
decode to the image's pixels, whose count the JPEG header (or the image's own width and height)
tells. Any other filter gives no measure (`None`).
"""

from __future__ import annotations

import io
import itertools
import re
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pdfminer.ascii85 import ascii85decode, asciihexdecode
from pdfminer.lzw import LZWDecoder

__all__ = [
    "FILTER_NAMES",
    "Decoded",
    "decoded_size",
    "jpeg_size",
    "pixel_filter",
]

FILTER_NAMES = {
    "AHx": "ASCIIHexDecode",
    "A85": "ASCII85Decode",
    "LZW": "LZWDecode",
    "Fl": "FlateDecode",
    "RL": "RunLengthDecode",
    "CCF": "CCITTFaxDecode",
    "DCT": "DCTDecode",
}
"""The abbreviated filter names of inline images, with the names they stand for."""

_PIECE = 1 << 20
_CHUNK = 1 << 16
_TEXT_FILTERS = ("ASCIIHexDecode", "ASCII85Decode")
_PIXEL_FILTERS = ("DCTDecode", "CCITTFaxDecode")
_HEX_END = re.compile(rb">")
_A85_END = re.compile(rb"~>")


@dataclass(frozen=True, slots=True)
class Decoded:
    """What measuring a stream's data found."""

    size: int
    """Bytes it decodes to (pixels for DCT and CCITTFax data), or more than the bound asked
    about when `over` is true."""
    over: bool
    """True when the data decodes to more than the bound: `size` is only where it stopped."""
    consumed: int | None
    """Bytes of the data the decoding read (where inline data ends), when the filters tell."""


def decoded_size(data: bytes | memoryview, filters: Sequence[str], bound: int) -> Decoded | None:
    """How large `data`, encoded by `filters` (full or abbreviated names, first applied
    first), decodes, counting up to just past `bound`; None for filters measured otherwise or
    not at all (DCT, CCITTFax: their pixels; JPX, JBIG2, unknown names)."""
    names = [FILTER_NAMES.get(name, name) for name in filters]
    consumed: int | None = None
    text_steps = list(itertools.takewhile(lambda name: name in _TEXT_FILTERS, names))
    for number, step in enumerate(text_steps):
        data, read = _decode_text(data, step)
        if number == 0:
            consumed = read  # -- the first filter reads the raw data: where it ends --
    rest = names[len(text_steps) :]
    if not rest:
        return Decoded(len(data), len(data) > bound, consumed)
    if len(rest) > 1 or rest[0] not in ("FlateDecode", "LZWDecode", "RunLengthDecode"):
        return None
    pieces = {"FlateDecode": _inflate, "LZWDecode": _unlzw, "RunLengthDecode": _unrun}[rest[0]]
    total = 0
    used: int | None = None
    for piece, end in pieces(data):
        total += piece
        if total > bound:
            return Decoded(total, True, None)
        if end is not None:
            used = end
    return Decoded(total, False, consumed if text_steps else used)


def _decode_text(data: bytes | memoryview, name: str) -> tuple[bytes, int]:
    """`data` through ASCIIHex or ASCII85, and how many bytes of it that read."""
    end = (_HEX_END if name == "ASCIIHexDecode" else _A85_END).search(data)
    used = len(data) if end is None else end.end()
    decode = asciihexdecode if name == "ASCIIHexDecode" else ascii85decode
    try:
        return decode(bytes(data[:used])), used
    except (ValueError, TypeError):
        return b"", used


def _inflate(data: bytes | memoryview) -> Iterator[tuple[int, int | None]]:
    """Sizes of the pieces `data` inflates to; the last says where the zlib stream ended. The
    input is fed 64 KiB at a time, so nothing longer than that is ever copied."""
    view = memoryview(data)
    inflater = zlib.decompressobj()
    fed = 0
    try:
        while fed < len(view):
            chunk = view[fed : fed + _CHUNK]
            fed += len(chunk)
            piece = inflater.decompress(chunk, _PIECE)
            yield len(piece), None
            while inflater.unconsumed_tail and not inflater.eof:
                piece = inflater.decompress(inflater.unconsumed_tail, _PIECE)
                yield len(piece), None
            if inflater.eof:
                yield 0, fed - len(inflater.unused_data)
                return
    except zlib.error:
        return


def _unlzw(data: bytes | memoryview) -> Iterator[tuple[int, int | None]]:
    try:
        for piece in LZWDecoder(io.BytesIO(bytes(data))).run():
            yield len(piece), None
    except (ValueError, IndexError, EOFError):
        return


def _unrun(data: bytes | memoryview) -> Iterator[tuple[int, int | None]]:
    """RunLength: a length byte n, then n + 1 bytes copied (n < 128) or one byte repeated
    257 - n times (n > 128); 128 ends the data."""
    position = 0
    size = len(data)
    while position < size:
        length = data[position]
        if length == 128:
            yield 0, position + 1
            return
        if length < 128:
            position += length + 2
            yield length + 1, None
        else:
            position += 2
            yield 257 - length, None


def jpeg_size(data: bytes | memoryview) -> tuple[int, int, int] | None:
    """(width, height, components) from the frame header of the JPEG `data`, or None when
    none is found within its first markers."""
    position = 2 if bytes(data[:2]) == b"\xff\xd8" else None
    if position is None:
        return None
    for _ in range(64):  # -- markers before the frame header: a few in real files --
        while position < len(data) and data[position] == 0xFF:
            position += 1
        if position + 3 > len(data):
            return None
        marker = data[position]
        length = int.from_bytes(bytes(data[position + 1 : position + 3]), "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            frame = bytes(data[position + 3 : position + 9])
            if len(frame) < 6:
                return None
            height = int.from_bytes(frame[1:3], "big")
            width = int.from_bytes(frame[3:5], "big")
            return width, height, frame[5]
        if length < 2:
            return None
        position += 1 + length
    return None


def pixel_filter(filters: Sequence[str]) -> str | None:
    """The DCT or CCITTFax filter among `filters` (by its full name), if any."""
    for name in filters:
        full = FILTER_NAMES.get(name, name)
        if full in _PIXEL_FILTERS:
            return full
    return None
