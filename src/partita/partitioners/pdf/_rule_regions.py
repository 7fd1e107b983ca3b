"""Regions between horizontal rules, and the search for the tables among them.

`_aligned_tables` reads a table set between horizontal rules (booktabs); this module decides
which regions it tries, in what order, and within what bound. What makes a region a table is
`_aligned_tables`' test, given to `search_rule_regions` as `is_table`.

- **Groups of rules.** Rules of one extent (both ends within `RULE_SLACK` pt of the group's
  first rule), each within 40% of the page height of the one before, form a group (a rule
  within 1.5 pt of the one before, a double rule, counts once); a rule joins the latest group
  it fits. Groups of two rules or more give regions: the span between two of their rules.
- **The search.** In each group, from each rule on, the regions to each later rule are tried,
  longest first; the first one that is a table is taken, and the search goes on from its last
  rule; when none is, from the next rule. Trying a region counts one, plus one for each table
  found by the ruling finder (checked for overlap), plus one for each row inside it: beyond
  `max_work` (`_aligned_tables.MAX_REGION_WORK`) the page's remaining regions are not searched.
- **Each region first meets the test's necessary conditions in constant time.** `is_table`
  reads every line and cell of a region; on a page of N rules with a grid between them, N**2
  regions cost that, each (a 300 x 400 grid of lowercase letters: 128 s, for 11 tables). So a
  region reaches `is_table` only when it has two rows or more, none used by a table already and
  none with a line beyond the rules' extent; a header (rows above its second rule) of at most
  `MAX_HEAD_ROWS` rows of short cells; at least half of its body rows with two non-empty cells,
  and short cells (`REGION_MEDIAN_WORDS`, `REGION_LONG_WORDS`, `REGION_LONG_SHARE`); and body
  columns (`_aligned_tables._columns`) with no row holding two lines in one, at least two, none of
  them prose (`_growing_columns.is_prose`). The rows and cells are counted once per page (prefix
  sums over the rows in height order); the body's columns are kept as it grows row by row from
  the start rule's next rule (`_growing_columns.BodyColumns`), once per start rule, down to the
  lowest region tried, and not further than a row with two lines in one column or a prose
  column that no later row can turn back (`_BodySweep`). These are the conditions `is_table`
  checks, so each region it gets is a table: the search is linear in the regions tried and the
  lines of the bodies grown, at most `MAX_REGION_SWEEP` lines per page, beyond which the page's
  remaining regions are not searched either.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate, pairwise

from partita.partitioners.pdf._growing_columns import BodyColumns, Cell
from partita.partitioners.pdf._lines import BBox, Line
from partita.partitioners.pdf._tables import Rule

__all__ = [
    "MAX_HEAD_ROWS",
    "MAX_REGION_SWEEP",
    "REGION_LONG_SHARE",
    "REGION_LONG_WORDS",
    "REGION_MEDIAN_WORDS",
    "RULE_SLACK",
    "rule_regions",
    "search_rule_regions",
]

RULE_SLACK = 3.0
"""Points by which the ends of the rules of one group may differ, and by which a line may pass
them."""
MAX_HEAD_ROWS = 3
"""Rows a table between rules may have above its second rule (its header)."""
REGION_MEDIAN_WORDS = 5
"""A table between rules has cells of at most this many words (median)..."""
REGION_LONG_WORDS = 10
"""... and at most `REGION_LONG_SHARE` of them longer than this many words."""
REGION_LONG_SHARE = 0.25

MAX_REGION_SWEEP = 1_000_000
"""Lines added to the columns of the bodies grown (`_BodySweep`), per page: about 2 s of CPU.
A body is grown once per start rule, so this costs at most the page's lines times its rules
(less where the work bound stops the search first); the corpus's pages and those of 27 annual
reports cost at most 366. Beyond it the page's remaining regions are not searched, as beyond
`_aligned_tables.MAX_REGION_WORK`, and the page says so."""

_MAX_RULE_GAP_SHARE = 0.4
_DOUBLE_RULE = 1.5
_LONG = REGION_LONG_WORDS + 1
"""Word counts are counted up to this bucket, which holds every longer cell."""

_Interval = tuple[float, float]


def rule_regions(rules: Sequence[Rule], page_height: float) -> list[tuple[_Interval, list[float]]]:
    """Return the groups of `rules` (see the module docstring) of two rules or more, each as its
    extent and its rules' heights (increasing), in the order the groups were started.

    A rule joins the latest group it fits. The groups are filed by their extent in squares of
    2 * `RULE_SLACK` pt, so only the nine squares around a rule's ends are looked in; when the
    rules come top to bottom (as `_tables.horizontal_rules` gives them), a group they have left
    more than 40% of the page height behind can take no more rules and leaves its square."""
    groups: list[tuple[_Interval, list[float]]] = []
    squares: dict[tuple[int, int], list[int]] = {}
    heights = [y for x0, y, x1 in rules if _finite(x0, y, x1)]
    downward = all(a <= b for a, b in pairwise(heights))
    side = 2 * RULE_SLACK
    for x0, y, x1 in rules:
        if not _finite(x0, y, x1):  # -- fits no group, and no rule fits it --
            groups.append(((x0, x1), [y]))
            continue
        k0, k1 = math.floor(x0 / side), math.floor(x1 / side)
        found = -1
        for key in [(a, b) for a in (k0 - 1, k0, k0 + 1) for b in (k1 - 1, k1, k1 + 1)]:
            filed = squares.get(key)
            if not filed:
                continue
            if downward:
                filed[:] = [g for g in filed if y - groups[g][1][-1] <= _gap(page_height)]
            for g in reversed(filed):
                if g <= found:
                    break
                if _fits(groups[g], x0, y, x1, page_height):
                    found = g
                    break
        if found < 0:
            squares.setdefault((k0, k1), []).append(len(groups))
            groups.append(((x0, x1), [y]))
        elif y - groups[found][1][-1] > _DOUBLE_RULE:
            groups[found][1].append(y)
    return [(extent, ys) for extent, ys in groups if len(ys) >= 2]


def _finite(*values: float) -> bool:
    return all(math.isfinite(v) for v in values)


def _gap(page_height: float) -> float:
    return _MAX_RULE_GAP_SHARE * page_height


def _fits(
    group: tuple[_Interval, list[float]], x0: float, y: float, x1: float, height: float
) -> bool:
    (gx0, gx1), ys = group
    return (
        abs(gx0 - x0) <= RULE_SLACK
        and abs(gx1 - x1) <= RULE_SLACK
        and y - ys[-1] <= _MAX_RULE_GAP_SHARE * height
    )


def search_rule_regions(
    rows: Sequence[Sequence[Line]],
    middles: Sequence[float],
    used: Sequence[bool],
    rules: Sequence[Rule],
    page_height: float,
    ruled: Sequence[BBox],
    is_table: Callable[[BBox, Sequence[float], list[int]], bool],
    max_work: int,
) -> bool:
    """Try the regions between `rules` (see the module docstring) on the page's `rows` (their
    lines, and the middle of each row's height), passing each that may be a table to
    `is_table(box, ys, inside)`: the region's box, its rules' heights and the indexes of the rows
    inside it (their middle strictly between its first and last rule), in page order. A region
    overlapping a box of `ruled` is not tried. `is_table` returns whether it took the region as
    a table, and then marks its rows in `used`, which this search reads. Return False when the
    search stopped at `max_work` or `MAX_REGION_SWEEP`."""
    order = sorted((middle, i) for i, middle in enumerate(middles))
    keys = [m for m, _ in order]
    counts: _RowCounts | None = None
    work = 0
    for (x0, x1), ys in rule_regions(rules, page_height):
        start = 0
        while start < len(ys) - 1:
            lo = bisect_right(keys, ys[start])
            trials: _StartTrials | None = None
            for end in range(len(ys) - 1, start, -1):
                box = (x0, ys[start], x1, ys[end])
                work += 1 + len(ruled)
                if any(_overlaps(box, other) for other in ruled):
                    continue
                hi = bisect_left(keys, ys[end])
                work += hi - lo
                if work > max_work or (counts is not None and counts.swept > MAX_REGION_SWEEP):
                    return False
                if counts is None:
                    counts = _RowCounts([rows[i] for _, i in order], [used[i] for _, i in order])
                if trials is None:
                    body = bisect_left(keys, ys[start + 1])
                    trials = _StartTrials(counts, (x0 - RULE_SLACK, x1 + RULE_SLACK), lo, body)
                if not trials.may_be_table(hi, head=end > start + 1):
                    continue
                if is_table(box, ys[start : end + 1], sorted(i for _, i in order[lo:hi])):
                    counts.mark_used(lo, hi)
                    start = end
                    break
            else:
                start += 1
    return True


def _overlaps(a: BBox, b: BBox) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class _RowCounts:
    """What the necessary conditions read of the page's rows, in height order (a region's rows,
    its header's and its body's are each a range of positions): each row's cells, its lines'
    leftmost and rightmost ends, and prefix counts of the rows with two non-empty cells, of the
    non-empty cells by word count, and of those not starting in lowercase.

    Counting a row's lines as its cells is right when the body's columns hold no row's two
    lines (each line is then one cell); a region whose columns do is no table anyway. A line
    with its ends out of order or not finite (which the page's lines never have) would make it
    wrong: then `exact` is False and only the conditions that do not read the columns are used.
    """

    __slots__ = ("cells", "exact", "multi", "rows", "swept", "upper", "used", "words", "x0", "x1")

    def __init__(self, rows: Sequence[Sequence[Line]], used: Sequence[bool]) -> None:
        self.rows = rows
        self.used = list(used)
        self.x0 = [min((ln.x0 for ln in row if ln.x0 == ln.x0), default=math.inf) for row in rows]
        self.x1 = [max((ln.x1 for ln in row if ln.x1 == ln.x1), default=-math.inf) for row in rows]
        self.exact = all(
            math.isfinite(ln.x0 + ln.x1) and ln.x0 <= ln.x1 for row in rows for ln in row
        )
        self.cells: list[list[Cell]] = []
        multi = [0]
        upper = [0]
        words = [0] * (_LONG + 1)
        for row in rows:
            cells: list[Cell] = []
            histogram = words[-_LONG - 1 :]
            for ln in row:
                text = ln.text.strip()
                lower = bool(text) and text[0].islower()
                cells.append((ln.x0, ln.x1, bool(text), lower))
                if text:
                    histogram[min(len(text.split()), _LONG)] += 1
            filled = sum(1 for cell in cells if cell[2])
            self.cells.append(cells)
            multi.append(multi[-1] + (filled >= 2))
            upper.append(upper[-1] + sum(1 for cell in cells if cell[2] and not cell[3]))
            words.extend(histogram)
        self.multi = multi
        self.upper = upper
        self.words = words
        self.swept = 0
        """Lines added to the columns of candidate bodies so far."""

    def first_blocked(self, lo: int, hi: int, bounds: _Interval) -> int:
        """The first position from `lo` on, before `hi`, of a row used by a table or with a line
        beyond `bounds`; `hi` when there is none."""
        left, right = bounds
        used, x0, x1 = self.used, self.x0, self.x1
        for p in range(lo, hi):
            if used[p] or x0[p] < left or x1[p] > right:
                return p
        return hi

    def mark_used(self, lo: int, hi: int) -> None:
        """Mark the rows at positions `lo` to `hi` (excluded) used by a table."""
        self.used[lo:hi] = [True] * (hi - lo)

    def cells_are_short(self, lo: int, hi: int) -> bool:
        """True when the non-empty cells of the rows at `lo` to `hi` are short (the test
        `_aligned_tables._short_cells` makes of a region's body cells)."""
        size = _LONG + 1
        a, b = lo * size, hi * size
        words = self.words
        return _short([words[b + v] - words[a + v] for v in range(size)])

    def half_multi(self, lo: int, hi: int) -> bool:
        """True when at least half of the rows at `lo` to `hi` have two non-empty cells."""
        return (self.multi[hi] - self.multi[lo]) * 2 >= hi - lo

    def head_is_short(self, lo: int, hi: int) -> bool:
        """True when the rows at `lo` to `hi` (a region's header) are at most `MAX_HEAD_ROWS`,
        and, when there are any, their lines' texts are short cells."""
        if hi - lo > MAX_HEAD_ROWS:
            return False
        if hi == lo:
            return True
        histogram = [0] * (_LONG + 1)
        for row in self.rows[lo:hi]:
            for ln in row:
                histogram[min(len(ln.text.split()), _LONG)] += 1
        return _short(histogram)


def _short(histogram: Sequence[int]) -> bool:
    """`_aligned_tables._short_cells` with a region's parameters, of cells counted by their
    words (the last count holding every cell longer than `REGION_LONG_WORDS`: any of them
    above the median puts it above `REGION_MEDIAN_WORDS` all the same)."""
    n = sum(histogram)
    if n == 0 or not histogram[_LONG] <= REGION_LONG_SHARE * n:
        return False
    cumulative = list(accumulate(histogram))

    def at(index: int) -> int:
        return bisect_right(cumulative, index)

    if n % 2:
        return at(n // 2) <= REGION_MEDIAN_WORDS
    return (at(n // 2 - 1) + at(n // 2)) / 2 <= REGION_MEDIAN_WORDS


class _StartTrials:
    """The regions tried from one start rule: they share their first row (`lo`), their header
    (the rows before `body`, when a region has three rules or more) and their body's first row,
    and each is shorter than the one before."""

    __slots__ = ("body", "bounds", "counts", "head_ok", "limit", "lo", "sweep")

    def __init__(self, counts: _RowCounts, bounds: _Interval, lo: int, body: int) -> None:
        self.counts = counts
        self.bounds = bounds
        self.lo = lo
        self.body = body
        self.limit = -1
        self.head_ok: bool | None = None
        self.sweep: _BodySweep | None = None

    def may_be_table(self, hi: int, *, head: bool) -> bool:
        """False when the region whose rows end before `hi` cannot be a table; `head` tells
        whether it has three rules or more (the rows above its second rule are its header)."""
        counts, lo = self.counts, self.lo
        if hi - lo < 2:
            return False
        if self.limit < 0:  # -- the first region tried from this rule is the longest --
            self.limit = counts.first_blocked(lo, hi, self.bounds)
        if hi > self.limit:
            return False
        first = lo
        if head:
            if self.head_ok is None:
                self.head_ok = counts.head_is_short(lo, self.body)
            if not self.head_ok:
                return False
            first = self.body
        if first >= hi:
            return False
        if not counts.exact:
            return True
        if not counts.half_multi(first, hi) or not counts.cells_are_short(first, hi):
            return False
        if not head:
            return _BodySweep(counts, first, hi).aligned(hi)
        if self.sweep is None:
            self.sweep = _BodySweep(counts, first, hi)
        return self.sweep.aligned(hi)


class _BodySweep:
    """A body growing from the row at `first`, at most to `last` (excluded), in height order,
    with whether its columns are those of a table (no row with two lines in one, two or more,
    no prose) at each size it took. It stops growing at a row with two lines in one column (the
    body stays so), or at a prose column that the rows left before `last` cannot turn back, not
    having enough cells that do not start in lowercase."""

    __slots__ = ("columns", "counts", "dead", "first", "grown", "upper")

    def __init__(self, counts: _RowCounts, first: int, last: int) -> None:
        self.counts = counts
        self.first = first
        self.columns = BodyColumns()
        self.grown: list[bool] = []
        self.dead = last + 1
        self.upper = counts.upper[last] - counts.upper[first]

    def aligned(self, hi: int) -> bool:
        """True when the body of the rows from `first` to `hi` (excluded) has a table's columns."""
        if hi >= self.dead:
            return False
        counts, grown = self.counts, self.grown
        while self.first + len(grown) < hi:
            p = self.first + len(grown)
            cells = counts.cells[p]
            counts.swept += len(cells)
            state = self.columns.add(p, cells, self.upper)
            if state is None:
                self.dead = p + 1
                return False
            grown.append(state)
        return grown[hi - self.first - 1]
