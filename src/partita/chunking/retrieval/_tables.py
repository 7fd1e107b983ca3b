"""A table's chunks in the retrieval pipeline: with their context, and the titles before them.

- **Context** (`table_context`): the table's first chunk starts with a header, the table's
  heading path and the sentence that introduces it (`_context.introduction_of`), and its unit
  when neither names it, then "\\n\\n"; every later piece starts with a short one, the table's
  title, unit and column headers (`_table_headers`), so no two pieces share a long start. The
  table is chunked in the window less the longer header, so every chunk fits; a table whose
  last piece would be tiny is cut afresh into as many balanced pieces (`_balanced`). The header is
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
- **Rows** (`table_text="rows"`): each chunk's text rendered row by row (`_rows`).
- Everything else is the reference's table chunking (`partita.chunking.tables._emit`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import Any

from partita.chunking._ids import ChunkIds
from partita.chunking._options import ChunkingOptions, SharedChunkingOptions
from partita.chunking._prechunk import SEPARATOR, normalize_whitespace, text_trace
from partita.chunking._retrieval_settings import RETRIEVAL_SETTING_NAMES
from partita.chunking._run import ChunkingRun
from partita.chunking.retrieval._annotate import annotated
from partita.chunking.retrieval._context import (
    PATH_JOINER,
    Path,
    header_parts_of,
    introduction_of,
)
from partita.chunking.retrieval._table_headers import (
    column_headers_of,
    continuation_header,
    unit_of,
)
from partita.elements import Element, Table

__all__ = [
    "context_header",
    "is_table",
    "iter_table_chunks_in_context",
    "packs_with_text",
    "repeated_introduction",
    "table_run",
]

TINY_SHARE = 4
"""A table's last piece under 1/`TINY_SHARE` of the window is tiny: the table is cut afresh, in a
smaller window, into as many pieces (`_balanced`)."""

_BALANCING_SHARES = (0.95, 0.9, 0.85, 0.8, 0.75, 0.7)
_UNIT_SEARCH = 300
"""How far into a table's text its unit is looked for."""

_WINDOW_FIELDS = ("max_characters", "max_tokens", "new_after_n_chars", "new_after_n_tokens")
_KEPT_FIELDS = tuple(
    f.name
    for f in dataclasses.fields(ChunkingOptions)
    if f.init
    and f.name not in _WINDOW_FIELDS
    and f.name not in ("profile", "overlap", "overlap_all", *RETRIEVAL_SETTING_NAMES)
)
"""The options a table's run keeps from its chunking run: all but the window, the overlap, the
profile and the retrieval settings."""


def table_run(run: ChunkingRun, room: int) -> ChunkingRun:
    """A run for a table's chunks in `room` (the window less a header): the same options, the
    window `room`, no retrieval options."""
    opts = run.opts
    kept = {name: getattr(opts, name) for name in _KEPT_FIELDS}
    kept[run.window.option_name] = max(room, 1)
    if opts.retrieval.table_context:
        kept["repeat_table_headers"] = False  # -- the continuation header names the columns --
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
    from partita.chunking.tables._emit import iter_table_chunks

    opts = run.opts
    left: list[Element] = []
    prefix, trace, trial_run = "", None, run
    unit = columns = continued = ""
    if opts.retrieval.table_context:
        unit = unit_of([table.text[:_UNIT_SEARCH], *(e.text for e in before[-1:]), *path[::-1]])
        columns = column_headers_of(table)
        continued = continuation_header(path, unit, columns, "", run.sizer, opts.hard_max)

    def first_header(earlier: Sequence[str]) -> str:
        header = context_header(table, before, path, titles, run, earlier)
        seen = (header + " " + table.text[:_UNIT_SEARCH]).lower()
        if unit and unit.strip("()").lower() not in seen:
            header = f"{header} {unit}" if header else unit
        return header

    if titles:
        trial_run = _run_within(run, first_header(()))
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
        header = first_header(earlier)
        chunk_run = trial_run if prefix else _pieces_run(table, run, header, continued)
        chunks = iter_table_chunks(table, prefix, chunk_run, ids, prefix_trace=trace)
        for chunk in chunks:
            if chunk.metadata.chunk_index and opts.retrieval.table_context:
                text = chunk.text
                piece = continuation_header(
                    path, unit, columns, text, run.sizer, opts.hard_max, earlier
                )
            else:
                piece = header
            yield _with_header(chunk, piece + SEPARATOR if piece else "", origins, path, opts)

    finished = iter_finished()
    if opts.retrieval.table_text == "rows":

        def continued_for(text: str) -> str:
            return continuation_header(path, unit, columns, text, run.sizer, opts.hard_max, earlier)

        finished = _iter_by_rows(
            finished, table, run, ids, continued_for if opts.retrieval.table_context else None
        )
    return left, finished


def _pieces_run(table: Element, run: ChunkingRun, header: str, continued: str) -> ChunkingRun:
    """The run `table` is cut in below `header` (its first piece's) and `continued` (the later
    pieces'): within the window less `header` when the table is then one piece, else less the
    longer of the two, balanced (`_balanced`)."""
    from partita.chunking.tables._emit import iter_table_chunks

    first = _run_within(run, header)
    sizer = run.sizer
    if not continued or sizer.measure(continued) <= sizer.measure(header):
        return _balanced(table, first)
    if len(list(islice(iter_table_chunks(table, "", first, ChunkIds()), 2))) < 2:
        return first
    return _balanced(table, _run_within(run, continued))


def _balanced(table: Element, run: ChunkingRun) -> ChunkingRun:
    """`run`, or one with a smaller window that cuts `table` into as many pieces when that
    leaves its last piece under a quarter of the window (`TINY_SHARE`): the rows are spread so
    that no piece is a few numbers alone."""
    from partita.chunking.tables._emit import iter_table_chunks

    room = run.opts.hard_max
    sizer = run.sizer

    def sizes(trial: ChunkingRun) -> list[int]:
        pieces = iter_table_chunks(table, "", trial, ChunkIds())
        return [sizer.measure(piece.text) for piece in pieces]

    found = sizes(run)
    if len(found) < 2 or found[-1] * TINY_SHARE >= room:
        return run
    for share in _BALANCING_SHARES:
        trial = table_run(run, int(room * share))
        tried = sizes(trial)
        if len(tried) > len(found):
            break
        if tried[-1] * TINY_SHARE >= room:
            return trial
    return run


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
    if not opts.retrieval.table_context:
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
    if not opts.retrieval.table_context or not before:
        return None
    sentence = introduction_of(before, run.sizer, opts.hard_max)
    last = before[-1]
    return last if sentence and sentence == " ".join(last.text.split()) else None


def _iter_by_rows(
    chunks: Iterator[Element],
    table: Element,
    run: ChunkingRun,
    ids: ChunkIds,
    continued: Callable[[str], str] | None,
) -> Iterator[Element]:
    from partita.chunking.retrieval._rows import iter_rows_rendered

    for chunk in chunks:
        yield from iter_rows_rendered(chunk, table, run, ids, continued)


def _with_header(
    chunk: Element, header: str, origins: Sequence[Element], path: Path, opts: SharedChunkingOptions
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


def is_table(element: Element, opts: SharedChunkingOptions) -> bool:
    """True when `element` is chunked alone, as a table."""
    return isinstance(element, Table) and opts.isolate_tables


def packs_with_text(table: Element, run: ChunkingRun) -> bool:
    """True when the table `table` is packed with the text around it instead of alone: with
    `table_context`, a table of one row whose text fits in 1/`TINY_SHARE` of the window (a row a
    partitioner cut out of a statement: a label and a few figures) is read with the text around
    it, not as a chunk of a few numbers under a header."""
    opts = run.opts
    html = table.metadata.text_as_html or ""
    return (
        bool(opts.retrieval.table_context)
        and html.count("<tr") <= 1
        and run.sizer.fits(normalize_whitespace(table.text), opts.hard_max // TINY_SHARE)
    )
