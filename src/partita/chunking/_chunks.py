"""Forming chunks from a pre-chunk: one CompositeElement, or several when it must be split.

A pre-chunk holding exactly one table goes to `partita.chunking.tables._emit`. Any other pre-chunk
becomes one CompositeElement with its text and consolidated metadata, or, when its text exceeds
the window (one oversized element), several: the second and later carry `is_continuation=True`.
Every piece carries the whole `orig_elements`, except, by the reference's rule, the pieces of
one element over 1,000,000 characters, which carry none, or, under `split_orig_elements=
"bounded"`, pieces that would repeat the element past `REPEAT_LIMIT`, which each carry their own
part (`partita.chunking._split_origins`). A pre-chunk with no text forms no chunk.

When the run records sources (`provenance`), each chunk's `metadata.extra["sources"]` holds its
records: the pre-chunk's trace, whole or, for a piece, as traced through the splitter
(`partita.chunking.provenance`); a table passed through records itself, whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, islice
from typing import Any

from partita.chunking._ids import ChunkIds
from partita.chunking._metadata import consolidate_metadata, orig_elements_of
from partita.chunking._options import SharedChunkingOptions
from partita.chunking._prechunk import PreChunk
from partita.chunking._run import ChunkingRun
from partita.chunking._split_origins import (
    REFERENCE_REPEAT_LIMIT,
    REPEAT_LIMIT,
    check_reference_repeat,
    content_size,
    longest_element,
    omits_orig_elements,
    part_of,
    read_pieces,
    warn_orig_elements_omitted,
    without_bulky_fields,
)
from partita.chunking._tracing import PieceTracer
from partita.chunking.provenance import records_of, source_record, with_sources
from partita.elements import (
    CompositeElement,
    Element,
    Table,
    metadata_from_fields,
    new_element,
)

__all__ = ["iter_chunks_of", "iter_chunks_of_pre_chunks", "passed_through"]


def iter_chunks_of_pre_chunks(
    pre_chunks: Iterable[PreChunk], run: ChunkingRun
) -> Iterator[Element]:
    """Generate the chunks of `pre_chunks`, in order, numbered as one run (see `ChunkIds`)."""
    ids = ChunkIds()
    for pre_chunk in pre_chunks:
        yield from iter_chunks_of(pre_chunk, run, ids)
        del pre_chunk  # -- hold one pre-chunk at a time while streaming --


def iter_chunks_of(pre_chunk: PreChunk, run: ChunkingRun, ids: ChunkIds) -> Iterator[Element]:
    """Generate the chunks of `pre_chunk`."""
    opts = run.opts
    elements = pre_chunk.elements
    if len(elements) == 1 and isinstance(elements[0], Table):
        if opts.skip_tables:
            yield passed_through(elements[0], opts)
        else:
            # -- imported here: table splitting needs lxml, which `import partita` avoids --
            from partita.chunking.tables._emit import iter_table_chunks

            yield from iter_table_chunks(
                elements[0], pre_chunk.overlap_prefix, run, ids, prefix_trace=pre_chunk.prefix_trace
            )
        return
    text = pre_chunk.text
    if not text:
        return
    fields = consolidate_metadata(elements)
    record_sources = opts.record_sources
    anchor = elements[0].element_id
    window = run.window
    if window.is_known_to_fit(text, pre_chunk.token_count):
        if opts.include_orig:
            fields["orig_elements"] = orig_elements_of(elements)
        if record_sources:
            fields["extra"] = with_sources(None, records_of(pre_chunk.trace()))
        metadata = metadata_from_fields(fields)
        yield new_element(CompositeElement, text, ids.next_id(anchor), metadata)
        return
    pieces = run.split.iter_pieces(text)
    tracer = PieceTracer(text, pre_chunk.trace(), run) if record_sources else None
    if tracer is not None:
        pieces = tracer.iter_pieces(pieces)
    include_orig = opts.include_orig
    bound = window.piece_count_bound(text)
    if opts.bounded_orig:
        if bound is None or bound * content_size(elements) > REPEAT_LIMIT:
            first_pieces, own_parts = read_pieces(pieces, content_size(elements))
            pieces = chain(first_pieces, pieces)
            if own_parts:
                yield from _iter_pieces_with_parts(pieces, elements, fields, opts, ids, tracer)
                return
    elif omits_orig_elements(elements, include_orig):
        first_pieces = list(islice(pieces, 2))
        pieces = chain(first_pieces, pieces)
        if len(first_pieces) > 1:
            warn_orig_elements_omitted(elements[0])
            include_orig = False
    elif include_orig and (
        bound is None or bound * content_size(elements) > REFERENCE_REPEAT_LIMIT
    ):
        pieces = chain(check_reference_repeat(pieces, elements), pieces)
    if include_orig:
        fields["orig_elements"] = orig_elements_of(elements)
    if tracer is not None:
        yield from _iter_traced_pieces(pieces, fields, anchor, ids, tracer)
        return
    metadata = metadata_from_fields(fields)
    continuation = None
    for piece in pieces:
        if continuation is None:
            yield new_element(CompositeElement, piece, ids.next_id(anchor), metadata)
            continuation = metadata_from_fields({**fields, "is_continuation": True})
        else:
            yield new_element(CompositeElement, piece, ids.next_id(anchor), continuation)


def passed_through(table: Element, opts: SharedChunkingOptions) -> Element:
    """`table` as its own chunk (`skip_table_chunking`): unchanged, or, when `opts` record
    sources, recording itself, whole."""
    if not opts.record_sources:
        return table
    records = [source_record(table.element_id, 0, len(table.text), 0)] if table.text else []
    extra = with_sources(table.metadata.extra, records)
    return new_element(
        type(table), table.text, table.element_id, table.metadata.replace(extra=extra)
    )


def _iter_traced_pieces(
    pieces: Iterator[str],
    fields: dict[str, Any],
    anchor: str,
    ids: ChunkIds,
    tracer: PieceTracer,
) -> Iterator[Element]:
    """The chunks of `pieces`, each with its records (see `iter_chunks_of`)."""
    later_fields = {**fields, "is_continuation": True}
    for index, piece in enumerate(pieces):
        own = dict(later_fields if index else fields)
        own["extra"] = with_sources(None, tracer.sources_of(piece))
        yield new_element(CompositeElement, piece, ids.next_id(anchor), metadata_from_fields(own))


def _iter_pieces_with_parts(
    pieces: Iterator[str],
    elements: Sequence[Element],
    fields: dict[str, Any],
    opts: SharedChunkingOptions,
    ids: ChunkIds,
    tracer: PieceTracer | None,
) -> Iterator[Element]:
    """The chunks of pieces that each carry their own part of the split element.

    Only the first piece keeps the size-proportional metadata; see `_split_origins`.
    """
    split = longest_element(elements)
    anchor = elements[0].element_id
    later_fields = {**without_bulky_fields(fields), "is_continuation": True}
    for index, piece in enumerate(pieces):
        own = dict(later_fields) if index else dict(fields)
        if opts.include_orig:
            own["orig_elements"] = (part_of(split, piece, first=not index),)
        if tracer is not None:
            own["extra"] = with_sources(None, tracer.sources_of(piece))
        metadata = metadata_from_fields(own)
        yield new_element(CompositeElement, piece, ids.next_id(anchor), metadata)
