"""Which pipeline a "basic" or "by_title" run takes: chosen once, here, from its options.

Principles:

- **The reference's by default.** Without a retrieval option the run is the reference's:
  `_prechunk.iter_pre_chunks` (sections cut at the strategy's boundaries, combined by
  "by_title"), then `_chunks.iter_chunks_of_pre_chunks`.
- **Annotated** when an option only adds to the reference's chunks (`heading_context=
  "metadata"`, `page_range`, `table_text="rows"`): the same chunks, annotated
  (`retrieval._annotate`).
- **Retrieval** when an option changes how text is grouped (sentence splits or overlap, titles
  kept with their bodies, a heading prefix, table context): partita's unit packer
  (`partita.chunking.retrieval`).
- Navigation, and page furniture with `skip_furniture`, are left out first, in every pipeline
  (`partita.chunking._furniture`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Literal

from partita.chunking._chunks import iter_chunks_of_pre_chunks
from partita.chunking._furniture import iter_chunked_elements
from partita.chunking._options import SharedChunkingOptions
from partita.chunking._prechunk import BoundaryPredicate, PreChunk, iter_pre_chunks
from partita.chunking._run import ChunkingRun
from partita.elements import Element

__all__ = ["Pipeline", "iter_pipeline_chunks", "pipeline_for"]

Pipeline = Literal["reference", "annotated", "retrieval"]

CombinePreChunks = Callable[[Iterator[PreChunk]], Iterator[PreChunk]]
"""What a strategy does to the pre-chunks before they become chunks ("by_title" combines
small sections); the identity for "basic"."""


def pipeline_for(opts: SharedChunkingOptions) -> Pipeline:
    """The pipeline a run under `opts` takes, from its retrieval settings (see the module
    docstring)."""
    settings = opts.retrieval
    if (
        settings.splits_sentences
        or settings.keep_titles_with_body
        or settings.heading_context == "prefix"
        or settings.table_context
    ):
        return "retrieval"
    if (
        settings.heading_context == "metadata"
        or settings.page_range
        or settings.table_text == "rows"
    ):
        return "annotated"
    return "reference"


def iter_pipeline_chunks(
    elements: Iterable[Element],
    run: ChunkingRun,
    *,
    boundaries: Sequence[BoundaryPredicate] = (),
    combine: CombinePreChunks | None = None,
    combine_under: int | None = None,
    combine_in_window_unit: bool = False,
) -> Iterator[Element]:
    """Generate the chunks of `elements` under `run` by the pipeline its options choose: sections
    start at each element a predicate of `boundaries` accepts; `combine` (the reference's
    pipelines) or `combine_under` and `combine_in_window_unit` (the retrieval pipeline: combine
    sections shorter than that, measured in the window's unit or in characters) combine them."""
    elements = iter_chunked_elements(elements, run.opts)
    pipeline = pipeline_for(run.opts)
    if pipeline == "retrieval":
        from partita.chunking.retrieval import iter_retrieval_chunks

        return iter_retrieval_chunks(
            elements,
            run,
            boundaries=list(boundaries),
            combine_under=combine_under,
            combine_in_window_unit=combine_in_window_unit,
        )

    def iter_reference_pre_chunks(stream: Iterable[Element]) -> Iterator[PreChunk]:
        pre_chunks = iter_pre_chunks(stream, run, boundaries)
        return combine(pre_chunks) if combine is not None else pre_chunks

    if pipeline == "annotated":
        from partita.chunking.retrieval._annotate import iter_annotated_pre_chunks

        return iter_annotated_pre_chunks(elements, run, iter_reference_pre_chunks)
    return iter_chunks_of_pre_chunks(iter_reference_pre_chunks(elements), run)
