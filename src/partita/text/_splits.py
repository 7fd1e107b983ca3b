"""Cutting a text into splits that fit a budget, coarsest unit first: the sentence splitter's way.

Principles (llama_index's `SentenceSplitter` decomposition, with its
defects fixed):

- A text that fits is one split. Otherwise it is cut into paragraphs (at blank lines); a
  paragraph that does not fit into sentences (`partita.text.sentences`, which knows Chinese and
  Japanese end marks, so Chinese is cut at sentence ends, not at commas); a sentence that does
  not fit into clauses (after `,` `;` `:` and their CJK forms `，` `；` `：` `、`, and at line
  breaks); a clause that does not fit into words (at spaces); a word that does not fit into the
  longest prefixes that do (characters). Each level is tried only on the pieces the level
  above left too big.
- Splits are spans `(start, end)` of the text, never rewritten text: in order, covering every
  non-whitespace character exactly once (the whitespace between two splits belongs to the
  first), each within the budget — a character that alone exceeds it (a token budget below one
  character's tokens) is the only exception, as one split.
- `is_sentence` marks paragraph and sentence splits (whole units of meaning), as llama_index
  marks them; `ends_sentence` marks the splits a sentence or a line ends with: every paragraph
  and sentence split, a piece followed by a line break, and the last piece of one cut smaller
  (the packer ends chunks there when it can, `partita.text._packing`). For recursive splits, a
  piece ends a sentence when its separator is a line break or a sentence end mark
  (`ENDING_SEPARATORS`), or it is the last piece of one that does.
- Linear in the text's length times the depth of the levels (each level measures only its own
  pieces), and every measure is of a piece at most a few times the budget long, except the
  first of the whole text (`measure_at_most` bounds that one).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from partita.text.sentences import iter_sentence_spans

__all__ = [
    "CLAUSE_END",
    "ENDING_SEPARATORS",
    "PARAGRAPH_BREAK",
    "RECURSIVE_SEPARATORS",
    "Split",
    "grapheme_boundary",
    "is_grapheme_extender",
    "iter_recursive_splits",
    "iter_splits",
]

PARAGRAPH_BREAK = re.compile(r"\n[ \t\u3000]*\n\s*")
"""A blank line, and the whitespace after it: where a paragraph ends."""

CLAUSE_END = re.compile(r"[,;:，；：、](?:\s+|(?=\S))|[ \t]*\n\s*")
"""A clause's end: a comma, semicolon or colon (Latin or CJK), and the whitespace after it; or
a line break (a wrapped line, a list or a table row without end marks)."""

_WORD = re.compile(r"\S+")

RECURSIVE_SEPARATORS = (
    "\n\n",
    "\n",
    "。",
    "！",
    "？",
    ". ",
    "! ",
    "? ",
    "；",
    "; ",
    "，",
    ", ",
    " ",
    "",
)
"""The recursive splitter's default separators, coarsest first: paragraphs, lines, sentence ends
(CJK, then Latin followed by a space, so `3.14` and `test.txt` stay whole), clauses, words,
and characters (the empty separator) — the usual recursive list, with Latin marks needing the
space."""

ENDING_SEPARATORS = frozenset({".", "!", "?", "。", "！", "？", "…", "｡", "．"})
"""Separators (stripped) after which a recursive piece ends a sentence; any separator holding a
line break ends one too."""

Measure = Callable[[str], int]


@dataclass(frozen=True, slots=True)
class Split:
    """A span `[start, end)` of the text, its size, whether it is a whole sentence or more, and
    whether a sentence ends with it."""

    start: int
    end: int
    size: int
    is_sentence: bool
    ends_sentence: bool = True


def iter_splits(text: str, measure: Measure, limit: int) -> Iterator[Split]:
    """Yield the splits of `text` for a budget of `limit` (in `measure`'s unit).

    Leading and trailing whitespace of the text belongs to no split; a text of whitespace has
    none. Raises `ValueError` unless `limit > 0`.
    """
    if limit <= 0:
        raise ValueError(f"the budget must be > 0, got {limit}")
    start, end = _stripped(text, 0, len(text))
    if start == end:
        return
    yield from _iter_level(text, start, end, measure, limit, level=0, is_sentence=True, ends=True)


def _iter_level(
    text: str,
    start: int,
    end: int,
    measure: Measure,
    limit: int,
    *,
    level: int,
    is_sentence: bool,
    ends: bool,
) -> Iterator[Split]:
    """The splits of `text[start:end]`, a piece cut at `level - 1` (`is_sentence` from it;
    `ends`: whether a sentence ends with it)."""
    size = measure(text[start:end])
    if size <= limit:
        yield Split(start, end, size, is_sentence, ends)
        return
    while level < len(_LEVELS):
        cuts = _LEVELS[level](text, start, end)
        if len(cuts) > 1:
            break
        level += 1  # -- nothing to cut at this level: try the next --
    else:
        yield from _iter_prefixes(text, start, end, measure, limit, ends=ends)
        return
    whole = level <= 1  # -- paragraphs and sentences are whole units --
    last = len(cuts) - 1
    for index, (piece_start, piece_end) in enumerate(cuts):
        after = cuts[index + 1][0] if index < last else piece_end
        yield from _iter_level(
            text,
            piece_start,
            piece_end,
            measure,
            limit,
            level=level + 1,
            is_sentence=whole,
            # -- a sentence, a line, or the piece this one ends --
            ends=whole or (ends and index == last) or "\n" in text[piece_end:after],
        )


def _stripped(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _cut_after(pattern: re.Pattern[str]) -> Callable[[str, int, int], list[tuple[int, int]]]:
    """Spans of `text[start:end]` cut after each match of `pattern` (the match ends a span)."""

    def cut(text: str, start: int, end: int) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        position = start
        for match in pattern.finditer(text, start, end):
            if match.start() > position:
                span = _stripped(text, position, match.end())
                if span[0] < span[1]:
                    spans.append(span)
                position = match.end()
        span = _stripped(text, position, end)
        if span[0] < span[1]:
            spans.append(span)
        return spans

    return cut


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    return [(start + s, start + e) for s, e in iter_sentence_spans(text[start:end])]


def _words(text: str, start: int, end: int) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _WORD.finditer(text, start, end)]


_LEVELS: tuple[Callable[[str, int, int], list[tuple[int, int]]], ...] = (
    _cut_after(PARAGRAPH_BREAK),
    _sentences,
    _cut_after(CLAUSE_END),
    _words,
)


def _iter_prefixes(
    text: str, start: int, end: int, measure: Measure, limit: int, *, ends: bool
) -> Iterator[Split]:
    """The longest prefixes that fit, one after another (a word too long for the budget); the
    last ends a sentence when the word does (`ends`)."""
    while start < end:
        low, high = start + 1, end  # -- the longest fitting end lies in [low, high] --
        if measure(text[start:low]) > limit:
            yield Split(start, low, measure(text[start:low]), False, ends and low == end)
            start = low
            continue
        high = min(end, start + max(1, limit) * 16)  # -- a token is at most 16 characters --
        while measure(text[start:high]) <= limit and high < end:
            high = min(end, start + (high - start) * 2)
        while low < high:
            middle = (low + high + 1) // 2
            if measure(text[start:middle]) <= limit:
                low = middle
            else:
                high = middle - 1
        low = grapheme_boundary(text, low, start, end)
        yield Split(start, low, measure(text[start:low]), False, ends and low == end)
        start = low


_EXTENDS = frozenset("\u200c\u200d\ufe0e\ufe0f")
"""Characters that join the grapheme cluster before them besides combining marks: the zero-width
(non-)joiners and the variation selectors."""


def is_grapheme_extender(char: str) -> bool:
    """True when `char` belongs to the grapheme cluster of the character before it: a combining
    mark (Unicode categories Mn, Mc, Me), a zero-width joiner or non-joiner, a variation selector,
    an emoji skin-tone modifier or a tag character."""
    code = ord(char)
    if char in _EXTENDS or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F:
        return True
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return True
    return unicodedata.category(char) in ("Mn", "Mc", "Me")


def grapheme_boundary(text: str, cut: int, start: int, end: int) -> int:
    """`cut`, moved back to the nearest grapheme cluster boundary after `start` (a cut between a
    character and its combining mark, or around a zero-width joiner, would split one visible
    character); when the cluster at `start` reaches past `cut`, moved forward to its end (a
    cluster larger than the budget is the one piece allowed over it), never past `end`."""
    if cut >= end:
        return end
    back = cut
    while back > start and _joins(text, back):
        back -= 1
    if back > start:
        return back
    forward = cut
    while forward < end and _joins(text, forward):
        forward += 1
    return forward


def _joins(text: str, index: int) -> bool:
    """True when a cut before `text[index]` would fall inside a grapheme cluster."""
    return is_grapheme_extender(text[index]) or text[index - 1] == "\u200d"


def iter_recursive_splits(
    text: str,
    measure: Measure,
    limit: int,
    separators: tuple[str, ...] = RECURSIVE_SEPARATORS,
) -> Iterator[Split]:
    """Yield the splits of `text`: cut at the first separator it holds, pieces still too big
    cut at the next separators, and so on (the recursive character splitter's decomposition).

    Separators are literal and never lost: each stays at the end of the piece before it (the
    usual splitters, `str.split` based, drop them). The empty separator cuts
    between characters (the longest prefixes that fit). Splits are spans, stripped, in order;
    whitespace-only pieces are dropped. Raises `ValueError` unless `limit > 0`.
    """
    if limit <= 0:
        raise ValueError(f"the budget must be > 0, got {limit}")
    start, end = _stripped(text, 0, len(text))
    if start < end:
        yield from _iter_recursive(text, start, end, measure, limit, separators, ends=True)


def _is_ending(separator: str) -> bool:
    return "\n" in separator or separator.strip() in ENDING_SEPARATORS


_MARKER_END = re.compile(r"(?<!\S)(?:\d{1,3}|[A-Za-z])[.)]$")
"""A piece ending with a list marker (`1.`, `a)`): its period numbers the next item."""


def _is_marker_end(text: str, piece: tuple[int, int]) -> bool:
    start, end = piece
    return _MARKER_END.search(text, max(start, end - 4), end) is not None


def _iter_recursive(
    text: str,
    start: int,
    end: int,
    measure: Measure,
    limit: int,
    separators: tuple[str, ...],
    *,
    ends: bool,
) -> Iterator[Split]:
    size = measure(text[start:end])
    if size <= limit:
        yield Split(start, end, size, False, ends)
        return
    for index, separator in enumerate(separators):
        if separator == "":
            break
        if text.find(separator, start, end) < 0:
            continue
        rest = separators[index + 1 :]
        ending = _is_ending(separator)
        position = start
        while position < end:
            found = text.find(separator, position, end)
            cut = end if found < 0 else found + len(separator)
            piece = _stripped(text, position, cut)
            if piece[0] < piece[1]:
                is_last = found < 0 or _stripped(text, cut, end)[0] == end
                piece_ends = (found >= 0 and ending and not _is_marker_end(text, piece)) or (
                    is_last and ends
                )
                yield from _iter_recursive(
                    text, piece[0], piece[1], measure, limit, rest, ends=piece_ends
                )
            position = cut
        return
    yield from _iter_prefixes(text, start, end, measure, limit, ends=ends)
