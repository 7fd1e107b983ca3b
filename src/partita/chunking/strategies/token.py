"""The "token" strategy: fixed token windows, Chroma's `FixedTokenChunker`, over elements.

Principles:

- **The baseline, exactly.** Each group's text (its elements' texts joined with "\\n\\n") is
  encoded once and cut into windows of `max_tokens` tokens, each starting `max_tokens - overlap`
  tokens after the last (`partita.text.token_windows.iter_token_windows`); a chunk's text is its
  window decoded. On one element the chunk texts are Chroma's `FixedTokenChunker`'s.
- **tiktoken only**: `tokenizer` is a tiktoken encoding or model name, or a tiktoken `Encoding`;
  `max_tokens` is required, and `overlap` counts tokens.
- Sections, tables, provenance, ids and metadata: `partita.chunking.strategies._text_chunks`.
  Windows never cross a section (`respect_sections`) or a table.

Differences from Chroma's chunker and from the other text strategies:

- The input is elements: windows restart at each section and around each table.
- Provenance ranges cover every character with a byte in the window. A window's decoded text is
  not always a slice of the input: a token boundary inside a character's UTF-8 bytes shows as
  U+FFFD (as in the baseline), and a window may start or end inside the "\\n\\n" between two
  elements; only where neither happens does joining the ranges' slices rebuild the text exactly.
  A window holding only the text between two elements is dropped.
- The window bounds the tokens of the window; re-encoding a decoded text may count differently
  where a character was cut.
- `new_after_n_*`, `overlap_all`, `text_splitting_separators` and `max_characters` are accepted
  (as every strategy's options) but unused (`max_characters` is an error: tokens only).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Unpack

from partita.chunking.ids import ChunkIds
from partita.chunking.run import ChunkingRun
from partita.chunking.strategies._text_chunks import (
    JOINER,
    TextChunkingOptions,
    TextOptions,
    chunk_element,
    iter_groups_chunks,
)
from partita.chunking.strategy import ChunkingStrategy, collect_chunks
from partita.elements import Element
from partita.text.token_windows import iter_token_windows

__all__ = [
    "TOKEN",
    "TokenChunkingOptions",
    "chunk_by_tokens",
    "iter_chunks_by_tokens",
    "run_token",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenChunkingOptions(TextChunkingOptions):
    """The validated "token" options: `max_tokens` and a tiktoken `tokenizer` required."""

    def __post_init__(self) -> None:
        if self.max_tokens is None:
            raise ValueError("the 'token' strategy requires 'max_tokens' and a tiktoken tokenizer")
        TextChunkingOptions.__post_init__(self)
        if self.encoding is None:
            raise ValueError(
                "the 'token' strategy requires a tiktoken tokenizer: an encoding or model name"
                " or a tiktoken Encoding"
            )

    @property
    def encoding(self) -> Any:
        """The tiktoken `Encoding` of `tokenizer`, or None when it is no tiktoken tokenizer."""
        from partita.text.sizing.sizer import sizer_for

        tiktoken = sizer_for(self.tokenizer).tiktoken
        return None if tiktoken is None else tiktoken.encoding


def run_token(elements: Iterable[Element], opts: TokenChunkingOptions) -> Iterator[Element]:
    """Generate the "token" chunks of `elements` under validated options `opts`."""
    run = ChunkingRun.of(opts)
    encoding = opts.encoding
    size, overlap = opts.hard_max, opts.overlap_len

    def chunk_group(group: Sequence[Element], ids: ChunkIds) -> Iterator[Element]:
        starts: list[int] = []
        position = 0
        for element in group:
            starts.append(position)
            position += len(element.text) + len(JOINER)
        text = JOINER.join(e.text for e in group)
        for window in iter_token_windows(text, encoding, size, overlap):
            spans = []
            # -- only the elements the window reaches, found by bisection (a pass over the
            # -- whole group per window made a long section quadratic) --
            index = max(bisect_right(starts, window.start) - 1, 0)
            while index < len(group) and starts[index] < window.end:
                lo = max(window.start, starts[index])
                hi = min(window.end, starts[index] + len(group[index].text))
                if lo < hi:
                    spans.append((index, lo - starts[index], hi - starts[index]))
                index += 1
            if spans:
                yield chunk_element(group, spans, window.text, run, ids)

    return iter_groups_chunks(elements, run, chunk_group)


def iter_chunks_by_tokens(
    elements: Iterable[Element], **options: Unpack[TextOptions]
) -> Iterator[Element]:
    """Generate fixed windows of `max_tokens` tokens of `elements` ("token"), each overlapping
    the last by `overlap` tokens: Chroma's `FixedTokenChunker` per section."""
    return run_token(elements, TokenChunkingOptions(**options))


def chunk_by_tokens(elements: Iterable[Element], **options: Unpack[TextOptions]) -> list[Element]:
    """Return the "token" chunks of `elements`; see `iter_chunks_by_tokens`."""
    return collect_chunks(
        partial(iter_chunks_by_tokens, elements, **options), elements, options.get("tokenizer")
    )


TOKEN = ChunkingStrategy(
    "token",
    chunk_by_tokens,
    iter_chunks_by_tokens,
    options=TextOptions,
    options_value=TokenChunkingOptions,
    run=run_token,
    summary="fixed windows of max_tokens tokens per section (Chroma FixedTokenChunker)",
)
"""The registry entry of the "token" strategy."""
