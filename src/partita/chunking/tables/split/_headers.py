"""Repeating a table's leading header rows at the top of every continuation chunk.

The first chunk is left as it is. Each later chunk's text is the header text (the header rows'
cell texts, space-joined) followed by a space and the chunk text; its HTML is
`<table><thead>…</thead>…</table>` where the header rows are their *source* HTML with direct
`<td>` cells turned into `<th>` and every `rowspan` clipped to the header block. A continuation
chunk's body budget shrinks to `max(1, hard_max - measure(header text) - 1)`. Repetition is off
for the whole table when it would be pathologically expensive: a header row over half the
window, header text over three quarters of it, header HTML over four windows, or a reduced
budget that would starve an oversized body cell into one-unit pieces. Follows the header logic
of unstructured's `_HtmlTableSplitter` (Apache-2.0), byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from lxml import etree

from partita.chunking.tables.read._model import HtmlRow, LxmlCell, parse_row_fragment
from partita.chunking.tables.read._simple_rows import SimpleRow
from partita.chunking.tables.split._cells import Measure, TextAndHtml, is_cell_split_starved
from partita.chunking.tables.split._rows import RowAccumulator, iter_rowspan_bound_row_groups
from partita.text.sizing._sizer import CHARACTERS, Sizer

__all__ = ["HeaderRepetition"]


class HeaderRepetition:
    """Whether and how the first `header_row_count` rows of a table repeat on continuations.

    `rows` are all the table's rows; `hard_max` is the chunking window, in the unit of `sizer`
    (characters or tokens).
    """

    def __init__(
        self,
        rows: Sequence[HtmlRow],
        header_row_count: int,
        hard_max: int,
        sizer: Sizer = CHARACTERS,
    ) -> None:
        self._rows = rows
        self._header_row_count = max(0, header_row_count)
        self._hard_max = hard_max
        self._sizer = sizer
        self._measure: Measure = sizer.measure
        self._size_bound = sizer.upper_bound
        self._header_rows = tuple(rows[: self._header_row_count])
        # -- the values below are set by `_is_enabled()`, which runs when first needed --
        self._header_text = ""
        self._header_text_len = 0
        self._reduced_maxlen = max(1, hard_max - 1)
        """The body room of a continuation chunk: one unit separates header and body text."""
        self._header_rows_html = ""
        """The `<thead>` of the repeated header rows."""
        self._enabled: bool | None = None if self._header_rows else False

    @property
    def carried_over_row_count(self) -> int:
        """The number of header rows prepended to each continuation chunk, 0 when disabled."""
        return len(self._header_rows) if self.is_enabled else 0

    @property
    def repeated_text(self) -> str:
        """The header text put before every continuation chunk's text, "" when none is."""
        return self._header_text if self.is_enabled else ""

    @property
    def is_enabled(self) -> bool:
        """`True` when there are header rows and repeating them is not pathologically costly."""
        enabled = self._enabled
        if enabled is None:
            enabled = self._enabled = self._is_enabled()
        return enabled

    def _is_enabled(self) -> bool:
        if not self._header_rows:
            return False
        hard_max, measure = self._hard_max, self._measure
        max_header_row_len = max(measure(row.text) for row in self._header_rows)
        self._header_text = " ".join(row.text for row in self._header_rows if row.text)
        self._header_text_len = measure(self._header_text)
        self._reduced_maxlen = max(1, hard_max - self._header_text_len - 1)
        if max_header_row_len > (hard_max + 1) // 2:
            return False
        if self._header_text_len > (3 * hard_max) // 4:
            return False
        n = len(self._header_rows)
        rows_html = "".join(
            _as_header_row_html(row, max_rowspan=n - i) for i, row in enumerate(self._header_rows)
        )
        self._header_rows_html = f"<thead>{rows_html}</thead>"
        if not self._fits(self._header_rows_html, 4 * hard_max):
            return False
        return not self._would_starve_oversized_body_cell()

    def maxlen(self, is_first_chunk: bool) -> int:
        """Return the room for body rows in the next chunk."""
        if is_first_chunk or not self.is_enabled:
            return self._hard_max
        return self._reduced_maxlen

    def prepend(self, text: str, html: str, is_first_chunk: bool) -> TextAndHtml:
        """Return the chunk `(text, html)` with the header rows prepended when they repeat."""
        if is_first_chunk or not self.is_enabled:
            return text, html
        header_text = self._header_text
        chunk_text = f"{header_text} {text}" if header_text and text else (header_text or text)
        html_inner = html.removeprefix("<table>").removesuffix("</table>")
        return chunk_text, f"<table>{self._header_rows_html}{html_inner}</table>"

    def _maxlen_if_repeated(self, is_first_chunk: bool) -> int:
        """Return the body room of the next chunk were the headers to repeat."""
        return self._hard_max if is_first_chunk else self._reduced_maxlen

    def _fits(self, text: str, maxlen: int) -> bool:
        """Return whether `measure(text) <= maxlen`, measuring only when no bound decides."""
        bound = self._size_bound
        return (bound is not None and bound(text) <= maxlen) or self._measure(text) <= maxlen

    def _would_starve_oversized_body_cell(self) -> bool:
        """`True` when the reduced budget leaves no usable split room for an oversized cell."""
        maxlen = self._reduced_maxlen
        count = self._header_row_count
        bound = self._size_bound
        at_risk_idxs = self._reduced_budget_header_row_idxs
        if self._header_text_len > maxlen and any(idx < count for idx in at_risk_idxs):
            return True

        for idx, row in enumerate(self._rows):
            # -- a header row matters only when packing routes its group into a reduced-budget
            # -- row or cell split; every body row matters --
            if idx < count and idx not in at_risk_idxs:
                continue
            if idx < count:
                row_text_len = self._materialized_row_text_lens[idx]
                if row_text_len <= self._hard_max and row_text_len > maxlen:
                    # -- the group splitter reserves header room in every fragment, which would
                    # -- degrade a size-compliant header row for headers it does not carry --
                    return True
            if bound is not None and bound(row.text) <= maxlen:
                continue  # -- a cell's text is part of the row's, so none is oversized --
            for cell in row.iter_cells():
                if not self._fits(cell.text, maxlen) and is_cell_split_starved(
                    cell, maxlen, self._sizer
                ):
                    return True
        return False

    @cached_property
    def _materialized_row_text_lens(self) -> tuple[int, ...]:
        """The measured text of each header row including text carried in by live rowspans."""
        measured: list[int] = []
        for group in iter_rowspan_bound_row_groups(self._rows):
            if len(measured) >= self._header_row_count:
                break
            active: list[tuple[int, str]] = []
            n = len(group.rows)
            row_group_ends = {id(row.row_group_key): idx for idx, row in enumerate(group.rows)}
            for idx, row in enumerate(group.rows):
                if len(measured) >= self._header_row_count:
                    break
                active = [(reach, text) for reach, text in active if reach >= idx]
                texts = [text for _reach, text in active if text]
                texts.extend(row.iter_cell_texts())
                measured.append(self._measure(" ".join(texts)))
                for cell in row.iter_cells():
                    reach = (
                        row_group_ends[id(row.row_group_key)]
                        if cell.rowspan is None
                        else min(idx + cell.rowspan - 1, n - 1)
                    )
                    if reach > idx:
                        active.append((reach, cell.text))
        return tuple(measured)

    @cached_property
    def _reduced_budget_header_row_idxs(self) -> set[int]:
        """The header-row indices whose group packing can reach a reduced-budget split."""
        if self._header_row_count <= 0:
            return set()

        at_risk_idxs: set[int] = set()
        start_idx = 0
        is_first_chunk = True
        accum = RowAccumulator(self._hard_max, self._measure)
        for group in iter_rowspan_bound_row_groups(self._rows):
            if start_idx >= self._header_row_count:
                break
            if (
                accum.last_row_group_key is not None
                and group.rows[0].row_group_key is not accum.last_row_group_key
                and accum.crosses_a_row_group_unsafely_if_extended
            ):
                if any(accum.flush()):
                    is_first_chunk = False
                accum = RowAccumulator(self._maxlen_if_repeated(is_first_chunk), self._measure)
            if not accum.will_fit(group):
                if any(accum.flush()):
                    is_first_chunk = False
                accum = RowAccumulator(self._maxlen_if_repeated(is_first_chunk), self._measure)
            if accum.will_fit(group):
                accum.add_rows(group)
            else:
                stop_idx = min(start_idx + len(group.rows), self._header_row_count)
                at_risk_idxs.update(range(start_idx, stop_idx))
                is_first_chunk = False
                accum = RowAccumulator(self._reduced_maxlen, self._measure)
            start_idx += len(group.rows)
        return at_risk_idxs


def _as_header_row_html(row: HtmlRow, max_rowspan: int) -> str:
    """Return the source HTML of `row` as a header row: direct `<td>`s become `<th>`, and each
    `rowspan` is clipped to `max_rowspan`, the header rows from `row` on."""
    if isinstance(row, SimpleRow):
        header_html = row.header_html(max_rowspan)
        if header_html is not None:
            return header_html
    tr = parse_row_fragment(row.source_html or row.html)
    if tr is None and row.source_html:
        tr = parse_row_fragment(row.html)
    if tr is None:
        return row.html_clipped_to_rows(max_rowspan)
    for cell in tr:
        rowspan = LxmlCell(cell).rowspan
        if rowspan is None or rowspan > max_rowspan:
            if max_rowspan <= 1:
                cell.attrib.pop("rowspan", None)
            else:
                cell.attrib["rowspan"] = str(max_rowspan)
        if getattr(cell, "tag", None) == "td":
            cell.tag = "th"
    return etree.tostring(tr, encoding=str)
