"""Columns kept as rows are added: the union of the rows' lines' x-ranges, each column with the
rows holding a line in it, so that a row with two lines in one column is seen as it comes.

Adding a row merges its lines' ranges into the union in logarithmic time per line (the columns
a range touches are found by bisection; two columns merge their rows' sets, the smaller into
the larger). The columns are those `_aligned_tables._columns` computes of the same rows at once.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from partita.partitioners.pdf._lines import Line

__all__ = ["BodyColumns", "Cell", "RunColumns", "is_prose"]

Cell = tuple[float, float, bool, bool]
"""A line as a cell of a table's body: (x0, x1, non-empty, starts in lowercase)."""


def is_prose(cells: int, lower: int) -> bool:
    """True when a column of `cells` non-empty cells, `lower` of them starting in lowercase,
    reads as wrapped prose: three or more, and a third or more of its cells, start in lowercase."""
    return lower >= 3 and lower * 3 >= cells


class _ColumnUnion:
    """The union of the x-ranges of rows' lines, kept as ranges are added: its columns, sorted
    and disjoint (`los`, `his`), and for each the rows with a line in it (`members`)."""

    __slots__ = ("his", "los", "members")

    def __init__(self) -> None:
        self.los: list[float] = []
        self.his: list[float] = []
        self.members: list[set[int]] = []

    def _add_range(self, lo: float, hi: float, index: int) -> tuple[int, int] | None:
        """Merge the range [`lo`, `hi`] of a line of the row at `index` into the union; return
        `(first, last)`, the columns `first` to `last - 1` it touched, which are now column
        `first` (`first == last`: it touched none and is the new column `first`). None when
        two of those columns, or one and the row, share a row: a row would have two lines in one
        column. The columns are then no longer the union of their rows' ranges."""
        los, his, members = self.los, self.his, self.members
        first = bisect_left(his, lo)  # -- columns touching [lo, hi]: first..last-1 --
        last = bisect_right(los, hi)
        if first >= last:
            los.insert(first, lo)
            his.insert(first, hi)
            members.insert(first, {index})
            return first, first
        merged = members[first]
        for k in range(first + 1, last):
            other = members[k]
            small, large = (merged, other) if len(merged) < len(other) else (other, merged)
            if not small.isdisjoint(large):
                return None
            large.update(small)
            merged = large
        if index in merged:
            return None
        merged.add(index)
        los[first:last] = [min(lo, los[first])]
        his[first:last] = [max(hi, his[last - 1])]
        members[first:last] = [merged]
        return first, last


class RunColumns(_ColumnUnion):
    """The columns of a run of rows (`_columns` of its rows), kept as rows are added: the union
    of the lines' x-ranges, and for each column the rows with a line in it. Adding a row
    merges its ranges into the union in logarithmic time per line; the run stays aligned while
    no row has two lines in one column (a merge of two columns both holding a row breaks it)
    and the columns are no fewer than before."""

    __slots__ = ("broken",)

    def __init__(self) -> None:
        super().__init__()
        self.broken = False

    def add(self, index: int, lines: Sequence[Line], *, at_least: int | None = None) -> bool:
        """Add the row at `index` (its `lines`); return whether the rows are still aligned into
        at least `at_least` columns (default: as many as before). A failed add leaves it
        unusable."""
        if self.broken:
            return False
        before = len(self.los) if at_least is None else at_least
        for line in lines:
            if self._add_range(line.x0, line.x1, index) is None:
                self.broken = True
                return False
        if len(self.los) < before:
            self.broken = True
            return False
        return True


class BodyColumns(_ColumnUnion):
    """The columns of a body (the union of its lines' x-ranges, as `_aligned_tables._columns`
    has them), kept as rows are added: for each column the rows with a line in it, its
    non-empty cells and those starting in lowercase, and how many columns are prose."""

    __slots__ = ("lower", "prose", "total")

    def __init__(self) -> None:
        super().__init__()
        self.total: list[int] = []
        self.lower: list[int] = []
        self.prose = 0

    def add(self, index: int, cells: Sequence[Cell], upper: int) -> bool | None:
        """Add the row at `index`; return None when a column holds two of its lines, or is
        prose for good (`upper`: the cells not starting in lowercase in the whole body it may
        grow to, too few to turn it back), else whether the columns are a table's."""
        total, lower = self.total, self.lower
        for x0, x1, filled, low in cells:
            touched = self._add_range(x0, x1, index)
            if touched is None:
                return None
            first, last = touched
            if first == last:
                total.insert(first, int(filled))
                lower.insert(first, int(low))
                continue
            cells_in = sum(total[first:last]) + filled
            lower_in = sum(lower[first:last]) + low
            self.prose -= sum(1 for k in range(first, last) if is_prose(total[k], lower[k]))
            prose = is_prose(cells_in, lower_in)
            self.prose += prose
            total[first:last] = [cells_in]
            lower[first:last] = [lower_in]
            if prose and 2 * lower_in >= upper:
                return None
        return self.prose == 0 and len(self.los) >= 2
