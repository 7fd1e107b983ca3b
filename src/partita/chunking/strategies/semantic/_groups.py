"""One group of text elements (a section) for the "semantic" strategy: its units, their sizes,
its segments and its chunks.

A group's units are its sentences (`iter_sentence_units`: CJK-aware, an over-long sentence cut
into clauses and words that fit). Laid end to end as one chunk, the units' text is
`text`, unit `i` at `[starts[i], ends[i])`; the chunk of units `a .. b - 1` is then exactly
`text[starts[a]:ends[b - 1]]` (each element's slice runs from its first unit to its last, so a
run of units is a substring), and its size is measured there: in characters, by subtraction.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from partita.chunking._ids import ChunkIds
from partita.chunking._run import ChunkingRun
from partita.chunking._text_chunks import (
    JOINER,
    chunk_element,
    iter_sentence_pieces,
    span_text,
    spans_of_units,
)
from partita.chunking.strategies.semantic._segments import (
    iter_bounded,
    iter_semantic_cuts,
    merged_small,
)
from partita.elements import Element, Title
from partita.text._packing import Unit

__all__ = ["GroupPlan"]

Floats = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]


@dataclass(slots=True)
class GroupPlan:
    """A group, its `units`, their `texts`, their offsets in the group's `text`, and which
    boundaries are `protected`: inside or right after a `Title`, or inside a sentence cut into
    pieces (only the hard maximum cuts there, and last)."""

    group: Sequence[Element]
    units: list[Unit]
    texts: list[str]
    text: str
    starts: list[int]
    ends: list[int]
    protected: Mask

    @classmethod
    def of(cls, group: Sequence[Element], run: ChunkingRun) -> GroupPlan:
        """The plan of `group` under `run`'s window."""
        pieces = list(iter_sentence_pieces(group, run))
        units = [Unit(i, s, e, 0, ends_sentence=ends) for i, s, e, ends in pieces]
        texts = [group[u.source].text[u.start : u.end] for u in units]
        starts: list[int] = []
        ends: list[int] = []
        offset = 0
        for index, unit in enumerate(units):
            if index:
                previous = units[index - 1]
                if previous.source == unit.source:
                    offset += unit.start - previous.end  # -- the text between two sentences --
                else:
                    offset += len(JOINER)
            starts.append(offset)
            offset += unit.end - unit.start
            ends.append(offset)
        text = span_text(group, spans_of_units(units)) if units else ""
        kept = [isinstance(group[u.source], Title) or not u.ends_sentence for u in units[:-1]]
        protected = np.asarray(kept, dtype=np.bool_)
        return cls(group, units, texts, text, starts, ends, protected)

    def size(self, run: ChunkingRun, a: int, b: int) -> int:
        """The exact size of the chunk of units `a .. b - 1` (above the window when over it)."""
        return run.window.span_size(self.text, self.starts[a], self.ends[b - 1])

    def segments(
        self, run: ChunkingRun, similarities: Floats, breakpoints: Mask
    ) -> list[tuple[int, int]]:
        """The group's segments (`segments`' three passes) under `run`'s options."""
        opts = run.opts
        limit = opts.hard_max
        memo: dict[tuple[int, int], int] = {}

        def size(a: int, b: int) -> int:
            key = (a, b)
            if key not in memo:
                memo[key] = self.size(run, a, b)
            return memo[key]

        decay = getattr(opts, "decay_function", None)
        cuts = iter_semantic_cuts(similarities, breakpoints, self.protected, decay)
        bounded = list(iter_bounded(cuts, similarities, self.protected, size, limit))
        min_size = getattr(opts, "min_units", 0)
        return merged_small(bounded, similarities, self.protected, size, limit, min_size)

    def iter_chunks(
        self, run: ChunkingRun, ids: ChunkIds, segments: Sequence[tuple[int, int]]
    ) -> Iterator[Element]:
        """The chunks of `segments`, each after the first starting with up to `overlap_units`
        of the previous segment's last units, fewer when the window would not hold them."""
        overlap = getattr(run.opts, "overlap_units", 0)
        previous_start = 0
        for index, (a, b) in enumerate(segments):
            first = a
            if index and overlap:
                first = max(previous_start, a - overlap)
                while first < a and self.size(run, first, b) > run.opts.hard_max:
                    first += 1
            spans = spans_of_units(self.units[first:b])
            text = span_text(self.group, spans)
            yield chunk_element(self.group, spans, text, run, ids)
            previous_start = a
