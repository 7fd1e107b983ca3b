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
- A window's decoded text is not always a slice of the input: a token boundary inside a
  character's UTF-8 bytes shows as U+FFFD (as in the baseline), and a window may start or end
  inside the "\\n\\n" between two elements. Its provenance records are exact all the same: they
  cover the characters the window holds whole, where they stand in its text; a character cut
  at either end is in no record (its U+FFFD stands for it). A window holding only the text
  between two elements is dropped.
- The window bounds the tokens of the window; re-encoding a decoded text may count differently
  where a character was cut.
- The reference's `new_after_n_*`, `overlap_all`, `isolate_table` and
  `text_splitting_separators` are no options of this strategy (`TypeError`); `max_characters` is
  an error (tokens only).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, Unpack

from partita.chunking.ids import ChunkIds
from partita.chunking.provenance import SourceRecord, source_record
from partita.chunking.run import ChunkingRun
from partita.chunking.strategies._text_chunks import (
    JOINER,
    TextChunkingOptions,
    TextOptions,
    chunk_element,
    iter_groups_chunks,
)
from partita.chunking.strategies.basic import OverlapOptions
from partita.chunking.strategy import ChunkingStrategy, collect_chunks
from partita.elements import Element
from partita.text.token_windows import iter_token_windows

__all__ = [
    "TOKEN",
    "TokenChunkingOptions",
    "TokenOptions",
    "chunk_by_tokens",
    "iter_chunks_by_tokens",
    "run_token",
]


class TokenOptions(TextOptions, OverlapOptions, total=False):
    """The options of the "token" strategy: the text strategies' and `overlap` (in tokens)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenChunkingOptions(TextChunkingOptions):
    """The validated "token" options: `max_tokens` and a tiktoken `tokenizer` required, and
    `overlap` below the window (the windows' stride is `max_tokens - overlap`)."""

    OVERLAP_MAY_FILL_WINDOW: ClassVar[bool] = False
    STRATEGY: ClassVar[str] = "token"
    OPTIONS: ClassVar[Any] = TokenOptions

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
    """Generate fixed windows of `max_tokens` tokens of `elements` ("token"), each overlapping
    the last by `overlap` tokens: Chroma's `FixedTokenChunker` per section."""
    return run_token(elements, TokenChunkingOptions(**options))


def chunk_by_tokens(elements: Iterable[Element], **options: Unpack[TokenOptions]) -> list[Element]:
    """Return the "token" chunks of `elements`; see `iter_chunks_by_tokens`."""
    return collect_chunks(
        partial(iter_chunks_by_tokens, elements, **options), elements, options.get("tokenizer")
    )


TOKEN = ChunkingStrategy(
    "token",
    chunk_by_tokens,
    iter_chunks_by_tokens,
    options=TokenOptions,
    options_value=TokenChunkingOptions,
    run=run_token,
    summary="fixed windows of max_tokens tokens per section (Chroma FixedTokenChunker)",
)
"""The registry entry of the "token" strategy."""
