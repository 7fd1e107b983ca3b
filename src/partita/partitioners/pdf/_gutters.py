"""Narrow column gutters: where printed lines are cut although the gap is under one em.

Columns set with a gutter of about one em (the Federal Register: 9-pt type, 9-pt gutters) give
gaps no wider than a loose word space of justified text, so the gap width alone cannot tell
them apart. A gutter is consistent down the page, a word space is not:

- a *wide gap* in a printed line is at least `GUTTER_MIN_EM` em and at least 1.5 times the
  line's usual (lower median) gap between words; in a justified or ragged line of one column
  every word space is about the same, so there is none;
- a gutter is an x-band kept free by consecutive lines (each line either has a gap across the
  band, narrowing it to the overlap, or does not reach it), in which at least
  `GUTTER_MIN_LINES` lines have a wide gap; a line crossing the band with a glyph (a full-width
  heading, the next paragraph of one-column text) ends it;
- every line of a gutter's run whose gap across the band is at least `GUTTER_MIN_EM` em and
  either 1.5 times its usual word gap, its only gap, or about as wide as the run's narrowest
  wide gap (loose justified lines on both sides) is cut there; a centred heading or a
  monospaced line whose word space happens to fall on the band is not.

`gutter_cuts` works on the characters of each printed line (sorted left to right) and returns,
for each, the positions at which `_lines` starts a new line. Its work is linear in the lines: at
most `MAX_ACTIVE_RUNS` runs are followed at once (the oldest end when more start), and the look
back above ended runs stops after `MAX_LOOK_BACK` lines per page; real pages reach neither.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["GUTTER_MIN_EM", "GUTTER_MIN_LINES", "MAX_ACTIVE_RUNS", "MAX_LOOK_BACK", "gutter_cuts"]

GUTTER_MIN_EM = 0.6
"""A gap narrower than this many em is never a gutter."""

GUTTER_MIN_LINES = 4
"""A gutter has a wide gap on at least this many lines of its run."""

MAX_ACTIVE_RUNS = 256
"""Runs followed at once. A page has a few columns and at most a few dozen table gaps; lines far
apart side by side (text drawn off the page) could otherwise keep thousands of runs open, each
tested against every later line. Beyond it the oldest runs end there."""

MAX_LOOK_BACK = 2_000_000
"""Lines looked at above the runs that end, per page (a run's look back usually stops at the
heading above its columns; lines beside the band, off to one side, are passed over)."""

_MIN_BAND_EM = 0.2
"""The band a gutter keeps free is at least this many em wide (a line's gap overlapping it by
less ends the run)."""

_WIDE_RATIO = 1.5
"""A wide gap (evidence of a gutter) is at least this many times the line's usual word gap."""

_CUT_RATIO = 1.5
"""A line in a gutter's run is cut at a gap at least this many times its usual word gap (or at
its only gap): not at a word space of a monospaced or justified line that falls on the band."""

_NARROWEST_SHARE = 0.9
"""A line in a gutter's run is also cut at a gap at least this share of the run's narrowest
wide gap: a loose justified line on both sides of the gutter, whose word spaces are as wide as
the gutter."""

_Gap = tuple[float, float, int, float, bool, bool]
"""(left x, right x, index of the glyph after it, width in em, cut, wide) of one gap in a
line."""

_Row = tuple[float, float, float, list[_Gap]]
"""(x0, x1, largest font size, gaps) of one printed line."""


class _Run:
    __slots__ = ("cuts", "first", "hi", "lo", "narrowest", "wide")

    def __init__(self, first: int, lo: float, hi: float) -> None:
        self.first = first
        self.lo = lo
        self.hi = hi
        self.wide = 0
        self.narrowest = float("inf")
        """The narrowest wide gap of the run, in em."""
        self.cuts: list[tuple[int, int, float, bool]] = []
        """(line, glyph index, gap width in em, cut by ratio) of the gaps across the band."""

    def add(self, i: int, gap: _Gap) -> None:
        _lo, _hi, index, width, cut, wide = gap
        if wide:
            self.wide += 1
            self.narrowest = min(self.narrowest, width)
        if width >= GUTTER_MIN_EM:
            self.cuts.append((i, index, width, cut))


def gutter_cuts(
    rows: Sequence[Sequence[Mapping[str, Any]]], word_gap_em: float
) -> list[frozenset[int]]:
    """Return, for each printed line in `rows` (top to bottom, characters left to right), the
    indexes of the characters before which a narrow gutter cuts it (usually none)."""
    measured = [_row_gaps(row, word_gap_em) for row in rows]
    if not any(g[5] for _x0, _x1, _size, row_gaps in measured for g in row_gaps):
        return [frozenset()] * len(rows)
    cuts: list[set[int]] = [set() for _ in rows]
    steps = [0]
    active: list[_Run] = []
    for i, (x0, x1, size, row_gaps) in enumerate(measured):
        min_band = _MIN_BAND_EM * size
        used: set[int] = set()
        kept: list[_Run] = []
        for run in active:
            if x1 <= run.lo or x0 >= run.hi:
                kept.append(run)
                continue
            best = _across(row_gaps, run, min_band)
            if best is None:
                _finish(run, measured, cuts, steps)
                continue
            gap = row_gaps[best]
            run.lo, run.hi = max(run.lo, gap[0]), min(run.hi, gap[1])
            used.add(best)
            run.add(i, gap)
            kept.append(run)
        for k, gap in enumerate(row_gaps):
            if gap[5] and k not in used:
                run = _Run(i, gap[0], gap[1])
                run.add(i, gap)
                kept.append(run)
        if len(kept) > MAX_ACTIVE_RUNS:  # -- the oldest end here (linear work per line) --
            for run in kept[:-MAX_ACTIVE_RUNS]:
                _finish(run, measured, cuts, steps)
            kept = kept[-MAX_ACTIVE_RUNS:]
        active = kept
    for run in active:
        _finish(run, measured, cuts, steps)
    return [frozenset(c) for c in cuts]


def _finish(run: _Run, measured: list[_Row], cuts: list[set[int]], steps: list[int]) -> None:
    """Add the cuts of a run that ended (when it is a gutter); `steps` counts the lines looked
    at above runs, at most `MAX_LOOK_BACK` per page."""
    if run.wide < GUTTER_MIN_LINES:
        return
    # -- the lines above the first wide gap whose gaps keep the band free belong to the run --
    for i in range(run.first - 1, -1, -1):
        steps[0] += 1
        if steps[0] > MAX_LOOK_BACK:
            break
        x0, x1, size, row_gaps = measured[i]
        if x1 <= run.lo or x0 >= run.hi:
            continue
        best = _across(row_gaps, run, _MIN_BAND_EM * size)
        if best is None:
            break
        run.add(i, row_gaps[best])
    for i, index, width, cut in run.cuts:
        if cut or width >= _NARROWEST_SHARE * run.narrowest:
            cuts[i].add(index)


def _across(row_gaps: list[_Gap], run: _Run, min_band: float) -> int | None:
    best: int | None = None
    best_overlap = 0.0
    for k, (lo, hi, _index, _width, _cut, _wide) in enumerate(row_gaps):
        overlap = min(hi, run.hi) - max(lo, run.lo)
        if overlap > best_overlap and overlap >= min_band:
            best, best_overlap = k, overlap
    return best


def _row_gaps(row: Sequence[Mapping[str, Any]], word_gap_em: float) -> _Row:
    """The extent and font size of one printed line and the gaps between its words, each
    marked as a place to cut in a gutter's run or not and as wide (evidence of a gutter) or
    not."""
    raw: list[tuple[float, float, int, float]] = []
    prev: Mapping[str, Any] | None = None
    x0 = x1 = line_size = 0.0
    space = False
    prev_x1 = prev_size = 0.0
    for index, char in enumerate(row):
        text = char["text"]
        if not text or text.isspace():
            space = True
            continue
        char_x0 = char["x0"]
        char_x1 = char["x1"]
        char_size = char["size"]
        if prev is None:
            x0 = char_x0
        else:
            size = char_size if char_size > prev_size else prev_size
            gap = char_x0 - prev_x1
            if size > 0 and (gap > word_gap_em * size or (space and gap > 0)):
                raw.append((prev_x1, char_x0, index, gap / size))
        space = False
        prev = char
        prev_x1 = char_x1
        prev_size = char_size
        if char_x1 > x1:
            x1 = char_x1
        if char_size > line_size:
            line_size = char_size
    if not raw:
        return x0, x1, line_size, []
    widths = sorted(g[3] for g in raw)
    usual = widths[(len(widths) - 1) // 2]
    return (
        x0,
        x1,
        line_size,
        [
            (
                lo,
                hi,
                index,
                width,
                width >= GUTTER_MIN_EM and (len(raw) == 1 or width >= _CUT_RATIO * usual),
                width >= GUTTER_MIN_EM and width >= _WIDE_RATIO * usual,
            )
            for lo, hi, index, width in raw
        ],
    )
