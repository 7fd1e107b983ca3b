"""The "sentence" strategy: llama_index's `SentenceSplitter`, over elements, with its defects fixed.

Principles:

- **Decompose, then merge.** Each element's text is cut coarsest unit first (paragraphs,
  sentences, clauses, words, prefixes: `partita.text._splits.iter_splits`) into splits that fit
  the window; consecutive splits are merged greedily while the chunk fits; a chunk after the
  first starts with the longest run of the previous chunk's last whole splits whose size is at
  most `overlap` (`partita.text._packing`).
- **Metadata inside the budget.** With `metadata_template` (e.g. `"filepath: {filename}"`) each
  chunk's text starts with the template rendered from its first element's metadata and
  "\\n\\n", and that header counts inside the window, as llama_index counts metadata
  (1024 − 23 = 1001). Its provenance ranges describe the text after `extra["text_offset"]`
  characters.
- Sections, tables, provenance, ids and metadata: `partita.chunking._text_chunks`.

Differences from llama_index's `SentenceSplitter`:

- **Chinese is cut at sentence ends** (。！？), not at commas: the sentence splitter knows CJK
  end marks, where nltk does not.
- **No two chunks are identical**: every chunk takes a split no earlier chunk held, and splits
  never hold only whitespace (llama_index's "\\n\\n\\n" splits give repeated chunks).
- **The hard maximum holds for every chunk**: the overlap shrinks until the new split fits,
  measured on the chunk's exact text (llama_index adds the next split anyway: 101 tokens under
  73). The one exception is a single character that alone exceeds a token window.
- The input is elements, not one document; units never span two elements; `overlap` must be
  below the window (llama_index allows chunk_overlap 80 with 73 tokens of room).
- Sizes are characters by default (`max_characters`, 500), or tokens with `max_tokens` and a
  `tokenizer`; the reference's `new_after_n_*`, `overlap_all`, `isolate_table` and
  `text_splitting_separators` are no options of this strategy (`TypeError`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Annotated, Unpack

from partita.chunking._ids import ChunkIds
from partita.chunking._options import Help, OverlapOptions
from partita.chunking._run import ChunkingRun
from partita.chunking._strategy import StrategyParts, eager
from partita.chunking._text_chunks import (
    TextChunkingOptions,
    TextOptions,
    iter_groups_chunks,
    iter_split_chunks,
)
from partita.elements import Element
from partita.text._splits import iter_splits

__all__ = [
    "PARTS",
    "SentenceChunkingOptions",
    "SentenceOptions",
    "chunk_by_sentence",
    "iter_chunks_by_sentence",
    "run_sentence",
]


class SentenceOptions(TextOptions, OverlapOptions, total=False):
    """The options of the "sentence" strategy."""

    metadata_template: Annotated[
        str | None,
        Help(
            'a header such as "filepath: {filename}" rendered from the chunk\'s first'
            " element's metadata, put before its text and counted inside the window"
        ),
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class SentenceChunkingOptions(TextChunkingOptions):
    """The validated "sentence" options."""

    overlap: int | None = None
    metadata_template: str | None = None


def run_sentence(elements: Iterable[Element], opts: SentenceChunkingOptions) -> Iterator[Element]:
    """Generate the "sentence" chunks of `elements` under validated options `opts`."""
    run = ChunkingRun.of(opts)
    template = opts.metadata_template or None

    def chunk_group(group: Sequence[Element], ids: ChunkIds) -> Iterator[Element]:
        return iter_split_chunks(group, ids, run, iter_splits, template=template)

    return iter_groups_chunks(elements, run, chunk_group)


def iter_chunks_by_sentence(
    elements: Iterable[Element], **options: Unpack[SentenceOptions]
) -> Iterator[Element]:
    """Generate llama_index-`SentenceSplitter`-style chunks of `elements` ("sentence"): whole
    paragraphs and sentences packed to the window, overlapping by whole splits."""
    return run_sentence(elements, SentenceChunkingOptions(**options))


chunk_by_sentence = eager(iter_chunks_by_sentence, "chunk_by_sentence")
"""Return the "sentence" chunks of `elements`; see `iter_chunks_by_sentence`."""


PARTS = StrategyParts(
    SentenceOptions,
    SentenceChunkingOptions,
    run_sentence,
    iter_chunks_by_sentence,
    chunk_by_sentence,
)
"""The parts of the "sentence" strategy, for the registry."""
