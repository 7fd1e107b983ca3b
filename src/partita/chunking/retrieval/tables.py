"""A table's chunks in the retrieval pipeline: with their context, and the titles before them.

- **Context** (`table_context`): every chunk of the table starts with a header, the table's
  heading path and the sentence that introduces it (`context.introduction_of`), then "\\n\\n";
  the table is chunked in the window less the header, so the whole chunk fits. The header is
  outside the chunk's provenance (`extra["text_offset"]`): the introducing sentence is recorded
  where it is, in the chunk before.
- **No chunk repeated whole.** When the chunk before the table would hold nothing but the
  introducing sentence (its whole element) and titles, the filler hands those elements over
  (`repeated_introduction`): they go before the table's text, as titles do, and the header keeps
  only the heading path; left alone, they form their chunk and the header still drops the
  sentence. A header that would still hold one of the chunks just before the table whole (the
  last sentence of a split element, alone in its chunk) drops the sentence, then the path
  (`context_header`).
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
from partita.chunking.retrieval.annotate import annotated
from partita.chunking.retrieval.context import (
    PATH_JOINER,
    Path,
    header_parts_of,
    introduction_of,
)
from partita.chunking.run import ChunkingRun
from partita.elements import Element, Table

__all__ = [
    "context_header",
    "is_table",
    "iter_table_chunks_in_context",
    "repeated_introduction",
    "table_run",
]

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
    *,
    earlier: Sequence[str] = (),
) -> tuple[list[Element], Iterator[Element]]:
    """The chunks of `table` (see the module docstring); `before` holds the element of its
    section just before it (or nothing), `titles` the elements handed over (titles, and the
    introducing element), `earlier` the texts of the chunks just before it, read when the
    table's chunks are first generated (so the caller adds those of `left` first). Returns
    `(left, chunks)`: `left` the elements that could not go before the table, which the caller
    chunks first, then the table's chunks (generated lazily: take `left` first)."""
    from partita.chunking.tables.emit import iter_table_chunks

    opts = run.opts
    left: list[Element] = []
    prefix, trace, trial_run = "", None, run
    if titles:
        trial_run = _run_within(run, context_header(table, before, path, titles, run, ()))
        prefix = SEPARATOR.join(normalize_whitespace(t.text) for t in titles if t.text.strip())
        trace = text_trace(titles) if opts.record_sources else None
        trial = list(iter_table_chunks(table, prefix, trial_run, ChunkIds(), prefix_trace=trace))
        if len(trial) != 1 or not trial[0].text.startswith(prefix + "\n"):
            prefix, trace = "", None
            left = list(titles)
    origins = [*titles, table] if prefix else [table]

    def iter_finished() -> Iterator[Element]:
        # -- the header is settled once the chunks before the table, `left`'s too, are known:
        # -- never longer than the trial's, whose window the prefixed table is chunked in (a
        # -- wider one could split it as HTML, without the prefix) --
        header = context_header(table, before, path, titles, run, earlier)
        chunk_run = trial_run if prefix else _run_within(run, header)
        chunks = iter_table_chunks(table, prefix, chunk_run, ids, prefix_trace=trace)
        for chunk in chunks:
            yield _with_header(chunk, header + SEPARATOR if header else "", origins, path, opts)

    finished = iter_finished()
    if opts.table_text == "rows":
        finished = _iter_by_rows(finished, table, run, ids)
    return left, finished


def _run_within(run: ChunkingRun, header: str) -> ChunkingRun:
    """The run for a table's chunks below `header` (and the separator after it): `run` itself
    without a header."""
    if not header:
        return run
    return table_run(run, run.opts.hard_max - run.sizer.measure(header + SEPARATOR) - 1)


def context_header(
    table: Element,
    before: Sequence[Element],
    path: Path,
    handed: Sequence[Element],
    run: ChunkingRun,
    earlier: Sequence[str],
) -> str:
    """The context before every chunk of `table` ("" without `table_context`): its heading path
    and introducing sentence, shortened until it holds none of the `earlier` chunk texts whole:
    the sentence dropped, then the path's parts that hold one (a chunk of a heading alone), then
    the rest of the path. The sentence is left out when its element was handed over (in
    `handed`)."""
    opts = run.opts
    if not opts.table_context:
        return ""
    parts = header_parts_of(table, path, run.sizer, opts.hard_max)
    handed_introduction = bool(before) and any(e is before[-1] for e in handed)
    sentence = "" if handed_introduction else introduction_of(before, run.sizer, opts.hard_max)
    texts = [text for text in earlier if text]

    def holds_none(header: str) -> bool:
        return not any(text in header for text in texts)

    for candidate in (
        SEPARATOR.join(part for part in (PATH_JOINER.join(parts), sentence) if part),
        PATH_JOINER.join(parts),
        PATH_JOINER.join(part for part in parts if holds_none(part)),
    ):
        if holds_none(candidate):
            return candidate
    return ""


def repeated_introduction(before: Sequence[Element], run: ChunkingRun) -> Element | None:
    """The element just before a table (`before`: it, or nothing) whose whole text the table's
    context would repeat as the introducing sentence, with `table_context`; else None."""
    opts = run.opts
    if not opts.table_context or not before:
        return None
    sentence = introduction_of(before, run.sizer, opts.hard_max)
    last = before[-1]
    return last if sentence and sentence == " ".join(last.text.split()) else None


def _iter_by_rows(
    chunks: Iterator[Element], table: Element, run: ChunkingRun, ids: ChunkIds
) -> Iterator[Element]:
    from partita.chunking.retrieval.rows import iter_rows_rendered

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
