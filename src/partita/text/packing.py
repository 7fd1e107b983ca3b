"""Packing splits into chunks: greedy to the budget, overlap from whole splits, always progress.

Principles (llama_index's `SentenceSplitter` merge, as seed 000 lays it out, with its defects
fixed):

- Splits are added in order while the chunk fits the budget; the split that would not fit
  starts the next chunk.
- A chunk after the first starts with an overlap: the longest run of the previous chunk's last
  whole splits whose size is at most `overlap`, shortened further until the new split fits after
  it. (llama_index keeps the whole overlap and adds the next split anyway, so its chunk 1 in
  seed 000 holds 101 tokens under a budget of 73.)
- Every chunk takes at least one new split, so no chunk repeats another (seed 000's chunks 5 and
  6 hold the same text: a split of newlines was the only new content); splits hold text, never
  only whitespace (`partita.text.splits`).
- **The hard maximum holds**: a chunk's size is measured on the chunk as it will be written
  (`chunk_size`), not estimated from its splits; a split that alone exceeds the budget (a
  single character past a token budget) is a chunk of its own, the one exception.

The packer is an accumulator (`add` / `will_fit` / `flush`) over any splits with sizes: those
of one text, or of many elements (the caller says what separates splits of different sources
through `chunk_size`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

__all__ = ["Packer", "Unit", "iter_packed"]


@dataclass(frozen=True, slots=True)
class Unit:
    """A split of one source text: `source` (e.g. an element's index), its span and size."""

    source: int
    start: int
    end: int
    size: int
    is_sentence: bool = True


ChunkSize = Callable[[Sequence[Unit]], int]
"""The exact size of the chunk made of these units, as it will be written."""


class Packer:
    """The chunk being filled: `will_fit(unit)`, `add(unit)`, `flush()` -> the chunk's units."""

    __slots__ = ("_chunk_size", "_estimate", "_fresh", "_limit", "_overlap", "_sure", "_units")

    def __init__(self, *, limit: int, overlap: int, chunk_size: ChunkSize) -> None:
        if limit <= 0:
            raise ValueError(f"the budget must be > 0, got {limit}")
        if not 0 <= overlap < limit:
            raise ValueError(f"the overlap must be >= 0 and less than the budget, got {overlap}")
        self._limit = limit
        self._overlap = overlap
        self._chunk_size = chunk_size
        self._units: list[Unit] = []
        self._fresh = 0  # -- units added since the last flush (the rest are overlap) --
        # -- the units' sizes plus one per join: while that stays within three quarters of the
        # -- budget the chunk fits without measuring it (a join costs at most a few characters
        # -- or tokens, never a quarter of the budget), so a chunk is measured whole only near
        # -- its end --
        self._estimate = 0
        self._sure = limit * 3 // 4

    @property
    def has_new_content(self) -> bool:
        """Whether the chunk holds a unit that no earlier chunk held."""
        return self._fresh > 0

    def will_fit(self, unit: Unit) -> bool:
        """Whether the chunk, with `unit` added, stays within the budget (a fresh chunk
        always takes one unit: progress before all)."""
        if self._fresh == 0:
            return True
        if self._estimate + unit.size + 1 <= self._sure:
            return True
        return self._chunk_size([*self._units, unit]) <= self._limit

    def add(self, unit: Unit) -> None:
        """Add `unit`; in a chunk without new content yet, drop overlap units until it fits."""
        if self._fresh == 0:
            while self._units and self._chunk_size([*self._units, unit]) > self._limit:
                self._estimate -= self._units[0].size + 1
                del self._units[0]
        self._units.append(unit)
        self._estimate += unit.size + 1
        self._fresh += 1

    def flush(self) -> tuple[Unit, ...]:
        """Return the chunk's units and start the next chunk with the overlap."""
        chunk = tuple(self._units)
        tail: list[Unit] = []
        total = 0
        for unit in reversed(chunk):
            if total + unit.size > self._overlap:
                break
            tail.insert(0, unit)
            total += unit.size
        self._units = tail
        self._estimate = total + len(tail)
        self._fresh = 0
        return chunk


def iter_packed(
    units: Iterable[Unit],
    *,
    limit: int,
    overlap: int,
    chunk_size: ChunkSize,
    packer_type: type[Packer] = Packer,
) -> Iterator[tuple[Unit, ...]]:
    """Yield the chunks (tuples of units, overlap first) that `units` pack into, filled by a
    `packer_type` (a `Packer` subclass may judge fit differently)."""
    packer = packer_type(limit=limit, overlap=overlap, chunk_size=chunk_size)
    for unit in units:
        if not packer.will_fit(unit):
            yield packer.flush()
        packer.add(unit)
    if packer.has_new_content:
        yield packer.flush()
