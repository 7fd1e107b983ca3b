"""Forming chunks from a pre-chunk: one CompositeElement, or several when it must be split.

A pre-chunk holding exactly one table goes to `partita.chunking.tables`. Any other pre-chunk
becomes one CompositeElement with its text and consolidated metadata, or, when its text exceeds
the window (one oversized element), several: the second and later carry `is_continuation=True`.
Every piece carries the whole `orig_elements`. A pre-chunk with no text forms no chunk.
"""

from __future__ import annotations

from collections.abc import Iterator

from partita.chunking.char_split import iter_char_pieces
from partita.chunking.ids import ChunkIds
from partita.chunking.metadata import consolidate_metadata, orig_elements_of
from partita.chunking.options import ChunkingOptions
from partita.chunking.prechunk import PreChunk
from partita.elements import (
    CompositeElement,
    Element,
    Table,
    _metadata_from_fields,
    _new_element,
)

__all__ = ["iter_chunks_of"]


def iter_chunks_of(pre_chunk: PreChunk, opts: ChunkingOptions, ids: ChunkIds) -> Iterator[Element]:
    """Generate the chunks of `pre_chunk`."""
    elements = pre_chunk.elements
    if len(elements) == 1 and isinstance(elements[0], Table):
        if opts.skip_tables:
            yield elements[0]
        else:
            # -- imported here: table splitting needs lxml, which `import partita` avoids --
            from partita.chunking.tables import iter_table_chunks

            yield from iter_table_chunks(elements[0], pre_chunk.overlap_prefix, opts, ids)
        return
    text = pre_chunk.text
    if not text:
        return
    fields = consolidate_metadata(elements)
    if opts.include_orig:
        fields["orig_elements"] = orig_elements_of(elements)
    metadata = _metadata_from_fields(fields)
    anchor = elements[0].element_id
    if opts.count_tokens is None:
        if len(text) <= opts.hard_max:
            yield _new_element(CompositeElement, text, ids.next_id(anchor), metadata)
            return
        continuation = None
        for piece in iter_char_pieces(text, opts.hard_max, opts.overlap_len, opts.separators):
            if continuation is None:
                yield _new_element(CompositeElement, piece, ids.next_id(anchor), metadata)
                continuation = _metadata_from_fields({**fields, "is_continuation": True})
            else:
                yield _new_element(CompositeElement, piece, ids.next_id(anchor), continuation)
        return
    # -- the size of the text when known without counting (as the splitter would measure it) --
    size = pre_chunk.token_count
    if size is not None and size <= opts.hard_max:
        yield _new_element(CompositeElement, text, ids.next_id(anchor), metadata)
        return
    continuation = None
    for piece in opts.split.iter_pieces(text):
        if continuation is None:
            yield _new_element(CompositeElement, piece, ids.next_id(anchor), metadata)
            continuation = _metadata_from_fields({**fields, "is_continuation": True})
        else:
            yield _new_element(CompositeElement, piece, ids.next_id(anchor), continuation)
