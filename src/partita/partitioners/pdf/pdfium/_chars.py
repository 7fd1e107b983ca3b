"""A page's characters from PDFium's text page, as pdfplumber character dictionaries.

PDFium has no call returning many character boxes at once, so each character costs two foreign
calls: its text object (`FPDFText_GetTextObject`) and its loose box
(`FPDFText_GetLooseCharBox`, the font's descent to ascent, into one reused `FS_RECTF`). Where a
gap may be a word space (the first character of a text object, and the first after a space or
line break PDFium inferred) a third call gives its origin (`FPDFText_GetCharOrigin`), and the box
starts there, as pdfminer's does: the loose box starts at the glyph's ink when that reaches left
of the origin ("j", italics), which narrows the gap before it below a word space (the
characters within a word keep the loose box: their gaps matter less). The
page's text comes in one call (`get_text_range`). Everything else is read once per text object,
from its first character, and shared by the object's characters, which PDFium draws from one
text-showing operator on one baseline with one font:

- **size**: `FPDFText_GetFontSize` times the vertical scale of the character's matrix
  (`FPDFText_GetMatrix`): the size the text is shown at, as pdfplumber's (a PDF drawing 10 pt
  text as `1 Tf` under a 10x matrix has size 10, not 1);
- **baseline**: the character's origin (`FPDFText_GetCharOrigin`) in the page's frame, given as
  `matrix[5]`, which is what the line finder reads of pdfplumber's matrix;
- **fontname**: the font's base name ("ABCDEF+Arial-BoldMT"), which tells bold;
- **upright**: as pdfminer decides it, `a * d > 0` and `b * c <= 0` for the character's matrix in
  the page's frame (rotated or vertical text is not upright).

A character's box is pdfminer's: from the loose box's bottom (the baseline plus the font's
descent) up by the size. Characters PDFium generates (the spaces and line breaks it infers) have
no width or no text object and are left out: the line finder infers spaces itself. PDFium
gives a glyph mapped to several characters (a ligature's "ff") as that many characters of one
text object with the glyph's box: they are one character again, as pdfminer gives it. A glyph
without a Unicode mapping (a control character, or `FPDFText_HasUnicodeMapError`, asked per
character only in text objects whose font is symbolic or whose first glyph has no mapping;
PDFium otherwise gives the glyph's code as a letter) is given as pdfminer gives it, `(cid:N)`;
U+FFFE, which PDFium gives for a hyphen ending a line, is a hyphen again.

PDFium keeps only the first `PDFIUM_MAX_STRING_BYTES` bytes of each string a page's content
shows, silently (its content parser's `kMaxStringLength`): a page showing a 180,000-character
string has 32,767 characters in its text page. A text object can only hold such a cut string
when it has at least `MAX_FAITHFUL_OBJECT_CHARS` characters, so `read_chars` stops at the first
text object that long and says so (`PageChars.long_object`): the page is then not PDFium's to
read (`_page.read_pdfium_page`).
"""

from __future__ import annotations

import ctypes
import math
import re
from collections.abc import Sequence, Set
from dataclasses import dataclass
from typing import Any, NamedTuple

import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]

from partita.partitioners.pdf._limits import MAX_COORDINATE
from partita.partitioners.pdf._lines import is_bold_font
from partita.partitioners.pdf.pdfium import _native as native
from partita.partitioners.pdf.pdfium._frame import Frame, Matrix

__all__ = [
    "MAX_FAITHFUL_OBJECT_CHARS",
    "PDFIUM_MAX_STRING_BYTES",
    "Char",
    "PageChars",
    "page_text",
    "read_chars",
]

Char = dict[str, Any]
"""A pdfplumber character: text, x0, x1, top, bottom, size, fontname, upright, matrix."""

_FONT_NAME_BYTES = 256
_SURROGATE = re.compile("[\ud800-\udfff]")
_LONE_SURROGATES = dict.fromkeys(range(0xD800, 0xE000), "\ufffd")
_INFERRED_SPACE_EM = 0.05
"""A space PDFium inferred between two glyphs of a line is kept where they stand at least this
many em apart (ink to origin): a word gap the first glyph's overhanging ink narrowed below the
line finder's word gap ("of" + "Forest" in an upright serif); inside words PDFium also infers
spaces where glyphs touch, which are left out."""
_SYMBOLIC = 4
"""The font descriptor's Symbolic flag: its codes may have no Unicode meaning."""

PDFIUM_MAX_STRING_BYTES = 32_767
"""Bytes of one string (literal or hex) PDFium keeps when it parses a page's content
(`CPDF_StreamParser`'s `kMaxStringLength`, pdfium 159.0.8149): the rest is dropped, silently."""

MAX_FAITHFUL_OBJECT_CHARS = PDFIUM_MAX_STRING_BYTES // 4
"""Characters of one text object from which PDFium may have cut one of its strings (8,191): a
string cut at `PDFIUM_MAX_STRING_BYTES` bytes still gives that many characters with codes of at
most four bytes. The corpus's longest text object has 312 characters."""


class PageChars(NamedTuple):
    """A page's characters, and how many were left out for lying out of range."""

    chars: list[Char]
    dropped: int
    """Characters whose box is not finite or lies beyond ±`MAX_COORDINATE`."""
    long_object: bool = False
    """True when reading stopped at a text object of `MAX_FAITHFUL_OBJECT_CHARS` characters,
    one of whose strings PDFium may have cut: `chars` is then incomplete."""


@dataclass(slots=True)
class _ObjectInfo:
    """What the characters of one text object share (see the module's docstring)."""

    size: float
    fontname: str
    upright: bool
    matrix: Matrix
    unmapped: bool
    """True when the font is symbolic or the object's first glyph has no Unicode mapping: each
    character's mapping is then asked (`FPDFText_HasUnicodeMapError`)."""

    def char(self, text: str, x0: float, x1: float, top: float, bottom: float) -> Char:
        """A character of this text object in pdfplumber's form, its box given."""
        return {
            "text": text,
            "x0": x0,
            "x1": x1,
            "top": top,
            "bottom": bottom,
            "size": self.size,
            "fontname": self.fontname,
            "upright": self.upright,
            "matrix": self.matrix,
        }


def page_text(textpage: Any, count: int) -> Sequence[str]:
    """The text page's characters, one string per character index: the page's text in one call
    when its length agrees, else one call per character, a surrogate pair (a character beyond
    the BMP, two indexes) given at its first index and "" at its second. A lone surrogate (a
    broken Unicode mapping) is U+FFFD, so the text always encodes."""
    text: str = textpage.get_text_range(0, count) if count else ""
    if len(text) == count:
        return text.translate(_LONE_SURROGATES) if _SURROGATE.search(text) else text
    get_unicode = pdfium_c.FPDFText_GetUnicode
    handle = textpage.raw
    codes = [get_unicode(handle, index) for index in range(count)]
    out: list[str] = []
    index = 0
    while index < count:
        code = codes[index]
        low = codes[index + 1] if index + 1 < count else 0
        if 0xD800 <= code < 0xDC00 and 0xDC00 <= low < 0xE000:
            out += (chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)), "")
            index += 2
            continue
        out.append("\ufffd" if 0xD800 <= code < 0xE000 or not 0 < code < 0x110000 else chr(code))
        index += 1
    return out


def read_chars(
    textpage: Any, count: int, frame: Frame, doubled: Set[int] = frozenset()
) -> PageChars:
    """The first `count` characters of the pypdfium2 `textpage` drawn by text objects, in
    PDFium's order, in pdfplumber's form on the page's `frame`; those out of range (not
    finite, or beyond ±`MAX_COORDINATE`) are counted, not given. The characters of the text
    objects in `doubled` (drawn twice, "fake bold") get a bold font name.

    Stops at the `MAX_FAITHFUL_OBJECT_CHARS`-th character of one text object (PDFium gives an
    object's characters one after another), with `long_object` set: see the module docstring."""
    text = page_text(textpage, count)
    handle = ctypes.c_void_p(native.address(textpage.raw))
    rect = native.FS_RECTF()
    rect_ref = ctypes.byref(rect)
    get_object = native.get_text_object
    get_box = native.get_loose_char_box
    get_origin = native.get_char_origin
    x_origin = ctypes.c_double()
    y_origin = ctypes.c_double()
    x_ref = ctypes.byref(x_origin)
    y_ref = ctypes.byref(y_origin)
    has_map_error = native.has_unicode_map_error
    infos: dict[int, _ObjectInfo] = {}
    fonts: dict[int, str] = {}
    chars: list[Char] = []
    add = chars.append
    last = 0
    run_object = 0
    run = 0
    info: _ObjectInfo | None = None
    dropped = 0
    last_left = last_right = last_bottom = math.nan
    after_gap = True
    inferred_space = False
    plain = frame.is_identity_rotation
    _, _, _, _, shift_x, shift_y = frame.matrix
    height = frame.height
    for index in range(count):
        if not text[index]:
            continue  # -- the second half of a surrogate pair, given at the first --
        obj = get_object(handle, index)
        if not obj:
            after_gap = True
            inferred_space = text[index] == " "
            continue
        if obj != run_object:
            run_object = obj
            run = 0
        run += 1
        if run >= MAX_FAITHFUL_OBJECT_CHARS:
            return PageChars(chars, dropped, long_object=True)
        get_box(handle, index, rect_ref)
        left = rect.left
        right = rect.right
        low = rect.bottom
        if right <= left:
            after_gap = True
            inferred_space = text[index] == " "
            continue  # -- a space PDFium inferred (no width), or a broken box --
        if (
            left == last_left
            and right == last_right
            and low == last_bottom
            and obj == last
            and text[index] > " "
        ):
            chars[-1]["text"] += text[index]  # -- the rest of a ligature's characters --
            continue
        last_left = left
        last_right = right
        last_bottom = low
        if not (
            -MAX_COORDINATE < left < MAX_COORDINATE
            and right < MAX_COORDINATE
            and -MAX_COORDINATE < low < MAX_COORDINATE
        ):
            dropped += 1
            continue
        if obj != last:
            last = obj
            after_gap = True
            info = infos.get(obj)
            if info is None:
                info = infos[obj] = _object_info(textpage, index, obj, frame, fonts)
                if obj in doubled and not is_bold_font(info.fontname):
                    info.fontname += "-Bold"
        assert info is not None
        char = text[index]
        if char < " " or char == "\ufffe":
            char = "-" if char == "\ufffe" else f"(cid:{ord(char)})"
        elif info.unmapped and has_map_error(handle, index):
            char = f"(cid:{ord(char)})"
        if plain:
            size = info.size
            if after_gap:  # -- see the module's docstring: where a gap may be a word space --
                get_origin(handle, index, x_ref, y_ref)
                left = x_origin.value
                after_gap = False
            bottom = height - (low + shift_y)
            if inferred_space:
                inferred_space = False
                prev = chars[-1] if chars else None
                if (
                    prev is not None
                    and prev["matrix"][5] == info.matrix[5]
                    and left + shift_x - prev["x1"] > _INFERRED_SPACE_EM * size
                ):
                    x = left + shift_x - 0.01  # -- just before this glyph, after the last --
                    add(info.char(" ", x, x, bottom - size, bottom))
            add(info.char(char, left + shift_x, right + shift_x, bottom - size, bottom))
        else:
            x0, top, x1, bottom = frame.box(left, low, right, rect.top)
            add(info.char(char, x0, x1, top, bottom))
    return PageChars(chars, dropped)


def _object_info(
    textpage: Any, index: int, obj: int, frame: Frame, fonts: dict[int, str]
) -> _ObjectInfo:
    """What the characters of text object `obj` share, read at its character `index`."""
    handle = textpage.raw
    matrix = pdfium_c.FS_MATRIX()
    pdfium_c.FPDFText_GetMatrix(handle, index, ctypes.byref(matrix))
    m: Matrix = (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f)
    if not all(math.isfinite(v) for v in m):
        m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    size = float(pdfium_c.FPDFText_GetFontSize(handle, index)) * math.hypot(m[2], m[3])
    x = ctypes.c_double()
    y = ctypes.c_double()
    pdfium_c.FPDFText_GetCharOrigin(handle, index, ctypes.byref(x), ctypes.byref(y))
    a, b, c, d, _, _ = frame.compose(m)
    origin = frame.point(x.value, y.value)
    upright = a * d > 0 and b * c <= 0
    font = native.get_text_font(obj)
    unmapped = bool(pdfium_c.FPDFText_HasUnicodeMapError(handle, index)) or (
        bool(font) and bool(native.get_font_flags(font) & _SYMBOLIC)
    )
    return _ObjectInfo(
        size if math.isfinite(size) and size < MAX_COORDINATE else 0.0,
        _font_name(font, fonts),
        upright,
        (a, b, c, d, origin[0], origin[1]),
        unmapped,
    )


def _font_name(font: int, fonts: dict[int, str]) -> str:
    if not font:
        return ""
    name = fonts.get(font)
    if name is None:
        buffer = ctypes.create_string_buffer(_FONT_NAME_BYTES)
        size = native.get_base_font_name(font, buffer, _FONT_NAME_BYTES)
        raw = buffer.raw[: max(0, min(size, _FONT_NAME_BYTES) - 1)]
        name = fonts[font] = raw.decode("utf-8", errors="replace")
    return name
