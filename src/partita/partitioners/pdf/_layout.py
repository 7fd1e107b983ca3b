"""Reading order: columns read one after another, full-width items where they stand.

A recursive XY-cut over boxes (lines and tables):

1. A *gutter* in a set of boxes is a vertical strip that no box crosses, with content on both
   sides at least `MIN_COLUMN_SHARE` of the page wide; a *column split* needs a gutter with two
   or more boxes on each side. When the set has column splits, each column is read in turn, left
   to right, each by the same rule.
2. Otherwise the set is cut into *bands* at every horizontal gap (a strip no box crosses).
   Consecutive bands whose union still has a gutter are merged first: without that, the places
   where both columns happen to start a paragraph at the same height would cut a column region
   into slices read across. A full-width heading, table or figure caption crosses every gutter,
   so it stays a band of its own and keeps its place between the column regions around it; so
   does a band that would add a column (a centred page number in the gutter), and a heading on
   one side only, set off by a gap and taller than the region's lines (see `_can_merge`).
3. A band without a gutter is read row by row, each row left to right; so is a region nested
   more than `MAX_CUT_DEPTH` cuts deep (only text drawn far off the page nests so deep).

Rotated pages and vertical (CJK tategaki) writing are not recognised: their text is read as
horizontal lines like any other.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from partita.partitioners.pdf._lines import BBox

__all__ = ["MAX_CUT_DEPTH", "MIN_COLUMN_SHARE", "reading_order", "union_intervals"]

MAX_CUT_DEPTH = 64
"""Cuts nested in cuts (columns in bands in columns...). A page allows about six (each column at
least `MIN_COLUMN_SHARE` of it wide), but text drawn far off the page allows thousands, each
level a pass over the boxes below it; a region nested deeper is read row by row."""

MIN_COLUMN_SHARE = 0.18
"""A column is at least this share of the page width (narrower side-by-side text is a table or a
label and its value, read across)."""

_Interval = tuple[float, float]


def reading_order(boxes: Sequence[BBox], page_width: float) -> list[int]:
    """Return the indexes of `boxes` in reading order (see the module docstring)."""
    out: list[int] = []
    min_side = MIN_COLUMN_SHARE * page_width
    # -- depth first, left to right, without recursion: (boxes, nesting depth) still to read --
    pending: list[tuple[list[int], int]] = [(list(range(len(boxes))), 0)]
    while pending:
        idxs, depth = pending.pop()
        if len(idxs) <= 1:
            out.extend(idxs)
            continue
        if depth >= MAX_CUT_DEPTH:
            out.extend(_rows_order(idxs, boxes))
            continue
        parts = _split_columns(idxs, boxes, min_side, min_items=2)
        if len(parts) == 1:
            parts = _merged_bands(idxs, boxes, min_side)
            if len(parts) == 1:
                out.extend(_rows_order(idxs, boxes))
                continue
        pending.extend((part, depth + 1) for part in reversed(parts))
    return out


def union_intervals(intervals: Sequence[_Interval]) -> list[_Interval]:
    """The union of `intervals` as disjoint intervals, left to right."""
    merged: list[_Interval] = []
    for lo, hi in sorted(intervals):
        if merged and lo <= merged[-1][1]:
            if hi > merged[-1][1]:
                merged[-1] = (merged[-1][0], hi)
        else:
            merged.append((lo, hi))
    return merged


def _gutters(union: Sequence[_Interval], min_side: float) -> list[_Interval]:
    if len(union) < 2:
        return []
    left, right = union[0][0], union[-1][1]
    return [
        (union[i][1], union[i + 1][0])
        for i in range(len(union) - 1)
        if union[i][1] - left >= min_side and right - union[i + 1][0] >= min_side
    ]


def _split_columns(
    idxs: list[int], boxes: Sequence[BBox], min_side: float, *, min_items: int
) -> list[list[int]]:
    gutters = _gutters(union_intervals([(boxes[i][0], boxes[i][2]) for i in idxs]), min_side)
    if not gutters:
        return [idxs]
    # -- a box's column: the gutters it starts after, found by bisection (a mutated page can
    # -- have thousands of gutters and tens of thousands of boxes) --
    gutter_ends = [g[1] for g in gutters]
    columns: list[list[int]] = [[] for _ in range(len(gutters) + 1)]
    for i in idxs:
        columns[bisect_right(gutter_ends, boxes[i][0])].append(i)
    columns = [c for c in columns if c]
    if any(len(c) < min_items for c in columns):
        return [idxs]
    return columns


def _bands(idxs: list[int], boxes: Sequence[BBox]) -> list[list[int]]:
    ordered = sorted(idxs, key=lambda i: boxes[i][1])
    bands: list[list[int]] = []
    bottom = float("-inf")
    for i in ordered:
        top, low = boxes[i][1], boxes[i][3]
        if bands and top < bottom:
            bands[-1].append(i)
            bottom = max(bottom, low)
        else:
            bands.append([i])
            bottom = low
    return bands


def _merged_bands(idxs: list[int], boxes: Sequence[BBox], min_side: float) -> list[list[int]]:
    groups: list[list[list[int]]] = []
    group_union: list[_Interval] = []
    for band in _bands(idxs, boxes):
        band_union = union_intervals([(boxes[i][0], boxes[i][2]) for i in band])
        if groups and _can_merge(groups[-1], group_union, band, band_union, boxes, min_side):
            groups[-1].append(band)
            group_union = union_intervals([*group_union, *band_union])
            continue
        groups.append([band])
        group_union = band_union
    out: list[list[int]] = []
    for group in groups:
        flat = [i for band in group for i in band]
        if len(group) > 1 and len(_split_columns(flat, boxes, min_side, min_items=2)) > 1:
            out.append(flat)
        else:
            out.extend(group)
    return out


def _can_merge(
    group: list[list[int]],
    group_union: list[_Interval],
    band: list[int],
    band_union: list[_Interval],
    boxes: Sequence[BBox],
    min_side: float,
) -> bool:
    """True when `band` continues the column region `group`.

    The merged union must still have a gutter, and, once the group has columns, no more of them
    (a centred page number in the gutter is not a column). A band on one side only that is set
    off by a gap and taller than the group's lines is a heading between column regions.
    """
    merged = union_intervals([*group_union, *band_union])
    if not _gutters(merged, min_side):
        return False
    if not _gutters(group_union, min_side):
        return True
    if len(merged) > len(group_union):
        return False
    if len(band_union) > 1:
        return True
    height = max(boxes[i][3] - boxes[i][1] for i in band)
    heights = sorted(boxes[i][3] - boxes[i][1] for b in group for i in b)
    gap = min(boxes[i][1] for i in band) - max(boxes[i][3] for i in group[-1])
    return not (gap > 0.8 * height and height > 1.15 * heights[len(heights) // 2])


def _rows_order(idxs: list[int], boxes: Sequence[BBox]) -> list[int]:
    ordered = sorted(idxs, key=lambda i: boxes[i][1])
    out: list[int] = []
    row: list[int] = []
    limit = float("-inf")
    for i in ordered:
        top, bottom = boxes[i][1], boxes[i][3]
        if row and top > limit:
            out.extend(sorted(row, key=lambda j: boxes[j][0]))
            row = []
        if not row:
            limit = top + 0.5 * (bottom - top)
        row.append(i)
    out.extend(sorted(row, key=lambda j: boxes[j][0]))
    return out
