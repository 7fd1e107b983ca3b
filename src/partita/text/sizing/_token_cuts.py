"""Cuts: positions where tiktoken's cl100k_base tokenization of a text splits in two.

The reference measures every candidate prefix (and, for the overlap, suffix) of a text it splits
with a fresh tokenization: O(n) tokenizations of O(n)-long strings per split. For a counter made
by `token_counter` from a tiktoken encoding whose pre-tokenizer pattern is cl100k_base's (checked
verbatim), partita tokenizes a window once and derives those counts from it, making the same
decisions from the same numbers. tiktoken's `encode_ordinary(t)` cuts `t` into pieces, the
successive leftmost-first matches of the pattern, and byte-pair encodes each piece on its own,
so the count of `t` is the sum of its pieces' counts. The argument, for that pattern:

1. A cut. Every match of the pattern is a string of one of the shapes `'s` (a contraction),
   `X? L+`, `N{1,3}`, `␠? P+ [\\r\\n]*` or all-whitespace, where L is \\p{L}, N is \\p{N}, X is
   anything but \\r, \\n, L and N, and P is anything but whitespace, L and N. So these pairs of
   adjacent characters `(a, c)` never lie inside one piece: a digit then a letter; a letter or
   P then a digit; a letter or digit then P; any non-whitespace then whitespace other than \\r
   and \\n; a letter or digit then \\r or \\n. Wherever `t[q-1:q+1]` is such a pair, `q` is a
   cut: every pre-tokenization of a string holding those two characters there has a piece
   boundary between them. (`t[q-1]` is never whitespace in these pairs, which 2 relies on.)
2. Prefixes. If `q` is a cut of `t`, `t[:q]` is pre-tokenized into exactly the pieces of `t`
   before `q`. The pattern has no look-behind; what it tests beyond the end of a match is the
   next character (greedy and possessive runs, `(?!\\S)` after whitespace) or the end of the
   text (`\\s++$` after whitespace). For a match that ends at or before `q`, a test at `q`
   happens only after a whitespace character at `q-1`, which a cut excludes, or as an attempt
   to consume `t[q]`, which fails in `t` (the match would cross the cut) as it fails at the end
   of `t[:q]`. So `count(t[:q]) = T(q)`, the number of tokens of `t` that end by `q`; and any
   text that starts with `t[:q+1]` has the same `T(q)`: a window of a long text gives the
   counts of the long text's prefixes at the window's cuts.
3. Suffixes and middles. Without look-behind, the pieces of `t` from a cut on are the pieces of
   the suffix, so `count(t[q:]) = count(t) - T(q)`. With 2, any prefix `t[:k]` counts
   `T(q) + count(t[q:k])` for the last cut `q <= k`, and any slice `t[m:k]` counts
   `count(t[m:q]) + count(t[:k]) - T(q)` for the first cut `q >= m`: each needs only a short
   tokenization between a position and the nearest cut. Where only `count <= maxlen` matters
   (the last-resort binary search), `1 <= count(t[q:k]) <= UTF-8 bytes of t[q:k]` often
   decides without that tokenization.
4. Monotonicity, to skip work. The cuts' `T` never decrease, so once a cut `q` has
   `T(q) >= maxlen`, every prefix longer than `q` counts more than `maxlen`: those candidates
   are rejected without counting, exactly as the reference rejects them after counting.
   Between two cuts, `partita.text.sizing._token_bound` gives the same guarantee from a lower bound.
5. Joins. By 2 and 3, `joined_token_count` counts `left + separator + right` from the counts
   of `left` and `right` and the tokenization of the few characters around the join, between
   the last cut of `left` and the first cut of `right`.

Character classes: L, N and whitespace (White_Space) are read from Python's `unicodedata`
(Unicode 14 in Python 3.11); unassigned code points have no class and never make a cut. The
classes of every code point assigned in Unicode 14 are the same in Unicode 15, 15.1 and in the
`regex` package's current tables, so they agree with the tables compiled into tiktoken.

Surrogates. tiktoken re-encodes a text holding surrogates through UTF-16 with replacement: a
lone surrogate becomes U+FFFD, one for one, and a high surrogate followed by a low one becomes
the character they encode (two code points become one). So the counts of a text whose
surrogates are all lone, and of its slices, are those of the same text with U+FFFD in their
place (`count_text`), position for position. A text holding a surrogate pair has no such
equivalent; it is measured as it is, candidate by candidate.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from partita.text.sizing._tokenizers import TiktokenTokens

__all__ = [
    "CLASSES",
    "CUT",
    "CUT_REVERSED",
    "appended_token_count",
    "count_text",
    "first_cut",
    "joined_token_count",
    "last_cut",
    "supports_cuts",
]

_CL100K_PATTERNS = frozenset(
    {
        # -- tiktoken >= 0.8 --
        r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+"
        r"| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s",
        # -- earlier tiktoken --
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
        r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    }
)


def supports_cuts(tokens: TiktokenTokens) -> bool:
    """True when the encoding pre-tokenizes with a pattern the cut rules were derived for."""
    return getattr(tokens.encoding, "_pat_str", None) in _CL100K_PATTERNS


# -- Unicode White_Space, which is what tiktoken's `\s` matches --
_WHITE_SPACE = frozenset(
    map(
        ord,
        "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
        "\u2009\u200a\u2028\u2029\u202f\u205f\u3000",
    )
)


def _character_class(code_point: int) -> str:
    """One letter per class: L, N, P (other), S (U+0020), R (CR, LF), W (other white space), ?.

    `?` (no class) is for unassigned code points and surrogates, whose class tiktoken's tables
    may not share.
    """
    if code_point in _WHITE_SPACE:
        if code_point == 0x20:
            return "S"
        return "R" if code_point in (0x0A, 0x0D) else "W"
    category = unicodedata.category(chr(code_point))
    if category in ("Cn", "Cs"):
        return "?"
    return category[0] if category[0] in "LN" else "P"


class _CharacterClasses(dict[int, str]):
    """A `str.translate` table to class letters, filled in as code points are met."""

    def __missing__(self, code_point: int) -> str:
        letter = self[code_point] = _character_class(code_point)
        return letter


CLASSES: dict[int, str] = _CharacterClasses({cp: _character_class(cp) for cp in range(128)})
"""`text.translate(CLASSES)` has one class letter per character of `text`."""

CUT = re.compile(r"(?<=N)L|(?<=[LP])N|(?<=[LN])[PR]|(?<=[LNP])[SW]")
"""Matches, in class letters, at each cut: a position whose (previous, own) classes never share
a piece, the previous one not whitespace."""
CUT_REVERSED = re.compile(r"L(?=N)|N(?=[LP])|[PR](?=[LN])|[SW](?=[LNP])")
"""`CUT` in the reversed class letters (a cut `q` of a text of length `n` matches at `n-1-q`)."""

_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")
_REPLACEMENT = dict.fromkeys(range(0xD800, 0xE000), "\ufffd")


def count_text(text: str) -> str | None:
    """The text tiktoken tokenizes for `text`, position for position; None if there is none.

    `text` itself unless it holds surrogates; with lone surrogates only, `text` with U+FFFD in
    their place; None when it holds a surrogate pair (which tiktoken joins into one character).
    """
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    if _SURROGATE_PAIR.search(text) is not None:
        return None
    return text.translate(_REPLACEMENT)


def joined_token_count(
    count: Callable[[str], int],
    tokens: TiktokenTokens | None,
    left: str,
    separator: str,
    right: str,
    *,
    left_count: int | None = None,
    right_count: int | None = None,
) -> int:
    """`count(left + separator + right)`, exactly, mostly from the counts of `left` and `right`.

    For a cl100k_base counter (`tokens`, the `TiktokenTokens` behind `count`, given), with `q` the
    last cut of `left` and `p` the first cut of `right` (see the module docstring), the joined text
    counts `count(left[:q]) + count(left[q:] + separator + right[:p]) + count(right[p:])`, and each
    outer term is a whole count less a short one. So only short texts around the join are tokenized,
    besides `left` and `right` themselves when their counts are not given (a memoized counter may
    have them). Line breaks between `left` and `right` are decided by their end and start
    characters alone where that suffices (`_count_at_line_break`). Any other counter counts the
    joined text.
    """
    if tokens is None or not _cuts_apply(tokens, left, right):
        return count(left + separator + right)
    if separator and not separator.strip("\r\n"):
        at_break = _count_at_line_break(
            count,
            left,
            separator,
            right,
            count(left) if left_count is None else left_count,
            count(right) if right_count is None else right_count,
        )
        if at_break is not None:
            return at_break
    encode = tokens.encode_ordinary

    def short(text: str) -> int:
        return len(encode(text))

    q = last_cut(left)
    total = _count_from_head(short, count, left[q:], separator, right, right_count)
    if q > 0:
        total += (count(left) if left_count is None else left_count) - short(left[q:])
    return total


def _cuts_apply(tokens: TiktokenTokens, left: str, right: str) -> bool:
    """Whether the cut rules decide a join of `left` and `right`: both non-empty, the encoding's
    pre-tokenizer the one they were derived for, and no surrogate in either."""
    return (
        bool(left)
        and bool(right)
        and supports_cuts(tokens)
        and (left.isascii() or _SURROGATE.search(left) is None)
        and (right.isascii() or _SURROGATE.search(right) is None)
    )


def _count_from_head(
    short: Callable[[str], int],
    count: Callable[[str], int],
    head: str,
    separator: str,
    right: str,
    right_count: int | None,
) -> int:
    """`count(head + separator + right)` for `head` starting at a cut: the short text up to the
    first cut `p` of `right` counted by `short`, and `right[p:]` as `right`'s count (given, or by
    `count`) less `short(right[:p])`."""
    p = first_cut(right)
    total = short(head + separator + right[:p])
    if p < len(right):
        total += (count(right) if right_count is None else right_count) - short(right[:p])
    return total


def appended_token_count(
    count: Callable[[str], int],
    tokens: TiktokenTokens,
    left_tail: str,
    separator: str,
    right: str,
    *,
    left_count: int,
    right_count: int,
) -> int | None:
    """The count of `left + separator + right` from the counts of `left` and `right`, knowing of
    `left` only its last characters `left_tail`; None when that cannot decide it.

    By 5 in the module docstring, with `q` the last cut of `left_tail` (a cut of `left` too: a
    cut is a property of the two characters around it), the joined text counts `left_count -
    count(left_tail[q:]) + count(left_tail[q:] + separator + right[:p]) + count(right[p:])`, `p`
    the first cut of `right`. None when `left_tail` has no cut (`q == 0`), when the encoding has
    another pre-tokenizer, or when `left_tail` or `right` hold a surrogate. The short texts
    around the join are counted by `count` (the sizer's memoized count: joins repeat, such as a
    period, a blank line and "The").
    """
    if not _cuts_apply(tokens, left_tail, right):
        return None
    if not separator.strip("\r\n") and separator:
        at_break = _count_at_line_break(count, left_tail, separator, right, left_count, right_count)
        if at_break is not None:
            return at_break
    q = last_cut(left_tail)
    if q == 0:
        return None
    head = left_tail[q:]
    return (
        left_count
        - count(head)
        + _count_from_head(count, count, head, separator, right, right_count)
    )


def _count_at_line_break(
    count: Callable[[str], int],
    left_tail: str,
    separator: str,
    right: str,
    left_count: int,
    right_count: int,
) -> int | None:
    r"""The joined count when `separator` is line breaks only (the "\n\n" between two elements),
    without looking for cuts; None when the classes around the join do not decide it.

    `right` starting with a letter, digit or other (P) character starts a piece of its own after
    line breaks. If `left` ends with a letter or digit, its last piece ends there and the line
    breaks are one piece (`\s*[\r\n]`): the count is `left_count + count(separator) +
    right_count`. If it ends with P characters, the last piece is their run (with one space
    before it, if any: ` ?[^\s\p{L}\p{N}]++[\r\n]*+`), which takes the line breaks too: the
    count is `left_count - count(head) + count(head + separator) + right_count`.
    """
    first = CLASSES[ord(right[0])]
    if first not in ("L", "N", "P"):
        return None
    last = CLASSES[ord(left_tail[-1])]
    if last in ("L", "N"):
        return left_count + count(separator) + right_count
    if last != "P":
        return None
    start = len(left_tail) - 1
    while start > 0 and CLASSES[ord(left_tail[start - 1])] == "P":
        start -= 1
    if start == 0:
        return None  # -- the run may start before the tail --
    if left_tail[start - 1] == " ":
        start -= 1
    head = left_tail[start:]
    return left_count - count(head) + count(head + separator) + right_count


def last_cut(text: str) -> int:
    """The last cut of `text`, or 0."""
    width = 64
    while True:
        start = max(0, len(text) - width)
        window = text[start:]
        match = CUT_REVERSED.search(window.translate(CLASSES)[::-1])
        if match is not None:
            return start + len(window) - 1 - match.start()
        if start == 0:
            return 0
        width *= 4


def first_cut(text: str) -> int:
    """The first cut of `text`, or `len(text)`."""
    width = 64
    while True:
        match = CUT.search(text[:width].translate(CLASSES))
        if match is not None:
            return match.start()
        if width >= len(text):
            return len(text)
        width *= 4
