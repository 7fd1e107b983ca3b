"""The window of a long text that decides its next split, tokenized once (cl100k_base).

Splitting a text in token mode looks at prefixes that count at most `maxlen` tokens, and at the
whitespace and separator just after them. `window_of` tokenizes a prefix of the text (the
window) wide enough to find `stop`, a position past which every prefix provably counts more than
`maxlen` tokens, by the cut argument of `partita.text.sizing._token_cuts` (the first cut whose
prefix counts `maxlen` tokens) or by the vocabulary bound of `partita.text.sizing._token_bound`
(inside a stretch without cuts). Every count the split then needs is a prefix or slice of the
window, derived from its one tokenization and short tokenizations up to the nearest cut.

The window starts at a width guessed from the last split and doubles until `stop` is found, so
the work per split is proportional to the characters within about `maxlen` tokens, however long
the text: splitting a text is linear in its length (times the logarithm of the window, for the
binary search's probes inside a stretch without cuts).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate

from partita.text.sizing._text_tail import TextTail
from partita.text.sizing._token_bound import vocabulary_bound
from partita.text.sizing._token_cuts import CLASSES, CUT, CUT_REVERSED, count_text, supports_cuts
from partita.text.sizing._tokenizers import TiktokenTokens

__all__ = ["TokenWindow", "count_at_most", "set_stop", "window_of"]

_BOUNDED_STRETCH = 256
"""A stretch without cuts longer than this (characters) before `stop` is bounded by the
vocabulary: shorter ones cost less to count than to bound."""


class TokenWindow:
    """Exact token counts of the prefixes and slices of `text`, the first characters of a text.

    `whole` tells whether `text` is the whole text; `total` is the token count of `text`, and
    `stop` (set by `window_of`) the position past which the whole text's prefixes count more
    than the window `maxlen`. Counts are taken on `count_text`, which is `text` with lone
    surrogates replaced as tiktoken replaces them.
    """

    __slots__ = (
        "_classes",
        "_count_text",
        "_encode",
        "_ends",
        "_reversed",
        "_tokens",
        "stop",
        "text",
        "total",
        "whole",
    )

    def __init__(
        self,
        text: str,
        counted: str,
        whole: bool,
        tokens: TiktokenTokens,
        ends: list[int] | None = None,
        classes: str | None = None,
    ) -> None:
        """Tokenize `counted` (the count text of `text`), unless its token `ends` and character
        `classes` are given."""
        self.text = text
        self.whole = whole
        self._count_text = counted
        if ends is None:
            ids = tokens.encode(counted)
            ends = list(accumulate(map(tokens.char_starts.__getitem__, ids)))
        self._ends = ends
        self.total = len(ends)
        self._classes = counted.translate(CLASSES) if classes is None else classes
        self._reversed: str | None = None
        self._tokens = tokens
        self._encode: Callable[[str], list[int]] = tokens.encode_ordinary
        self.stop = len(text)

    def rest(self, head: str, r: int) -> TokenWindow | None:
        """The whole window of `head + text[r:]`, for a whole window, from its tokens after
        the first cut past `r` and a tokenization of the text before it; None when there is no
        such cut (or `head` has no count text)."""
        q = self._cut_within(r + 1, len(self._classes))
        counted_head = count_text(head)
        if q < 0 or counted_head is None:
            return None
        lead = counted_head + self._count_text[r:q]
        char_starts = self._tokens.char_starts
        ends = list(accumulate(map(char_starts.__getitem__, self._tokens.encode(lead))))
        shift = len(head) - r
        ends += [end + shift for end in self._ends[bisect_right(self._ends, q) :]]
        counted = counted_head + self._count_text[r:]
        classes = counted_head.translate(CLASSES) + self._classes[r:]
        return TokenWindow(head + self.text[r:], counted, True, self._tokens, ends, classes)

    def _count(self, start: int, end: int) -> int:
        return len(self._encode(self._count_text[start:end]))

    def _tokens_before(self, q: int) -> int:
        """`count(text[:q])` for a cut `q` (or 0)."""
        return bisect_right(self._ends, q)

    def _cut_at_or_before(self, k: int) -> int:
        """The last cut `<= k`, or 0 (the end of a whole text is a cut)."""
        size = len(self._classes)
        if k >= size:
            if self.whole:
                return size
            k = size - 1
        reversed_classes = self._reversed
        if reversed_classes is None:
            reversed_classes = self._reversed = self._classes[::-1]
        match = CUT_REVERSED.search(reversed_classes, size - 1 - k)
        return 0 if match is None else size - 1 - match.start()

    def _cut_within(self, start: int, end: int) -> int:
        """The first cut in `[start, end)`, or -1."""
        match = CUT.search(self._classes, start, end)
        return -1 if match is None else match.start()

    def prefix_count(self, k: int) -> int:
        """`count(text[:k])`, for `k <= len(text)`."""
        if k <= 0:
            return 0
        if k >= len(self.text) and self.whole:
            return self.total
        q = self._cut_at_or_before(k)
        before = self._tokens_before(q)
        return before if q == k else before + self._count(q, k)

    def fits(self, k: int, maxlen: int) -> bool:
        """`count(text[:k]) <= maxlen`, for `k <= len(text)`, decided by bounds where they
        suffice: past the last cut `q <= k`, `text[q:k]` counts at least one token and at most
        one per UTF-8 byte."""
        if k <= 0:
            return maxlen >= 0
        if k >= len(self.text) and self.whole:
            return self.total <= maxlen
        q = self._cut_at_or_before(k)
        before = self._tokens_before(q)
        if q == k:
            return before <= maxlen
        if before >= maxlen:
            return False
        rest = self._count_text[q:k]
        if before + (len(rest) if rest.isascii() else len(rest.encode())) <= maxlen:
            return True
        return before + len(self._encode(rest)) <= maxlen

    def slice_count(self, m: int, k: int, n: int) -> int:
        """`count(text[m:k])`, where `count(text[:k])` is `n`, for `k <= len(text)`."""
        q = self._cut_within(max(m, 1), k)
        if q < 0:
            return self._count(m, k)
        rest = n - self._tokens_before(q)
        return rest if q == m else self._count(m, q) + rest

    def _stop_at_cut(self, maxlen: int) -> int:
        """The first cut whose prefix counts at least `maxlen` tokens, or -1 (none in the window).

        A cut is at least where the `maxlen`-th token ends; the end of a whole text is a cut.
        """
        if maxlen > len(self._ends):
            return -1
        floor = self._ends[maxlen - 1] if maxlen > 0 else 0
        q = self._cut_within(max(floor, 1), len(self._classes))
        if q < 0 and self.whole:
            return len(self.text)
        return q

    def _bounded_stop(self, q: int, maxlen: int, *, beyond: bool) -> int:
        """The last position whose prefix may count `maxlen` tokens or fewer, by the vocabulary
        bound over the stretch from the cut `q` (which counts fewer); -1 when the bound reaches
        the window's end, or, with `beyond`, is not valid past it."""
        bound = vocabulary_bound(self._tokens.encoding)
        data = self._count_text[q:].encode()
        reach = bound.reach(data, maxlen - self._tokens_before(q))
        if reach >= len(data) or (beyond and not self.whole and reach + bound.longest > len(data)):
            return -1
        return q + len(data[:reach].decode("utf-8", "ignore"))


def window_of(
    tail: TextTail, maxlen: int, tokens: TiktokenTokens, width: int
) -> TokenWindow | None:
    """The window of `tail` that decides its split into `maxlen`-token pieces, or None.

    None when `tail` holds a surrogate pair (it has no count text, see `token_cuts`). The window
    is `whole` with `total <= maxlen` when `tail` fits; otherwise its `stop` is set: no prefix of
    `tail` longer than `stop` counts `maxlen` tokens or fewer. `width` is the first guess of the
    window's length.
    """
    size = len(tail)
    width = min(size, max(width, 1))
    while True:
        text = tail.prefix(width)
        counted = count_text(text)
        if counted is None:
            return None
        window = TokenWindow(text, counted, width == size, tokens)
        if set_stop(window, maxlen):
            return window
        width = min(size, 2 * width)


def set_stop(window: TokenWindow, maxlen: int) -> bool:
    """Set `window.stop` for `maxlen`-token pieces; False when the window is too short to.

    True also for a whole window that fits (`total <= maxlen`), whose stop is its length.
    """
    if window.whole and window.total <= maxlen:
        return True
    stop = window._stop_at_cut(maxlen)
    if stop >= 0:
        q = window._cut_at_or_before(stop - 1)
        if stop - q > _BOUNDED_STRETCH:
            bounded = window._bounded_stop(q, maxlen, beyond=False)
            if 0 <= bounded < stop:
                stop = bounded
        window.stop = stop
        return True
    if window.total >= maxlen:
        # -- the maxlen-th token ends in a stretch without cuts: bound it --
        q = window._cut_at_or_before(len(window.text))
        bounded = window._bounded_stop(q, maxlen, beyond=True)
        if bounded >= 0:
            window.stop = bounded
            return True
    return False


def count_at_most(
    count: Callable[[str], int], tokens: TiktokenTokens | None, text: str, cap: int
) -> int:
    """`count(text)` when that is at most `cap`, else a number above `cap`.

    For a long text and a tiktoken counter (`tokens`, the `TiktokenTokens` behind `count`,
    given), the work is bounded by the characters of about `cap` tokens, however long the text:
    an engine that stops early counts until `cap` is passed; else, for cl100k_base, the text is
    measured by its window (see `window_of`). Any other counter counts the whole text.
    """
    if len(text) <= _SHORT_TEXT_TOKENS * cap + 64 or tokens is None:
        return count(text)
    engine = tokens.engine
    if engine.stops_early:
        n = engine.count_at_most(text, cap)
        return cap + 1 if n is None else n
    if not supports_cuts(tokens):
        return count(text)
    window = window_of(TextTail("", text, 0), cap, tokens, _SHORT_TEXT_TOKENS * cap + 64)
    if window is None:
        return count(text)
    return window.total if window.whole and window.total <= cap else cap + 1


_SHORT_TEXT_TOKENS = 8
"""Characters per token below which `count_at_most` counts a text whole: counting it costs
less than finding its window."""
