"""Chunking a table that stands alone in its pre-chunk: one Table, or TableChunks.

A table whose text and compacted HTML both fit the window becomes one `Table` whose
`text_as_html` is the compacted HTML (attributes other than colspan/rowspan dropped, `th` made
`td`, no thead/tbody). A larger table is split into `TableChunk`s: by rows, keeping rowspan
groups together, with the HTML of each chunk matching its text and leading header rows repeated
on later chunks (`partita.chunking.tables.split._table`); or by text alone when it has no HTML
or the window is tiny (under 50 characters or 15 tokens). The chunks of one table share a `table_id`
and are numbered by `chunk_index`; each carries the table in `orig_elements` (none when the
table is over 1,000,000 characters, the reference's rule), or, under
`split_orig_elements="bounded"` when they would repeat it past `REPEAT_LIMIT`, its own part of it
(`partita.chunking._split_origins`). A table with no text forms no chunk.

When the run records sources, each chunk's `metadata.extra["sources"]` holds its records
(`partita.chunking.provenance`): a `Table` the overlap prefix's and the table's stripped text; a
`TableChunk` cut from the text its piece's, traced through the splitter; a `TableChunk` cut from
the HTML the runs of its words found in the table's text (`align_runs`), the repeated header rows
searched from the table's start.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from itertools import chain, islice

from partita.chunking._ids import ChunkIds
from partita.chunking._metadata import table_chunk_metadata
from partita.chunking._run import ChunkingRun
from partita.chunking._split_origins import (
    check_reference_repeat,
    content_size,
    omits_orig_elements,
    part_of,
    read_pieces,
    warn_orig_elements_omitted,
    without_bulky_fields,
)
from partita.chunking._tracing import PieceTracer
from partita.chunking.provenance import (
    SourceRecord,
    SourcesBuilder,
    Trace,
    records_of,
    with_sources,
)
from partita.chunking.tables.read._model import HtmlTable, leading_header_row_count
from partita.chunking.tables.split._table import HtmlTableSplitter
from partita.elements import (
    Element,
    ElementMetadata,
    Table,
    TableChunk,
    metadata_from_fields,
    new_element,
)

__all__ = ["align_runs", "iter_table_chunks"]

_logger = logging.getLogger("partita")


SourcesOf = Callable[[str], list[SourceRecord]]
"""The records of the next chunk text of a table, given the text (called in order)."""


def iter_table_chunks(
    table: Element,
    overlap_prefix: str,
    run: ChunkingRun,
    ids: ChunkIds,
    *,
    prefix_trace: Trace | None = None,
) -> Iterator[Element]:
    """Generate the chunks of `table` (with `overlap_prefix` before its text, if any; when the
    run records sources, `prefix_trace` traces that prefix)."""
    opts = run.opts
    stripped = table.text.strip() if table.text else ""
    if not stripped:
        return
    text = f"{overlap_prefix}\n{stripped}" if overlap_prefix else stripped
    html_table = _parse_html(table.metadata.text_as_html)
    html = html_table.html if html_table is not None else ""
    base = table_chunk_metadata(table, include_orig=opts.include_orig)
    maxlen = opts.hard_max
    trace = _text_trace(table, overlap_prefix, prefix_trace) if opts.record_sources else None

    if run.window.fits(text) and (not html or run.window.fits(html)):
        metadata = base.replace(text_as_html=html or None)
        if trace is not None:
            metadata = metadata.replace(extra=with_sources(base.extra, records_of(trace)))
        yield Table(text, element_id=ids.next_id(table.element_id), metadata=metadata)
        return

    if html_table is None or maxlen < run.window.min_html_size:
        if trace is None:
            yield from _iter_numbered(
                table, _iter_text_pieces(text, run), base, 0, ids, bounded=opts.bounded_orig
            )
            return
        tracer = PieceTracer(text, trace, run)
        pieces = ((piece, None) for piece in tracer.iter_pieces(run.split.iter_pieces(text)))
        yield from _iter_numbered(
            table, pieces, base, 0, ids, tracer.sources_of, bounded=opts.bounded_orig
        )
        return

    header_rows = leading_header_row_count(html_table) if opts.repeat_headers else 0
    splitter = HtmlTableSplitter(
        html_table, maxlen=maxlen, sizer=run.sizer, header_row_count=header_rows
    )
    html_sources: SourcesOf | None = None
    if trace is not None:
        html_sources = _HtmlChunkSources(table, splitter.repeated_header_text).sources_of
    yield from _iter_numbered(
        table,
        splitter.iter_subtables(),
        base,
        splitter.carried_over_header_row_count,
        ids,
        html_sources,
        bounded=opts.bounded_orig,
    )


def _text_trace(table: Element, overlap_prefix: str, prefix_trace: Trace | None) -> Trace:
    """The trace of the table's chunk text: the overlap prefix and a newline, the stripped
    text."""
    text = table.text
    lead = len(text) - len(text.lstrip())
    end = len(text.rstrip())
    spans = list(prefix_trace.spans) if overlap_prefix and prefix_trace is not None else []
    offset = len(overlap_prefix) + 1 if overlap_prefix else 0
    spans.append((table.element_id, lead, end, offset))
    return Trace(spans)


class _HtmlChunkSources:
    """The records of the chunks split from a table's HTML, in order: the runs of each chunk's
    words found in the table's text, from where the last chunk's were found; a continuation's
    repeated header text (`header_text`, then a space) from the table's start."""

    __slots__ = ("_cursor", "_header_text", "_index", "_table")

    def __init__(self, table: Element, header_text: str) -> None:
        self._table = table
        self._header_text = header_text
        self._cursor = 0
        self._index = 0

    def sources_of(self, text: str) -> list[SourceRecord]:
        source, header = self._table.text, self._header_text
        builder = SourcesBuilder()
        body_at = 0
        if self._index and header and text.startswith(header):
            runs, _ = align_runs(header, source)
            self._add(builder, runs, 0)
            body_at = len(header) + 1
        self._index += 1
        runs, self._cursor = align_runs(text[body_at:], source, self._cursor)
        self._add(builder, runs, body_at)
        return builder.records()

    def _add(self, builder: SourcesBuilder, runs: list[tuple[int, int, int]], shift: int) -> None:
        element_id = self._table.element_id
        for start, length, offset in runs:
            builder.add(element_id, start, start + length, offset + shift)


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


_WORD = re.compile(r"\S+")


def align_runs(text: str, source: str, start: int = 0) -> tuple[list[tuple[int, int, int]], int]:
    """Return where the maximal runs of `text` are found in `source`, as `(source start,
    length, text offset)` triples, and where in `source` the last one ends.

    Word by word, each is searched from where the previous one ended (first from `start`), else
    from the start of `source`; a word `source` does not hold is left out. Consecutive words
    whose gap is the same in both texts form one run.
    """
    runs: list[tuple[int, int, int]] = []
    cursor = start
    for word in _WORD.finditer(text):
        found = source.find(word.group(), cursor)
        if found == -1:
            found = source.find(word.group())
            if found == -1:
                continue
        offset, end = word.start(), found + len(word.group())
        if runs:
            at, length, at_offset = runs[-1]
            gap = offset - at_offset - length
            if (
                found - at - length == gap
                and source[at + length : found] == text[offset - gap : offset]
            ):
                runs[-1] = (at, end - at, at_offset)
                cursor = end
                continue
        runs.append((found, end - found, offset))
        cursor = end
    return runs, cursor


def _iter_numbered(
    table: Element,
    pieces: Iterator[tuple[str, str | None]],
    base: ElementMetadata,
    carried_header_rows: int,
    ids: ChunkIds,
    sources: SourcesOf | None = None,
    *,
    bounded: bool = False,
) -> Iterator[TableChunk]:
    """The `TableChunk`s of `pieces`, numbered, each carrying the table in `orig_elements`, and,
    with `sources`, its records. By the reference's rule, the chunks of a table over 1,000,000
    characters carry no `orig_elements` when there are two or more; with `bounded`, past
    `REPEAT_LIMIT` each carries its own part of the table instead (see `_split_origins`)."""
    table_id = ids.next_table_id(table.element_id)
    carried = max(0, carried_header_rows)
    base_fields = base.set_fields_view()
    include_orig = "orig_elements" in base_fields
    own_parts = False
    if bounded:
        first_pieces, own_parts = read_pieces(pieces, content_size([table]))
    else:
        first_pieces = list(islice(pieces, 2))
        if len(first_pieces) > 1 and omits_orig_elements([table], include_orig):
            warn_orig_elements_omitted(table)
            base_fields = {name: v for name, v in base_fields.items() if name != "orig_elements"}
        elif include_orig:
            first_pieces = check_reference_repeat(chain(first_pieces, pieces), [table])
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
        if sources is not None:
            fields["extra"] = with_sources(fields.get("extra"), sources(text))
        metadata = metadata_from_fields(fields)
        yield new_element(TableChunk, text, ids.next_id(table.element_id), metadata)
