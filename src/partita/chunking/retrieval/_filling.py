"""Filling chunks: units packed greedily, section by section, each chunk within the window.

Principles:

- **The window holds the whole chunk**: header, "\\n\\n" and body, measured exactly on the text
  as it is written (`partita.text._packing.Packer` with the text strategies' chunk measure).
- **Elements stay whole** while they fit: an element that does not fit the room left starts the
  next chunk; only an oversized element is cut (`_units`), from the start of a chunk, and its
  last chunk takes no further element (as the reference splits it alone). A chunk longer than
  the soft maximum (`new_after_n_chars` / `new_after_n_tokens`) takes no further
  element.
- **Overlap is whole units**: the longest run of the previous chunk's last units within
  `overlap` (whole sentences with `split_at` or `overlap_unit` "sentences"), between the pieces
  of a cut element always and between whole elements with `overlap_all`; never across a section
  boundary, where the topic changes.
- **Sections** (by_title): a section starts a chunk, unless the chunk being filled is shorter
  than `combine_text_under_n_chars` (characters, as the reference counts it even in token mode;
  the window's unit with `combine_unit="window"`): then the section's elements join it while
  they fit, as the reference combines small sections.
- **Titles stay with their bodies** (`keep_titles_with_body`): a chunk never ends with a Title
  whose body would start the next one; the Title moves to the next chunk (unless it is all the
  chunk would hold). A section of titles only (a chapter title before its first section) joins
  the section after it.
- **A table's context repeats no chunk whole** (`table_context`): a last chunk before a table
  holding only the sentence that introduces the table (and titles) is handed to the table
  (`flush_before_table`), which takes it as its own text or leaves it out of its context.
- Chunks are CompositeElements with consolidated metadata, `orig_elements` and provenance
  (`_text_chunks.chunk_element`); a header is outside the provenance (`extra["text_offset"]`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from partita.chunking._ids import ChunkIds
from partita.chunking._run import ChunkingRun
from partita.chunking._text_chunks import (
    JOINER,
    ChunkMeasure,
    chunk_element,
    span_text,
    spans_of_units,
)
from partita.chunking.retrieval._annotate import annotated
from partita.chunking.retrieval._context import Path, header_of
from partita.chunking.retrieval._units import iter_units, splits_sentences
from partita.elements import Element, Title
from partita.text._packing import Packer, Unit

__all__ = ["ChunkFiller"]


class ChunkFiller:
    """Fills the chunks of one stream of text elements (the text between two tables):
    `add_section(elements, paths)` packs a section (combining it with the chunk being filled when
    it may), `flush()` generates the chunks still held; `take_trailing_titles()` hands over a
    chunk that holds only titles (for the table after them)."""

    def __init__(
        self,
        run: ChunkingRun,
        ids: ChunkIds,
        *,
        combine_under: int | None,
        combine_in_window_unit: bool = False,
    ) -> None:
        self._run = run
        self._ids = ids
        self._combine_under = combine_under
        self._combine_in_window_unit = combine_in_window_unit
        self._sentences = splits_sentences(run)
        self._sentence_overlap = (
            run.opts.retrieval.overlap_unit == "sentences" and run.opts.overlap_len > 0
        )
        self._prefix = run.opts.retrieval.heading_context == "prefix"
        self._group: list[Element] = []
        self._paths: list[Path] = []
        self._headers: list[str] = []
        self._header_sizes: list[int] = []
        self._first_units: set[tuple[int, int]] = set()
        self._after_oversized = False
        self._packer: Packer | None = None
        self._measure: ChunkMeasure | None = None

    # -- the packer of the current group --

    def _new_group(self) -> None:
        opts = self._run.opts
        self._group, self._paths, self._headers, self._header_sizes = [], [], [], []
        self._first_units = set()
        self._measure = ChunkMeasure(
            self._group, self._headers, self._header_sizes, self._run.sizer, opts.hard_max
        )
        titles = self._title_sources() if opts.retrieval.keep_titles_with_body else None
        self._packer = Packer(
            limit=opts.hard_max,
            overlap=opts.overlap_len,
            chunk_size=self._measure.size,
            grown_size=self._measure.grown,
            prefer_sentence_ends=self._sentences,
            keep_with_next=titles,
        )

    def _title_sources(self) -> Any:
        group = self._group

        def is_title_unit(unit: Unit) -> bool:
            return isinstance(group[unit.source], Title)

        return is_title_unit

    def _add_element(self, element: Element, path: Path) -> list[Unit]:
        run = self._run
        header = header_of(element, path, run.sizer, run.opts.hard_max) if self._prefix else ""
        if header:
            header += JOINER
        header_size = run.sizer.measure(header) if header else 0
        source = len(self._group)
        self._group.append(element)
        self._paths.append(path)
        self._headers.append(header)
        self._header_sizes.append(header_size)
        room = run.opts.hard_max - header_size
        units = list(iter_units(source, element, run, room, sentences=self._sentence_overlap))
        if units:
            self._first_units.add((source, units[0].start))
        return units

    # -- sections --

    def add_section(self, elements: Sequence[Element], paths: Sequence[Path]) -> Iterator[Element]:
        """Pack `elements` (one section, or for "basic" any run of text elements), generating
        the chunks that fill."""
        packer = self._packer
        if (
            packer is not None
            and packer.has_new_content
            and not self._combines(elements)
            and not (
                self._run.opts.retrieval.keep_titles_with_body
                and self._whole_titles(packer.fresh_units)
            )
        ):
            yield from self.flush()
            packer = None
        if packer is None or not packer.units:
            self._new_group()  # -- nothing held: the elements before are let go --
        for element, path in zip(elements, paths, strict=True):
            yield from self._pack(self._add_element(element, path))

    def _combines(self, elements: Sequence[Element]) -> bool:
        """True when the section of `elements` joins the chunk being filled: "basic" has no
        sections; "by_title" combines while the chunk is shorter than the threshold, its elements
        then joining while they fit. In the window's unit (`combine_unit="window"`); else in
        characters, as the reference measures combining even in token mode: the threshold, and
        the fit in `hard_max` characters of the section's first pre-chunk (its elements that fit
        the window together)."""
        threshold = self._combine_under
        packer = self._packer
        if threshold is None:
            return True
        assert packer is not None
        if threshold == 0:
            return False
        if self._combine_in_window_unit:
            return packer.size < threshold
        units = packer.units
        text = span_text(self._group, spans_of_units(units)) if units else ""
        first: list[str] = []  # -- the texts of the section's first pre-chunk --
        for element in elements:
            element_text = element.text.strip()
            if not element_text:
                continue
            if first and not self._run.window.fits(JOINER.join([*first, element_text])):
                break
            first.append(element_text)
        rest = JOINER.join(first)
        combined = len(text) + (len(JOINER) + len(rest) if text and rest else len(rest))
        return len(text) < threshold and combined <= self._run.opts.hard_max

    def _pack(self, units: list[Unit]) -> Iterator[Element]:
        """Pack the units of one element: it starts the next chunk when it does not fit the room
        left in this one (elements stay whole while they fit; an oversized one is cut from the
        start of a chunk, as the reference splits it alone)."""
        packer = self._packer
        measure = self._measure
        assert packer is not None
        assert measure is not None
        opts = self._run.opts
        carried: tuple[Unit, ...] = ()
        if units and self._after_oversized and packer.has_new_content:
            # -- the chunk ending an oversized element takes no further element (the reference
            # -- splits such an element alone) --
            yield from self._cut(units[0])
            carried = packer.carried
        oversized = len(units) > 1 and measure.size(units) > opts.hard_max
        self._after_oversized = oversized
        titles_only = opts.retrieval.keep_titles_with_body and self._whole_titles(
            packer.fresh_units
        )
        # -- (titles alone never end a chunk before their body: its first units join them) --
        if (
            len(units) > 1
            and packer.has_new_content
            and not titles_only
            and measure.size([*packer.units, *units]) > opts.hard_max
        ):
            yield from self._cut(units[0])
            carried = packer.carried
        waiting = list(reversed([*carried, *units]))
        while waiting:
            unit = waiting[-1]
            starts_element = (unit.source, unit.start) in self._first_units
            soft_full = starts_element and packer.has_new_content and packer.size > opts.soft_max
            if soft_full or not packer.will_fit(unit):
                yield from self._cut(unit)
                waiting.extend(reversed(packer.carried))
                continue
            packer.add(waiting.pop())

    def _cut(self, unit: Unit) -> Iterator[Element]:
        """End the chunk being filled before `unit` (its overlap kept for the next chunk between
        the pieces of one element, or with `overlap_all`)."""
        packer = self._packer
        assert packer is not None
        chunk = packer.flush()
        starts_element = (unit.source, unit.start) in self._first_units
        if not self._run.opts.overlap_all and not packer.carried and starts_element:
            packer.drop_overlap()
        yield self._chunk(chunk)

    def flush(self) -> Iterator[Element]:
        """Generate the chunk being filled, if it holds anything new, and start afresh."""
        packer = self._packer
        if packer is not None and packer.has_new_content:
            yield self._chunk(packer.flush(at_end=True))
        self._packer = None
        self._after_oversized = False

    def flush_before_table(
        self, titles: list[Element], introduction: Element | None = None
    ) -> Iterator[Element]:
        """`flush()`, except that the elements of a last chunk the table's context would repeat
        are appended to `titles` instead, for the table that follows: with
        `keep_titles_with_body`, the titles that would end the last chunk (or be all of it);
        and a last chunk that holds only whole titles and the whole of `introduction` (the
        element whose text the context repeats as the table's introduction)."""
        packer = self._packer
        if packer is None or not packer.has_new_content:
            yield from self.flush()
            return
        fresh = packer.fresh_units
        if introduction is not None and self._titles_then(fresh, introduction):
            self._packer = None
            titles.extend(dict.fromkeys(self._group[unit.source] for unit in fresh))
            return
        if not self._run.opts.retrieval.keep_titles_with_body:
            yield from self.flush()
            return
        self._packer = None
        if self._whole_titles(fresh):
            titles.extend(dict.fromkeys(self._group[unit.source] for unit in fresh))
            return
        yield self._chunk(packer.flush())
        carried = packer.carried
        if self._whole_titles(carried):
            titles.extend(dict.fromkeys(self._group[unit.source] for unit in carried))
        elif carried:  # -- not expected: a table follows whole elements --
            yield self._chunk(carried)

    def emit_alone(self, elements: Sequence[Element], paths: Sequence[Path]) -> Iterator[Element]:
        """The chunks of `elements` packed on their own (titles a table could not take)."""
        yield from self.flush()
        yield from self.add_section(elements, paths)
        yield from self.flush()

    def _titles_then(self, units: Sequence[Unit], last: Element) -> bool:
        """`True` when `units` are whole titles, then the whole of element `last`."""
        group = self._group
        ending = [unit for unit in units if group[unit.source] is last]
        if not ending or ending != list(units[len(units) - len(ending) :]):
            return False
        first, final = ending[0], ending[-1]
        whole = (first.source, first.start) in self._first_units and final.end >= len(
            last.text.rstrip()
        )
        titles = units[: len(units) - len(ending)]
        return whole and (not titles or self._whole_titles(titles))

    def _whole_titles(self, units: Sequence[Unit]) -> bool:
        group = self._group
        return bool(units) and all(
            isinstance(group[unit.source], Title) and (unit.source, unit.start) in self._first_units
            for unit in units
        )

    # -- chunks --

    def _chunk(self, units: Sequence[Unit]) -> Element:
        group = self._group
        spans = spans_of_units(units)
        first = units[0]
        header = self._headers[first.source]
        text = header + span_text(group, spans)
        extra: dict[str, Any] = {"text_offset": len(header)} if header else {}
        chunk = chunk_element(
            group, spans, text, self._run, self._ids, extra=extra, offset=len(header)
        )
        elements = [group[i] for i, _, _ in spans]
        continuation = (first.source, first.start) not in self._first_units
        return annotated(
            chunk, elements, self._paths[first.source], self._run.opts, continuation=continuation
        )
