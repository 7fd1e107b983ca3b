"""Whitespace and the characters that are not text: normalizing, stripping, joining lines."""

from __future__ import annotations

import re
from collections.abc import Iterable

from partita.text._scripts import wraps_without_space

__all__ = ["LARGE_TEXT", "NOT_TEXT", "join_lines", "normalize_space", "strip_not_text"]

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
