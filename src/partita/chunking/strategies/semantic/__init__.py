"""The "semantic" strategy: cut where the topic changes, measured with sentence embeddings,
bounded by a decay and a hard maximum, on elements.

Principles:

- **Sections first.** As a Word knowledge base is cut by its heading styles before it
  cuts by meaning, text is never merged across a `Title` (`respect_sections`, on by default): a
  title starts a group and joins the chunk it heads, and no cut falls inside or right after it
  unless the hard maximum leaves no other boundary. Tables stand alone, as in every text
  strategy (`partita.chunking._text_chunks`).
- **Sentences are the units** (`partita.split_sentences`' segmenter: Chinese is cut at 。！？,
  not at commas); a sentence longer than the window is cut into clauses, then words.
- **Windows, not a growing chunk.** Comparing a chunk with itself plus one
  sentence fails: the shared prefix dominates as the chunk grows. Each boundary is measured
  instead by the similarity of windows around it (`_similarity`): by default the two sentences
  before it against the two after it (disjoint blocks, `window=2, window_sides=True`, which
  retrieved best on Chroma's benchmark); the overlapping three-sentence windows (LangChain's
  `buffer_size=1`) with `window=1, window_sides=False`; adjacent sentences with `window=0` there.
- **Each sentence is embedded once** (`_vectors`), batched and deduplicated; a window's vector
  is the mean of its sentences' vectors (`_similarity` says why not an embedding of the window's
  text). Vectors of named models are cached on disk, so a re-run embeds only new sentences.
- **Breakpoints are the document's** (`_breakpoints`): percentile (95, LangChain's
  default), standard deviation, interquartile range, gradient, or an absolute similarity
  (the simple form), read over every eligible boundary of the input.
- **Bounded** (`_segments`): with `decay="exp"` (off by default: its floor is on the model's raw
  similarity, `_decay`), the decay cuts a chunk of `j` sentences where the similarity is
  below `e^(-1/j)`, so longer chunks break more easily; the hard maximum
  (`max_characters` or `max_tokens`) always holds, an over-long chunk split at its weakest
  boundary, then again; `min_size` joins a small chunk to its more similar neighbour;
  `overlap_sentences` repeats whole sentences, never past the window.
- **One section at a time** (`_groups`): its units, their sizes, segments and chunks; the
  options are written once, with their help, in `_options`.
- **The whole input is read first**: the percentile is a document's, so the strategy embeds
  all of its input's sentences before it yields its first chunk, holding one vector per
  sentence. Feed it one document at a time (as `partition` gives one).
- Chunks are `CompositeElement`s with consolidated metadata, `orig_elements`, deterministic ids
  and provenance (`extra["sources"]`), as in the other text strategies.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Unpack

from partita.chunking._ids import ChunkIds
from partita.chunking._run import ChunkingRun
from partita.chunking._strategy import StrategyParts, eager
from partita.chunking._text_chunks import iter_groups, iter_table_output
from partita.chunking.strategies.semantic._options import (
    SemanticChunkingOptions,
    SemanticOptions,
)
from partita.elements import Element, Table

__all__ = [
    "PARTS",
    "SemanticChunkingOptions",
    "SemanticOptions",
    "chunk_by_semantic",
    "iter_chunks_by_semantic",
    "run_semantic",
]


def run_semantic(elements: Iterable[Element], opts: SemanticChunkingOptions) -> Iterator[Element]:
    """Generate the "semantic" chunks of `elements` under validated options `opts`; the input
    is read and its sentences embedded on the first `next`."""
    # -- numpy and the embedders load here, not on `import partita` --
    import numpy as np

    from partita.chunking.strategies.semantic._breakpoints import breakpoint_masks
    from partita.chunking.strategies.semantic._groups import GroupPlan
    from partita.chunking.strategies.semantic._similarity import window_similarities
    from partita.chunking.strategies.semantic._vectors import embed_distinct, embedder_of

    run = ChunkingRun.of(opts)
    items = list(iter_groups(elements, opts))
    plans = {
        i: GroupPlan.of(item, run) for i, item in enumerate(items) if not isinstance(item, Table)
    }
    texts = [text for plan in plans.values() for text in plan.texts]
    vectors = (
        embed_distinct(texts, embedder_of(opts.embedder, opts.embedding_cache)) if texts else None
    )
    similarities = {}
    offset = 0
    for index, plan in plans.items():
        count = len(plan.texts)
        rows = vectors[offset : offset + count] if vectors is not None else np.zeros((0, 1))
        similarities[index] = window_similarities(rows, opts.window_units, sides=opts.sides)
        offset += count
    keys = list(plans)
    eligible = [~plans[i].protected for i in keys]
    masks = dict(
        zip(
            keys,
            breakpoint_masks([similarities[i] for i in keys], eligible, opts.rule, opts.amount),
            strict=True,
        )
    )
    ids = ChunkIds()
    for index, item in enumerate(items):
        if isinstance(item, Table):
            yield from iter_table_output(item, run, ids)
            continue
        plan = plans[index]
        if plan.units:
            segments = plan.segments(run, similarities[index], masks[index])
            yield from plan.iter_chunks(run, ids, segments)


def iter_chunks_by_semantic(
    elements: Iterable[Element], **options: Unpack[SemanticOptions]
) -> Iterator[Element]:
    """Generate "semantic" chunks of `elements`: each section cut where its sentences' topic
    changes, every chunk within the window (see the module docstring)."""
    return run_semantic(elements, SemanticChunkingOptions(**options))


chunk_by_semantic = eager(iter_chunks_by_semantic, "chunk_by_semantic", pauses_collector=False)
"""Return the "semantic" chunks of `elements`; see `iter_chunks_by_semantic`. (The collector
stays on: the embedder is the caller's code.)"""

PARTS = StrategyParts(
    SemanticOptions,
    SemanticChunkingOptions,
    run_semantic,
    iter_chunks_by_semantic,
    chunk_by_semantic,
)
"""The parts of the "semantic" strategy, for the registry."""
