"""Statement rows: a page's lines on one baseline, cut into text and value pieces.

The first stage of `_statements`. A page line (`_lines.Line`, already split at gaps wider than
`SEGMENT_GAP_EM` em) made only of numbers, dashes ("—", "n/a"), currency signs, ")" and "%" is a
*value line*; its words become value pieces: "$" joins the number after it, ")" and "%" the
number before it (across lines too: "(14" then ")" is "(14)"). Any other line is one text
piece. Word positions inside a line are estimated from the line's box in proportion to their
characters (a line keeps no glyph positions). A value piece's *anchor* is the right edge of its
digits: right-aligned columns line up on it whether or not a ")" hangs past them.

Lines on one baseline (overlapping in height, left to right) form a row. Cost: linear in the
lines and their words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from partita.partitioners.pdf._lines import Line

__all__ = ["NIL", "NUM", "TEXT", "Piece", "Row", "statement_rows"]

TEXT, NUM, NIL = 0, 1, 2
"""Kinds of piece: text, a number, a dash."""

_NUMBER = re.compile(r"[(\-−–]?[$€£¥]?\(?\d[\d,]*(?:\.\d+)?\)?%?\)?[*†‡]?")
_DASH = re.compile(r"[-–—−]{1,3}|n/?a|nm", re.I)
_CURRENCY = re.compile(r"[$€£¥]|US\$")
_SIGN = re.compile(r"\)|%|\)%|%\)")
_TRAILING_SIGNS = re.compile(r"[)%*†‡]+$")


@dataclass(slots=True)
class Piece:
    text: str
    x0: float
    x1: float
    kind: int
    anchor: float
    """The right edge of the digits (of the text for a text piece)."""


@dataclass(slots=True)
class Row:
    lines: list[Line] = field(default_factory=list[Line])
    pieces: list[Piece] = field(default_factory=list[Piece])
    top: float = float("inf")
    bottom: float = float("-inf")

    @property
    def size(self) -> float:
        return self.lines[0].size

    @property
    def label(self) -> Piece | None:
        first = self.pieces[0] if self.pieces else None
        return first if first is not None and first.kind == TEXT else None

    @property
    def values(self) -> list[Piece]:
        return [p for p in self.pieces if p.kind != TEXT]

    @property
    def numbers(self) -> list[Piece]:
        return [p for p in self.pieces if p.kind == NUM]


def statement_rows(lines: Sequence[Line]) -> list[Row]:
    """The rows of `lines` (top to bottom, as `chars_to_lines` gives them), cut into pieces."""
    rows: list[Row] = []
    for line in lines:
        if rows:
            row = rows[-1]
            margin = 0.3 * line.size
            if (
                line.x0 >= row.lines[-1].x1 - 0.5
                and line.top < row.bottom - margin
                and line.bottom > row.top + margin
            ):
                row.lines.append(line)
                row.top, row.bottom = min(row.top, line.top), max(row.bottom, line.bottom)
                continue
        rows.append(Row([line], [], line.top, line.bottom))
    for row in rows:
        row.pieces = _pieces(row.lines)
    return rows


def _words(line: Line) -> list[tuple[str, float, float]]:
    """The words of `line` with their x-ranges, estimated in proportion to their characters."""
    text = line.text
    per_char = (line.x1 - line.x0) / max(1, len(text))
    return [
        (m.group(), line.x0 + m.start() * per_char, line.x0 + m.end() * per_char)
        for m in re.finditer(r"\S+", text)
    ]


def _is_value_word(word: str) -> bool:
    return bool(
        _NUMBER.fullmatch(word)
        or _DASH.fullmatch(word)
        or _CURRENCY.fullmatch(word)
        or _SIGN.fullmatch(word)
    )


def _pieces(lines: Sequence[Line]) -> list[Piece]:
    pieces: list[Piece] = []
    currency: tuple[str, float] | None = None  # -- a "$" waiting for its number --
    for line in lines:
        words = _words(line)
        if not words or not all(_is_value_word(w) for w, _, _ in words):
            if currency is not None:
                pieces.append(Piece(currency[0], currency[1], line.x0, TEXT, line.x0))
                currency = None
            text = line.text.strip()
            pieces.append(Piece(text, line.x0, line.x1, TEXT, line.x1))
            continue
        for word, x0, x1 in words:
            if _CURRENCY.fullmatch(word):
                currency = (word, x0)
                continue
            last = pieces[-1] if pieces else None
            if _SIGN.fullmatch(word):
                if last is not None and last.kind == NUM and currency is None:
                    last.text += word
                    last.x1 = x1
                else:
                    pieces.append(Piece(word, x0, x1, TEXT, x1))
                continue
            kind = NUM if _NUMBER.fullmatch(word) else NIL
            signs = _TRAILING_SIGNS.search(word)
            anchor = x1 - (len(signs.group()) * (x1 - x0) / len(word) if signs else 0.0)
            if currency is not None:
                word, x0 = currency[0] + word, min(x0, currency[1])
                currency = None
            pieces.append(Piece(word, x0, x1, kind, anchor))
    if currency is not None:
        pieces.append(Piece(currency[0], currency[1], currency[1], TEXT, currency[1]))
    return pieces
