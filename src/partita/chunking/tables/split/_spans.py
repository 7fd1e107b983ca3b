"""Column geometry of live `rowspan`s while a rowspan-bound row group is split row by row.

`ActiveSpanLedger` tracks the spans opened by earlier rows of the group that still cover the
current row: their columns, texts and last covered row. Free columns are kept as maximal
half-open gaps (`None` is the unbounded right edge) in `GapIndex`, an AVL tree augmented with
each subtree's widest gap, so placing a cell at the first gap wide enough and releasing an
expired span are logarithmic. Adjacent text-bearing spans are merged into "text runs" in a second
index. Overlapping or conflicting source spans are dropped rather than corrupting the index.
Follows unstructured's `_OpenSpan`, `_GapIndex` and `_ActiveSpanLedger` (Apache-2.0).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import NamedTuple

from partita.chunking.tables.read._model import HtmlCell

__all__ = ["ActiveSpanLedger", "GapIndex", "OpenSpan", "PlacedCell"]

PlacedCell = tuple[int, int, HtmlCell]
"""A row's own cell placed in the grid: `(column, start of the gap it went into, cell)`."""


class OpenSpan(NamedTuple):
    """A `rowspan` still covering some row after the one that declared it."""

    col: int
    colspan: int
    text: str
    reach_idx: int
    """The last row-index (within the row group) this span covers."""


class _GapNode:
    """An AVL node: a gap `[start, end)` and the widest gap in its subtree."""

    __slots__ = ("end", "height", "left", "max_width", "right", "start")

    def __init__(self, start: int, end: int | None) -> None:
        self.start = start
        self.end = end
        self.left: _GapNode | None = None
        self.right: _GapNode | None = None
        self.height = 1
        self.max_width: int | None = None if end is None else end - start


def _height(node: _GapNode | None) -> int:
    return node.height if node else 0


def _pull(node: _GapNode) -> None:
    """Recompute the height and widest gap of `node` from its children."""
    node.height = 1 + max(_height(node.left), _height(node.right))
    widths = [
        None if node.end is None else node.end - node.start,
        node.left.max_width if node.left else 0,
        node.right.max_width if node.right else 0,
    ]
    node.max_width = None if None in widths else max(w for w in widths if w is not None)


def _rotate_left(node: _GapNode) -> _GapNode:
    pivot = node.right
    assert pivot is not None
    node.right = pivot.left
    pivot.left = node
    _pull(node)
    _pull(pivot)
    return pivot


def _rotate_right(node: _GapNode) -> _GapNode:
    pivot = node.left
    assert pivot is not None
    node.left = pivot.right
    pivot.right = node
    _pull(node)
    _pull(pivot)
    return pivot


def _balance(node: _GapNode) -> _GapNode:
    _pull(node)
    skew = _height(node.left) - _height(node.right)
    if skew > 1:
        assert node.left is not None
        if _height(node.left.left) < _height(node.left.right):
            node.left = _rotate_left(node.left)
        return _rotate_right(node)
    if skew < -1:
        assert node.right is not None
        if _height(node.right.right) < _height(node.right.left):
            node.right = _rotate_right(node.right)
        return _rotate_left(node)
    return node


def _insert(node: _GapNode | None, start: int, end: int | None) -> _GapNode:
    if node is None:
        return _GapNode(start, end)
    if start < node.start:
        node.left = _insert(node.left, start, end)
    elif start > node.start:
        node.right = _insert(node.right, start, end)
    else:
        node.end = end
    return _balance(node)


def _delete(node: _GapNode | None, start: int) -> _GapNode | None:
    assert node is not None
    if start < node.start:
        node.left = _delete(node.left, start)
    elif start > node.start:
        node.right = _delete(node.right, start)
    elif node.left is None:
        return node.right
    elif node.right is None:
        return node.left
    else:
        successor = node.right
        while successor.left is not None:
            successor = successor.left
        node.start, node.end = successor.start, successor.end
        node.right = _delete(node.right, successor.start)
    return _balance(node)


def _first_fit(node: _GapNode | None, cursor: int, width: int) -> int | None:
    if node is None or (node.max_width is not None and node.max_width < width):
        return None
    if node.start >= cursor:
        left = _first_fit(node.left, cursor, width)
        if left is not None:
            return left
    col = max(cursor, node.start)
    if node.end is None or col + width <= node.end:
        return node.start
    return _first_fit(node.right, cursor, width)


class GapIndex:
    """Ordered disjoint intervals `[start, end)`, keyed by start; `end` `None` is unbounded."""

    def __init__(self) -> None:
        self._root: _GapNode | None = None

    def insert(self, start: int, end: int | None) -> None:
        """Add the interval `[start, end)`, replacing the end of one that starts at `start`."""
        self._root = _insert(self._root, start, end)

    def delete(self, start: int) -> None:
        """Remove the interval starting at `start`, which must exist."""
        self._root = _delete(self._root, start)

    def first_fit(self, cursor: int, width: int) -> int | None:
        """Return the start of the first interval with room for `width` at or after `cursor`."""
        return _first_fit(self._root, cursor, width)

    def trailing_gap_start(self) -> int:
        """Return the start of the unbounded last interval: the right edge of occupied columns."""
        node = self._root
        assert node is not None
        while node.right is not None:
            node = node.right
        assert node.end is None
        return node.start

    def covering_or_next(self, cursor: int) -> tuple[int, int] | None:
        """Return the first bounded interval ending after `cursor`, `None` when there is none."""
        node = self._root
        match: _GapNode | None = None
        while node is not None:
            if node.end is not None and node.end <= cursor:
                node = node.right
            else:
                match = node
                node = node.left
        if match is None:
            return None
        assert match.end is not None
        return match.start, match.end


class ActiveSpanLedger:
    """The live spans of a row group being split, with indexed free-column gaps and text runs."""

    def __init__(self) -> None:
        self.spans: dict[int, OpenSpan] = {}
        self.text_spans: dict[int, OpenSpan] = {}
        self.text_run_index = GapIndex()
        self.text_len = 0
        """Total characters of live text spans."""
        self.text_count = 0
        """Number of live text spans."""
        self.text_version = 0
        """Changes whenever the set of live text spans changes."""
        self.gap_index = GapIndex()
        self._text_runs: dict[int, int] = {}
        self._text_runs_by_end: dict[int, int] = {}
        self._reach_counts: dict[int, int] = {}
        self._expiry: list[tuple[int, int]] = []
        self._gaps: dict[int, int | None] = {0: None}
        self._gaps_by_end: dict[int, int] = {}
        self.gap_index.insert(0, None)

    def expire(self, row_idx: int) -> list[int]:
        """Remove the spans that end before row `row_idx`; return the columns released."""
        expired_cols: list[int] = []
        while self._expiry and self._expiry[0][0] <= row_idx:
            end_row, col = heapq.heappop(self._expiry)
            span = self.spans.get(col)
            if span is None or span.reach_idx + 1 != end_row:
                continue
            del self.spans[col]
            remaining = self._reach_counts[span.reach_idx] - 1
            if remaining:
                self._reach_counts[span.reach_idx] = remaining
            else:
                del self._reach_counts[span.reach_idx]
            expired_cols.append(col)
            if span.text:
                self._expire_text_span(span)
            start = span.col
            end: int | None = span.col + span.colspan
            left = self._gaps_by_end.get(start)
            if left is not None:
                self._remove_gap(left)
                start = left
            if end in self._gaps:
                right_end = self._gaps[end]
                self._remove_gap(end)
                end = right_end
            self._add_gap(start, end)
        return expired_cols

    def place(self, cells: Sequence[HtmlCell]) -> list[PlacedCell]:
        """Return `cells` placed in source order, each in the first free gap wide enough."""
        placed: list[PlacedCell] = []
        cursor = 0
        for cell in cells:
            start = self.gap_index.first_fit(cursor, cell.colspan)
            assert start is not None  # -- the last gap is unbounded --
            col = max(cursor, start)
            placed.append((col, start, cell))
            cursor = col + cell.colspan
        return placed

    def add(self, spans: Sequence[tuple[OpenSpan, int]]) -> None:
        """Open `spans`, each paired with the start of the gap its cell was placed in."""
        right_of_initial_gap: dict[int, int] = {}
        for span, initial_gap in spans:
            gap_start = right_of_initial_gap.get(initial_gap, initial_gap)
            if gap_start not in self._gaps:
                # -- conflicting source colspans consumed this gap before this cell opened its
                # -- span; its HTML is out already, only the impossible continuation is dropped --
                continue
            gap_end = self._gaps[gap_start]
            span_end = span.col + span.colspan
            if span.col < gap_start or (gap_end is not None and span_end > gap_end):
                # -- OCR/VLM HTML can overlap a live span: never index a partly-taken interval --
                continue
            self._remove_gap(gap_start)
            if gap_start < span.col:
                self._add_gap(gap_start, span.col)
            if gap_end is None or span_end < gap_end:
                self._add_gap(span_end, gap_end)
            right_of_initial_gap[initial_gap] = span_end
            self.spans[span.col] = span
            self._reach_counts[span.reach_idx] = self._reach_counts.get(span.reach_idx, 0) + 1
            if span.text:
                self._open_text_span(span)
            heapq.heappush(self._expiry, (span.reach_idx + 1, span.col))

    def uniform_cover(self) -> tuple[int, int] | None:
        """Return `(width, reach)` when live spans densely cover columns `[0, width)` and all
        end on row `reach`; `None` otherwise."""
        if not self.spans or len(self._reach_counts) != 1:
            return None
        if len(self._gaps) != 1:
            return None
        width = self.gap_index.trailing_gap_start()
        return width, next(iter(self._reach_counts))

    def _open_text_span(self, span: OpenSpan) -> None:
        self.text_spans[span.col] = span
        self.text_len += len(span.text)
        self.text_count += 1
        self.text_version += 1
        start = span.col
        end = span.col + span.colspan
        left = self._text_runs_by_end.get(start)
        if left is not None:
            self._remove_text_run(left)
            start = left
        right = self._text_runs.get(end)
        if right is not None:
            self._remove_text_run(end)
            end = right
        self._add_text_run(start, end)

    def _expire_text_span(self, span: OpenSpan) -> None:
        del self.text_spans[span.col]
        self.text_len -= len(span.text)
        self.text_count -= 1
        self.text_version += 1
        run = self.text_run_index.covering_or_next(span.col)
        assert run is not None
        assert run[0] <= span.col
        self._remove_text_run(run[0])
        if run[0] < span.col:
            self._add_text_run(run[0], span.col)
        span_end = span.col + span.colspan
        if span_end < run[1]:
            self._add_text_run(span_end, run[1])

    def _add_gap(self, start: int, end: int | None) -> None:
        self._gaps[start] = end
        if end is not None:
            self._gaps_by_end[end] = start
        self.gap_index.insert(start, end)

    def _remove_gap(self, start: int) -> None:
        end = self._gaps.pop(start)
        if end is not None:
            del self._gaps_by_end[end]
        self.gap_index.delete(start)

    def _add_text_run(self, start: int, end: int) -> None:
        self._text_runs[start] = end
        self._text_runs_by_end[end] = start
        self.text_run_index.insert(start, end)

    def _remove_text_run(self, start: int) -> None:
        end = self._text_runs.pop(start)
        del self._text_runs_by_end[end]
        self.text_run_index.delete(start)
