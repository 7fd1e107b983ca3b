"""Packing splits into chunks: greedy to the budget, overlap from whole splits, always progress.

Principles (llama_index's `SentenceSplitter` merge, with its defects
fixed):

- Splits are added in order while the chunk fits the budget; the split that would not fit
  starts the next chunk.
- **Chunks end at sentence ends.** When the split that would not fit continues a sentence (the
  chunk's last split does not end one: a clause or a word of a sentence too long for the
  budget) and an earlier split of the chunk ends a sentence, the chunk ends there and the
  splits after it are carried into the next chunk (`Packer.carried`). A chunk ends inside a
  sentence only when it holds no sentence end past its overlap (a sentence longer than the
  budget). With `prefer_sentence_ends=False` the chunk is greedy to the last split.
- A chunk after the first starts with an overlap: the longest run of the previous chunk's last whole
  splits whose size is at most `overlap`, shortened further until the new split fits after it.
  (llama_index keeps the whole overlap and adds the next split anyway, so its chunk 1 in a
  walk-through of the splitter holds 101 tokens under a budget of 73.) An overlap at or above the
  budget is allowed (llama_index allows `chunk_overlap == chunk_size`): it only ever shrinks to fit.
- Every chunk takes at least one new split, so no chunk repeats another (a walk-through's chunks 5
  and 6 hold the same text: a split of newlines was the only new content); splits hold text, never
  only whitespace (`partita.text._splits`).
- **The hard maximum holds**: a chunk's size is exact, the size of the chunk as it will be
  written, never estimated from its splits: `chunk_size(units)` measures a chunk whole, and
  `grown_size(units, size, unit)` (when given) the chunk `units` of exact size `size` with `unit`
  appended, which a caller can compute from the join alone (`Sizer.measure_appended`). A split
  that alone exceeds the budget (a single character past a token budget) is a chunk of its own,
  the one exception.

The packer is an accumulator (`add` / `will_fit` / `flush`) over any splits with sizes: those
of one text, or of many elements (the caller says what separates splits of different sources
through `chunk_size` and `grown_size`). Each split is measured once joined to the chunk, so
packing costs one join measure per split plus one whole measure per chunk (its first split, or
its overlap).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

__all__ = ["ChunkSize", "GrownSize", "Packer", "Unit", "iter_packed"]


@dataclass(frozen=True, slots=True)
class Unit:
    """A split of one source text: `source` (e.g. an element's index), its span and size,
    whether it is a whole sentence or more (`is_sentence`), and whether a sentence (or a line,
    a paragraph, the source) ends with it (`ends_sentence`)."""

    source: int
    start: int
    end: int
    size: int
    is_sentence: bool = True
    ends_sentence: bool = True


ChunkSize = Callable[[Sequence[Unit]], int]
"""The exact size of the chunk made of these units, as it will be written."""

GrownSize = Callable[[Sequence[Unit], int, Unit], int]
"""`(units, size, unit)`: the exact size of the chunk `units` (of exact size `size`, at least one
unit) with `unit` appended."""


@dataclass(slots=True, kw_only=True)
class Packer:
    """The chunk being filled: `will_fit(unit)`, `add(unit)`, `flush()` -> the chunk's units.

    After `flush`, `carried` holds the units cut from the chunk's end to make it end at a
    sentence end: the caller adds them (before any new unit) to the next chunk.
    """

    limit: int
    overlap: int
    chunk_size: ChunkSize
    grown_size: GrownSize | None = None
    prefer_sentence_ends: bool = True
    keep_with_next: Callable[[Unit], bool] | None = None
    carried: tuple[Unit, ...] = field(default=(), init=False)
    _units: list[Unit] = field(default_factory=list, init=False)
    _size: int = field(default=0, init=False)
    """The exact size of `_units` (0 when empty)."""
    _fresh: int = field(default=0, init=False)
    """The units added since the last flush (the rest are overlap)."""
    _pending: tuple[Unit, int] | None = field(default=None, init=False)
    """`will_fit`'s measure, for `add`."""

    def __post_init__(self) -> None:
        if self.limit <= 0:
            raise ValueError(f"the budget must be > 0, got {self.limit}")
        if self.overlap < 0:
            raise ValueError(f"the overlap must be >= 0, got {self.overlap}")

    @property
    def has_new_content(self) -> bool:
        """Whether the chunk holds a unit that no earlier chunk held."""
        return self._fresh > 0

    @property
    def size(self) -> int:
        """The exact size of the chunk being filled (0 when empty)."""
        return self._size

    @property
    def units(self) -> tuple[Unit, ...]:
        """The units of the chunk being filled, overlap first."""
        return tuple(self._units)

    @property
    def fresh_units(self) -> tuple[Unit, ...]:
        """The units added since the last flush (the chunk's new content)."""
        return tuple(self._units[len(self._units) - self._fresh :])

    def drop_overlap(self) -> None:
        """Start the next chunk without the overlap `flush` kept (nothing added since)."""
        if self._fresh == 0:
            self._units = []
            self._size = 0

    def _grown(self, unit: Unit) -> int:
        if not self._units:
            return self.chunk_size((unit,))
        if self.grown_size is None:
            return self.chunk_size([*self._units, unit])
        return self.grown_size(self._units, self._size, unit)

    def will_fit(self, unit: Unit) -> bool:
        """Whether the chunk, with `unit` added, stays within the budget (a fresh chunk
        always takes one unit: progress before all)."""
        if self._fresh == 0:
            return True
        size = self._grown(unit)
        self._pending = (unit, size)
        return size <= self.limit

    def add(self, unit: Unit) -> None:
        """Add `unit`; in a chunk without new content yet, drop overlap units until it fits."""
        pending = self._pending
        self._pending = None
        if pending is not None and pending[0] is unit:
            size = pending[1]
        else:
            size = self._grown(unit)
            if self._fresh == 0:
                units = self._units
                while units and size > self.limit:
                    del units[0]
                    self._size = self.chunk_size(units) if units else 0
                    size = self._grown(unit)
        self._units.append(unit)
        self._size = size
        self._fresh += 1

    def flush(self, *, at_end: bool = False) -> tuple[Unit, ...]:
        """Return the chunk's units and start the next chunk with the overlap. Unless `at_end`
        (no unit follows), a chunk that would end inside a sentence is cut back to its last
        sentence end, the rest left in `carried`."""
        chunk = tuple(self._units)
        self.carried = ()
        first_fresh = len(chunk) - self._fresh
        if self.prefer_sentence_ends and not at_end and chunk and not chunk[-1].ends_sentence:
            for index in range(len(chunk) - 2, first_fresh - 1, -1):
                if chunk[index].ends_sentence:
                    chunk, self.carried = chunk[: index + 1], chunk[index + 1 :]
                    break
        keep = self.keep_with_next
        if keep is not None and not at_end:
            # -- units that belong with the next chunk's first (a title) move there, unless
            # -- nothing new would be left --
            end = len(chunk)
            while end > first_fresh + 1 and keep(chunk[end - 1]):
                end -= 1
            if end < len(chunk) and not all(keep(unit) for unit in chunk[first_fresh:end]):
                chunk, self.carried = chunk[:end], chunk[end:] + self.carried
        tail: list[Unit] = []
        total = 0
        for unit in reversed(chunk):
            if total + unit.size > self.overlap:
                break
            tail.append(unit)
            total += unit.size
        tail.reverse()
        self._units = tail
        self._size = self.chunk_size(tail) if tail else 0
        self._fresh = 0
        self._pending = None
        return chunk


def iter_packed(
    units: Iterable[Unit],
    *,
    limit: int,
    overlap: int,
    chunk_size: ChunkSize,
    grown_size: GrownSize | None = None,
    prefer_sentence_ends: bool = True,
) -> Iterator[tuple[Unit, ...]]:
    """Yield the chunks (tuples of units, overlap first) that `units` pack into (see the module
    docstring for the rules and the arguments)."""
    packer = Packer(
        limit=limit,
        overlap=overlap,
        chunk_size=chunk_size,
        grown_size=grown_size,
        prefer_sentence_ends=prefer_sentence_ends,
    )
    waiting: deque[Unit] = deque()
    for unit in units:
        waiting.append(unit)
        while waiting:
            head = waiting[0]
            if not packer.will_fit(head):
                yield packer.flush()
                waiting.extendleft(reversed(packer.carried))
                continue
            packer.add(waiting.popleft())
    if packer.has_new_content:
        yield packer.flush(at_end=True)
