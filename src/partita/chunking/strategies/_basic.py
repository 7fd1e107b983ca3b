"""The "basic" strategy: chunks filled to the window, in order, ignoring titles and pages.

Principles:

- **Fill, then start anew.** Consecutive elements join one chunk while their texts fit the window
  (`max_characters`, or `max_tokens` with a `tokenizer`); a chunk already longer than the soft
  maximum (`new_after_n_chars` / `new_after_n_tokens`) takes no further element.
- **No semantic boundary.** Titles and page changes are text like any other.
- **An oversized element is split** at separators (newline, then space, or
  `text_splitting_separators`), its pieces overlapping by `overlap`; with `overlap_all` whole
  chunks overlap too.
- **Tables stand alone** (`isolate_table`): a table is one `Table` chunk, or `TableChunk`s with
  their header rows repeated (`repeat_table_headers`), or passes through unchanged
  (`skip_table_chunking`).
- **Navigation is never chunked**; page headers, footers and page numbers are, as in the
  reference, unless `skip_furniture` (set by the `retrieval` profile) leaves them out
  (`partita.chunking._furniture`).

`CommonOptions` are the options every strategy takes and `OverlapOptions` the overlap; a
strategy's options `TypedDict` extends them with its own, its options value type extends
`ChunkingOptions`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Annotated, Unpack

from partita.chunking._options import (
    ChunkingOptions,
    CommonOptions,
    Help,
    OverlapOptions,
    RetrievalOptions,
    SeparatorOptions,
)
from partita.chunking._pipeline import iter_pipeline_chunks
from partita.chunking._run import ChunkingRun
from partita.chunking._strategy import StrategyParts, eager
from partita.elements import Element

__all__ = [
    "PARTS",
    "BasicOptions",
    "chunk_elements",
    "iter_chunk_elements",
    "run_basic",
]


class BasicOptions(CommonOptions, OverlapOptions, SeparatorOptions, RetrievalOptions, total=False):
    """The options of the "basic" strategy, the reference's (shared with "by_title"), and
    partita's retrieval options."""

    new_after_n_chars: Annotated[
        int | None, Help("soft maximum: a chunk longer than this takes no more elements")
    ]
    new_after_n_tokens: Annotated[int | None, Help("soft maximum in tokens (needs max_tokens)")]
    overlap_all: Annotated[
        bool | None, Help("overlap between all chunks, not only the pieces of a split element")
    ]
    isolate_table: Annotated[bool | None, Help("chunk every table alone (default on)")]
    split_orig_elements: Annotated[
        str | None,
        Help(
            "orig_elements of a split element's chunks: reference (the whole element in each,"
            " none past 1,000,000 characters; default) or bounded (the whole element while"
            " chunks x its size stay within 8 Mi characters, else each chunk its own part)"
        ),
    ]


def run_basic(elements: Iterable[Element], opts: ChunkingOptions) -> Iterator[Element]:
    """Generate the "basic" chunks of `elements` under validated options `opts`, by the pipeline
    the options choose (`partita.chunking._pipeline`): no section boundaries, no combining.

    The run (its sizer and splitter) is built when this is called.
    """
    return iter_pipeline_chunks(elements, ChunkingRun.of(opts))


def iter_chunk_elements(
    elements: Iterable[Element], **options: Unpack[BasicOptions]
) -> Iterator[Element]:
    """Generate chunks of `elements` filled to the window, ignoring titles and pages ("basic").

    Options are those of the reference library (see `BasicOptions`); `text_splitting_separators`
    is partita's (literal separators for splitting oversized text). Raises `ValueError` for
    invalid options and `TypeError` for an unknown one, when called.
    """
    return run_basic(elements, ChunkingOptions(**options))


chunk_elements = eager(iter_chunk_elements, "chunk_elements")
"""Return the "basic" chunks of `elements`; see `iter_chunk_elements`."""


PARTS = StrategyParts(BasicOptions, ChunkingOptions, run_basic, iter_chunk_elements, chunk_elements)
"""The parts of the "basic" strategy, for the registry."""
