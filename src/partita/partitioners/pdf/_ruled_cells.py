"""pdfplumber's table finder (the "lines" strategy) in near-linear time, with bounds.

pdfplumber's `TableFinder` turns a page's ruling edges into intersections, cells and tables in
time quadratic in the intersections (every point scans every later point for the ones below and
to its right; grouping cells removes them from a list one by one): a ruled grid of 300 x 400
cells, 120,000 intersections, never finishes. `find_cell_groups` computes the same tables:

- **edges**: pdfplumber's own (`TableFinder.get_edges`: snapped, joined, filtered);
- **intersections**: each vertical edge meets the horizontal edges within its extent, found by
  bisection among the horizontal edges sorted by (top, x0), in pdfplumber's order, so the
  points, and the edges listed at each, come out in the same order;
- **cells**: for each point, in sorted order, the smallest cell it is the top-left corner of:
  the first point below it on a shared vertical edge, then the first point right of it on a
  shared horizontal edge, whose bottom-right corner exists and connects to both, as pdfplumber
  tries them (the points below and to the right come from per-column and per-row lists, and
  which points connect is remembered);
- **tables**: cells sharing a corner, transitively (pdfplumber's repeated passes compute exactly
  these connected components, found here by union-find), each listing its cells in the order
  pdfplumber's passes add them, ordered by their top-left cell, tables of one cell dropped.

It gives up on a page, returning None, when the page has more than `MAX_TABLE_EDGES` edges,
more than `MAX_TABLE_INTERSECTIONS` intersections, or needs more than `MAX_CELL_TRIALS` trials
of a corner pair to find its cells (or cell visits to order them); the page's text is then read
without ruled tables, and the page warns.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from typing import Any

from pdfplumber.table import TableFinder, TableSettings

from partita.partitioners.pdf._lines import BBox

__all__ = [
    "MAX_CELL_TRIALS",
    "MAX_TABLE_EDGES",
    "MAX_TABLE_INTERSECTIONS",
    "find_cell_groups",
    "group_bbox",
]

MAX_TABLE_EDGES = 5_000
"""Ruling edges of a page, after pdfplumber snaps and joins them (the corpus's pages have at most
a few hundred; a 100 x 100 grid has 202)."""

MAX_TABLE_INTERSECTIONS = 40_000
"""Points where the edges meet (a 200 x 200 grid has 40,401)."""

MAX_CELL_TRIALS = 2_000_000
"""(point below, point right) pairs tried while looking for cells (a full grid needs one per
point)."""

_Point = tuple[float, float]


class _Vertex:
    __slots__ = ("h", "v")

    def __init__(self) -> None:
        self.v: list[Mapping[str, Any]] = []
        self.h: list[Mapping[str, Any]] = []


def find_cell_groups(page: Any, settings: dict[str, Any] | None = None) -> list[list[BBox]] | None:
    """Return the tables pdfplumber's `page.find_tables(settings)` finds, each as its cells, or
    None when the page exceeds one of the bounds (see the module docstring)."""
    finder = TableFinder.__new__(TableFinder)  # -- only its edges: the rest is done below --
    finder.page = page
    finder.settings = TableSettings.resolve(settings)
    edges = finder.get_edges()
    if len(edges) > MAX_TABLE_EDGES:
        return None
    resolved = finder.settings
    points = _intersections(
        edges, resolved.intersection_x_tolerance, resolved.intersection_y_tolerance
    )
    if points is None:
        return None
    cells = _cells(points)
    return None if cells is None else _groups(cells)


def group_bbox(cells: Sequence[BBox]) -> BBox:
    """The box around `cells` (pdfplumber's `Table.bbox`)."""
    return (
        min(c[0] for c in cells),
        min(c[1] for c in cells),
        max(c[2] for c in cells),
        max(c[3] for c in cells),
    )


def _intersections(
    edges: Sequence[Mapping[str, Any]], x_tolerance: float, y_tolerance: float
) -> dict[_Point, _Vertex] | None:
    """pdfplumber's `edges_to_intersections`, or None beyond `MAX_TABLE_INTERSECTIONS`."""
    vertical = sorted(
        (e for e in edges if e["orientation"] == "v"), key=lambda e: (e["x0"], e["top"])
    )
    horizontal = sorted(
        (e for e in edges if e["orientation"] == "h"), key=lambda e: (e["top"], e["x0"])
    )
    tops = [h["top"] for h in horizontal]
    points: dict[_Point, _Vertex] = {}
    for v in vertical:
        x, v_top, v_bottom = v["x0"], v["top"], v["bottom"]
        # -- h["top"] >= v_top - y_tolerance and h["top"] <= v_bottom + y_tolerance --
        start = bisect_left(tops, v_top - y_tolerance)
        end = bisect_right(tops, v_bottom + y_tolerance)
        for h in horizontal[start:end]:
            if (
                v_top <= h["top"] + y_tolerance
                and v_bottom >= h["top"] - y_tolerance
                and x >= h["x0"] - x_tolerance
                and x <= h["x1"] + x_tolerance
            ):
                vertex = points.get((x, h["top"]))
                if vertex is None:
                    if len(points) >= MAX_TABLE_INTERSECTIONS:
                        return None
                    vertex = points[(x, h["top"])] = _Vertex()
                vertex.v.append(v)
                vertex.h.append(h)
    return points


def _cells(points: dict[_Point, _Vertex]) -> list[BBox] | None:
    """pdfplumber's `intersections_to_cells`, or None beyond `MAX_CELL_TRIALS`."""
    v_sets = {p: {_bbox(e) for e in vertex.v} for p, vertex in points.items()}
    h_sets = {p: {_bbox(e) for e in vertex.h} for p, vertex in points.items()}

    def connects(a: _Point, b: _Point) -> bool:
        if a[0] == b[0] and not v_sets[a].isdisjoint(v_sets[b]):
            return True
        return a[1] == b[1] and not h_sets[a].isdisjoint(h_sets[b])

    ordered = sorted(points)
    columns: dict[float, list[_Point]] = {}
    rows: dict[float, list[_Point]] = {}
    for p in ordered:  # -- each list sorted, as `ordered` is --
        columns.setdefault(p[0], []).append(p)
        rows.setdefault(p[1], []).append(p)
    column_at = {p: i for column in columns.values() for i, p in enumerate(column)}
    row_at = {p: i for row in rows.values() for i, p in enumerate(row)}
    cells: list[BBox] = []
    trials = 0
    for pt in ordered:
        below = columns[pt[0]][column_at[pt] + 1 :]
        right: list[_Point] | None = None  # -- the points right of `pt` it connects to --
        found: BBox | None = None
        for below_pt in below:
            if not connects(pt, below_pt):
                continue
            if right is None:
                right = [r for r in rows[pt[1]][row_at[pt] + 1 :] if connects(pt, r)]
            for right_pt in right:
                trials += 1
                if trials > MAX_CELL_TRIALS:
                    return None
                corner = (right_pt[0], below_pt[1])
                if corner in points and connects(corner, right_pt) and connects(corner, below_pt):
                    found = (pt[0], pt[1], corner[0], corner[1])
                    break
            if found is not None:
                break
        if found is not None:
            cells.append(found)
    return cells


def _groups(cells: list[BBox]) -> list[list[BBox]] | None:
    """pdfplumber's `cells_to_tables`: the cells sharing corners, transitively, each group's
    cells in the order pdfplumber's passes add them; None beyond `MAX_CELL_TRIALS` visits."""
    parent = list(range(len(cells)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[_Point, int] = {}
    for i, cell in enumerate(cells):
        for corner in _corners(cell):
            j = owner.setdefault(corner, i)
            if j != i:
                a, b = root(i), root(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    components: dict[int, list[BBox]] = {}
    for i, cell in enumerate(cells):
        components.setdefault(root(i), []).append(cell)
    tables: list[list[BBox]] = []
    visits = 0
    for component in components.values():
        # -- pdfplumber's order: passes over the cells left, each adding the cells that touch
        # the group so far; a group never touches another component's cells --
        added = [component[0]]
        corners = set(_corners(component[0]))
        pending = component[1:]
        while pending:
            visits += len(pending)
            if visits > MAX_CELL_TRIALS:
                return None
            left: list[BBox] = []
            for cell in pending:
                mine = _corners(cell)
                if any(c in corners for c in mine):
                    added.append(cell)
                    corners.update(mine)
                else:
                    left.append(cell)
            pending = left
        tables.append(added)
    tables.sort(key=lambda t: min((c[1], c[0]) for c in t))
    return [t for t in tables if len(t) > 1]


def _corners(cell: BBox) -> tuple[_Point, _Point, _Point, _Point]:
    x0, top, x1, bottom = cell
    return ((x0, top), (x0, bottom), (x1, top), (x1, bottom))


def _bbox(edge: Mapping[str, Any]) -> BBox:
    return (edge["x0"], edge["top"], edge["x1"], edge["bottom"])
