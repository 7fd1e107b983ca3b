"""The sizer: how long a text is in one unit, characters or tokens, injected wherever text is
measured.

A chunking run measures every text with one `Sizer`, made by `sizer_for(tokenizer)`: characters
when `tokenizer` is None, else tokens counted by the tokenizer (see
`partita.text.sizing._tokenizers` for what is accepted). Code that measures asks the sizer, never
whether a tokenizer was given; code with a fast path for tiktoken reads `sizer.tiktoken`, the
`TiktokenTokens` behind a token sizer made from a tiktoken name or `Encoding` (None otherwise).

`measure(text)` is exact. `measure_at_most(text, limit)` is exact up to `limit` and otherwise
only a number above it, which is all that comparing with a limit needs: for a cl100k_base sizer
a long text then costs the tokenization of about `limit` tokens, not of the whole text
(`partita.text.sizing._split_window`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from partita.text.sizing._split_window import count_at_most
from partita.text.sizing._token_cuts import appended_token_count, joined_token_count
from partita.text.sizing._tokenizers import TiktokenTokens, resolve_tokenizer

__all__ = ["CHARACTERS", "SizeUnit", "Sizer", "sizer_for"]

SizeUnit = Literal["characters", "tokens"]
"""The unit a sizer measures in."""


@dataclass(frozen=True, slots=True, eq=False)
class Sizer:
    """Measures texts in `unit`: `measure(text)` is `len(text)` for characters, the memoized
    token count for tokens.

    `tiktoken` is the tiktoken machinery behind a token sizer made from a tiktoken name or
    `Encoding` (None for characters and any other tokenizer); `counts_tokens` tells the unit as
    a flag, for hot paths.
    """

    unit: SizeUnit
    measure: Callable[[str], int]
    """The size of a text, exactly."""
    tiktoken: TiktokenTokens | None = None
    counts_tokens: bool = field(init=False)
    upper_bound: Callable[[str], int] | None = field(init=False)
    """A cheap upper bound of `measure`, None when none is known: `len` for characters; for a
    tiktoken sizer the UTF-8 length (every token encodes at least one byte), which is the
    length of an ASCII text and at most four bytes a character otherwise."""

    def __post_init__(self) -> None:
        counts_tokens = self.unit == "tokens"
        object.__setattr__(self, "counts_tokens", counts_tokens)
        bound = (_utf8_len_bound if self.tiktoken is not None else None) if counts_tokens else len
        object.__setattr__(self, "upper_bound", bound)

    def measure_at_most(self, text: str, limit: int) -> int:
        """`measure(text)` when that is at most `limit`, else a number above `limit`; for a
        cl100k_base sizer a long text costs the count of about `limit` tokens."""
        if not self.counts_tokens:
            return len(text)
        return count_at_most(self.measure, self.tiktoken, text, limit)

    def fits(self, text: str, limit: int) -> bool:
        """`measure(text) <= limit`, at the cost of `measure_at_most`."""
        if not self.counts_tokens:
            return len(text) <= limit
        return count_at_most(self.measure, self.tiktoken, text, limit) <= limit

    def bounded_by(self, limit: int) -> Callable[[str], int]:
        """`measure_at_most` with `limit` fixed, for callers that compare sizes with `limit` (or
        less) and add up only sizes that fit; `len` for characters."""
        if not self.counts_tokens:
            return len
        return functools.partial(count_at_most, self.measure, self.tiktoken, cap=limit)

    def measure_joined(
        self,
        left: str,
        separator: str,
        right: str,
        *,
        left_size: int | None = None,
        right_size: int | None = None,
    ) -> int:
        """`measure(left + separator + right)`, exactly; for a cl100k_base sizer mostly from the
        sizes of `left` and `right` (given, or measured), tokenizing only around the join."""
        if not self.counts_tokens:
            return len(left) + len(separator) + len(right)
        return joined_token_count(
            self.measure,
            self.tiktoken,
            left,
            separator,
            right,
            left_count=left_size,
            right_count=right_size,
        )

    def measure_appended(
        self, left_tail: str, separator: str, right: str, *, left_size: int, right_size: int
    ) -> int | None:
        """`measure(left + separator + right)` from the exact sizes of `left` and `right`, given
        only `left`'s last characters `left_tail`; None when those cannot decide it (the caller
        then measures the joined text). Characters always decide; a cl100k_base sizer decides
        when `left_tail` holds a cut (`partita.text.sizing._token_cuts`), tokenizing only
        around the join; other tokenizers never do."""
        if not self.counts_tokens:
            return left_size + len(separator) + right_size
        if self.tiktoken is None:
            return None
        return appended_token_count(
            self.measure,
            self.tiktoken,
            left_tail,
            separator,
            right,
            left_count=left_size,
            right_count=right_size,
        )


CHARACTERS = Sizer("characters", len)
"""The sizer of character mode: `measure` is `len`."""


def sizer_for(tokenizer: Any | None) -> Sizer:
    """Return the sizer of `tokenizer`: `CHARACTERS` for None, else a token sizer.

    The same tiktoken name gives the same sizer (and memo) every time. Raises `ValueError` for an
    unknown tiktoken name and `TypeError` for an object that is no accepted tokenizer.
    """
    if tokenizer is None:
        return CHARACTERS
    if isinstance(tokenizer, str):
        return _named_sizer(tokenizer)
    count, tiktoken = resolve_tokenizer(tokenizer)
    return Sizer("tokens", count, tiktoken)


@functools.lru_cache(maxsize=16)
def _named_sizer(name: str) -> Sizer:
    count, tiktoken = resolve_tokenizer(name)
    return Sizer("tokens", count, tiktoken)


def _utf8_len_bound(text: str) -> int:
    """An upper bound of `len(text.encode())`, without encoding."""
    return len(text) if text.isascii() else 4 * len(text)
