"""The "token" strategy: fixed token windows, Chroma's `FixedTokenChunker`, over elements.

Principles:

- **The baseline, exactly.** Each group's text (its elements' texts joined with "\\n\\n") is
  encoded once and cut into windows of `max_tokens` tokens, each starting `max_tokens - overlap`
  tokens after the last (`partita.text._fixed_token_windows.iter_token_windows`); a chunk's text
  is its window decoded. On one element, with a tiktoken tokenizer, the chunk texts are Chroma's
  `FixedTokenChunker`'s.
- **A default window a user expects: 1,024 cl100k_base tokens, no overlap** (`max_tokens` and
  `tokenizer` both optional). 1,024 is LlamaIndex's `TokenTextSplitter` default, with the same
  encoding (its default tokenizer is gpt-3.5-turbo's, cl100k_base): a user moving from it gets
  the same windows. LangChain's `TokenTextSplitter` and Chroma's `FixedTokenChunker` (copied from
  it) default to 4,000 tokens, the generic `TextSplitter` default sized for LLM prompts: about
  16,000 characters, more than a retrieval chunk (the baseline Chroma publishes, which this
  strategy reproduces, is 250 tokens with 125 of overlap, not its class default). 1,024 is the
  smallest of the peers' defaults, and a model with an 8,191-token input (OpenAI's embeddings,
  bge-m3, nomic-embed) embeds it whole; for a 512- or 256-token model, give `max_tokens`. The
  overlap stays 0 when not given, as before a default window existed.
- **Any tokenizer that can cut text at token boundaries**: a tiktoken encoding or model name,
  or a tiktoken `Encoding` (windows decoded, as the baseline), or a HuggingFace
  `tokenizers.Tokenizer` (windows cut at its token offsets, so a chunk's text is a slice of the
  group's text). A counting function cannot say where its tokens start: it is a `ValueError`
  naming what works (the other text strategies size by any counter). `overlap` counts tokens.
- Sections, tables, provenance, ids and metadata: `partita.chunking._text_chunks`.
  Windows never cross a section (`respect_sections`) or a table.

Differences from Chroma's chunker and from the other text strategies:

- The input is elements: windows restart at each section and around each table.
- A tiktoken window's decoded text is not always a slice of the input: a token boundary inside
  a character's UTF-8 bytes shows as U+FFFD (as in the baseline), and a window may start or end
  inside the "\\n\\n" between two elements. Its provenance records are exact all the same: they
  cover the characters the window holds whole, where they stand in its text; a character cut
  at either end is in no record (its U+FFFD stands for it). A window holding only the text
  between two elements is dropped.
- A tiktoken window bounds the tokens of the window; re-encoding a decoded text may count
  differently where a character was cut.
- A HuggingFace window is the text from its first token's start to the next window's first
  token (the whitespace a WordPiece tokenizer makes no token of included), stripped of
  surrounding whitespace: the windows' texts, concatenated, hold every other character of the
  input. Re-encoded alone, a window's text counts at most `max_tokens` tokens (a tokenizer's
  count depends on context, so the window gives up its last tokens until it does; it holds at
  least one token whatever it counts). A tokenizer that truncates or pads (a sentence-transformers
  `tokenizer.json` does both, to 128) is used as a copy with both off: windows are cut from the
  whole text and counted as the text is, never padded.
- The reference's `new_after_n_*`, `overlap_all`, `isolate_table` and
  `text_splitting_separators` are no options of this strategy (`TypeError`); `max_characters` is
  an error (tokens only).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import accumulate
from typing import Any, ClassVar, Unpack

from partita.chunking._ids import ChunkIds
from partita.chunking._options import OverlapOptions
from partita.chunking._run import ChunkingRun
from partita.chunking._strategy import StrategyParts, eager
from partita.chunking._text_chunks import (
    JOINER,
    TextChunkingOptions,
    TextOptions,
    chunk_element,
    iter_groups_chunks,
)
from partita.chunking.provenance import SourceRecord, source_record
from partita.elements import Element
from partita.text._fixed_token_windows import TokenWindow, iter_token_windows
from partita.text.sizing._sizer import sizer_for
from partita.text.sizing._tokenizers import untruncated

__all__ = [
    "PARTS",
    "TOKENIZER_DEFAULT",
    "TOKEN_WINDOW_DEFAULT",
    "TokenChunkingOptions",
    "TokenOptions",
    "chunk_by_tokens",
    "iter_chunks_by_tokens",
    "run_token",
]

TOKEN_WINDOW_DEFAULT = 1024
"""The window in tokens when `max_tokens` is not given (LlamaIndex's `TokenTextSplitter`'s)."""

TOKENIZER_DEFAULT = "cl100k_base"
"""The tokenizer when none is given: LlamaIndex's default (gpt-3.5-turbo's encoding), Chroma's
`FixedTokenChunker`'s, and shipped with partita (no download)."""

_COUNTER_REFUSED = (
    "the 'token' strategy cuts text at token boundaries, which a counting function cannot give:"
    f" pass a tiktoken encoding or model name (default {TOKENIZER_DEFAULT!r}), a tiktoken"
    " Encoding or a HuggingFace tokenizers.Tokenizer, or size the 'recursive' or 'sentence'"
    " strategy by the function"
)

Windows = Callable[[str, int, int], Iterator[TokenWindow]]
"""The windows of `size` tokens of a text overlapping by `overlap`: `windows(text, size,
overlap)`."""


class TokenOptions(TextOptions, OverlapOptions, total=False):
    """The options of the "token" strategy: the text strategies' and `overlap` (in tokens)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenChunkingOptions(TextChunkingOptions):
    """The validated "token" options: `max_tokens` (default `TOKEN_WINDOW_DEFAULT`), a
    `tokenizer` that can cut text at token boundaries (default `TOKENIZER_DEFAULT`; a
    HuggingFace `Tokenizer` that truncates or pads is replaced by its copy with both off), and
    `overlap` below the window (the windows' stride is `max_tokens - overlap`)."""

    OVERLAP_MAY_FILL_WINDOW: ClassVar[bool] = False

    overlap: int | None = None

    def __post_init__(self) -> None:
        if self.max_characters is not None:
            raise ValueError(
                "the 'token' strategy counts tokens: give 'max_tokens'"
                f" (default {TOKEN_WINDOW_DEFAULT}), not 'max_characters'"
            )
        if self.max_tokens is None:
            object.__setattr__(self, "max_tokens", TOKEN_WINDOW_DEFAULT)
        if self.tokenizer is None:
            object.__setattr__(self, "tokenizer", TOKENIZER_DEFAULT)
        TextChunkingOptions.__post_init__(self)
        if _tiktoken_encoding(self.tokenizer) is None:
            object.__setattr__(self, "tokenizer", _offsets_tokenizer(self.tokenizer))

    @property
    def windows(self) -> Windows:
        """The windows of a text under `tokenizer`: tiktoken's decoded
        (`iter_token_windows`), a HuggingFace tokenizer's cut at its offsets."""
        encoding = _tiktoken_encoding(self.tokenizer)
        if encoding is not None:
            return partial(_tiktoken_windows, encoding)
        return partial(_iter_offset_windows, self.tokenizer)


def _tiktoken_encoding(tokenizer: Any) -> Any:
    """The tiktoken `Encoding` of `tokenizer`, or None when it is no tiktoken tokenizer."""
    tiktoken = sizer_for(tokenizer).tiktoken
    return None if tiktoken is None else tiktoken.encoding


def _tiktoken_windows(encoding: Any, text: str, size: int, overlap: int) -> Iterator[TokenWindow]:
    return iter_token_windows(text, encoding, size, overlap)


def _offsets_tokenizer(tokenizer: Any) -> Any:
    """Return `tokenizer` when it gives token offsets (a HuggingFace `Tokenizer`), as a copy
    with truncation and padding off when it has either on; raise `ValueError` otherwise (a
    counting function, an object whose encodings have no offsets)."""
    encode = getattr(tokenizer, "encode", None)
    if callable(tokenizer) or not callable(encode):  # -- as `sizing.tokenizers` tells them --
        raise ValueError(_COUNTER_REFUSED)
    if getattr(encode("a", add_special_tokens=False), "offsets", None) is None:
        raise ValueError(
            f"the 'token' strategy cuts text at token boundaries: {type(tokenizer).__name__}"
            " gives no token offsets (a HuggingFace tokenizers.Tokenizer does)"
        )
    return untruncated(tokenizer)


def _iter_offset_windows(
    tokenizer: Any, text: str, size: int, overlap: int
) -> Iterator[TokenWindow]:
    """Generate the windows of `size` tokens of `text` under a HuggingFace `tokenizer`, each
    starting `size - overlap` tokens after the last (or where the last ended, when it gave up
    tokens), as slices of `text`.

    A window of tokens `[first, stop)` is the text from token `first`'s start (the text's, for
    the first) to token `stop`'s start (the text's end, for the last), stripped of surrounding
    whitespace; while that text counts more than `size` tokens alone, the window gives up its
    last tokens (as many as it counts too many), down to one token.
    """

    def count(piece: str) -> int:
        return len(tokenizer.encode(piece, add_special_tokens=False).ids)

    offsets = tokenizer.encode(text, add_special_tokens=False).offsets
    total = len(offsets)
    # -- where each token starts, never before the one before it --
    starts = list(accumulate((start for start, _ in offsets), max))
    starts.append(len(text))
    stride = size - overlap
    first = 0
    while first < total:
        stop = min(first + size, total)
        while True:
            lo, hi = _stripped(text, starts[first] if first else 0, starts[stop])
            excess = count(text[lo:hi]) - size if lo < hi else 0
            if excess <= 0 or stop - first == 1:
                break
            stop = max(first + 1, stop - excess)
        if lo < hi:
            yield TokenWindow(text=text[lo:hi], start=lo, end=hi, tokens=stop - first)
        if stop == total:
            return
        first = min(first + stride, stop)


def _stripped(text: str, start: int, end: int) -> tuple[int, int]:
    """`(start, end)` narrowed to exclude leading and trailing whitespace (`start >= end` when
    `text[start:end]` is whitespace only)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def run_token(elements: Iterable[Element], opts: TokenChunkingOptions) -> Iterator[Element]:
    """Generate the "token" chunks of `elements` under validated options `opts`."""
    run = ChunkingRun.of(opts)
    windows = opts.windows
    size, overlap = opts.hard_max, opts.overlap_len

    def chunk_group(group: Sequence[Element], ids: ChunkIds) -> Iterator[Element]:
        starts: list[int] = []
        position = 0
        for element in group:
            starts.append(position)
            position += len(element.text) + len(JOINER)
        text = JOINER.join(e.text for e in group)
        for window in windows(text, size, overlap):
            # -- the characters the window's text holds whole: its range less a character cut
            # -- at either end (decoded as U+FFFD), which `lead` replacement characters stand for
            first, last, lead = _whole_characters(text, window.text, window.start, window.end)
            spans: list[tuple[int, int, int]] = []
            sources: list[SourceRecord] = []
            # -- only the elements the window reaches, found by bisection (a pass over the
            # -- whole group per window made a long section quadratic) --
            index = max(bisect_right(starts, first) - 1, 0)
            while index < len(group) and starts[index] < last:
                lo = max(first, starts[index])
                hi = min(last, starts[index] + len(group[index].text))
                if lo < hi:
                    s, e = lo - starts[index], hi - starts[index]
                    spans.append((index, s, e))
                    if lead >= 0:
                        sources.append(
                            source_record(group[index].element_id, s, e, lead + lo - first)
                        )
                index += 1
            if spans:
                yield chunk_element(group, spans, window.text, run, ids, sources=sources)

    return iter_groups_chunks(elements, run, chunk_group)


def _whole_characters(text: str, decoded: str, start: int, end: int) -> tuple[int, int, int]:
    """`(first, last, lead)`: `text[first:last]` is what the window's `decoded` text holds from
    `decoded[lead]` on. A window covering `text[start:end]` decodes to exactly that, unless a
    token boundary cut the character at either end, which then decodes to U+FFFD (one per
    byte of a cut character's tail at the start, one for a cut head at the end). `lead` is -1
    when the decoded text does not hold the range (not expected: no record is written then)."""
    if decoded == text[start:end]:
        return start, end, 0
    first, last, lead = start, end, 0
    if decoded[:1] == "\ufffd" and text[start : start + 1] != "\ufffd":
        first += 1
        while lead < len(decoded) and decoded[lead] == "\ufffd":
            lead += 1
    if decoded[-1:] == "\ufffd" and text[end - 1 : end] != "\ufffd":
        last -= 1
    if last < first or decoded[lead : lead + last - first] != text[first:last]:
        lead = decoded.find(text[first:last])  # -- a U+FFFD of the text itself at an end --
        if lead < 0:  # -- not expected: no record rather than a wrong one --
            return start, end, -1
    return first, last, lead


def iter_chunks_by_tokens(
    elements: Iterable[Element], **options: Unpack[TokenOptions]
) -> Iterator[Element]:
    """Generate fixed windows of `max_tokens` tokens of `elements` ("token"; default 1,024
    cl100k_base tokens), each overlapping the last by `overlap` tokens: Chroma's
    `FixedTokenChunker` per section. Raises `ValueError` for a tokenizer that cannot cut text at
    token boundaries (a counting function)."""
    return run_token(elements, TokenChunkingOptions(**options))


chunk_by_tokens = eager(iter_chunks_by_tokens, "chunk_by_tokens")
"""Return the "token" chunks of `elements`; see `iter_chunks_by_tokens`."""


PARTS = StrategyParts(
    TokenOptions, TokenChunkingOptions, run_token, iter_chunks_by_tokens, chunk_by_tokens
)
"""The parts of the "token" strategy, for the registry."""
