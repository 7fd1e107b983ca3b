"""How large a stream's data decodes, measured without keeping it, and where inline data ends.

PDFium decodes some data whole while it parses a page, with no bound: an inline image's data
(to find where it ends), an embedded font program, a mesh shading. The preflight asks here how
large that data decodes, stopping as soon as the answer passes the bound it asks about, so the
question costs at most the bound's worth of work, never the bomb's.

Filters are those of the PDF specification, with the abbreviations inline images use:
ASCIIHex (`AHx`) and ASCII85 (`A85`) are decoded (they only shrink), then any chain of Flate
(`Fl`), LZW and RunLength (`RL`) is inflated piece by piece, each stage feeding the next, up to
the bound (a font program deflated twice is measured without being inflated whole). DCT (JPEG)
and CCITTFax data decode to the image's pixels, whose count the JPEG header (or the image's own
width and height) tells. Any other filter gives no measure (`None`).
"""

from __future__ import annotations

import itertools
import re
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from pdfminer.ascii85 import ascii85decode, asciihexdecode

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
    if any(name not in _STAGES for name in rest):
        return None
    ends: list[int] = []
    chunks: Iterator[bytes | memoryview] = _chunks(data)
    for number, name in enumerate(rest):
        chunks = _STAGES[name](chunks, ends if number == 0 and not text_steps else None)
    total = 0
    for chunk in chunks:
        total += len(chunk)
        if total > bound:
            return Decoded(total, True, None)
    return Decoded(total, False, consumed if text_steps else (ends[0] if ends else None))


def _chunks(data: bytes | memoryview) -> Iterator[memoryview]:
    view = memoryview(data)
    for start in range(0, len(view), _CHUNK):
        yield view[start : start + _CHUNK]


def _decode_text(data: bytes | memoryview, name: str) -> tuple[bytes, int]:
    """`data` through ASCIIHex or ASCII85, and how many bytes of it that read."""
    end = (_HEX_END if name == "ASCIIHexDecode" else _A85_END).search(data)
    used = len(data) if end is None else end.end()
    decode = asciihexdecode if name == "ASCIIHexDecode" else ascii85decode
    try:
        return decode(bytes(data[:used])), used
    except (ValueError, TypeError):
        return b"", used


Stage = Callable[[Iterator[bytes | memoryview], list[int] | None], Iterator[bytes]]
"""A decoder over a stream of pieces; it appends to its list (when given) how many input bytes
it read when its data ends before the input does."""


def _inflate(chunks: Iterator[bytes | memoryview], ends: list[int] | None) -> Iterator[bytes]:
    """Flate, at most `_PIECE` bytes of output at a time."""
    inflater = zlib.decompressobj()
    fed = 0
    try:
        for chunk in chunks:
            fed += len(chunk)
            pending: bytes | memoryview = chunk
            while pending:
                piece = inflater.decompress(pending, _PIECE)
                pending = inflater.unconsumed_tail
                if inflater.eof:  # -- told before the last piece: the next stage may stop --
                    if ends is not None:
                        ends.append(fed - len(inflater.unused_data))
                    yield piece
                    return
                yield piece
    except zlib.error:
        return


def _unrun(chunks: Iterator[bytes | memoryview], ends: list[int] | None) -> Iterator[bytes]:
    """RunLength: a length byte n, then n + 1 bytes copied (n < 128) or one byte repeated
    257 - n times (n > 128); 128 ends the data."""
    carry = b""
    fed = 0
    for chunk in chunks:
        data = carry + bytes(chunk)
        start_of_data = fed - len(carry)
        fed += len(chunk)
        out: list[bytes] = []
        position = 0
        while position < len(data):
            length = data[position]
            if length == 128:
                if ends is not None:
                    ends.append(start_of_data + position + 1)
                yield b"".join(out)
                return
            step = length + 2 if length < 128 else 2
            if position + step > len(data):
                break
            piece = data[position + 1 : position + step]
            out.append(piece if length < 128 else piece * (257 - length))
            position += step
        carry = data[position:]
        yield b"".join(out)


def _unlzw(chunks: Iterator[bytes | memoryview], ends: list[int] | None) -> Iterator[bytes]:
    """LZW with early change (the PDF default), as pdfminer reads it; 257 ends the data."""
    table = [bytes([code]) for code in range(256)] + [b"", b""]
    width, bits, held = 9, 0, 0
    previous: bytes | None = None
    out: list[bytes] = []
    size = fed = 0
    for chunk in chunks:
        for offset, byte in enumerate(bytes(chunk)):
            bits, held = (bits << 8) | byte, held + 8
            while held >= width:
                held -= width
                code = bits >> held
                bits &= (1 << held) - 1
                if code == 256:
                    del table[258:]
                    width, previous = 9, None
                    continue
                if code == 257:
                    if ends is not None:
                        ends.append(fed + offset + 1)
                    yield b"".join(out)
                    return
                if previous is None:
                    if code >= len(table):
                        return
                    word = table[code]
                else:
                    if code < len(table):
                        word = table[code]
                    elif code == len(table):
                        word = previous + previous[:1]
                    else:
                        return
                    if len(table) < 4096:
                        table.append(previous + word[:1])
                    width = {511: 10, 1023: 11, 2047: 12}.get(len(table), width)
                previous = word
                out.append(word)
                size += len(word)
                if size >= _PIECE:
                    yield b"".join(out)
                    out, size = [], 0
        fed += len(chunk)
    yield b"".join(out)


_STAGES: dict[str, Stage] = {
    "FlateDecode": _inflate,
    "LZWDecode": _unlzw,
    "RunLengthDecode": _unrun,
}


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
