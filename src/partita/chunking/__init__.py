"""Chunking: elements in, chunks (CompositeElement, Table, TableChunk) out.

Terms used throughout:

- **window**, **hard_max**: the largest chunk, in characters (`max_characters`, default 500) or
  tokens (`max_tokens` with a `tokenizer`). Only a chunk split from one oversized element or a
  table chunk's html can reach it; nothing exceeds it but the cases docs/differences.md lists.
- **soft_max**: `new_after_n_chars` / `new_after_n_tokens`; a pre-chunk longer than this takes
  no further element.
- **pre-chunk**: the elements staged to form one chunk (`_prechunk.py`).
- **semantic boundary**: an element that must start a new pre-chunk: a Title in `by_title`, and
  a page change when `multipage_sections=False` (`strategies/_by_title.py`).
- **combining**: by_title merges consecutive pre-chunks shorter than
  `combine_text_under_n_chars` while they fit (`strategies/_by_title.py`).
- **overlap**, **overlap tail**: the end of one piece repeated at the start of the next: between
  the pieces of a split element always, between whole chunks with `overlap_all=True`.
- **continuation**: the second and later pieces of a split element or table
  (`metadata.is_continuation`).
- **table isolation**: with `isolate_table=True` (the default) a table is chunked alone
  (`tables`); `skip_table_chunking=True` passes it through unchanged;
  `repeat_table_headers=True` repeats its header rows on every table chunk after the first.
- `include_orig_elements=True` (the default) attaches each chunk's source elements.

The output is the `unstructured` library's output for the same elements and options;
docs/differences.md lists the deliberate differences.

Layout, bottom up:

- `_profiles.py` (named option sets), `_retrieval_settings.py` (the retrieval options of "basic"
  and "by_title" as one value), `_options.py` (the validated options every strategy shares, and
  the option sets `CommonOptions`, `OverlapOptions`, `SeparatorOptions`), `_window.py` (the
  window in its unit), `_run.py` (the sizer, splitter and window of one run), `_ids.py`,
  `_metadata.py`, `provenance.py` and `_tracing.py` (where chunk text came from, through the
  splitter's cuts), `_split_origins.py`;
- `_furniture.py` (what chunks leave out), `_prechunk.py` and `_chunks.py` (the reference
  pipeline's two stages), `tables/` (read, split, emit);
- `_text_chunks.py` (the chunk forming the text strategies share), `retrieval/` (the retrieval
  pipeline of "basic" and "by_title": units, filling, context, tables, rows, annotations),
  `_pipeline.py` (which of the two pipelines a run of "basic" or "by_title" takes), `parents.py`
  (section parents of chunks, for small-to-big retrieval);
- `_strategy.py` (what a strategy is), `strategies/` (one module per strategy: its principles,
  its options written once with their help, its functions; "code" and "semantic" are
  subpackages: code's pieces and their chunks; semantic's similarity, decay, breakpoints,
  segments, groups and vectors) and `_registry.py` (the registered strategies, `chunk`,
  `iter_chunks`).
"""

from typing import TYPE_CHECKING

from partita._lazy import lazy_exports
from partita.chunking._options import ChunkingOptions, Help
from partita.chunking._registry import (
    chunk,
    chunking_strategies,
    iter_chunks,
    register_chunking_strategy,
)
from partita.chunking._strategy import ChunkingStrategy
from partita.chunking.provenance import iter_source_texts, rebuilds, sources_of

if TYPE_CHECKING:
    from partita.chunking.strategies._basic import (
        BasicOptions,
        chunk_elements,
        iter_chunk_elements,
    )
    from partita.chunking.strategies._by_title import (
        ByTitleChunkingOptions,
        ByTitleOptions,
        chunk_by_title,
        iter_chunks_by_title,
    )
    from partita.chunking.strategies._headings import (
        HeadingsOptions,
        chunk_by_headings,
        iter_chunks_by_headings,
    )
    from partita.chunking.strategies._recursive import (
        chunk_recursively,
        iter_chunks_recursively,
    )
    from partita.chunking.strategies._sentence import (
        SentenceOptions,
        chunk_by_sentence,
        iter_chunks_by_sentence,
    )
    from partita.chunking.strategies._sentence_window import (
        SentenceWindowOptions,
        chunk_by_sentence_window,
        iter_chunks_by_sentence_window,
        replace_with_windows,
    )
    from partita.chunking.strategies._token import chunk_by_tokens, iter_chunks_by_tokens
    from partita.chunking.strategies.code import CodeOptions, chunk_code, iter_chunks_of_code
    from partita.chunking.strategies.semantic import (
        SemanticOptions,
        chunk_by_semantic,
        iter_chunks_by_semantic,
    )
    from partita.text.sizing._tokenizers import token_counter

_STRATEGIES = "partita.chunking.strategies"
_LAZY_EXPORTS = {
    name: f"{_STRATEGIES}.{module}"
    for module, names in {
        "_basic": ("BasicOptions", "chunk_elements", "iter_chunk_elements"),
        "_by_title": (
            "ByTitleChunkingOptions",
            "ByTitleOptions",
            "chunk_by_title",
            "iter_chunks_by_title",
        ),
        "code": ("CodeOptions", "chunk_code", "iter_chunks_of_code"),
        "_headings": ("HeadingsOptions", "chunk_by_headings", "iter_chunks_by_headings"),
        "_recursive": ("chunk_recursively", "iter_chunks_recursively"),
        "semantic": ("SemanticOptions", "chunk_by_semantic", "iter_chunks_by_semantic"),
        "_sentence": ("SentenceOptions", "chunk_by_sentence", "iter_chunks_by_sentence"),
        "_sentence_window": (
            "SentenceWindowOptions",
            "chunk_by_sentence_window",
            "iter_chunks_by_sentence_window",
            "replace_with_windows",
        ),
        "_token": ("chunk_by_tokens", "iter_chunks_by_tokens"),
    }.items()
    for name in names
} | {"token_counter": "partita.text.sizing._tokenizers"}
"""The strategies' names, imported from their modules on first use (`partita._lazy`)."""

__all__ = [
    "BasicOptions",
    "ByTitleChunkingOptions",
    "ByTitleOptions",
    "ChunkingOptions",
    "ChunkingStrategy",
    "CodeOptions",
    "HeadingsOptions",
    "Help",
    "SemanticOptions",
    "SentenceOptions",
    "SentenceWindowOptions",
    "chunk",
    "chunk_by_headings",
    "chunk_by_semantic",
    "chunk_by_sentence",
    "chunk_by_sentence_window",
    "chunk_by_title",
    "chunk_by_tokens",
    "chunk_code",
    "chunk_elements",
    "chunk_recursively",
    "chunking_strategies",
    "iter_chunk_elements",
    "iter_chunks",
    "iter_chunks_by_headings",
    "iter_chunks_by_semantic",
    "iter_chunks_by_sentence",
    "iter_chunks_by_sentence_window",
    "iter_chunks_by_title",
    "iter_chunks_by_tokens",
    "iter_chunks_of_code",
    "iter_chunks_recursively",
    "iter_source_texts",
    "rebuilds",
    "register_chunking_strategy",
    "replace_with_windows",
    "sources_of",
    "token_counter",
]

__getattr__, __dir__ = lazy_exports(__name__, _LAZY_EXPORTS)
