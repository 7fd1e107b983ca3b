"""A lower bound on the token count of a text, from the vocabulary alone, for any tiktoken BPE.

Splitting a long text with no cut in it (see `partita.text.sizing._token_cuts`), such as a megabyte
of letters or Chinese without a space, the reference measures prefixes of every length up to
the whole text. Their counts are needed only to compare them with the window (`maxlen` tokens),
and a prefix that provably counts more than the window is rejected without counting it, as the
reference rejects it after counting. This module gives that proof.

The argument. tiktoken encodes a text as a sequence of tokens of its vocabulary whose bytes,
concatenated, are the text's UTF-8 bytes (every token is a key of the encoding's mergeable
ranks). Let `ell(i)` be the length of the longest vocabulary token that the bytes at `i` start
with. A tokenization with token boundaries `0 = p0 < p1 < ... < pc` has `p(j+1) <= pj +
ell(pj)`, so by induction `pj <= F(j)`, where `F(0) = 0` and `F(j)` is the largest `i + ell(i)`
over `i <= F(j-1)`. So a text of `m` bytes counts at least the least `j` with `F(j) >= m`, and
a prefix of more than `F(B)` bytes counts more than `B` tokens. `ell` read on a longer text is
never smaller, so the bound computed on a window holds for the window's prefixes; it holds for
texts longer than the window too where every position it read lies a longest token's length
before the window's end.

Computing `F(B)` reads each byte up to it at most once, walking a table of the vocabulary's
token prefixes, right to left between `F(j-2)` and `F(j-1)` so that positions that cannot reach
past the best found are skipped (a run of spaces costs one walk per token): linear in `F(B)`,
which stays within a small factor of the bytes that `B` tokens really cover (10 % over for
random Latin letters, exact for Chinese, whose characters take one to three tokens each). The
table (about 220,000 byte strings for cl100k_base, 16 MB) is built on first use per encoding.
"""

from __future__ import annotations

import contextlib
import weakref
from typing import Any

__all__ = ["VocabularyBound", "vocabulary_bound"]


class VocabularyBound:
    """The prefix table of one encoding's vocabulary, and the reach `F` computed from it."""

    __slots__ = ("_first_byte_max", "_prefixes", "longest")

    def __init__(self, token_bytes: list[bytes]) -> None:
        prefixes: dict[bytes, bool] = {}
        first_byte_max = [1] * 256
        for token in token_bytes:
            size = len(token)
            if size > first_byte_max[token[0]]:
                first_byte_max[token[0]] = size
            for end in range(2, size):
                prefixes.setdefault(token[:end], False)
        for token in token_bytes:
            if len(token) > 1:
                prefixes[token] = True
        self._prefixes = prefixes
        """Every prefix of two or more bytes of a token: True when it is itself a token."""
        self._first_byte_max = first_byte_max
        """Per first byte, the longest token that starts with it (1 when there is none)."""
        self.longest = max(first_byte_max)
        """The longest token, in bytes."""

    def reach(self, data: bytes, tokens: int) -> int:
        """`F(tokens)` for `data`, capped at `len(data)`: no prefix of `data` longer than that
        many bytes has `tokens` tokens or fewer (`tokens >= 0`)."""
        size = len(data)
        prefixes = self._prefixes.get
        first_byte_max = self._first_byte_max
        longest = self.longest
        far = low = 0  # -- F(j-1), and the first position after F(j-2) --
        for _ in range(tokens):
            # -- F(j) is F(j-1) or some i + ell(i) for i in [low, far]; from the right, a position
            # -- whose longest possible token cannot pass `best` ends the search --
            best = far
            i = min(far, size - 1)
            while i >= low and i + longest > best:
                if i + first_byte_max[data[i]] > best:
                    length, end = 1, i + 2
                    while end <= size:
                        is_token = prefixes(data[i:end])
                        if is_token is None:
                            break
                        if is_token:
                            length = end - i
                        end += 1
                    if i + length > best:
                        best = i + length
                i -= 1
            low = far + 1
            far = best
            if far >= size:
                return size
        return far


def _token_bytes(encoding: Any) -> list[bytes]:
    ranks: dict[bytes, int] | None = getattr(encoding, "_mergeable_ranks", None)
    if ranks is not None:
        return list(ranks)
    found: list[bytes] = []
    for rank in range(int(encoding.max_token_value) + 1):
        try:
            found.append(encoding.decode_single_token_bytes(rank))
        except KeyError:
            continue
    return found


# -- per encoding, built once --
_BOUNDS: weakref.WeakKeyDictionary[Any, VocabularyBound] = weakref.WeakKeyDictionary()


def vocabulary_bound(encoding: Any) -> VocabularyBound:
    """The `VocabularyBound` of a tiktoken `Encoding`, built on first use."""
    try:
        return _BOUNDS[encoding]
    except (KeyError, TypeError):
        bound = VocabularyBound(_token_bytes(encoding))
        with contextlib.suppress(TypeError):  # -- not weakly referenceable: rebuilt each time --
            _BOUNDS[encoding] = bound
        return bound
