"""Token-mode splitting for cl100k_base, each split decided from one window of the text.

`WindowedTokenSplitter.split(tail)` returns what the reference's splitter returns for
`str(tail)` (see `partita.text.splitting.splitter` for the rules and the two deliberate
differences), but reads only the window that `partita.text.sizing.token_window` finds at the start
of `tail`, with the whitespace and separator just after it. Its remainder is a `TextTail`, so a
chain of splits over a long text never copies the rest of the text: `iter_pieces` splits a text
in time linear in its length.

Candidates the reference measures and rejects beyond the window's `stop` are rejected without
counting; the others are counted exactly, from the window's tokenization. So each split makes
the reference's decisions from the reference's numbers.

Separators. The reference tries the matches of a separator from the right, each ending where
the one to its right starts. For a separator that cannot overlap itself, those are all its
occurrences, and the ones past the window are rejected: the search starts at the window. All the
matches inside one whitespace run give the same fragment and remainder, so a whitespace
separator is searched alike. A separator that can overlap itself ("..", "xx") picks its matches
by the chain from the end of the text, which is computed once per text (`_chain_of`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator

from partita.text.sizing.text_tail import TextTail
from partita.text.sizing.token_window import TokenWindow, set_stop, window_of
from partita.text.sizing.tokenizers import TiktokenTokens

__all__ = ["WindowedTokenSplitter", "tail_from", "token_tail"]


class WindowedTokenSplitter:
    """`split(tail) -> (fragment, remainder)` in token mode, for a cl100k_base counter.

    `split` returns None for a text whose window holds a surrogate pair, which it cannot index:
    the caller measures that one candidate by candidate (`plain`, given the overlap tail kept
    for `_loops`).
    """

    __slots__ = (
        "_chains",
        "_count",
        "_last",
        "_maxlen",
        "_overlap",
        "_plain",
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
        plain: Callable[[str], tuple[str, str]],
    ) -> None:
        self._maxlen = maxlen
        self._overlap = overlap
        self._separators = separators
        self._sep_len = max(map(len, separators), default=0)
        self._tokens = tokens
        self._count = count
        self._plain = plain
        """The measured split, tail kept, for a text holding a surrogate pair (`_loops`)."""
        self._width = 6 * maxlen + 64
        """The first guess of the next window's width: from the last window's stop."""
        self._last: tuple[TextTail, TokenWindow | None] | None = None
        """The last window computed, and its text: the loop check computes the window of the
        remainder it then returns."""
        self._chains: tuple[str, dict[str, list[int]]] | None = None
        """Per root text, the matches of each self-overlapping separator (`_chain_of`)."""

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

    def split(self, tail: TextTail, *, checked: bool = True) -> tuple[str, TextTail] | None:
        """The fragment and remainder of `str(tail)`; None when it holds a surrogate pair.

        `checked=False` keeps the overlap tail even where the reference would loop.
        """
        window = self._window(tail)
        if window is None:
            return None
        maxlen, overlap = self._maxlen, self._overlap
        if window.whole and window.total <= maxlen:
            return window.text, TextTail("", "", 0)
        size = len(tail)
        stop = window.stop
        # -- a match starting after the first non-space at or after `stop` leaves a longer
        # -- prefix: the characters read are those up to that non-space and a separator --
        limit = tail.first_non_space(stop)
        text = tail.prefix(max(max(limit, len(tail.head)) + self._sep_len, stop + 1, overlap + 2))
        for sep in self._separators:
            blank = sep.isspace()
            for start in self._matches(tail, text, sep, limit, blank):
                k = _rstripped_len(text, start)
                if k == 0 or k > stop:
                    continue
                n = window.prefix_count(k)
                if n <= maxlen:
                    r = tail.first_non_space(start + len(sep))
                    return self._with_overlap(tail, text, window, k, n, r, checked)
        low, high = 1, size
        best_pos = max(overlap + 1, 1)
        while low <= high:
            mid = (low + high) // 2
            if mid <= stop and window.fits(mid, maxlen):
                best_pos = mid
                low = mid + 1
            else:
                high = mid - 1
        split_pos = _last_space(text, max(overlap, 0) + 1, best_pos + 1, best_pos)
        k = _rstripped_len(text, split_pos)
        if (k > stop or not window.fits(k, maxlen)) and split_pos > overlap + 1:
            split_pos = best_pos
            k = _rstripped_len(text, split_pos)
        r = tail.first_non_space(split_pos)
        return self._with_overlap(tail, text, window, k, -1, r, checked)

    def _matches(
        self, tail: TextTail, text: str, sep: str, limit: int, blank: bool
    ) -> Iterator[int]:
        """The starts of the reference's matches of `sep` in `tail` up to `limit`, right to left.

        For a whitespace separator, one match per whitespace run (they all split alike).
        """
        if blank or not _overlaps_itself(sep):
            end = limit + len(sep)
            while (start := text.rfind(sep, 0, end)) != -1:
                yield start
                end = _rstripped_len(text, start) if blank else start
            return
        chain = self._chain_of(tail.root, sep)
        head, offset = len(tail.head), tail.start
        first = bisect_left(chain, offset)
        i = bisect_right(chain, limit - head + offset) - 1
        while i >= first:
            yield chain[i] - offset + head
            i -= 1
        # -- then the matches that start in the head, before the first match in the root --
        end = head + len(sep) - 1
        if first < len(chain):
            end = min(end, chain[first] - offset + head)
        while (start := text.rfind(sep, 0, end)) != -1:
            yield start
            end = start

    def _chain_of(self, root: str, sep: str) -> list[int]:
        """The starts of the reference's matches of `sep` in `root`, ascending: from the end, each
        the last occurrence ending where the one after it starts. A suffix of `root` has the
        same matches, those at or after its start."""
        chains = self._chains
        if chains is None or chains[0] is not root:
            chains = self._chains = (root, {})
        chain = chains[1].get(sep)
        if chain is None:
            chain = []
            end = len(root)
            while (start := root.rfind(sep, 0, end)) != -1:
                chain.append(start)
                end = start
            chain.reverse()
            chains[1][sep] = chain
        return chain

    def _with_overlap(
        self, tail: TextTail, text: str, window: TokenWindow, k: int, n: int, r: int, checked: bool
    ) -> tuple[str, TextTail]:
        """The fragment `text[:k]` (counting `n` tokens, -1: unknown) and the remainder from `r`,
        after the overlap tail of the fragment unless the reference would then loop forever."""
        fragment = text[:k]
        remainder = tail.suffix(r)
        if self._overlap > 0 and fragment:
            if n < 0:
                n = window.prefix_count(k) if k <= len(window.text) else self._count(fragment)
            head = self._tail(window, fragment, n) + " "
            overlapped = remainder.with_head(head)
            if not checked or not self._loops(tail, overlapped, r, head):
                return fragment, overlapped
        return fragment, remainder

    def _loops(self, tail: TextTail, overlapped: TextTail, r: int, head: str) -> bool:
        """True when the reference, having split `tail` into `overlapped`, may not end (see
        `TextSplitter._loops`): it is `tail` itself, or longer and its next split, tail kept,
        is not shorter than `tail`."""
        size, length = len(tail), len(overlapped)
        if length == size:
            return len(head) == r and tail.prefix(r) == head
        if length < size:
            return False
        after = self.split(overlapped, checked=False)
        after_size = len(self._plain(str(overlapped))[1]) if after is None else len(after[1])
        return after_size >= size

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


def _overlaps_itself(sep: str) -> bool:
    """True when two occurrences of `sep` can overlap (a proper prefix is also a suffix)."""
    return any(sep[:size] == sep[-size:] for size in range(1, len(sep)))


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


def _rstripped_len(s: str, end: int) -> int:
    """`len(s[:end].rstrip())`."""
    end = min(end, len(s))
    while end > 0 and s[end - 1].isspace():
        end -= 1
    return end


_LAST_SPACE = re.compile(r"\s(?=\S*\Z)")


def _last_space(s: str, low: int, high: int, default: int) -> int:
    """The index of the last whitespace character of `s[low:high]`, or `default`."""
    match = _LAST_SPACE.search(s[low:high])
    return default if match is None else low + match.start()
