"""Finding the boxes that contain a point, in about constant time per point.

A page's characters are matched against its tables (whose text they are) and its link areas
(whose URL they carry). Testing every character against every box is quadratic: 100,000
characters against 5,000 link areas take 40 s. `BoxIndex` files each box under the cells of a
36-pt grid it covers, so a point is tested only against the boxes of its own cell, plus the few
boxes too large to file (more than `_MAX_CELLS` cells), in the order the boxes were given.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Iterator, Sequence

__all__ = ["BBox", "BoxIndex"]

BBox = tuple[float, float, float, float]
"""(x0, top, x1, bottom), as `_lines.BBox`."""

_CELL = 36.0
_MAX_CELLS = 1024
_FEW = 32


class BoxIndex:
    """The boxes (x0, top, x1, bottom) of `boxes`, each grown by `pad` on every side."""

    __slots__ = ("_big", "_boxes", "_grid", "checks")

    def __init__(self, boxes: Sequence[BBox], pad: float = 0.0) -> None:
        self._boxes = [
            (x0 - pad, top - pad, x1 + pad, bottom + pad) for x0, top, x1, bottom in boxes
        ]
        self._grid: dict[tuple[int, int], list[int]] = {}
        self._big: list[int] = []
        self.checks = 0
        """Boxes tested against points so far (the work done, for callers that bound it)."""
        for index, (x0, top, x1, bottom) in enumerate(self._boxes):
            if not all(map(math.isfinite, (x0, top, x1, bottom))):
                continue  # -- no point is inside a box with a NaN or infinite side --
            cx0, cx1 = math.floor(x0 / _CELL), math.floor(x1 / _CELL)
            cy0, cy1 = math.floor(top / _CELL), math.floor(bottom / _CELL)
            if (cx1 - cx0 + 1) * (cy1 - cy0 + 1) > _MAX_CELLS:
                self._big.append(index)
                continue
            for cx in range(cx0, cx1 + 1):
                for cy in range(cy0, cy1 + 1):
                    self._grid.setdefault((cx, cy), []).append(index)

    def __bool__(self) -> bool:
        return bool(self._boxes)

    def containing(self, x: float, y: float) -> Iterator[int]:
        """Generate the indexes of the boxes containing (`x`, `y`), edges included, in order."""
        boxes = self._boxes
        if len(boxes) <= _FEW:  # -- a few boxes: testing them all is cheaper than the grid --
            for index, (x0, top, x1, bottom) in enumerate(boxes):
                self.checks += 1
                if x0 <= x <= x1 and top <= y <= bottom:
                    yield index
            return
        filed = self._grid.get((math.floor(x / _CELL), math.floor(y / _CELL)), ())
        candidates = heapq.merge(filed, self._big) if self._big else iter(filed)
        for index in candidates:
            self.checks += 1
            x0, top, x1, bottom = boxes[index]
            if x0 <= x <= x1 and top <= y <= bottom:
                yield index

    def first_containing(self, x: float, y: float) -> int | None:
        """The index of the first box containing (`x`, `y`), or None."""
        boxes = self._boxes
        if len(boxes) <= _FEW:  # -- as `containing`, without a generator: the usual case --
            candidates: Iterable[int] = range(len(boxes))
        else:
            filed = self._grid.get((math.floor(x / _CELL), math.floor(y / _CELL)), ())
            candidates = heapq.merge(filed, self._big) if self._big else filed
        for index in candidates:
            self.checks += 1
            x0, top, x1, bottom = boxes[index]
            if x0 <= x <= x1 and top <= y <= bottom:
                return index
        return None
