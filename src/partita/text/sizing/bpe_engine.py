"""The engine that encodes for a tiktoken `Encoding`: tiktoken's own, or a faster one with the
same tokens.

Counting tokens is most of token-mode chunking's time, and tiktoken's `encode_ordinary` is not
the fastest exact engine for OpenAI's encodings. `rs-bpe` (the `fast` extra: GitHub's Rust `bpe`
crate, linear in the text's length, with both vocabularies compiled in) counted the benchmark
stream's 20,000 element texts about twice as fast as tiktoken, and counts without building a
token list; it was chosen over `bpe-openai` (the same crate behind a tiktoken-style API), which
was slower on the same texts (`docs/tokenizers.md`, "Engines").

`engine_for(encoding)` returns the `BpeEngine` to use for `encoding`. A faster engine is used
only where its tokens are provably the encoding's:

- the encoding is cl100k_base or o200k_base by content, not by name: its pre-tokenizer pattern
  is one of tiktoken's for that encoding and its rank table has the fingerprint of OpenAI's (a
  sha256 over the tokens in rank order, computed once per `Encoding`);
- the engine, when first loaded, encodes a probe text (every character class the pattern
  distinguishes, contractions, digits, CJK, emoji, combining marks, whitespace runs) to exactly
  tiktoken's tokens;
- a text the engine cannot take (a lone surrogate: it reads UTF-8 strictly) is encoded by
  tiktoken, which replaces surrogates as the reference sees them.

Otherwise, and whenever rs-bpe is not installed, the engine is tiktoken's `encode_ordinary`.
The differential test (`tests/text/sizing/test_bpe_engine.py`) compares token ids on generated
Unicode text. `PARTITA_BPE_ENGINE=tiktoken` in the environment turns the faster engine off.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["ENGINE_VARIABLE", "BpeEngine", "engine_for", "rank_fingerprint"]

ENGINE_VARIABLE = "PARTITA_BPE_ENGINE"
"""The environment variable that chooses the engine: `tiktoken` turns the faster one off."""


@dataclass(frozen=True, slots=True)
class BpeEngine:
    """How the tokens of an encoding are produced: `encode(text)` is `encode_ordinary`'s token
    list, `count(text)` its length, and `count_at_most(text, limit)` the count when it is at most
    `limit`, else None. `stops_early` tells whether `count_at_most` stops once `limit` is passed
    (its cost is then that of about `limit` tokens, however long the text) or counts the whole
    text. `name` says which engine it is."""

    name: str
    encode: Callable[[str], list[int]]
    count: Callable[[str], int]
    count_at_most: Callable[[str, int], int | None]
    stops_early: bool = False


def tiktoken_engine(encoding: Any) -> BpeEngine:
    """The engine of `encoding` itself: its `encode_ordinary`."""
    encode: Callable[[str], list[int]] = encoding.encode_ordinary

    def count(text: str) -> int:
        return len(encode(text))

    def count_at_most(text: str, limit: int) -> int | None:
        n = len(encode(text))
        return n if n <= limit else None

    return BpeEngine("tiktoken", encode, count, count_at_most)


# -- per OpenAI encoding: tiktoken's pre-tokenizer patterns (current and earlier releases) and the
# -- fingerprint of OpenAI's rank table (`rank_fingerprint`) --
_CL100K_PATTERNS = frozenset(
    {
        r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+"
        r"| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s",
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
        r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    }
)
_O200K_PATTERNS = frozenset(
    {
        "|".join(
            [
                r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
                r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
                r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"
                r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
                r"\p{N}{1,3}",
                r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
                r"\s*[\r\n]+",
                r"\s+(?!\S)",
                r"\s+",
            ]
        )
    }
)
_KNOWN: dict[str, tuple[frozenset[str], str]] = {
    "cl100k_base": (
        _CL100K_PATTERNS,
        "6bfd43f7b31b50b645b3228413547e662af1ae4801e9b192b9791680a71d650c",
    ),
    "o200k_base": (
        _O200K_PATTERNS,
        "bac143fe7fe950090c6e4ed9a2f80de5412a92495758b52becbbe5a7eea25ecb",
    ),
}

PROBE = (
    "The quick brown fox's den, I'LL say: it'd've been 1234567 km² away!\n\n"
    "  indented\tline\r\nwith   spaces   \u00a0no-break\u3000ideographic  \n"
    "数据处理系统的设计与实现。日本語のテキスト、한국어 텍스트。"
    "emoji 👍🏽 👨‍👩‍👧 flags 🇫🇷 combining e\u0301 a\u0308 cafe\u0301 "
    "code: def f(x): return x**2 # comment\n\tif a<=b and c!=d: pass\n"
    "URL https://example.com/a/b?c=d&e=f#g 3.14159 -42 1e-9 ...---***___ "
    "CamelCaseWords HTTPServerError iPhone ÀÉÎÕÜ ßẞ Ωμέγα Кириллица العربية עברית हिन्दी "
    "\x00\x01\x7f\u200b\u200d\ufeff\U0001f600\U00010000 trailing space   "
)
"""The text every faster engine must encode exactly as tiktoken before it is used."""


def engine_for(encoding: Any) -> BpeEngine:
    """The fastest engine whose tokens are `encoding`'s, else `tiktoken_engine(encoding)`; the
    same engine for the same `Encoding` every time."""
    try:
        return _ENGINES[encoding]
    except (KeyError, TypeError):
        pass
    engine = _choose_engine(encoding)
    with contextlib.suppress(TypeError):  # -- not weakly referenceable: not remembered --
        _ENGINES[encoding] = engine
    return engine


_ENGINES: weakref.WeakKeyDictionary[Any, BpeEngine] = weakref.WeakKeyDictionary()


def _choose_engine(encoding: Any) -> BpeEngine:
    fallback = tiktoken_engine(encoding)
    if os.environ.get(ENGINE_VARIABLE, "").strip().lower() == "tiktoken":
        return fallback
    name = openai_encoding_name(encoding)
    if name is None:
        return fallback
    fast = _rs_bpe_engine(name)
    if fast is None or fast.encode(PROBE) != fallback.encode(PROBE):
        return fallback
    return _guarded(fast, fallback)


def openai_encoding_name(encoding: Any) -> str | None:
    """The OpenAI name of `encoding` ("cl100k_base" or "o200k_base") when it is that encoding
    by its pre-tokenizer pattern and rank table (whatever its name), else None."""
    pattern = getattr(encoding, "_pat_str", None)
    ranks = getattr(encoding, "_mergeable_ranks", None)
    if not isinstance(pattern, str) or not isinstance(ranks, dict):
        return None
    for name, (patterns, fingerprint) in _KNOWN.items():
        if pattern in patterns and rank_fingerprint(ranks) == fingerprint:
            return name
    return None


def rank_fingerprint(ranks: dict[bytes, int]) -> str:
    """The sha256 of a rank table's tokens in rank order, each preceded by its length (one byte);
    "" when the ranks are not 0, 1, 2, ... in order or a token is longer than 255 bytes."""
    if list(ranks.values()) != list(range(len(ranks))):
        return ""
    if any(len(token) > 255 for token in ranks):
        return ""
    return hashlib.sha256(b"".join(bytes((len(t),)) + t for t in ranks)).hexdigest()


@functools.cache
def _rs_bpe_engine(name: str) -> BpeEngine | None:
    """rs-bpe's engine for `name`, or None when rs-bpe is not installed (or fails to load)."""
    try:
        from rs_bpe.bpe import openai as rs_openai
    except ImportError:
        return None
    try:
        tokenizer = rs_openai.cl100k_base() if name == "cl100k_base" else rs_openai.o200k_base()
    except Exception:  # -- a broken install: tiktoken counts instead --
        return None
    count_till_limit = tokenizer.count_till_limit

    def count_at_most(text: str, limit: int) -> int | None:
        result: int | None = count_till_limit(text, limit)
        return result

    return BpeEngine("rs-bpe", tokenizer.encode, tokenizer.count, count_at_most, stops_early=True)


def _guarded(fast: BpeEngine, fallback: BpeEngine) -> BpeEngine:
    """`fast`, with the texts it refuses (lone surrogates: UnicodeEncodeError) given to
    `fallback`."""
    fast_encode, fast_count, fast_at_most = fast.encode, fast.count, fast.count_at_most

    def encode(text: str) -> list[int]:
        try:
            return fast_encode(text)
        except UnicodeEncodeError:
            return fallback.encode(text)

    def count(text: str) -> int:
        try:
            return fast_count(text)
        except UnicodeEncodeError:
            return fallback.count(text)

    def count_at_most(text: str, limit: int) -> int | None:
        try:
            return fast_at_most(text, limit)
        except UnicodeEncodeError:
            return fallback.count_at_most(text, limit)

    return BpeEngine(fast.name, encode, count, count_at_most, fast.stops_early)
