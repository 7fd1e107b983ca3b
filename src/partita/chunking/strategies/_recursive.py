"""The "recursive" strategy: the recursive character splitter (LangChain's
`RecursiveCharacterTextSplitter`), over elements, with whole-split overlap.

Principles:

- **Coarsest separator first.** Each element's text is cut at the first separator it holds;
  pieces still over the window are cut at the next separators, and so on down to characters
  (`partita.text._splits.iter_recursive_splits`). The separators are the shared option
  `text_splitting_separators` when given (literal strings, in order; "" cuts between
  characters; one option for one concept, LangChain's `separators`), else this strategy's own
  default, `RECURSIVE_SEPARATORS`: paragraphs, lines, CJK and Latin sentence ends, clauses,
  words, characters (the reference strategies default to newline, then space).
- **Packed like "sentence".** Splits are merged greedily while the chunk fits the window; a chunk
  after the first starts with the previous chunk's last whole splits totalling at most
  `overlap`; every chunk takes a new split and stays within the window; a chunk ends after a
  piece cut at a line or sentence separator when the next piece continues a sentence too long
  for the window.
- Sections, tables, provenance, ids and metadata: `partita.chunking._text_chunks`.

Differences from LangChain's splitter: separators are literal, never regular expressions, and
never lost (each stays at the end of the piece before it, and the chunk text is a slice of the
element's text); Latin sentence marks need a following space (`3.14` stays whole); the overlap is
of whole splits, not of characters counted back; the window is a hard maximum for every chunk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Unpack

from partita.chunking._ids import ChunkIds
from partita.chunking._options import OverlapOptions, SeparatorOptions
from partita.chunking._run import ChunkingRun
from partita.chunking._strategy import StrategyParts, eager
from partita.chunking._text_chunks import (
    TextChunkingOptions,
    TextOptions,
    iter_groups_chunks,
    iter_split_chunks,
)
from partita.elements import Element
from partita.text._splits import RECURSIVE_SEPARATORS, Split, iter_recursive_splits

__all__ = [
    "PARTS",
    "RecursiveChunkingOptions",
    "RecursiveOptions",
    "chunk_recursively",
    "iter_chunks_recursively",
    "run_recursive",
]


class RecursiveOptions(TextOptions, OverlapOptions, SeparatorOptions, total=False):
    """The options of the "recursive" strategy: the text strategies', `overlap`, and
    `text_splitting_separators`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RecursiveChunkingOptions(TextChunkingOptions):
    """The validated "recursive" options (its own type, so `iter_chunks` finds the strategy)."""

    overlap: int | None = None
    text_splitting_separators: Sequence[str] | None = None


def run_recursive(elements: Iterable[Element], opts: TextChunkingOptions) -> Iterator[Element]:
    """Generate the "recursive" chunks of `elements` under validated options `opts`."""
    run = ChunkingRun.of(opts)
    given = opts.text_splitting_separators
    separators = RECURSIVE_SEPARATORS if given is None else tuple(given)

    def splits_of(text: str, measure: Callable[[str], int], limit: int) -> Iterator[Split]:
        return iter_recursive_splits(text, measure, limit, separators)

    def chunk_group(group: Sequence[Element], ids: ChunkIds) -> Iterator[Element]:
        return iter_split_chunks(group, ids, run, splits_of)

    return iter_groups_chunks(elements, run, chunk_group)


def iter_chunks_recursively(
    elements: Iterable[Element], **options: Unpack[RecursiveOptions]
) -> Iterator[Element]:
    """Generate "recursive" chunks of `elements`: texts cut at the coarsest separator that makes
    pieces fit (`text_splitting_separators`, default `RECURSIVE_SEPARATORS`), packed to the
    window with whole-split overlap."""
    return run_recursive(elements, RecursiveChunkingOptions(**options))


chunk_recursively = eager(iter_chunks_recursively, "chunk_recursively")
"""Return the "recursive" chunks of `elements`; see `iter_chunks_recursively`."""


PARTS = StrategyParts(
    RecursiveOptions,
    RecursiveChunkingOptions,
    run_recursive,
    iter_chunks_recursively,
    chunk_recursively,
)
"""The parts of the "recursive" strategy, for the registry."""
