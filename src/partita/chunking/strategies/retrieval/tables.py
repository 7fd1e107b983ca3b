"""A table's chunks in the retrieval pipeline: with their context, and the titles before them.

- **Context** (`table_context`): every chunk of the table starts with a header, the table's
  heading path and the sentence that introduces it (`context.introduction_of`), then "\\n\\n";
  the table is chunked in the window less the header, so the whole chunk fits. The header is
  outside the chunk's provenance (`extra["text_offset"]`): the introducing sentence is recorded
  where it is, in the chunk before.
- **Titles** handed over by the filler (`keep_titles_with_body`: a section holding only titles
  before the table) go before the table's text when the whole table fits with them, traced to
  them like any text; otherwise they form a chunk of their own (the table is cut by rows, and a
  title belongs to all of them, which the heading path in the context already says).
- **Rows** (`table_text="rows"`): each chunk's text rendered row by row (`rows`).
- Everything else is the reference's table chunking (`partita.chunking.tables.emit`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

from partita.chunking.ids import ChunkIds
from partita.chunking.options import ChunkingOptions
from partita.chunking.prechunk import SEPARATOR, normalize_whitespace, text_trace
from partita.chunking.run import ChunkingRun
from partita.chunking.strategies.retrieval.annotate import annotated
from partita.chunking.strategies.retrieval.context import (
    Path,
    header_of,
    introduction_of,
)
from partita.elements import Element, Table

__all__ = ["is_table", "iter_table_chunks_in_context", "table_run"]

_BASE_FIELDS = tuple(f.name for f in dataclasses.fields(ChunkingOptions) if f.init)
_RETRIEVAL_FIELDS = frozenset(
    {
        "profile",
        "split_at",
        "overlap_unit",
        "keep_titles_with_body",
        "heading_context",
        "table_context",
        "table_text",
        "page_range",
        "overlap",
        "overlap_all",
        "max_characters",
        "max_tokens",
        "new_after_n_chars",
        "new_after_n_tokens",
    }
)


def table_run(run: ChunkingRun, room: int) -> ChunkingRun:
    """A run for a table's chunks in `room` (the window less a header): the same options, the
    window `room`, no retrieval options."""
    opts = run.opts
    kept = {name: getattr(opts, name) for name in _BASE_FIELDS if name not in _RETRIEVAL_FIELDS}
    window = "max_tokens" if run.sizer.counts_tokens else "max_characters"
    kept[window] = max(room, 1)
    return ChunkingRun.of(ChunkingOptions(**kept))


def iter_table_chunks_in_context(
    table: Element,
    before: Sequence[Element],
    path: Path,
    titles: Sequence[Element],
    run: ChunkingRun,
    ids: ChunkIds,
) -> tuple[list[Element], Iterator[Element]]:
    """The chunks of `table` (see the module docstring); `before` holds the elements of its
    section before it, `titles` the titles handed over. Returns `(left, chunks)`: `left` the
    titles that could not go before the table, which the caller chunks first, then the table's
    chunks (generated lazily: take `left` first)."""
    from partita.chunking.tables.emit import iter_table_chunks

    opts = run.opts
    header = ""
    if opts.table_context:
        parts = [
            header_of(table, path, run.sizer, opts.hard_max),
            introduction_of(before, run.sizer, opts.hard_max),
        ]
        header = SEPARATOR.join(part for part in parts if part)
    table_chunks_run = run
    if header:
        header += SEPARATOR
        table_chunks_run = table_run(run, opts.hard_max - run.sizer.measure(header) - 1)
    prefix, trace = "", None
    if titles:
        prefix = SEPARATOR.join(normalize_whitespace(t.text) for t in titles if t.text.strip())
        trace = text_trace(titles) if opts.record_sources else None
        trial = list(
            iter_table_chunks(table, prefix, table_chunks_run, ChunkIds(), prefix_trace=trace)
        )
        if len(trial) != 1 or not trial[0].text.startswith(prefix + "\n"):
            prefix, trace = "", None
            left = list(titles)
        else:
            left = []
    else:
        left = []
    chunks = iter_table_chunks(table, prefix, table_chunks_run, ids, prefix_trace=trace)
    origins = [*titles, table] if prefix else [table]
    finished: Iterator[Element] = (
        _with_header(chunk, header, origins, path, opts) for chunk in chunks
    )
    if opts.table_text == "rows":
        finished = _iter_by_rows(finished, table, run, ids)
    return left, finished


def _iter_by_rows(
    chunks: Iterator[Element], table: Element, run: ChunkingRun, ids: ChunkIds
) -> Iterator[Element]:
    from partita.chunking.strategies.retrieval.rows import iter_rows_rendered

    for chunk in chunks:
        yield from iter_rows_rendered(chunk, table, run, ids)


def _with_header(
    chunk: Element, header: str, origins: Sequence[Element], path: Path, opts: ChunkingOptions
) -> Element:
    if header:
        metadata = chunk.metadata
        extra: dict[str, Any] = dict(metadata.extra or {})
        sources = extra.get("sources")
        if sources is not None:
            shift = len(header)
            extra["sources"] = [
                {**record, "offset": record["offset"] + shift} for record in sources
            ]
        extra["text_offset"] = len(header)
        chunk = type(chunk)(
            header + chunk.text, element_id=chunk.element_id, metadata=metadata.replace(extra=extra)
        )
    return annotated(chunk, origins, path, opts)


def is_table(element: Element, opts: ChunkingOptions) -> bool:
    """True when `element` is chunked alone, as a table."""
    return isinstance(element, Table) and opts.isolate_tables
