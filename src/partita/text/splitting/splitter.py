"""Splitting an oversized text into pieces that fit the chunking window.

`TextSplitter` is a callable: `fragment, remainder = split(s)`, applied to the remainder until it is
empty. The fragment fits the window (`maxlen` in the unit of the injected `Sizer`, characters or
tokens); the remainder starts with an overlap tail of the fragment when `overlap` is set.

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
tokenization, so splitting a text of n characters costs it O(n) tokenizations of O(n)-long
strings per split. For a sizer made by `sizer_for` from a tiktoken encoding whose
pre-tokenizer pattern is cl100k_base's, partita makes the same decisions from the same numbers
with a window per split (`partita.text.splitting.windowed_tokens`): counts come from the
window's one tokenization at its cuts (`partita.text.sizing.token_cuts`), and candidates that
provably count more than the window are rejected uncounted (`partita.text.sizing.token_bound`).
`iter_pieces` splits a whole text that way in time linear in its length, never copying its
remainders. Texts holding a surrogate pair take the plain path, as do other encodings and any
other counter: the plain path measures every candidate, as the reference does. The tests compare
whole split sequences against the reference and the plain path.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from partita.text.sizing.sizer import CHARACTERS, Sizer
from partita.text.sizing.text_tail import TextTail
from partita.text.sizing.token_cuts import supports_cuts
from partita.text.splitting.char_pieces import iter_char_pieces
from partita.text.splitting.windowed_tokens import WindowedTokenSplitter, token_tail

__all__ = ["DEFAULT_SEPARATORS", "TextSplitter"]

DEFAULT_SEPARATORS: tuple[str, ...] = ("\n", " ")
"""Separators tried in order of preference before an arbitrary-character cut."""


class TextSplitter:
    """A function `split(s) -> (fragment, remainder)` configured with a window and an overlap.

    `maxlen` and `overlap` are in the unit of `sizer` (characters by default, or tokens). An `s`
    that already fits is returned whole with an empty remainder.
    """

    __slots__ = ("_count", "_in_tokens", "_maxlen", "_overlap", "_separators", "_windowed")

    def __init__(
        self,
        maxlen: int,
        overlap: int = 0,
        *,
        sizer: Sizer = CHARACTERS,
        separators: Sequence[str] = DEFAULT_SEPARATORS,
    ) -> None:
        self._maxlen = maxlen
        self._overlap = overlap
        self._in_tokens = sizer.counts_tokens
        self._count = sizer.measure
        self._separators = tuple(sep for sep in separators if sep)
        tokens = sizer.tiktoken
        self._windowed = (
            WindowedTokenSplitter(
                maxlen, overlap, self._separators, tokens, sizer.measure, self._unchecked_split
            )
            if tokens is not None and sizer.counts_tokens and supports_cuts(tokens)
            else None
        )

    def __call__(self, s: str) -> tuple[str, str]:
        if self._in_tokens:
            if self._windowed is not None:
                split = self._windowed.split(TextTail("", s, 0))
                if split is not None:
                    return split[0], str(split[1])
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

    def iter_pieces(self, s: str) -> Iterator[str]:
        """Generate the fragments of splitting `s`, then each remainder in turn, to the end.

        In character mode and in cl100k_base token mode, linear in the length of `s`: the
        remainders are never copied.
        """
        if not self._in_tokens:
            yield from iter_char_pieces(s, self._maxlen, self._overlap, self._separators)
            return
        windowed = self._windowed
        rest = TextTail("", s, 0)
        while len(rest):
            split = None if windowed is None else windowed.split(rest)
            if split is None:  # -- the plain path, on the remainder as a string --
                fragment, remainder = self._split_by_tokens(str(rest))
                rest = TextTail("", remainder, 0)
            else:
                fragment, rest = split
            yield fragment

    # --------------------------------------------------------------------------------------------
    # token mode, plain: every candidate measured (any counter)
    # --------------------------------------------------------------------------------------------

    def _split_by_tokens(self, s: str, *, checked: bool = True) -> tuple[str, str]:
        """The token-mode split of `s`, every candidate measured; `checked=False` keeps the
        overlap tail even where the reference would loop (its own step, for `_loops`)."""
        count = self._count
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
                    return self._with_token_overlap(s, fragment, remainder, checked)
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
        return self._with_token_overlap(s, fragment, s[split_pos:].lstrip(), checked)

    def _unchecked_split(self, s: str) -> tuple[str, str]:
        return self._split_by_tokens(s, checked=False)

    def _with_token_overlap(
        self, s: str, fragment: str, remainder: str, checked: bool
    ) -> tuple[str, str]:
        """Return `(fragment, remainder)` with the overlap tail of `fragment` before `remainder`.

        Where the reference may then loop forever, the tail is dropped (see `_loops`).
        """
        if self._overlap <= 0 or not fragment:
            return fragment, remainder
        overlapped = self._token_tail(fragment) + " " + remainder
        if checked and self._loops(s, overlapped):
            return fragment, remainder
        return fragment, overlapped

    def _loops(self, s: str, overlapped: str) -> bool:
        """True when the reference, having split `s` into an `overlapped` remainder, may not end.

        It returns `s` itself as the remainder: it splits it the same way forever. A longer
        remainder is the whole fragment, one space and the rest: when splitting it next (as the
        reference does, tail kept) gives a remainder shorter than `s`, splitting goes on from
        there; when not (it may give the same remainder again, forever), the tail is dropped.
        Otherwise remainders never grow, and one of equal length has one newline fewer. So every
        step, or every step after a longer remainder, shortens the text or its newlines, and
        splitting ends.
        """
        if overlapped == s:
            return True
        if len(overlapped) <= len(s):
            return False
        return len(self._split_by_tokens(overlapped, checked=False)[1]) >= len(s)

    def _token_tail(self, text: str) -> str:
        """Return the tail of `text` of about `overlap` tokens, starting at a word."""
        return token_tail(text, self._count, self._overlap)
