"""One `<table>` fragment being built while an oversized rowspan-bound row group is split.

A fragment is a list of rows of cell HTML plus their texts. Besides plain cell strings a row can
hold `FragmentCell`s whose HTML is decided only when their interval closes: a blank cell covering
columns that live spans occupy gets a `rowspan` equal to the number of fragment rows it stayed
open. In "text cover" mode the fragment tracks, per column interval, when the covering text it
emitted expires and reopens blank cells there. `flush()` returns the fragment's text (the
space-joined texts) and HTML, with every `rowspan` clipped to the rows present. Follows the
fragment bookkeeping inside unstructured's `_HtmlTableSplitter._iter_oversized_group_splits`
(Apache-2.0), byte for byte.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from partita.chunking.tables.read._model import HtmlRow, LxmlRow, format_td, parse_row_fragment
from partita.chunking.tables.split._cells import TextAndHtml
from partita.chunking.tables.split._spans import GapIndex

__all__ = ["FragmentCell", "GroupFragment", "TextCell", "parse_row"]

TextCell = tuple[int, int, str, int]
"""A text-bearing own cell of a row: `(column, colspan, html, rows it covers from this row)`."""


def parse_row(cells: Sequence[str]) -> HtmlRow:
    """Return the row made of the cell HTML strings `cells`."""
    tr = parse_row_fragment(f"<tr>{''.join(cells)}</tr>")
    assert tr is not None  # -- cell HTML always parses back to a row --
    return LxmlRow(tr)


class FragmentCell:
    """A fragment cell whose HTML (a blank cell's `rowspan`) is final when its interval closes."""

    __slots__ = ("col", "html", "start_row", "width")

    def __init__(self, col: int, width: int, start_row: int, html: str) -> None:
        self.col = col
        self.width = width
        self.start_row = start_row
        self.html = html


class GroupFragment:
    """The rows of the fragment being built; a fresh one replaces it after `flush()`."""

    def __init__(self) -> None:
        self.cells: list[list[str | FragmentCell]] = []
        self.texts: list[list[str]] = []
        self.text_count = 0
        """Number of texts in the fragment."""
        self.char_len = 0
        """Length of the fragment's space-joined texts."""
        self.carry_cost = 0
        """Characters of copied covering text that a candidate probe must remeasure."""
        self.blank_per_row = False
        """Whether each later row gets its own compact blank columns for covered columns."""
        self.text_cover_per_row = False
        """Whether live covering texts are tracked per column interval (see module docstring)."""
        self._blank_runs: dict[int, tuple[int, FragmentCell]] = {}
        self._blank_index = GapIndex()
        self._text_expiry: list[tuple[int, int, int]] = []
        self._width = 0

    def append_row(self, cells: Sequence[str | FragmentCell], texts: list[str]) -> None:
        """Append a row of `cells` holding `texts`."""
        self.cells.append(list(cells))
        self.texts.append(texts)
        if texts:
            self.char_len += sum(map(len, texts)) + len(texts) - 1
            if self.text_count:
                self.char_len += 1
            self.text_count += len(texts)

    def start_text_cover(self, cells: list[str]) -> None:
        """Index the blank intervals of the last row, made of `cells`, and its text expiries."""
        col = 0
        for offset, cell in enumerate(parse_row(cells).iter_cells()):
            end = col + cell.colspan
            if cell.text:
                heapq.heappush(
                    self._text_expiry, (len(self.cells) - 1 + (cell.rowspan or 1), col, end)
                )
            else:
                output = FragmentCell(col, cell.colspan, len(self.cells) - 1, cells[offset])
                self.cells[-1][offset] = output
                self._blank_runs[col] = end, output
                self._blank_index.insert(col, end)
            col = end
        self._width = col

    def append_text_cover_row(
        self, own_end: int, trailing_col: int, text_cells: Sequence[TextCell], texts: list[str]
    ) -> None:
        """Append a row in text-cover mode, touching only expiring labels and the row's own cells.

        `own_end` is the right edge of the row's own cells, `trailing_col` that of the live spans,
        `text_cells` the row's own text-bearing cells.
        """
        row_cells: list[FragmentCell] = []
        while self._text_expiry and self._text_expiry[0][0] <= len(self.cells):
            _expiry, start, end = heapq.heappop(self._text_expiry)
            self._open_blank(start, end, row_cells)
        width = max(self._width, trailing_col, own_end)
        if self._width < width:
            self._open_blank(self._width, width, row_cells)
            self._width = width
        for col, colspan, html, covered_rows in text_cells:
            end = col + colspan
            self._cut_blanks(col, end, row_cells)
            row_cells.append(FragmentCell(col, colspan, len(self.cells), html))
            heapq.heappush(self._text_expiry, (len(self.cells) + covered_rows, col, end))
        row_cells.sort(key=lambda cell: cell.col)
        self.append_row(row_cells, texts)

    def flush(self) -> TextAndHtml | None:
        """Return the `(text, html)` of this fragment, `None` when it has no rows."""
        if not self.cells:
            return None
        for start in list(self._blank_runs):
            self._close_blank(start)
        m = len(self.cells)
        trs: list[str] = []
        for k, cells in enumerate(self.cells):
            bound = m - k
            row = parse_row([cell if isinstance(cell, str) else cell.html for cell in cells])
            trs.append(
                row.html_clipped_to_rows(bound)
                if row.max_rowspan is None or row.max_rowspan > bound
                else row.html
            )
        text = " ".join(t for row_texts in self.texts for t in row_texts)
        return text, f"<table>{''.join(trs)}</table>"

    def _open_blank(self, start: int, end: int, row_cells: list[FragmentCell]) -> None:
        if start >= end:
            return
        cell = FragmentCell(start, end - start, len(self.cells), format_td("", end - start))
        self._blank_runs[start] = end, cell
        self._blank_index.insert(start, end)
        row_cells.append(cell)

    def _close_blank(self, start: int) -> tuple[int, FragmentCell]:
        """Close the blank run at `start`, fixing its `rowspan` to the rows it stayed open."""
        end, cell = self._blank_runs.pop(start)
        self._blank_index.delete(start)
        if cell.start_row == len(self.cells):
            # -- opened on the row being built: it covers no row at all --
            cell.html = ""
        else:
            cell.html = format_td("", cell.width, len(self.cells) - cell.start_row)
        return end, cell

    def _cut_blanks(self, start: int, end: int, row_cells: list[FragmentCell]) -> None:
        """Close the blank runs overlapping `[start, end)`, reopening their outside parts."""
        cursor = start
        while (run := self._blank_index.covering_or_next(cursor)) is not None:
            run_start, run_end = run
            if run_start >= end:
                break
            self._close_blank(run_start)
            if run_start < start:
                self._open_blank(run_start, start, row_cells)
            if end < run_end:
                self._open_blank(end, run_end, row_cells)
            cursor = run_end
