"""Token-mode splitting for cl100k_base, each split decided from one window of the text.

`WindowedTokenSplitter.split(tail)` returns what the reference's splitter returns for
`str(tail)` (the rules are in `partita.text.splitting._token_rules`), but reads only the window
that `partita.text.sizing._split_window` finds at the start of `tail`, with the whitespace and
separator just after it. Its remainder is a `TextTail`, so a chain of splits over a long text
never copies the rest of the text: `iter_pieces` splits a text in time linear in its length.

Every count a split needs is exact and taken from the window's one tokenization: a prefix or a
slice of the window. A prefix longer than the window's `stop` provably counts more than the
window (`split_window`), so it is rejected uncounted: each split makes the reference's decisions
from the reference's numbers. The probes that find the window's end, the separator candidates
(searched right to left from just past the window's end, each whitespace run once) and the
whitespace fallback are the reference's, in its order.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from partita.text.sizing._split_window import TokenWindow, set_stop, window_of
from partita.text.sizing._text_tail import TextTail
from partita.text.sizing._tokenizers import TiktokenTokens
from partita.text.splitting._token_rules import (
    WINDOW_MARGIN,
    probe_end,
    rstripped_len,
    run_start,
    separator_cuts,
)

__all__ = ["WindowedTokenSplitter", "tail_from", "token_tail"]


class WindowedTokenSplitter:
    """`split(tail) -> (fragment, remainder)` in token mode, for a cl100k_base counter.

    `split` returns None for a text whose window holds a surrogate pair, which it cannot index:
    the caller measures that one candidate by candidate.
    """

    __slots__ = (
        "_count",
        "_last",
        "_maxlen",
        "_overlap",
        "_sep_len",
        "_separators",
        "_tokens",
        "_width",
    )

    def __init__(
        self,
        maxlen: int,
        overlap: int,
        separators: tuple[str, ...],
        tokens: TiktokenTokens,
        count: Callable[[str], int],
    ) -> None:
        self._maxlen = maxlen
        self._overlap = overlap
        self._separators = separators
        self._sep_len = max(map(len, separators), default=0)
        self._tokens = tokens
        self._count = count
        self._width = 6 * maxlen + 64
        """The first guess of the next window's width: from the last window's stop."""
        self._last: tuple[TextTail, TokenWindow | None] | None = None
        """The last window computed, and its text: a remainder of a whole window is derived
        from it (`_rest_of_last`)."""

    def _window(self, tail: TextTail) -> TokenWindow | None:
        last = self._last
        if last is not None and last[0] is tail:
            return last[1]
        window = self._rest_of_last(tail)
        if window is None:
            window = window_of(tail, self._maxlen, self._tokens, self._width)
        if window is not None and not window.whole:
            self._width = window.stop + window.stop // 4 + 64
        self._last = (tail, window)
        return window

    def _rest_of_last(self, tail: TextTail) -> TokenWindow | None:
        """The window of `tail` derived from the last window, when that was the whole text and
        `tail` is a remainder of it (the last split of a text, or of a short text: the text is
        then tokenized about once)."""
        last = self._last
        if last is None:
            return None
        last_tail, window = last
        if (
            window is None
            or not window.whole
            or tail.root is not last_tail.root
            or tail.start < last_tail.start
        ):
            return None
        rest = window.rest(tail.head, len(last_tail.head) + tail.start - last_tail.start)
        if rest is not None and not set_stop(rest, self._maxlen):
            return None  # -- not reached: a whole window always sets its stop --
        return rest

    def split(self, tail: TextTail) -> tuple[str, TextTail] | None:
        """The fragment and remainder of `str(tail)`; None when it holds a surrogate pair."""
        window = self._window(tail)
        if window is None:
            return None
        maxlen, overlap = self._maxlen, self._overlap
        if window.whole and window.total <= maxlen:
            return window.text, TextTail("", "", 0)
        size = len(tail)
        stop = window.stop
        # -- no prefix longer than `stop` fits: one that reaches a non-space at or after `stop`
        # -- emits more than `stop` characters; one that does not, the text up to `stop` --
        before_stop = tail.prefix(stop)
        after_stop = tail.first_non_space(stop)
        blank_to_stop = rstripped_len(before_stop, stop)

        def fits(p: int) -> bool:
            if p <= stop:
                return window.fits(rstripped_len(before_stop, p) or p, maxlen)
            return after_stop >= p and blank_to_stop > 0 and window.fits(blank_to_stop, maxlen)

        window_end = probe_end(size, fits)
        search_end = min(size, window_end + WINDOW_MARGIN)
        text = tail.prefix(min(size, search_end + self._sep_len + 1))
        for k, after in separator_cuts(text, self._separators, search_end):
            if k == 0 or k > stop:
                continue
            n = window.prefix_count(k)
            if n > maxlen or n <= overlap:
                continue
            r = tail.first_non_space(after)
            split = self._overlapped(tail, window, text[:k], n, r, " ")
            if split is not None:
                return split
        best_pos = window_end
        split_pos = best_pos
        i = min(best_pos, size - 1)
        while i > 0:
            i = _last_space(text, 1, i + 1, 0)
            if i == 0:
                break
            n = self._prefix_count(window, text, rstripped_len(text, i) or i)
            if n > 0 and n > overlap:
                split_pos = i
                break
            first = run_start(text, i)
            i = first - 1 if first > 0 else i - 1
        k = rstripped_len(text, split_pos) or split_pos
        if k > stop or not window.fits(k, maxlen):
            split_pos = best_pos
            k = rstripped_len(text, split_pos) or split_pos
        fragment = text[:k]
        blank_cut = split_pos < size and text[split_pos].isspace()
        r = split_pos
        if blank_cut and not fragment.isspace():
            r = tail.first_non_space(split_pos)
        joiner = " " if blank_cut or split_pos > k else ""
        split = self._overlapped(tail, window, fragment, -1, r, joiner)
        if split is not None:
            return split
        return fragment, tail.suffix(r if r > 0 else max(1, split_pos))

    def _overlapped(
        self, tail: TextTail, window: TokenWindow, fragment: str, n: int, r: int, joiner: str
    ) -> tuple[str, TextTail] | None:
        """The fragment `fragment` (counting `n` tokens, -1: unknown) and the remainder from `r`,
        after the overlap tail of the fragment and `joiner` when there is one; None when that
        remainder is not shorter than `tail` (then neither is `tail.suffix(r)` unless `r > 0`).
        """
        size = len(tail)
        head = ""
        if self._overlap > 0:
            if n < 0:
                n = self._prefix_count(window, fragment, len(fragment))
            overlap_tail = self._tail(window, fragment, n)
            head = overlap_tail + joiner if overlap_tail else ""
        if len(head) + size - r >= size:
            return None
        remainder = tail.suffix(r)
        return fragment, remainder.with_head(head) if head else remainder

    def _prefix_count(self, window: TokenWindow, text: str, k: int) -> int:
        """`count(text[:k])`, from the window when it holds `k` characters."""
        return window.prefix_count(k) if k <= len(window.text) else self._count(text[:k])

    def _tail(self, window: TokenWindow, fragment: str, n: int) -> str:
        """The tail of `fragment` (`n` tokens) of about `overlap` tokens, starting at a word."""
        target = self._overlap
        if n <= target:
            return fragment.strip()
        k = len(fragment)
        indexed = k <= len(window.text)
        low, high = 0, k
        while low < high:
            mid = (low + high) // 2
            size = window.slice_count(mid, k, n) if indexed else self._count(fragment[mid:])
            if size > target:
                low = mid + 1
            else:
                high = mid
        return tail_from(fragment, low)


def token_tail(text: str, count: Callable[[str], int], target: int) -> str:
    """The splitter's overlap tail of `text` in token mode: the shortest suffix counting at most
    `target` tokens, found by bisection, moved forward to a word (`tail_from`); the whole text,
    stripped, when it counts no more than `target`."""
    if count(text) <= target:
        return text.strip()
    low, high = 0, len(text)
    while low < high:
        mid = (low + high) // 2
        if count(text[mid:]) > target:
            low = mid + 1
        else:
            high = mid
    return tail_from(text, low)


def tail_from(text: str, low: int) -> str:
    """The overlap tail of `text` from `low`, moved forward to the start of a word."""
    pos = low
    while pos < len(text) and not text[pos].isspace():
        pos += 1
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if pos >= len(text):
        return text[low:].lstrip()
    return text[pos:]


_LAST_SPACE = re.compile(r"\s(?=\S*\Z)")


def _last_space(s: str, low: int, high: int, default: int) -> int:
    """The index of the last whitespace character of `s[low:high]`, or `default`."""
    match = _LAST_SPACE.search(s[low:high])
    return default if match is None else low + match.start()
