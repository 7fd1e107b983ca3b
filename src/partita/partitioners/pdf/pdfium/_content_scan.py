"""What a content stream asks PDFium to do, read the way PDFium's content parser reads it.

The preflight (`_preflight`) weighs a page before PDFium parses it; it needs four things from
each content stream, found here by regular-expression scans in C, linear in the stream's bytes:

- **The XObjects and shadings drawn** (`iter_drawn`): the operand of every `Do` and `sh`. PDFium
  takes the last operand before the operator whatever it is: a name (its `#xx` escapes
  decoded: `/#58#31` is `/X1`), or a literal or hexadecimal string (`(X1) Do` draws `/X1`),
  with whitespace (NUL included) and comments between them. An operator whose operand this
  scan cannot read (a string with nested parentheses, say) is given as None: the preflight then
  assumes the heaviest resource it could name.
- **The inline images** (`iter_inline_images`): the dictionary between `BI` and `ID`, keys and
  filter and colour space names unabbreviated, and where the data starts.
- **How deep marked content and clipping nest** (`nesting_costs`): PDFium copies the stack of
  open marked-content sequences at every `BMC`/`BDC`, and the clip path in force at every `W`,
  so both cost the sum of the depths reached: quadratic in a flood of them. The count is exact
  where it matters: a stream with few of these operators is bounded by their number alone;
  otherwise it is tokenized, skipping comments, strings and inline image data as PDFium does,
  so that a `Q` or `EMC` written inside them closes nothing.

Every scan over-counts rather than under-counts: an operator spelled inside a string or a
comment is counted by the cheap scans (which only ever add weight), never one PDFium runs left
out.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "InlineImage",
    "decode_name",
    "iter_drawn",
    "iter_inline_images",
    "nesting_costs",
]

_WS = rb"\x00\t\n\x0c\r "
_DELIM = rb"()<>\[\]{}/%"
_REGULAR = rb"[^" + _WS + _DELIM + rb"]"
_BEFORE_OP = rb"(?<![^" + _WS + rb"()<>\[\]{}])"
"""An operator starts after whitespace or a delimiter other than `/` (a name) and `%` (a
comment), or at the start."""
_AFTER = rb"(?!" + _REGULAR + rb")"
_GAP = rb"(?:[" + _WS + rb"]|%[^\r\n]*)*"
"""Whitespace and comments between an operand and its operator."""

_OPERAND_THEN_OP = re.compile(
    rb"(?:/(?P<name>" + _REGULAR + rb"*)"
    rb"|\((?P<string>(?:[^()\\]|\\.){0,4096})\)"
    rb"|<(?P<hex>[0-9A-Fa-f" + _WS + rb"]{0,8192})>)" + _GAP + rb"(?P<op>Do|sh)" + _AFTER,
    re.S,
)
_OPERATOR_BEFORE = frozenset(b"\x00\t\n\x0c\r ()<>[]{}")
_TOKEN_END = frozenset(b"\x00\t\n\x0c\r ()<>[]{}/%")
_OPERAND_WINDOW = 8192 + 64
"""Bytes before an operator searched for its operand (the longest operand read, and a gap)."""
_END_IMAGE = re.compile(_BEFORE_OP + rb"EI" + _AFTER)
_NESTING = re.compile(
    rb"%[^\r\n]*|\((?:[^()\\]|\\.)*\)|(?P<open>\()|<[0-9A-Fa-f" + _WS + rb"]*>"
    rb"|" + _BEFORE_OP + rb"(?P<op>BMC|BDC|EMC|BI|q|Q|W\*?)" + _AFTER,
    re.S,
)
_DICT_TOKEN = re.compile(
    rb"[" + _WS + rb"]+|%[^\r\n]*|(?P<name>/" + _REGULAR + rb"*)|(?P<open><<|\[)|(?P<close>>>|\])"
    rb"|(?P<string>\((?:[^()\\]|\\.)*\)|<[0-9A-Fa-f" + _WS + rb"]*>)|(?P<word>" + _REGULAR + rb"+)"
    rb"|(?P<other>.)",
    re.S,
)
_HEX_ESCAPE = re.compile(rb"#(..)", re.S)
_STRING_ESCAPE = re.compile(rb"\\([0-7]{1,3}|\r\n|.)", re.S)
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}

_MAX_DICT_BYTES = 64 << 10
"""Bytes of an inline image's dictionary read (real ones take tens)."""
_FEW = 1_500
"""A stream with at most this many nesting operators (counted loosely) needs no tokenizing:
the sum of depths they can reach stays near a million, within the preflight's bounds."""

_KEYS = {
    "BPC": "BitsPerComponent",
    "CS": "ColorSpace",
    "D": "Decode",
    "DP": "DecodeParms",
    "F": "Filter",
    "H": "Height",
    "IM": "ImageMask",
    "I": "Interpolate",
    "W": "Width",
    "L": "Length",
}
_SPACES = {"G": "DeviceGray", "RGB": "DeviceRGB", "CMYK": "DeviceCMYK", "I": "Indexed"}


@dataclass(frozen=True, slots=True)
class InlineImage:
    """An inline image: its dictionary (keys unabbreviated; names as `str`, numbers as int or
    float, arrays as lists) and the offset of its data in the stream."""

    entries: dict[str, Any]
    data_start: int


def decode_name(raw: bytes) -> bytes:
    """A name's bytes with its `#xx` escapes decoded, as PDFium decodes them."""
    if b"#" not in raw:
        return raw
    return _HEX_ESCAPE.sub(lambda m: bytes([_hex_byte(m.group(1))]), raw)


def _hex_byte(pair: bytes) -> int:
    value = 0
    for digit in pair:
        value = value * 16 + (int(chr(digit), 16) if chr(digit) in "0123456789abcdefABCDEF" else 0)
    return value


def iter_drawn(data: bytes) -> Iterator[tuple[str, bytes | None]]:
    """("Do" or "sh", the resource name) for every such operator of `data`; the name is None
    where the operand is not one this scan reads (within `_OPERAND_WINDOW` bytes)."""
    for op in (b"Do", b"sh"):
        start = data.find(op)
        while start >= 0:
            if _is_operator(data, start, 2):
                yield op.decode(), _operand_before(data, start)
            start = data.find(op, start + 2)


def _is_operator(data: bytes, start: int, length: int) -> bool:
    """True when the `length` bytes at `start` are a whole operator token: after whitespace or a
    delimiter other than `/` and `%` (or the start), before whitespace, a delimiter or the end."""
    if start > 0 and data[start - 1] not in _OPERATOR_BEFORE:
        return False
    end = start + length
    return end >= len(data) or data[end] in _TOKEN_END


def _operand_before(data: bytes, op_start: int) -> bytes | None:
    window = max(0, op_start - _OPERAND_WINDOW)
    for match in _OPERAND_THEN_OP.finditer(data, window, op_start + 2):
        if match.start("op") == op_start:
            return _operand(match)
    return None


def _operand(match: re.Match[bytes]) -> bytes:
    name = match.group("name")
    if name is not None:
        return decode_name(name)
    string = match.group("string")
    if string is not None:
        return _STRING_ESCAPE.sub(_unescape, string)
    digits = re.sub(rb"[" + _WS + rb"]", b"", match.group("hex"))
    return binascii.unhexlify(digits + b"0" * (len(digits) % 2))


def _unescape(match: re.Match[bytes]) -> bytes:
    escaped = match.group(1)
    if escaped[:1].isdigit():
        return bytes([int(escaped, 8) & 0xFF])
    if escaped in (b"\n", b"\r", b"\r\n"):
        return b""
    return _ESCAPES.get(escaped, escaped)


def iter_inline_images(data: bytes) -> Iterator[InlineImage]:
    """The inline images of `data` (a `BI` whose dictionary does not end at `ID` is not one,
    as for PDFium)."""
    start = data.find(b"BI")
    while start >= 0:
        if _is_operator(data, start, 2):
            image = _inline_image(data, start + 2)
            if image is not None:
                yield image
        start = data.find(b"BI", start + 2)


def _inline_image(data: bytes, start: int) -> InlineImage | None:
    tokens = _DICT_TOKEN.finditer(data, start, min(len(data), start + _MAX_DICT_BYTES))
    entries: dict[str, Any] = {}
    for token in tokens:
        kind = token.lastgroup
        if kind is None:
            continue
        if kind == "word" and token.group() == b"ID":
            data_start = token.end()
            if data_start < len(data) and data[data_start] in b"\x00\t\n\x0c\r ":
                data_start += 1
            return InlineImage(entries, data_start)
        if kind != "name":
            return None if kind == "word" else InlineImage(entries, token.start())
        key = decode_name(token.group()[1:]).decode("latin-1")
        entries[_KEYS.get(key, key)] = _value(tokens)
    return None


def _value(tokens: Iterator[re.Match[bytes]], depth: int = 0) -> Any:
    """The next object of `tokens` (names and numbers read; arrays as lists; the rest None)."""
    for token in tokens:
        kind = token.lastgroup
        if kind is None:
            continue
        text = token.group()
        if kind == "name":
            return _SPACES.get(name := decode_name(text[1:]).decode("latin-1"), name)
        if kind == "word":
            try:
                return float(text) if b"." in text else int(text)
            except ValueError:
                return text.decode("latin-1")
        if kind == "open" and depth < 8:
            items = []
            while (item := _value(tokens, depth + 1)) is not _CLOSE:
                items.append(item)
                if item is None:
                    break
            return items if text == b"[" else None
        if kind == "close":
            return _CLOSE
        return text if kind == "string" else None
    return None


_CLOSE = object()


def nesting_costs(
    data: bytes, inline_end: Callable[[bytes, InlineImage], int | None]
) -> tuple[int, int]:
    """(the sum over `BMC`/`BDC` of the marked-content depth they open, the sum over `W`/`W*`
    of the clip paths already in force) for `data`. `inline_end(data, image)` tells where an
    inline image's data ends (None: unknown); tokenizing resumes at the `EI` after it."""
    loose_marks = data.count(b"BMC") + data.count(b"BDC")
    loose_clips = data.count(b"W")
    if loose_marks <= _FEW and loose_clips <= _FEW:
        return _triangle(loose_marks), _triangle(loose_clips)
    marks = clips = depth = active = 0
    saved: list[int] = []
    position = 0
    size = len(data)
    while position < size:
        match = _NESTING.search(data, position)
        if match is None:
            break
        position = match.end()
        op = match.group("op")
        if op is None:
            if match.group("open") is not None:
                position = _string_end(data, match.start())
            continue
        if op == b"q":
            saved.append(active)
        elif op == b"Q":
            if saved:
                active = saved.pop()
        elif op[0] == 0x57:  # -- W, W* --
            clips += active
            active += 1
        elif op == b"EMC":
            depth = max(0, depth - 1)
        elif op == b"BI":
            position = _after_inline_image(data, position, inline_end)
        else:
            depth += 1
            marks += depth
    return marks, clips


def _triangle(count: int) -> int:
    return count * (count + 1) // 2


def _string_end(data: bytes, start: int) -> int:
    """The offset after the literal string opening at `start` (parentheses balanced, escapes
    skipped), or the end of `data`."""
    level = 0
    position = start
    size = len(data)
    while position < size:
        byte = data[position]
        if byte == 0x5C:  # -- backslash --
            position += 2
            continue
        if byte == 0x28:
            level += 1
        elif byte == 0x29:
            level -= 1
            if level == 0:
                return position + 1
        position += 1
    return size


def _after_inline_image(
    data: bytes, position: int, inline_end: Callable[[bytes, InlineImage], int | None]
) -> int:
    image = _inline_image(data, position)
    if image is None:
        return position
    end = inline_end(data, image)
    closing = _END_IMAGE.search(data, image.data_start if end is None else end)
    return len(data) if closing is None else closing.end()
