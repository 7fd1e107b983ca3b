"""The search between horizontal rules (`rule_regions`) finds what trying every region finds.

The references below are the search as it was before its necessary conditions (every region
given to the full test, `aligned_tables._ruled_region_table`) and the rules grouped by looking
through every group; random pages of rows, rules and ruled boxes must give the same tables, the
same rows used and the same verdict on the search bound, and every region the search gives to
the full test must be a table (the conditions are exactly the test's).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partita.partitioners.pdf import _aligned_tables as aligned_tables
from partita.partitioners.pdf import _rule_regions as rule_regions
from partita.partitioners.pdf._lines import BBox, Line
from partita.partitioners.pdf._tables import PageTable, Rule

_Group = tuple[tuple[float, float], list[float]]


def _grouped(rules: Sequence[Rule], page_height: float) -> list[_Group]:
    """The rules grouped by looking through every group, latest first."""
    groups: list[_Group] = []
    for x0, y, x1 in rules:
        for (gx0, gx1), ys in reversed(groups):
            if abs(gx0 - x0) <= 3.0 and abs(gx1 - x1) <= 3.0 and y - ys[-1] <= 0.4 * page_height:
                if y - ys[-1] > 1.5:
                    ys.append(y)
                break
        else:
            groups.append(((x0, x1), [y]))
    return [(extent, ys) for extent, ys in groups if len(ys) >= 2]


def _every_region(
    rows: Sequence[aligned_tables._Row],
    used: list[bool],
    rules: Sequence[Rule],
    page_height: float,
    ruled: Sequence[BBox],
    max_work: int,
) -> tuple[list[PageTable], bool]:
    """The tables between `rules`, each region given to the full test, and whether the search
    ended within `max_work`."""
    tables: list[PageTable] = []
    middles = sorted((row.middle, i) for i, row in enumerate(rows))
    keys = [m for m, _ in middles]
    work = 0
    for (x0, x1), ys in _grouped(rules, page_height):
        start = 0
        while start < len(ys) - 1:
            for end in range(len(ys) - 1, start, -1):
                box = (x0, ys[start], x1, ys[end])
                work += 1 + len(ruled)
                if any(
                    box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
                    for b in ruled
                ):
                    continue
                lo, hi = bisect_right(keys, ys[start]), bisect_left(keys, ys[end])
                inside = sorted(i for _, i in middles[lo:hi])
                work += len(inside)
                if work > max_work:
                    return tables, False
                table = aligned_tables._ruled_region_table(
                    rows, used, box, ys[start : end + 1], inside
                )
                if table is not None:
                    tables.append(table)
                    start = end
                    break
            else:
                start += 1
    return tables, True


_SHORT = ["A", "B2", "12", "3.5", "Total", "x y", "Mean value", "kg", "b", "c"]
_LONG_TEXTS = [" ", "Total:", "one two three four five six", " ".join(["word"] * 11)]


@st.composite
def _pages(draw: st.DrawFn) -> tuple[list[Line], list[Rule], list[BBox], float]:
    """Rows of cells in two to five columns (some cells shifted, wide enough to cross the next
    column, left out, long or starting in lowercase), rules of about one extent at most of the
    rows' edges (and a few elsewhere, of other extents), and a few ruled boxes."""
    width = draw(st.sampled_from([2, 3, 3, 4, 4, 5]))
    count = draw(st.integers(3, 14))
    lines: list[Line] = []
    for r in range(count):
        top = 20.0 + 12 * r + draw(st.sampled_from([0.0, 0.0, 0.0, 1.5]))
        bold = draw(st.booleans()) if r == 0 else draw(st.sampled_from([False] * 5 + [True]))
        right = -math.inf
        for c in range(width):
            if draw(st.sampled_from([False] * 12 + [True])):
                continue
            x0 = 50.0 + 70 * c + draw(st.sampled_from([0.0] * 8 + [4.0, 40.0]))
            x1 = x0 + draw(st.sampled_from([20.0] * 8 + [45.0, 100.0]))
            if x0 <= right:
                continue
            text = draw(st.sampled_from(_SHORT * 2 + _LONG_TEXTS))
            lines.append(Line(text, x0, top, x1, top + 8.0, 8.0, bold, len(text)))
            right = x1 + 1.0
    edges = [18.0 + 12 * r for r in range(count + 1)]
    ys = draw(st.lists(st.sampled_from(edges), min_size=2, max_size=count + 1, unique=True))
    ends = st.sampled_from([(40.0, 420.0)] * 6 + [(41.5, 418.0), (45.0, 423.5), (200.0, 420.0)])
    rules: list[Rule] = [(x0, y, x1) for y in ys for x0, x1 in [draw(ends)]]
    odd = st.tuples(
        st.sampled_from([40.0, 60.0]),
        st.sampled_from([24.0, 60.0, 61.0]),
        st.sampled_from([300.0, 420.0]),
    )
    rules += draw(st.lists(odd, max_size=2))
    if draw(st.sampled_from([True] * 4 + [False])):  # -- as `tables.horizontal_rules` gives them --
        rules.sort(key=lambda rule: (rule[1], rule[0]))
    boxes = st.tuples(
        st.sampled_from([0.0, 100.0]),
        st.sampled_from([0.0, 40.0, 90.0]),
        st.sampled_from([60.0, 500.0]),
        st.sampled_from([30.0, 70.0, 200.0]),
    )
    ruled = draw(st.lists(boxes, max_size=1))
    return lines, rules, ruled, draw(st.sampled_from([120.0, 800.0, 800.0]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pages(), st.sampled_from([3, 30, 300, 10**6]))
def test_the_search_finds_what_trying_every_region_finds(
    page: tuple[list[Line], list[Rule], list[BBox], float], max_work: int
) -> None:
    lines, rules, ruled, height = page
    rows = aligned_tables._rows(lines)
    used = [False] * len(rows)
    expected = _every_region(rows, used, rules, height, ruled, max_work)
    tried: list[PageTable | None] = []
    used_here = [False] * len(rows)

    def is_table(box: BBox, ys: Sequence[float], inside: list[int]) -> bool:
        tried.append(aligned_tables._ruled_region_table(rows, used_here, box, ys, inside))
        return tried[-1] is not None

    finished = rule_regions.search_rule_regions(
        [row.lines for row in rows],
        [row.middle for row in rows],
        used_here,
        rules,
        height,
        ruled,
        is_table,
        max_work,
    )
    assert ([t for t in tried if t is not None], finished) == expected
    assert used_here == used
    assert None not in tried


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([40.0, 41.5, 45.0, 200.0, 38.0, 43.0, 46.9, math.nan, math.inf]),
            st.sampled_from([10.0, 11.0, 50.0, 90.0, 400.0, math.nan]),
            st.sampled_from([420.0, 418.0, 300.0, 423.5, 416.0, 421.0, math.inf]),
        ),
        max_size=14,
    ),
    st.booleans(),
)
def test_rules_are_grouped_as_looking_through_every_group_does(
    rules: list[Rule], downward: bool
) -> None:
    if downward:
        rules.sort(key=lambda rule: (rule[1], rule[0]))
    found = rule_regions.rule_regions(rules, 200.0)
    assert repr(found) == repr(_grouped(rules, 200.0))  # -- repr: NaN equals NaN --


def test_regions_past_the_sweep_bound_are_not_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten rules around nine rows of five cells starting in lowercase: from each start rule the
    body grows to three rows (a prose column for good) before the region of one header row and
    two body rows is taken as a table."""
    lines = [
        Line(f"r{r}c{c}", 50.0 + 60 * c, 20.0 + 12 * r, 80.0 + 60 * c, 28.0 + 12 * r, 8.0, False, 4)
        for r in range(9)
        for c in range(5)
    ]
    rules = [(40.0, 18.0 + 12 * r, 420.0) for r in range(10)]
    found = aligned_tables.find_aligned_tables(lines, rules, 800.0)
    assert [t.text.split()[::5] for t in found.tables] == [
        ["r0c0", "r1c0", "r2c0"],
        ["r3c0", "r4c0", "r5c0"],
        ["r6c0", "r7c0", "r8c0"],
    ]
    assert not found.gave_up
    monkeypatch.setattr(rule_regions, "MAX_REGION_SWEEP", 10)
    found = aligned_tables.find_aligned_tables(lines, rules, 800.0)
    assert (found.tables, found.gave_up) == ([], True)
    assert found.rest == lines


@pytest.mark.parametrize(
    ("counts", "short"),
    [
        ([0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], True),  # -- three one-word cells --
        ([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0], False),  # -- median (5 + 6) / 2 --
        ([0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0], True),  # -- median (4 + 6) / 2 --
        ([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1], False),  # -- a long cell above the median --
        ([0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], True),  # -- a quarter of the cells long --
        ([0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], False),  # -- a third of them --
        ([0] * 12, False),  # -- no cells --
    ],
)
def test_cells_counted_by_words_are_short_as_the_full_test_says(
    counts: list[int], short: bool
) -> None:
    cells = [" ".join(["w"] * words) for words, n in enumerate(counts) for _ in range(n)]
    assert aligned_tables._region_cells_short(cells) is short
    assert rule_regions._short(counts) is short
