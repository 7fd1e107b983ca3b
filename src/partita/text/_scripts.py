"""Scripts: which characters belong to the CJK scripts, and which scripts wrap without spaces."""

from __future__ import annotations

__all__ = ["is_cjk", "is_hangul", "wraps_without_space"]

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
