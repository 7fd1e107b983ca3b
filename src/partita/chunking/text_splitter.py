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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["DEFAULT_SEPARATORS", "TextSplitter"]

DEFAULT_SEPARATORS: tuple[str, ...] = ("\n", " ")
"""Separators tried in order of preference before an arbitrary-character cut."""


class TextSplitter:
    """A function `split(s) -> (fragment, remainder)` configured with a window and an overlap.

    `count_tokens`, when given, switches to token mode: `maxlen` and `overlap` are then token
    counts. An `s` that already fits is returned whole with an empty remainder.
    """

    __slots__ = ("_count", "_maxlen", "_overlap", "_separators")

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

    def __call__(self, s: str) -> tuple[str, str]:
        if self._count is not None:
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
                    return self._with_token_overlap(s, fragment, s[start + len(sep) :].lstrip())
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

        Where the reference would return `s` itself as the remainder (so split it the same way
        forever), or a longer one, the tail is dropped. Otherwise remainders never grow, and one
        of equal length has one newline fewer, so splitting always ends.
        """
        if self._overlap <= 0 or not fragment:
            return fragment, remainder
        overlapped = self._token_tail(fragment) + " " + remainder
        if overlapped == s or len(overlapped) > len(s):
            return fragment, remainder
        return fragment, overlapped

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
        pos = low
        while pos < len(text) and not text[pos].isspace():
            pos += 1
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return text[low:].lstrip()
        return text[pos:]
