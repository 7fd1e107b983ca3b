"""Splitting an oversized text into pieces that fit the chunking window.

`TextSplitter` is a callable: `fragment, remainder = split(s)`, applied to the remainder until
it is empty. The fragment fits the window (`maxlen` characters, or tokens when a token counter
is given); the remainder starts with an overlap tail of the fragment when `overlap` is set.

Character mode cuts at the right-most separator (newline, then space) that keeps the fragment
within the window and longer than the overlap, and as a last resort at exactly `maxlen`
characters. Token mode cuts at the right-most separator whose fragment fits, and as a last resort
at the longest prefix that fits (backed off to a whitespace). Both match the reference library's
`_TextSplitter` piece for piece, with two deliberate differences: separators are literal strings
(the reference compiles them as regular expressions, so a separator like "." would delete
characters), and token-mode overlap always makes progress (the reference can return its input as
the remainder, e.g. for `"a " + "x" * 2000` with max_tokens=10 and overlap=3, and loop forever).

Token mode, fast and exact, for tiktoken's cl100k_base
------------------------------------------------------
The reference measures every candidate prefix (and, for the overlap, suffix) with a fresh
tokenization: O(n) tokenizations of O(n)-long strings per split. For a counter made by
`token_counter` from a tiktoken encoding whose pre-tokenizer pattern is cl100k_base's (checked
verbatim), this module tokenizes a text once and derives those counts, making the same decisions
from the same numbers. tiktoken's `encode_ordinary(t)` cuts `t` into pieces, the successive
leftmost-first matches of the pattern, and byte-pair encodes each piece on its own, so the count
of `t` is the sum of its pieces' counts. The argument, for that pattern:

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
   of `t[:q]`. So `count(t[:q]) = T(q)`, the number of tokens of `t` that end by `q`.
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
5. The remainder. A remainder is `tail + s[r:]`; its cuts after `r` are those of `s`, so its
   counts follow from `s`'s tokens plus one short tokenization up to its first cut. The
   splitter hands that index to its next call when the call is given that very remainder, so a
   chain of splits over one long text tokenizes it once (and the first tokenization is shared
   with the memoized counter's, see `TiktokenTokens`).
6. Joins. By 2 and 3, `joined_token_count` counts `left + separator + right` from the counts
   of `left` and `right` and the tokenization of the few characters around the join, between
   the last cut of `left` and the first cut of `right`.

Character classes: L, N and whitespace (White_Space) are read from Python's `unicodedata`
(Unicode 14 in Python 3.11); unassigned code points have no class and never make a cut. The
classes of every code point assigned in Unicode 14 are the same in Unicode 15, 15.1 and in the
`regex` package's current tables, so they agree with the tables compiled into tiktoken. Texts
with lone surrogates (which tiktoken re-encodes) take the plain path, as do other encodings and
any other counter: the plain path measures every candidate, as the reference does. The tests
check the cut property itself (`encode(t) == encode(t[:q]) + encode(t[q:])` at every cut) and
compare whole split sequences against the reference and the plain path.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate

from partita.chunking.tokenizers import TiktokenTokens, tiktoken_tokens

__all__ = ["DEFAULT_SEPARATORS", "TextSplitter", "joined_token_count"]

DEFAULT_SEPARATORS: tuple[str, ...] = ("\n", " ")
"""Separators tried in order of preference before an arbitrary-character cut."""


class TextSplitter:
    """A function `split(s) -> (fragment, remainder)` configured with a window and an overlap.

    `count_tokens`, when given, switches to token mode: `maxlen` and `overlap` are then token
    counts. An `s` that already fits is returned whole with an empty remainder.
    """

    __slots__ = ("_count", "_maxlen", "_overlap", "_pending", "_separators", "_tokens")

    def __init__(
        self,
        maxlen: int,
        overlap: int = 0,
        *,
        count_tokens: Callable[[str], int] | None = None,
        separators: Sequence[str] = DEFAULT_SEPARATORS,
    ) -> None:
        self._maxlen = maxlen
        self._overlap = overlap
        self._count = count_tokens
        self._separators = tuple(sep for sep in separators if sep)
        tokens = None if count_tokens is None else tiktoken_tokens(count_tokens)
        self._tokens = tokens if tokens is not None and _supports_cuts(tokens) else None
        # -- the last remainder returned in the fast token mode, and how to index it --
        self._pending: tuple[str, _TokenIndex, int, str] | None = None

    def __call__(self, s: str) -> tuple[str, str]:
        if self._count is not None:
            if self._tokens is not None:
                return self._split_by_indexed_tokens(s, self._tokens)
            return self._split_by_tokens(s)
        maxlen = self._maxlen
        if len(s) <= maxlen:
            return s, ""
        overlap = self._overlap
        for sep in self._separators:
            # -- the separator must start after the overlap (or the split makes no progress) and
            # -- may end exactly at maxlen --
            start = s.rfind(sep, overlap + 1, maxlen + len(sep))
            if start == -1:
                continue
            fragment = s[:start].rstrip()
            remainder = s[start + len(sep) :].lstrip()
            if overlap > 1:
                remainder = fragment[-(overlap - 1) :].lstrip() + " " + remainder
            if not fragment or len(remainder) >= len(s):
                continue
            return fragment.rstrip(), remainder.lstrip()
        return s[:maxlen].rstrip(), s[maxlen - overlap :].lstrip()

    # --------------------------------------------------------------------------------------------
    # token mode, plain: every candidate measured (any counter)
    # --------------------------------------------------------------------------------------------

    def _split_by_tokens(self, s: str) -> tuple[str, str]:
        count = self._count
        assert count is not None
        maxlen, overlap = self._maxlen, self._overlap
        if count(s) <= maxlen:
            return s, ""
        for sep in self._separators:
            end = len(s)
            # -- every match, right to left, each ending where the one to its right starts --
            while (start := s.rfind(sep, 0, end)) != -1:
                end = start
                fragment = s[:start].rstrip()
                if 0 < count(fragment) <= maxlen:
                    remainder = s[start + len(sep) :].lstrip()
                    return self._with_token_overlap(s, fragment, remainder)
        # -- no separator works: the longest prefix that fits, backed off to a whitespace --
        low, high = 1, len(s)
        best_pos = max(overlap + 1, 1)
        while low <= high:
            mid = (low + high) // 2
            if count(s[:mid]) <= maxlen:
                best_pos = mid
                low = mid + 1
            else:
                high = mid - 1
        split_pos = best_pos
        for i in range(best_pos, max(overlap, 0), -1):
            if i < len(s) and s[i].isspace():
                split_pos = i
                break
        fragment = s[:split_pos].rstrip()
        if count(fragment) > maxlen and split_pos > overlap + 1:
            fragment = s[:best_pos].rstrip()
            split_pos = best_pos
        return self._with_token_overlap(s, fragment, s[split_pos:].lstrip())

    def _with_token_overlap(self, s: str, fragment: str, remainder: str) -> tuple[str, str]:
        """Return `(fragment, remainder)` with the overlap tail of `fragment` before `remainder`.

        Where the reference may then loop forever, the tail is dropped (see `_loops`).
        """
        if self._overlap <= 0 or not fragment:
            return fragment, remainder
        overlapped = self._token_tail(fragment) + " " + remainder
        if self._loops(s, overlapped):
            return fragment, remainder
        return fragment, overlapped

    def _loops(self, s: str, overlapped: str) -> bool:
        """True when the reference, having split `s` into an `overlapped` remainder, may not end.

        It returns `s` itself as the remainder: it splits it the same way forever. A longer
        remainder is the whole fragment, one space and the rest (no separator lay between them):
        when it fits, the next step returns it whole and splitting ends; when it does not, the
        next step finds that space and returns the same remainder again, forever. So a longer
        remainder is kept only when it fits. Otherwise remainders never grow, and one of equal
        length has one newline fewer, so with the tail dropped in those cases splitting ends.
        """
        if overlapped == s:
            return True
        if len(overlapped) <= len(s):
            return False
        count = self._count
        assert count is not None
        return count(overlapped) > self._maxlen

    def _token_tail(self, text: str) -> str:
        """Return the tail of `text` of about `overlap` tokens, starting at a word."""
        count = self._count
        assert count is not None
        target = self._overlap
        if count(text) <= target:
            return text.strip()
        low, high = 0, len(text)
        while low < high:
            mid = (low + high) // 2
            if count(text[mid:]) > target:
                low = mid + 1
            else:
                high = mid
        return _tail_from(text, low)

    # --------------------------------------------------------------------------------------------
    # token mode, fast: counts derived from one tokenization (tiktoken cl100k_base)
    # --------------------------------------------------------------------------------------------

    def _split_by_indexed_tokens(self, s: str, tokens: TiktokenTokens) -> tuple[str, str]:
        """`_split_by_tokens` with every count taken from a `_TokenIndex` of `s`."""
        maxlen, overlap = self._maxlen, self._overlap
        index = self._index_of_pending(s)
        if index is None:
            count = self._count
            assert count is not None
            if count(s) <= maxlen:
                return s, ""
            index = _TokenIndex.of(s, tokens)
            if index is None:  # -- lone surrogates: tiktoken would re-encode the text --
                return self._split_by_tokens(s)
        elif index.total <= maxlen:
            return s, ""
        # -- every prefix longer than `stop` counts more than maxlen --
        stop = index.stop(maxlen)
        for sep in self._separators:
            end = len(s)
            blank = sep.isspace()
            if blank:
                # -- a match starting after the first non-space at or after `stop` leaves a
                # -- longer prefix; matches closer to `stop` are found alike from here, for all
                # -- matches inside one whitespace run give the same fragment and remainder --
                end = _first_non_space(s, stop) + len(sep)
            while (start := s.rfind(sep, 0, end)) != -1:
                k = _rstripped_len(s, start)
                # -- the rest of this whitespace run repeats this fragment: skip it if rejected --
                end = k if blank else start
                if k == 0 or k > stop:
                    continue
                n = index.prefix_count(k)
                if n <= maxlen:
                    r = start + len(sep)
                    return self._indexed_overlap(s, index, k, n, _lstripped_start(s, r))
        low, high = 1, len(s)
        best_pos = max(overlap + 1, 1)
        while low <= high:
            mid = (low + high) // 2
            if mid <= stop and index.fits(mid, maxlen):
                best_pos = mid
                low = mid + 1
            else:
                high = mid - 1
        split_pos = _last_space(s, max(overlap, 0) + 1, best_pos + 1, best_pos)
        k = _rstripped_len(s, split_pos)
        if (k > stop or not index.fits(k, maxlen)) and split_pos > overlap + 1:
            split_pos = best_pos
            k = _rstripped_len(s, split_pos)
        return self._indexed_overlap(s, index, k, -1, _lstripped_start(s, split_pos))

    def _indexed_overlap(
        self, s: str, index: _TokenIndex, k: int, n: int, r: int
    ) -> tuple[str, str]:
        """`_with_token_overlap(s, s[:k], s[r:])`, where `s[:k]` counts `n` tokens (-1: unknown).

        Records the remainder so that the next call, given it, indexes it from `index`.
        """
        fragment, remainder = s[:k], s[r:]
        head = ""
        if self._overlap > 0 and fragment:
            if n < 0:
                n = index.prefix_count(k)
            head = self._indexed_tail(index, k, n) + " "
            overlapped = head + remainder
            if self._loops(s, overlapped):
                head = ""
            else:
                remainder = overlapped
        self._pending = (remainder, index, r, head) if remainder else None
        return fragment, remainder

    def _indexed_tail(self, index: _TokenIndex, k: int, n: int) -> str:
        """`_token_tail(s[:k])`, where `s[:k]` counts `n` tokens."""
        text = index.text[:k]
        target = self._overlap
        if n <= target:
            return text.strip()
        low, high = 0, k
        while low < high:
            mid = (low + high) // 2
            if index.slice_count(mid, k, n) > target:
                low = mid + 1
            else:
                high = mid
        return _tail_from(text, low)

    def _index_of_pending(self, s: str) -> _TokenIndex | None:
        """The index of `s` when it is the remainder last returned, else None."""
        pending = self._pending
        if pending is None:
            return None
        remainder, index, r, head = pending
        if remainder is not s and remainder != s:
            return None
        self._pending = None
        return index.remainder(head, r)


def _tail_from(text: str, low: int) -> str:
    """The overlap tail of `text` from `low`, moved forward to the start of a word."""
    pos = low
    while pos < len(text) and not text[pos].isspace():
        pos += 1
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if pos >= len(text):
        return text[low:].lstrip()
    return text[pos:]


def _rstripped_len(s: str, end: int) -> int:
    """`len(s[:end].rstrip())`."""
    end = min(end, len(s))
    while end > 0 and s[end - 1].isspace():
        end -= 1
    return end


def _lstripped_start(s: str, start: int) -> int:
    """`len(s) - len(s[start:].lstrip())`."""
    n = len(s)
    while start < n and s[start].isspace():
        start += 1
    return start


_NON_SPACE = re.compile(r"\S")
_LAST_SPACE = re.compile(r"\s(?=\S*\Z)")


def _last_space(s: str, low: int, high: int, default: int) -> int:
    """The index of the last whitespace character of `s[low:high]`, or `default`."""
    match = _LAST_SPACE.search(s[low:high])
    return default if match is None else low + match.start()


def _first_non_space(s: str, pos: int) -> int:
    """The index of the first non-whitespace character of `s` at or after `pos`, or `len(s)`."""
    match = _NON_SPACE.search(s, pos)
    return len(s) if match is None else match.start()


# ------------------------------------------------------------------------------------------------
# cuts and the token index
# ------------------------------------------------------------------------------------------------

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


def _supports_cuts(tokens: TiktokenTokens) -> bool:
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


_CLASSES = _CharacterClasses({cp: _character_class(cp) for cp in range(128)})

# -- a cut is a position whose (previous, own) classes never share a piece, previous not space --
_CUT = re.compile(r"(?<=N)L|(?<=[LP])N|(?<=[LN])[PR]|(?<=[LNP])[SW]")
_CUT_REVERSED = re.compile(r"L(?=N)|N(?=[LP])|[PR](?=[LN])|[SW](?=[LNP])")
_SURROGATE = re.compile("[\ud800-\udfff]")


def joined_token_count(
    count: Callable[[str], int],
    left: str,
    separator: str,
    right: str,
    *,
    left_count: int | None = None,
    right_count: int | None = None,
) -> int:
    """`count(left + separator + right)`, exactly, mostly from the counts of `left` and `right`.

    For a cl100k_base counter from `token_counter`, with `q` the last cut of `left` and `p` the
    first cut of `right` (see the module docstring), the joined text counts
    `count(left[:q]) + count(left[q:] + separator + right[:p]) + count(right[p:])`, and each
    outer term is a whole count less a short one. So only short texts around the join are
    tokenized, besides `left` and `right` themselves when their counts are not given (a memoized
    counter may have them). Any other counter counts the joined text.
    """
    tokens = tiktoken_tokens(count)
    if (
        tokens is None
        or not left
        or not right
        or not _supports_cuts(tokens)
        or (not left.isascii() and _SURROGATE.search(left))
        or (not right.isascii() and _SURROGATE.search(right))
    ):
        return count(left + separator + right)
    encode = tokens.encoding.encode_ordinary
    q, p = _last_cut(left), _first_cut(right)
    total = len(encode(left[q:] + separator + right[:p]))
    if q > 0:
        total += (count(left) if left_count is None else left_count) - len(encode(left[q:]))
    if p < len(right):
        total += (count(right) if right_count is None else right_count) - len(encode(right[:p]))
    return total


def _last_cut(text: str) -> int:
    """The last cut of `text`, or 0."""
    width = 64
    while True:
        start = max(0, len(text) - width)
        window = text[start:]
        match = _CUT_REVERSED.search(window.translate(_CLASSES)[::-1])
        if match is not None:
            return start + len(window) - 1 - match.start()
        if start == 0:
            return 0
        width *= 4


def _first_cut(text: str) -> int:
    """The first cut of `text`, or `len(text)`."""
    width = 64
    while True:
        match = _CUT.search(text[:width].translate(_CLASSES))
        if match is not None:
            return match.start()
        if width >= len(text):
            return len(text)
        width *= 4


class _TokenIndex:
    """Exact token counts of the prefixes and slices of `text`, from one tokenization.

    The numbers come from a root text's tokenization: `_ends[i]` is the character offset where
    its token `i` ends (meaningful at cuts), `_classes` has one class letter per character, in
    which `_CUT` finds the cuts; both in root offsets. A position `q` of `text` is root offset
    `q + _shift`; for a cut `q >= _first`, `count(text[:q])` is
    `bisect_right(_ends, q + _shift) + _base`. Before `_first`, counts are taken directly.
    """

    __slots__ = (
        "_base",
        "_classes",
        "_encode",
        "_ends",
        "_first",
        "_reversed",
        "_shift",
        "text",
        "total",
    )

    def __init__(
        self,
        text: str,
        total: int,
        ends: list[int],
        classes: str,
        shift: int,
        base: int,
        first: int,
        encode: Callable[[str], list[int]],
    ) -> None:
        self.text = text
        self.total = total
        self._ends = ends
        self._classes = classes
        self._reversed: str | None = None
        self._shift = shift
        self._base = base
        self._first = first
        self._encode = encode

    @classmethod
    def of(cls, text: str, tokens: TiktokenTokens) -> _TokenIndex | None:
        """Index `text` by tokenizing it; None if it holds a surrogate."""
        if not text.isascii() and _SURROGATE.search(text):
            return None
        ids = tokens.encode(text)
        ends = list(accumulate(map(tokens.char_starts.__getitem__, ids)))
        classes = text.translate(_CLASSES)
        return cls(text, len(ids), ends, classes, 0, 0, 0, tokens.encoding.encode_ordinary)

    def _count(self, text: str) -> int:
        return len(self._encode(text))

    def _tokens_before(self, q: int) -> int:
        """`count(text[:q])` for a cut `q >= _first`."""
        return bisect_right(self._ends, q + self._shift) + self._base

    def _cut_at_or_before(self, k: int) -> int:
        """The last cut `<= k` and `>= _first`, or -1."""
        # -- searched forward in the reversed classes: root offset p is n - 1 - p there --
        reversed_classes = self._reversed
        if reversed_classes is None:
            reversed_classes = self._reversed = self._classes[::-1]
        n = len(reversed_classes)
        match = _CUT_REVERSED.search(reversed_classes, n - 1 - (k + self._shift))
        if match is None:
            return -1
        q = n - 1 - match.start() - self._shift
        return q if q >= self._first else -1

    def _cut_at_or_after(self, m: int) -> int:
        """The first cut `>= max(m, _first)`, or -1."""
        match = _CUT.search(self._classes, max(m, self._first) + self._shift)
        return -1 if match is None else match.start() - self._shift

    def stop(self, maxlen: int) -> int:
        """A position past which every prefix counts more than `maxlen` (or `len(text)`).

        The first cut whose prefix counts at least `maxlen` tokens: any longer prefix holds it
        and at least one more token.
        """
        needed = maxlen - self._base
        if needed > len(self._ends):
            return len(self.text)
        floor = 0 if needed <= 0 else self._ends[needed - 1] - self._shift
        q = self._cut_at_or_after(floor)
        return len(self.text) if q < 0 else q

    def fits(self, k: int, maxlen: int) -> bool:
        """`count(text[:k]) <= maxlen`, decided by bounds where they suffice.

        Past the last cut `q <= k`, `text[q:k]` counts at least one token and at most one per
        UTF-8 byte.
        """
        if k >= len(self.text):
            return self.total <= maxlen
        if k <= 0:
            return maxlen >= 0
        q = self._cut_at_or_before(k)
        before = 0 if q < 0 else self._tokens_before(q)
        if q == k:
            return before <= maxlen
        if before >= maxlen:
            return False
        rest = self.text[max(q, 0) : k]
        if before + (len(rest) if rest.isascii() else len(rest.encode())) <= maxlen:
            return True
        return before + self._count(rest) <= maxlen

    def prefix_count(self, k: int) -> int:
        """`count(text[:k])`."""
        if k >= len(self.text):
            return self.total
        if k <= 0:
            return 0
        q = self._cut_at_or_before(k)
        if q < 0:
            return self._count(self.text[:k])
        if q == k:
            return self._tokens_before(k)
        return self._tokens_before(q) + self._count(self.text[q:k])

    def slice_count(self, m: int, k: int, n: int) -> int:
        """`count(text[m:k])`, where `count(text[:k])` is `n`."""
        q = self._cut_at_or_after(m)
        if q < 0 or q >= k:
            return self._count(self.text[m:k])
        rest = n - self._tokens_before(q)
        return rest if q == m else self._count(self.text[m:q]) + rest

    def remainder(self, head: str, r: int) -> _TokenIndex | None:
        """The index of `head + text[r:]`, or None when `text[r:]` holds no usable cut."""
        q = self._cut_at_or_after(r + 1)
        if q < 0:
            return None
        before = self._tokens_before(q)
        lead = self._count(head + self.text[r:q])
        return _TokenIndex(
            head + self.text[r:],
            lead + self.total - before,
            self._ends,
            self._classes,
            self._shift + r - len(head),
            self._base + lead - before,
            len(head) + q - r,
            self._encode,
        )
