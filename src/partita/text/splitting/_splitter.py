"""Splitting an oversized text into pieces that fit the chunking window.

`TextSplitter` is a callable: `fragment, remainder = split(s)`, applied to the remainder until it is
empty. The fragment fits the window (`maxlen` in the unit of the injected `Sizer`, characters or
tokens); the remainder starts with an overlap tail of the fragment when `overlap` is set.

Character mode cuts at the right-most separator (newline, then space) that keeps the fragment
within the window and longer than the overlap, and as a last resort at exactly `maxlen`
characters. Token mode cuts at the right-most separator near the end of the window whose
fragment fits (and counts more than the overlap), and as a last resort at the window's end
backed off to a whitespace; every remainder is shorter than the text it was cut from, so
splitting always ends (the rules, step by step: `partita.text.splitting._token_rules`). Both
match the reference library's `_TextSplitter` (unstructured 0.27.35) piece for piece, with one
deliberate difference: separators are literal strings (the reference compiles them as regular
expressions, so a separator like "." would delete characters).

Token mode, fast and exact, for tiktoken's cl100k_base
------------------------------------------------------
The reference measures every candidate prefix (and, for the overlap, suffix) with a fresh
tokenization: tens of tokenizations of window-long strings per split. For a sizer made by
`sizer_for` from a tiktoken encoding whose pre-tokenizer pattern is cl100k_base's, partita makes
the same decisions from the same numbers with a window per split
(`partita.text.splitting._window_splitter`): counts come from the window's one tokenization at its
cuts (`partita.text.sizing._token_cuts`), and candidates that provably count more than the window
are rejected uncounted (`partita.text.sizing._token_bound`). `iter_pieces` splits a whole text
that way in time linear in its length, never copying its remainders. Texts holding a surrogate
pair take the plain path, as do other encodings and any other counter: the plain path measures
every candidate, as the reference does. The tests compare whole split sequences against the
reference and the plain path.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from partita.text.sizing._sizer import CHARACTERS, Sizer
from partita.text.sizing._text_tail import TextTail
from partita.text.sizing._token_cuts import supports_cuts
from partita.text.splitting._char_pieces import iter_char_pieces, split_chars
from partita.text.splitting._token_rules import (
    WINDOW_MARGIN,
    emitted_prefix,
    probe_end,
    run_start,
    separator_cuts,
)
from partita.text.splitting._window_splitter import WindowedTokenSplitter, token_tail

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
            WindowedTokenSplitter(maxlen, overlap, self._separators, tokens, sizer.measure)
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
        return split_chars(s, maxlen, self._overlap, self._separators)

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

    def _split_by_tokens(self, s: str) -> tuple[str, str]:
        """The token-mode split of `s`, every candidate measured (`token_rules`)."""
        count = self._count
        maxlen, overlap = self._maxlen, self._overlap
        if count(s) <= maxlen:
            return s, ""
        size = len(s)
        window_end = probe_end(size, lambda k: count(emitted_prefix(s, k)) <= maxlen)
        search_end = min(size, window_end + WINDOW_MARGIN)
        for k, after in separator_cuts(s, self._separators, search_end):
            fragment = s[:k]
            n = count(fragment)
            if fragment and n <= maxlen and (overlap == 0 or n > overlap):
                remainder = s[after:].lstrip()
                if overlap == 0:
                    return fragment, remainder
                tail = self._token_tail(fragment)
                overlapped = f"{tail} {remainder}" if tail else remainder
                if len(overlapped) < size:
                    return fragment, overlapped
        best_pos = window_end
        split_pos = best_pos
        i = min(best_pos, size - 1)
        while i > 0:
            if not s[i].isspace():
                i -= 1
                continue
            n = count(emitted_prefix(s, i))
            if n > 0 and (overlap == 0 or n > overlap):
                split_pos = i
                break
            first = run_start(s, i)
            i = first - 1 if first > 0 else i - 1
        fragment = emitted_prefix(s, split_pos)
        if count(fragment) > maxlen:
            fragment = emitted_prefix(s, best_pos)
            split_pos = best_pos
        blank_cut = split_pos < size and s[split_pos].isspace()
        rest = s[split_pos:]
        if blank_cut and not fragment.isspace():
            rest = rest.lstrip()
        if overlap > 0:
            tail = self._token_tail(fragment)
            joiner = " " if blank_cut or split_pos > len(fragment) else ""
            overlapped = f"{tail}{joiner}{rest}" if tail else rest
            if len(overlapped) < size:
                return fragment, overlapped
        return fragment, rest if len(rest) < size else s[max(1, split_pos) :]

    def _token_tail(self, text: str) -> str:
        """Return the tail of `text` of about `overlap` tokens, starting at a word."""
        return token_tail(text, self._count, self._overlap)
