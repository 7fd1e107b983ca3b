"""The "sentence_window" strategy: llama_index's `SentenceWindowNodeParser`, over elements.

Principles:

- **One chunk per sentence.** Each element's text is cut into sentences
  (`partita.text.sentences.iter_sentence_spans`); each sentence is a chunk, matched alone at
  retrieval time.
- **Its window for the LLM.** Each chunk carries `extra["window"]`, the text of the
  `window_size` sentences before it, itself and the `window_size` after it (default 3), within
  its section, and `extra["original_text"]`, the sentence. `replace_with_windows(chunks)` swaps
  each chunk's text for its window, what llama_index's `MetadataReplacementPostProcessor` does.
- Sections, tables, provenance, ids and metadata: `partita.chunking._text_chunks`.
  Windows never cross a section (`respect_sections`) or a table.

Differences from llama_index's `SentenceWindowNodeParser`:

- The sentence splitter knows CJK end marks and abbreviations (no nltk); a window is a slice
  of the elements' texts (its sentences keep the whitespace between them), elements joined
  with "\\n\\n".
- **The window is a hard maximum for a chunk**: a sentence longer than `max_characters`
  (`max_tokens`) is cut like "sentence" cuts it (clauses, words, prefixes) and each piece is a
  chunk with its own window (llama_index keeps any sentence whole).
- `window` and `original_text` are in `metadata.extra` (JSON writes them as metadata fields).
- `overlap` and the reference's `new_after_n_*`, `overlap_all`, `isolate_table` and
  `text_splitting_separators` are no options of this strategy (`TypeError`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Unpack

from partita.chunking._ids import ChunkIds
from partita.chunking._options import Help
from partita.chunking._run import ChunkingRun
from partita.chunking._strategy import StrategyParts, eager
from partita.chunking._text_chunks import (
    TextChunkingOptions,
    TextOptions,
    chunk_element,
    iter_groups_chunks,
    iter_sentence_units,
    span_text,
)
from partita.elements import Element

__all__ = [
    "PARTS",
    "WINDOW_SIZE_DEFAULT",
    "SentenceWindowChunkingOptions",
    "SentenceWindowOptions",
    "chunk_by_sentence_window",
    "iter_chunks_by_sentence_window",
    "replace_with_windows",
    "run_sentence_window",
]

WINDOW_SIZE_DEFAULT = 3
"""Sentences on each side of a chunk's sentence in its window, when `window_size` is not given."""


class SentenceWindowOptions(TextOptions, total=False):
    """The options of the "sentence_window" strategy."""

    window_size: Annotated[
        int | None,
        Help("sentences on each side in a chunk's window (default 3)"),
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class SentenceWindowChunkingOptions(TextChunkingOptions):
    """The validated "sentence_window" options; `window` is `window_size` or its default."""

    window_size: int | None = None
    window: int = field(init=False)

    def __post_init__(self) -> None:
        TextChunkingOptions.__post_init__(self)
        size = WINDOW_SIZE_DEFAULT if self.window_size is None else self.window_size
        if size < 0:
            raise ValueError(f"'window_size' argument must be >= 0, got {size}")
        object.__setattr__(self, "window", size)


def _window_spans(units: Sequence[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    spans: list[tuple[int, int, int]] = []
    for source, start, end in units:
        if spans and spans[-1][0] == source:
            spans[-1] = (source, spans[-1][1], end)
        else:
            spans.append((source, start, end))
    return spans


def run_sentence_window(
    elements: Iterable[Element], opts: SentenceWindowChunkingOptions
) -> Iterator[Element]:
    """Generate the "sentence_window" chunks of `elements` under validated options `opts`."""
    run = ChunkingRun.of(opts)
    size = opts.window

    def chunk_group(group: Sequence[Element], ids: ChunkIds) -> Iterator[Element]:
        units = list(iter_sentence_units(group, run))
        for k, unit in enumerate(units):
            spans = [unit]
            text = span_text(group, spans)
            window = span_text(group, _window_spans(units[max(0, k - size) : k + size + 1]))
            extra = {"window": window, "original_text": text}
            yield chunk_element(group, spans, text, run, ids, extra=extra)

    return iter_groups_chunks(elements, run, chunk_group)


def iter_chunks_by_sentence_window(
    elements: Iterable[Element], **options: Unpack[SentenceWindowOptions]
) -> Iterator[Element]:
    """Generate one chunk per sentence of `elements` ("sentence_window"), each carrying its
    window of `window_size` sentences on each side in `metadata.extra["window"]`."""
    return run_sentence_window(elements, SentenceWindowChunkingOptions(**options))


chunk_by_sentence_window = eager(iter_chunks_by_sentence_window, "chunk_by_sentence_window")
"""Return the "sentence_window" chunks of `elements`; see `iter_chunks_by_sentence_window`."""


def replace_with_windows(chunks: Iterable[Element]) -> list[Element]:
    """Return `chunks` with each text replaced by its window (`metadata.extra["window"]`), for the
    LLM after retrieval; a chunk without a window is kept as it is."""
    out: list[Element] = []
    for chunk in chunks:
        extra = chunk.metadata.extra
        window = extra.get("window") if extra else None
        out.append(chunk if window is None else dataclasses.replace(chunk, text=window))
    return out


PARTS = StrategyParts(
    SentenceWindowOptions,
    SentenceWindowChunkingOptions,
    run_sentence_window,
    iter_chunks_by_sentence_window,
    chunk_by_sentence_window,
)
"""The parts of the "sentence_window" strategy, for the registry."""
