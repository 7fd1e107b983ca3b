"""Text helpers shared by the partitioners: CJK-aware line joining, bullets and numbering, and
the characters that are not text."""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "BULLET_LINE",
    "LARGE_TEXT",
    "NOT_TEXT",
    "NUMBERED_LINE",
    "is_cjk",
    "is_hangul",
    "join_lines",
    "normalize_space",
    "strip_not_text",
    "wraps_without_space",
]

NOT_TEXT = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f\ufffe\uffff\ud800-\udfff]")
"""A character that is not text and that XML cannot hold: a C0 control other than the whitespace
ones (tab, line feed, form feed, carriage return), DEL, the noncharacters U+FFFE and U+FFFF, or
a lone surrogate. (Vertical tab and the separators U+001C-U+001F are whitespace to `str.split`;
they are matched here for text that is not whitespace-normalized.)"""

LARGE_TEXT = 1 << 16
"""Texts this long or longer are whitespace-normalized without splitting them into words."""
_WHITESPACE_RUN = re.compile(r"\s+")

_DROPPED_NOT_TEXT = dict.fromkeys([*range(0x09), 0x0B, *range(0x0E, 0x20), 0x7F])
_NOT_TEXT_REPLACEMENTS = {
    **_DROPPED_NOT_TEXT,
    **dict.fromkeys([0xFFFE, 0xFFFF, *range(0xD800, 0xE000)], "\ufffd"),
}

BULLET_LINE = re.compile(r"^[ \t]*([•●○◦▪▫■□‣⁃∙·⦿⦾◆◇►▸▹–—*+\-])[ \t\u00a0\u3000]+(?=\S)")
"""A line that starts with a bullet and a space; group 1 is the bullet."""

NUMBERED_LINE = re.compile(
    r"^[ \t]*(?:(?:\(?\d{1,3}[.)]|[a-z][.)]|\([a-zA-Z]\)|\([ivxlcdm]{1,5}\)|[ivxlcdm]{1,5}[.)])"
    r"[ \t\u00a0\u3000]+|(?:[一二三四五六七八九十百]+|\d{1,3})[、．][ \t\u3000]*)(?=\S)"
)
"""A line that starts with a list number such as `1.`, `2)`, `(3)`, `a.`, `iv)`, `一、`."""

_CJK_RANGES = (
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x2E80, 0x2FDF),  # CJK radicals
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x31FF),  # Bopomofo, Hangul compatibility, Katakana ext
    (0x3400, 0x4DBF),  # CJK ext A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xAC00, 0xD7AF),  # Hangul syllables
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF00, 0xFFEF),  # full-width forms
    (0x20000, 0x3134F),  # CJK ext B-G
)


def is_cjk(char: str) -> bool:
    """True when `char` is a CJK ideograph, kana, hangul or full-width form or punctuation."""
    code = ord(char)
    if code < 0x1100:
        return False
    return any(lo <= code <= hi for lo, hi in _CJK_RANGES)


def is_hangul(char: str) -> bool:
    """True when `char` is a Hangul syllable or jamo (Korean)."""
    code = ord(char)
    return 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F


def wraps_without_space(char: str) -> bool:
    """True for the characters of scripts that wrap lines without a space: Chinese and Japanese
    (CJK but not Hangul: Korean separates words with spaces and wraps at them)."""
    return is_cjk(char) and not is_hangul(char)


def join_lines(lines: Iterable[str]) -> str:
    """Return the stripped `lines` joined into one line: with a space, or with nothing where both
    sides of the join wrap without spaces (Chinese and Japanese; see `wraps_without_space`)."""
    out = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if out and not (wraps_without_space(out[-1]) and wraps_without_space(line[0])):
            out += " "
        out += line
    return out


def strip_not_text(text: str) -> str:
    """Return `text` without the `NOT_TEXT` characters: C0 controls and DEL are dropped (browsers
    render them as nothing, and a word they sit in stays one word), noncharacters and lone
    surrogates become U+FFFD (they stand for a character that could not be read)."""
    if NOT_TEXT.search(text) is None:
        return text
    return text.translate(_NOT_TEXT_REPLACEMENTS)


def normalize_space(text: str) -> str:
    """Return `text` with every run of whitespace collapsed to one space, trimmed.

    A text of `LARGE_TEXT` characters or more is collapsed by a regular expression, which
    allocates the result only (`str.split` would make an object of about 50 bytes per word)."""
    if len(text) < LARGE_TEXT:
        return " ".join(text.split())
    return _WHITESPACE_RUN.sub(" ", text).strip(" ")
