"""Retrieval-first chunking: the pipeline "basic" and "by_title" run under partita's retrieval
options, and the `retrieval` profile that turns on the set that measured best.

Principles:

- **Opt-in, each option on its own.** Without these options "basic" and "by_title" run the
  reference's pipeline and their output is the `unstructured` library's. Options that only add
  to chunks (`heading_context="metadata"`, `page_range`) annotate the reference pipeline's
  chunks (`_annotate`). Options that change how text is grouped (`split_at` or `overlap_unit`
  "sentences", `keep_titles_with_body`, `heading_context="prefix"`, `table_context`) run this
  pipeline, which keeps the strategies' rules (a Title starts a section in "by_title", small
  sections are combined, tables stand alone (with `table_context`, a tiny table is packed with
  its context: `_tables.packs_with_text`), the soft maximum) and packs units instead of
  splitting text at the window (`_filling`).
- **Whole units.** An element stays whole while it fits; an oversized one is cut at sentence
  ends (or the separators), never inside a grapheme cluster (`_units`); overlaps are whole
  units, so whole sentences.
- **Context inside the window.** A heading path before a chunk's text, and a table's context,
  count inside the window, in its unit; they are outside the chunk's provenance
  (`extra["text_offset"]`), so provenance still points at the document's own text (`_context`,
  `_tables`). Every chunk of a table carries its title, unit and column headers
  (`_table_headers`); `table_text="rows"` renders it row by row (`_rows`).
- **Nothing is lost, the hard maximum holds**: every chunk's text is its header and spans of its
  elements' texts, every non-whitespace character of every element in some chunk; every chunk
  within the window, measured on its exact text (a single character over a token window the one
  exception). Property tests check both for every option.

Stages: `iter_with_paths` (heading paths) -> sections (by_title: at Titles, and pages unless
multipage; tables apart) -> `ChunkFiller` (units packed) and `iter_table_chunks_in_context`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator

from partita.chunking._chunks import passed_through
from partita.chunking._ids import ChunkIds
from partita.chunking._run import ChunkingRun
from partita.chunking.retrieval._context import Path, iter_with_paths
from partita.chunking.retrieval._filling import ChunkFiller
from partita.chunking.retrieval._tables import (
    is_table,
    iter_table_chunks_in_context,
    packs_with_text,
    repeated_introduction,
)
from partita.elements import Element

__all__ = ["RECENT_CHUNKS", "iter_retrieval_chunks"]

RECENT_CHUNKS = 64
"""How many of the chunks before a table (since the table before it) its context is checked
against, so that it holds none of them whole (`_tables.context_header`): a bound on the memory
of a long run of text, far more chunks than a section's titles and its last sentence span."""


def iter_retrieval_chunks(
    elements: Iterable[Element],
    run: ChunkingRun,
    *,
    boundaries: Iterable[Callable[[Element], bool]] = (),
    combine_under: int | None = None,
    combine_in_window_unit: bool = False,
) -> Iterator[Element]:
    """Generate the chunks of `elements` by the retrieval pipeline (see the module docstring).

    `boundaries` are the strategy's section starts (none for "basic", whose text between two
    tables is one stream); `combine_under` is "by_title"'s combining threshold (None: no
    sections to combine), in characters unless `combine_in_window_unit`.
    """
    opts = run.opts
    ids = ChunkIds()
    filler = ChunkFiller(
        run, ids, combine_under=combine_under, combine_in_window_unit=combine_in_window_unit
    )
    starts = tuple(boundaries)
    section: list[Element] = []
    paths: list[Path] = []
    before: list[Element] = []  # -- the element just before, in the same section --
    recent: deque[str] = deque(maxlen=RECENT_CHUNKS)

    def noted(chunks: Iterator[Element]) -> Iterator[Element]:
        for chunk in chunks:
            recent.append(chunk.text)
            yield chunk

    for element, path in iter_with_paths(elements):
        if is_table(element, opts) and opts.skip_tables:
            # -- passed through as it is (`skip_table_chunking`), after the text before it --
            if section:
                yield from filler.add_section(section, paths)
            yield from filler.flush()
            yield passed_through(element, opts)
            section, paths, before = [], [], []
            recent.clear()
            continue
        if is_table(element, opts) and not packs_with_text(element, run):
            if section:
                yield from noted(filler.add_section(section, paths))
            titles: list[Element] = []
            introduction = repeated_introduction(before, run)
            yield from noted(filler.flush_before_table(titles, introduction))
            left, chunks = iter_table_chunks_in_context(
                element, before, path, titles, run, ids, earlier=recent
            )
            if left:
                yield from noted(filler.emit_alone(left, [path] * len(left)))
            yield from chunks
            section, paths, before = [], [], []
            recent.clear()
            continue
        # -- every predicate sees every element: some keep state (the current page) --
        starts_section = [is_start(element) for is_start in starts]
        if section and any(starts_section):
            yield from noted(filler.add_section(section, paths))
            section, paths = [], []
        section.append(element)
        paths.append(path)
        before = [element]
        if combine_under is None and len(section) > 1:
            # -- "basic": no sections to combine, pack as the elements come --
            yield from noted(filler.add_section(section, paths))
            section, paths = [], []
    if section:
        yield from filler.add_section(section, paths)
    yield from filler.flush()
