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

from partita.chunking.tables.read._model import HtmlRow
from partita.chunking.tables.split._cells import Measure, TextAndHtml

__all__ = ["RowAccumulator", "RowGroup", "group_last_idx", "iter_rowspan_bound_row_groups"]


class RowGroup:
    """Consecutive rows that a `rowspan` binds together (often a single row)."""

    __slots__ = ("_measure", "_measured", "bounds", "is_clipped", "rows", "text")

    def __init__(self, rows: tuple[HtmlRow, ...], bounds: tuple[int, ...], is_clipped: bool):
        self.rows = rows
        self.bounds = bounds
        """Per row, how many rows (itself included) its cells may span: the rows left in the
        group."""
        self.is_clipped = is_clipped
        """Whether a span in the group reaches past the table or is a `rowspan="0"`."""
        self.text = rows[0].text if len(rows) == 1 else " ".join(r.text for r in rows if r.text)
        """The texts of the group's cells, joined by spaces."""
        self._measure: Measure | None = None
        self._measured = 0

    def measured_text_len(self, measure: Measure) -> int:
        """Return `measure(self.text)`, computed once per `measure`."""
        if self._measure is not measure:
            self._measured = measure(self.text)
            self._measure = measure
        return self._measured


def iter_rowspan_bound_row_groups(rows: Sequence[HtmlRow]) -> Iterator[RowGroup]:
    """Generate the rowspan-bound groups of `rows`, in order, covering every row once.

    A group ends at the first row that no span opened within the group reaches past (the
    overlapping-interval merge of every span's reach).
    """
    n = len(rows)
    if all(row.max_rowspan == 1 for row in rows):
        # -- no cell spans rows: each row is a group of its own --
        for row in rows:
            yield RowGroup((row,), (1,), False)
        return

    last_idx: list[int] | None = None
    reach = [0] * n
    clipped = [False] * n
    for idx, row in enumerate(rows):
        if row.max_rowspan is None:
            if last_idx is None:
                last_idx = group_last_idx(rows)
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
            if group_start == idx:
                yield RowGroup((rows[idx],), (1,), clipped[idx])
            else:
                yield RowGroup(
                    tuple(rows[group_start : idx + 1]),
                    tuple(range(group_end - group_start + 1, 0, -1)),
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
    following row) stays within `maxlen`; each group's text is measured on its own, as the
    reference does.
    """

    def __init__(self, maxlen: int, measure: Measure) -> None:
        self._maxlen = maxlen
        self._measure = measure
        self._groups: list[RowGroup] = []
        self._row_count = 0
        self._row_text_len = 0
        self._has_clipped_group = False

    def add_rows(self, group: RowGroup) -> None:
        """Add the rows of `group`; the caller has checked that they fit."""
        self._groups.append(group)
        self._row_count += len(group.rows)
        self._row_text_len += group.measured_text_len(self._measure)
        self._has_clipped_group = self._has_clipped_group or group.is_clipped

    def flush(self) -> Iterator[TextAndHtml]:
        """Generate zero or one `(text, html)` fragment of the packed rows, then reset."""
        if not self._groups:
            return
        text = " ".join(group.text for group in self._groups if group.text)
        trs = "".join(
            row.html
            if row.max_rowspan is not None and row.max_rowspan <= bound
            else row.html_clipped_to_rows(bound)
            for group in self._groups
            for row, bound in zip(group.rows, group.bounds, strict=True)
        )
        self._groups = []
        self._row_count = 0
        self._row_text_len = 0
        self._has_clipped_group = False
        yield text, f"<table>{trs}</table>"

    def will_fit(self, group: RowGroup) -> bool:
        """Return whether the rows of `group` fit in the room the packed rows leave."""
        remaining = self._maxlen - self._row_count - self._row_text_len
        return remaining >= group.measured_text_len(self._measure)

    @property
    def last_row_group_key(self) -> object | None:
        """The row-group key of the last packed row, `None` when nothing is packed."""
        return self._groups[-1].rows[-1].row_group_key if self._groups else None

    @property
    def crosses_a_row_group_unsafely_if_extended(self) -> bool:
        """`True` when a clipped group is packed, so rows of another row group must not follow.

        The boundary is semantic: bounds already keep every emitted `rowspan` inside the
        fragment, but a clipped group's rows should not be blended with another row group's.
        """
        return self._has_clipped_group
