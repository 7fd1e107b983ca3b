"""Table rows as the atomic units of HTML table splitting: rowspan-bound groups, packed in order.

Rows joined by a `rowspan` form one group that is never split across chunks unless it is too big
for an empty window. A positive `rowspan` binds its true reach, clamped to the table's last row;
`rowspan="0"` binds to the last row of its own row group (`<thead>`/`<tbody>`/`<tfoot>`). Each
group carries per-row bounds so that an emitted `rowspan` never claims a row absent from its
chunk. `RowAccumulator` packs groups while their measured text, plus one unit per packed row,
fits `maxlen`. Follows unstructured's `_HtmlTableSplitter._iter_rowspan_bound_row_groups`,
`_group_last_idx` and `_RowAccumulator` (Apache-2.0), byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from partita.chunking.html_table import HtmlRow
from partita.chunking.table_cells import Measure, TextAndHtml

__all__ = ["RowAccumulator", "RowGroup", "group_last_idx", "iter_rowspan_bound_row_groups"]


class RowGroup(NamedTuple):
    """Consecutive rows that a `rowspan` binds together (often a single row)."""

    rows: tuple[HtmlRow, ...]
    bounds: tuple[int, ...]
    """Per row, how many rows (itself included) its cells may span: the rows left in the group."""
    is_clipped: bool
    """Whether a span in the group reaches past the table or is a `rowspan="0"`."""


def iter_rowspan_bound_row_groups(rows: Sequence[HtmlRow]) -> Iterator[RowGroup]:
    """Generate the rowspan-bound groups of `rows`, in order, covering every row once.

    A group ends at the first row that no span opened within the group reaches past (the
    overlapping-interval merge of every span's reach).
    """
    n = len(rows)
    last_idx = group_last_idx(rows)
    reach = [0] * n
    clipped = [False] * n
    for idx, row in enumerate(rows):
        if row.max_rowspan is None:
            reach[idx] = last_idx[idx]
            clipped[idx] = True
        else:
            declared_reach = idx + row.max_rowspan - 1
            reach[idx] = min(declared_reach, n - 1)
            clipped[idx] = declared_reach > n - 1

    group_start = 0
    group_end = -1
    for idx in range(n):
        group_end = max(group_end, reach[idx])
        if idx == group_end:
            yield RowGroup(
                tuple(rows[group_start : idx + 1]),
                tuple(group_end - i + 1 for i in range(group_start, idx + 1)),
                any(clipped[group_start : idx + 1]),
            )
            group_start = idx + 1


def group_last_idx(rows: Sequence[HtmlRow]) -> list[int]:
    """Return, for each row of `rows`, the index of the last row of its row group.

    Consecutive rows with the identical `row_group_key` form a row group.
    """
    n = len(rows)
    last_idx = [0] * n
    i = 0
    while i < n:
        key = rows[i].row_group_key
        j = i
        while j + 1 < n and rows[j + 1].row_group_key is key:
            j += 1
        for k in range(i, j + 1):
            last_idx[k] = j
        i = j + 1
    return last_idx


class RowAccumulator:
    """Packs whole row groups into a `<table>` fragment that fits the window.

    The measured text of the packed rows plus one unit per packed row (the separator before a
    following row) stays within `maxlen`.
    """

    def __init__(self, maxlen: int, measure: Measure) -> None:
        self._maxlen = maxlen
        self._measure = measure
        self._rows: list[HtmlRow] = []
        self._bounds: list[int] = []
        self._row_text_len = 0
        self._has_clipped_group = False

    def add_rows(self, group: RowGroup) -> None:
        """Add the rows of `group`; the caller has checked that they fit."""
        self._rows.extend(group.rows)
        self._bounds.extend(group.bounds)
        self._row_text_len += self._measured_rows_text_len(group.rows)
        self._has_clipped_group = self._has_clipped_group or group.is_clipped

    def flush(self) -> Iterator[TextAndHtml]:
        """Generate zero or one `(text, html)` fragment of the packed rows, then reset."""
        if not self._rows:
            return
        text = " ".join(t for row in self._rows for t in row.iter_cell_texts())
        trs = "".join(
            row.html_clipped_to_rows(bound)
            if row.max_rowspan is None or row.max_rowspan > bound
            else row.html
            for row, bound in zip(self._rows, self._bounds, strict=True)
        )
        self._rows.clear()
        self._bounds.clear()
        self._row_text_len = 0
        self._has_clipped_group = False
        yield text, f"<table>{trs}</table>"

    def will_fit(self, rows: Sequence[HtmlRow]) -> bool:
        """Return whether `rows` fit in the room the packed rows leave."""
        remaining = self._maxlen - len(self._rows) - self._row_text_len
        return remaining >= self._measured_rows_text_len(rows)

    @property
    def last_row_group_key(self) -> object | None:
        """The row-group key of the last packed row, `None` when nothing is packed."""
        return self._rows[-1].row_group_key if self._rows else None

    @property
    def crosses_a_row_group_unsafely_if_extended(self) -> bool:
        """`True` when a clipped group is packed, so rows of another row group must not follow.

        The boundary is semantic: bounds already keep every emitted `rowspan` inside the
        fragment, but a clipped group's rows should not be blended with another row group's.
        """
        return self._has_clipped_group

    def _measured_rows_text_len(self, rows: Sequence[HtmlRow]) -> int:
        return self._measure(" ".join(t for row in rows for t in row.iter_cell_texts()))
