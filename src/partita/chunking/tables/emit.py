"""Chunking a table that stands alone in its pre-chunk: one Table, or TableChunks.

A table whose text and compacted HTML both fit the window becomes one `Table` whose
`text_as_html` is the compacted HTML (attributes other than colspan/rowspan dropped, `th` made
`td`, no thead/tbody). A larger table is split into `TableChunk`s: by rows, keeping rowspan
groups together, with the HTML of each chunk matching its text and leading header rows repeated
on later chunks (`partita.chunking.tables.split.table`); or by text alone when it has no HTML or the
window is tiny (under 50 characters or 15 tokens). The chunks of one table share a `table_id`
and are numbered by `chunk_index`; each carries the table in `orig_elements`, or, when they would
repeat it past `REPEAT_LIMIT`, its own part of it (`partita.chunking.split_origins`). A table
with no text forms no chunk.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from itertools import chain

from partita.chunking.ids import ChunkIds
from partita.chunking.metadata import table_chunk_metadata
from partita.chunking.run import ChunkingRun
from partita.chunking.split_origins import content_size, part_of, read_pieces, without_bulky_fields
from partita.chunking.tables.read.model import HtmlTable, leading_header_row_count
from partita.chunking.tables.split.table import HtmlTableSplitter
from partita.elements import (
    Element,
    ElementMetadata,
    Table,
    TableChunk,
    metadata_from_fields,
    new_element,
)

__all__ = ["iter_table_chunks"]

_logger = logging.getLogger("partita")


def iter_table_chunks(
    table: Element, overlap_prefix: str, run: ChunkingRun, ids: ChunkIds
) -> Iterator[Element]:
    """Generate the chunks of `table` (with `overlap_prefix` before its text, if any)."""
    opts = run.opts
    stripped = table.text.strip() if table.text else ""
    if not stripped:
        return
    text = f"{overlap_prefix}\n{stripped}" if overlap_prefix else stripped
    html_table = _parse_html(table.metadata.text_as_html)
    html = html_table.html if html_table is not None else ""
    base = table_chunk_metadata(table, include_orig=opts.include_orig)
    maxlen = opts.hard_max

    if run.fits(text) and (not html or run.fits(html)):
        metadata = base.replace(text_as_html=html or None)
        yield Table(text, element_id=ids.next_id(table.element_id), metadata=metadata)
        return

    min_html_window = 15 if run.sizer.counts_tokens else 50
    if html_table is None or maxlen < min_html_window:
        pieces = _iter_text_pieces(text, run)
        yield from _iter_numbered(table, pieces, base, 0, ids)
        return

    header_rows = leading_header_row_count(html_table) if opts.repeat_headers else 0
    splitter = HtmlTableSplitter(
        html_table, maxlen=maxlen, sizer=run.sizer, header_row_count=header_rows
    )
    yield from _iter_numbered(
        table, splitter.iter_subtables(), base, splitter.carried_over_header_row_count, ids
    )


def _parse_html(text_as_html: str | None) -> HtmlTable | None:
    if text_as_html is None or not text_as_html.strip():
        return None
    try:
        return HtmlTable.from_html_text(text_as_html.strip())
    except ValueError:
        _logger.warning(
            "Could not parse text_as_html of a table; splitting it by text. text_as_html: %s",
            text_as_html[:100] + "..." if len(text_as_html) > 100 else text_as_html,
        )
        return None


def _iter_text_pieces(text: str, run: ChunkingRun) -> Iterator[tuple[str, str | None]]:
    for piece in run.split.iter_pieces(text):
        yield piece, None


def _iter_numbered(
    table: Element,
    pieces: Iterator[tuple[str, str | None]],
    base: ElementMetadata,
    carried_header_rows: int,
    ids: ChunkIds,
) -> Iterator[TableChunk]:
    """The `TableChunk`s of `pieces`, numbered, each carrying the table in `orig_elements`, or,
    past `REPEAT_LIMIT`, its own part of the table (see `split_origins`)."""
    table_id = ids.next_table_id(table.element_id)
    carried = max(0, carried_header_rows)
    first_pieces, own_parts = read_pieces(pieces, content_size([table]))
    base_fields = base.set_fields_view()
    include_orig = "orig_elements" in base_fields
    later_fields = without_bulky_fields(base_fields) if own_parts else base_fields
    for index, (text, html) in enumerate(chain(first_pieces, pieces)):
        # -- `base.replace(text_as_html=html, is_continuation=True if index else None,
        # -- num_carried_over_header_rows=carried if index else 0, table_id=table_id,
        # -- chunk_index=index)`, field order included --
        fields = dict(later_fields if index else base_fields)
        if html is None:
            fields.pop("text_as_html", None)
        else:
            fields["text_as_html"] = html
        if index:
            fields["is_continuation"] = True
        else:
            fields.pop("is_continuation", None)
        fields["num_carried_over_header_rows"] = carried if index else 0
        fields["table_id"] = table_id
        fields["chunk_index"] = index
        if own_parts and include_orig:
            fields["orig_elements"] = (part_of(table, text, first=not index, html=html),)
        metadata = metadata_from_fields(fields)
        yield new_element(TableChunk, text, ids.next_id(table.element_id), metadata)
