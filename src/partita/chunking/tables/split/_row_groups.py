"""Splitting a rowspan-bound row group that is too big for an empty chunking window.

Rows are packed in order into `<table>` fragments as ordinary rows would be; a single row still
too big alone is split cell by cell (`iter_row_splits`). A column that an earlier row's `rowspan`
covers is absent from later `<tr>`s, so at a fragment boundary it is re-materialized as a fresh
cell whose `rowspan` is limited to the fragment's rows. The covering text is repeated when it
fits with the row; when it would force cell-level splitting, or repeating it would be costly, a
blank cell keeps the column geometry instead. Every fragment is a parseable,
geometry-consistent `<table>` whose text is the space-joined texts of its cells. Follows
unstructured's `_HtmlTableSplitter._iter_oversized_group_splits` (Apache-2.0), byte for byte,
including its cost heuristics.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from partita.chunking.tables.read._model import HtmlCell, HtmlRow, format_td
from partita.chunking.tables.split._cells import Measure, TextAndHtml, iter_row_splits
from partita.chunking.tables.split._fragment import GroupFragment, TextCell, parse_row
from partita.chunking.tables.split._rows import group_last_idx
from partita.chunking.tables.split._spans import ActiveSpanLedger, OpenSpan, PlacedCell
from partita.text.sizing._sizer import CHARACTERS, Sizer

__all__ = ["iter_oversized_group_splits"]


def iter_oversized_group_splits(
    rows: Sequence[HtmlRow], maxlen: int, sizer: Sizer = CHARACTERS
) -> Iterator[TextAndHtml]:
    """Generate `(text, html)` fragments of the rowspan-bound group `rows`, each within `maxlen`
    where that is possible.

    Sizes are measured by `sizer`, in characters or tokens.
    """
    splitter = _CountedGroupSplitter if sizer.counts_tokens else _LengthGroupSplitter
    return splitter(rows, maxlen, sizer).iter_splits()


class _OversizedGroupSplitter:
    """Splits one row group; single use.

    The reference sizes a group per unit (its `additive_char_measure`): in characters a joined
    text's size is the sum of its parts and one per separator, and its cost heuristics count
    lengths; in tokens joined texts are measured. The two subclasses hold those parts, the
    `_size_*`, `_carry_*` and `_fits` hooks; this class is the algorithm they share.
    """

    def __init__(self, rows: Sequence[HtmlRow], maxlen: int, sizer: Sizer) -> None:
        self._rows = rows
        self._maxlen = maxlen
        self._sizer = sizer
        self._measure: Measure = sizer.measure
        self._last_idx = group_last_idx(rows)
        self._active = ActiveSpanLedger()
        self._oversized_carry_cols: set[int] = set()
        self._fragment = GroupFragment()
        self._carry_measure_version = -1
        self._carry_measure_value = 0
        # -- limits how much covering text token-mode probes may remeasure --
        self._carry_probe_budget = 2 * max(maxlen, 256)

    def iter_splits(self) -> Iterator[TextAndHtml]:
        """Generate the fragments of the whole group."""
        for idx, row in enumerate(self._rows):
            yield from self._iter_row(idx, row)
        yield from self._flush()

    def _iter_row(self, idx: int, row: HtmlRow) -> Iterator[TextAndHtml]:
        """Add row `idx` to the fragment, generating whatever fragments that completes."""
        maxlen, active = self._maxlen, self._active
        for expired_col in active.expire(idx):
            self._oversized_carry_cols.discard(expired_col)
        placed = active.place(list(row.iter_cells()))
        texts = [cell.text for _col, _gap, cell in placed if cell.text]
        if idx:
            self._carry_probe_budget = min(
                2 * max(maxlen, 256),
                self._carry_probe_budget + sum(map(len, texts)) + len(placed),
            )
        new_spans: list[tuple[OpenSpan, int]] = []
        for col, gap, cell in placed:
            reach = self._reach(cell, idx)
            if reach > idx:
                new_spans.append((OpenSpan(col, cell.colspan, cell.text, reach), gap))

        if self._fragment.cells and self._fits(texts):
            fragment = self._fragment
            if fragment.text_cover_per_row:
                fragment.append_text_cover_row(
                    max((col + cell.colspan for col, _gap, cell in placed), default=0),
                    active.gap_index.trailing_gap_start(),
                    self._text_cells(placed, idx),
                    texts,
                )
            elif fragment.blank_per_row:
                fragment.append_row(self._materialize_blank_compact(placed, idx), texts)
            else:
                fragment.append_row([self._own_cell_html(c, idx) for _, _, c in placed], texts)
            yield from self._commit_spans(new_spans)
            return

        yield from self._flush()
        yield from self._iter_fragment_start(idx, placed, texts)
        yield from self._commit_spans(new_spans)

    def _iter_fragment_start(
        self, idx: int, placed: Sequence[PlacedCell], texts: list[str]
    ) -> Iterator[TextAndHtml]:
        """Start a fragment with row `idx`, materializing the columns live spans cover."""
        maxlen, active, fragment = self._maxlen, self._active, self._fragment
        own_measure = self._measure(" ".join(texts))
        own_fits = own_measure <= maxlen
        carry_fits: bool | None = (
            False
            if self._oversized_carry_cols or not own_fits
            else self._carry_fits_by_sizes(texts)
        )
        strategic_blank_carry = False
        if carry_fits is not False and active.text_count:
            strategic_blank_carry = self._is_carry_too_costly(texts, own_measure)
            if strategic_blank_carry:
                carry_fits = False
        if carry_fits is False:
            mat_cells: list[str] = []
            mat_texts: list[str] = []
        else:
            uniform_cover = active.uniform_cover()
            if uniform_cover is not None:
                width, reach = uniform_cover
                mat_cells, mat_texts = self._materialize_uniform_cover(placed, idx, width, reach)
            elif active.spans:
                # -- mixed expiries or gaps need a per-row blank scaffold; retained text spans
                # -- stay as bounded rowspans across the packed rows --
                mat_cells, mat_texts = self._materialize_compact_text_cover(
                    placed, idx, bool(active.text_count)
                )
                fragment.blank_per_row = True
                fragment.text_cover_per_row = bool(active.text_count)
            else:
                # -- no live span covers a column, so the row is just its own cells --
                mat_cells, mat_texts = self._materialize_blank_compact(placed, idx), texts
            carry_fits = self._measure(" ".join(mat_texts)) <= maxlen

        if carry_fits:
            fragment.append_row(mat_cells, mat_texts)
            # -- the copied covering text is remeasured by later probes, even once expired --
            fragment.carry_cost = active.text_len + active.text_count
            if fragment.text_cover_per_row:
                fragment.start_text_cover(mat_cells)
        elif own_fits:
            # -- the row fits without its covering text: blank every live cover; its text was
            # -- emitted earlier and repeating a long cover on each row multiplies the output --
            fallback_cells = self._materialize_blank_compact(placed, idx)
            fragment.append_row(fallback_cells, texts)
            fragment.blank_per_row = True
            fragment.text_cover_per_row = strategic_blank_carry
            if strategic_blank_carry:
                fragment.start_text_cover(fallback_cells)
            # -- a cover that could fit with a later, smaller row gets a fresh fragment there;
            # -- one too long to fit even alone stays blank rather than split again per row --
            if (
                not strategic_blank_carry
                and not self._oversized_carry_cols
                and self._carried_text_measure() <= maxlen
            ):
                yield from self._flush()
        else:
            yield from self._iter_cell_level_splits(placed, idx)

    def _is_carry_too_costly(self, texts: list[str], own_measure: int) -> bool:
        """Return whether repeating the live covering texts with this row costs too much.

        Bounds optional repeated context by its size per row; in token mode the label count is
        a lower bound on the token cost, so a rejected carry never remeasures the live set.
        Charges the probe budget when the carry is still worth probing.
        """
        maxlen, active = self._maxlen, self._active
        own_step, carry_lower_bound, repeat_cost, allowed_cost = self._carry_cost_terms(
            texts, own_measure
        )
        optimistic_rows = max(1, (maxlen - carry_lower_bound) // max(1, own_step))
        if (
            repeat_cost > allowed_cost * optimistic_rows
            and (
                active.text_count >= 16 or repeat_cost >= 256 or 4 * carry_lower_bound >= 3 * maxlen
            )
        ) or self._is_carry_too_long():
            return True
        probe_cost = active.text_len + active.text_count
        if probe_cost > self._carry_probe_budget:
            return True
        self._carry_probe_budget -= probe_cost
        return False

    def _iter_cell_level_splits(
        self, placed: Sequence[PlacedCell], idx: int
    ) -> Iterator[TextAndHtml]:
        """Generate the cell-level splits of row `idx`, too big alone, with blank covers."""
        maxlen = self._maxlen
        fallback_cells = self._materialize_blank_compact(placed, idx)
        bounded_row = parse_row(fallback_cells).row_clipped_to_rows(1)
        # -- one colspan stands for a run of plain blank cells, keeping the column geometry
        # -- without hundreds of repeated empty tags --
        compact_cells: list[str] = []
        blank_cols = 0
        for cell in bounded_row.iter_cells():
            if cell.html == format_td("", cell.colspan):
                blank_cols += cell.colspan
                continue
            if blank_cols:
                compact_cells.append(format_td("", blank_cols))
                blank_cols = 0
            compact_cells.append(cell.html)
        if blank_cols:
            compact_cells.append(format_td("", blank_cols))
        bounded_row = parse_row(compact_cells)
        empty_markup_len = sum(len(cell.html) for cell in bounded_row.iter_cells() if not cell.text)
        split_maxlen = self._split_room(empty_markup_len)
        min_text_fragment_len = max(
            len(f"<table><tr>{format_td('x', cell.colspan)}</tr></table>")
            for _col, _gap, cell in placed
            if cell.text
        )
        useful_text_budget = max(1, (maxlen - min_text_fragment_len) // 2)
        if split_maxlen < min_text_fragment_len + useful_text_budget:
            # -- a scaffold leaving under half the normal text room would force tiny pieces --
            split_maxlen = maxlen
        pending_empty_cells = ""
        pending_output: TextAndHtml | None = None
        for text, html in iter_row_splits(bounded_row, split_maxlen, self._sizer):
            if not text:
                # -- a blank carry flushed alone before an oversized cell: keep its geometry
                # -- with the next text-bearing fragment rather than as an empty chunk --
                pending_empty_cells += html[len("<table><tr>") : -len("</tr></table>")]
                continue
            if pending_output is not None:
                yield pending_output
            if pending_empty_cells:
                html = html.replace("<table><tr>", f"<table><tr>{pending_empty_cells}", 1)
                pending_empty_cells = ""
            pending_output = text, html
        if pending_output is not None:
            text, html = pending_output
            if pending_empty_cells:
                html = html.replace("</tr></table>", f"{pending_empty_cells}</tr></table>", 1)
            yield text, html

    def _commit_spans(self, new_spans: list[tuple[OpenSpan, int]]) -> Iterator[TextAndHtml]:
        """Open the spans row cells declared; generate a fragment completed by doing so."""
        active, fragment = self._active, self._fragment
        active.add(new_spans)
        for span, _gap in new_spans:
            if (
                active.spans.get(span.col) is span
                and span.text
                and self._measure(span.text) > self._maxlen
            ):
                self._oversized_carry_cols.add(span.col)
        if fragment.cells:
            self._charge_carried_spans(new_spans)
        if fragment.blank_per_row and not fragment.text_cover_per_row and new_spans:
            yield from self._flush()

    def _flush(self) -> Iterator[TextAndHtml]:
        """Generate the fragment, if it has rows, and start a new one.

        An empty fragment is kept, flags included: a flag set while a row went to cell-level
        splitting instead still applies to the next fragment, as in the reference.
        """
        split = self._fragment.flush()
        if split is not None:
            self._fragment = GroupFragment()
            yield split

    def _reach(self, cell: HtmlCell, idx: int) -> int:
        """Return the last row-index that `cell` of row `idx` covers."""
        if cell.rowspan is None:
            return self._last_idx[idx]
        return min(idx + cell.rowspan - 1, len(self._rows) - 1)

    def _own_cell_html(self, cell: HtmlCell, idx: int) -> str:
        """Return the HTML of `cell` of row `idx`, a `rowspan="0"` resolved to its row group."""
        if cell.rowspan is not None:
            return cell.html
        section_remaining = self._last_idx[idx] - idx + 1
        if not cell.text:
            return format_td("", cell.colspan, section_remaining)
        return cell.html_with_rowspan(section_remaining)

    def _text_cells(self, placed: Sequence[PlacedCell], idx: int) -> list[TextCell]:
        return [
            (col, cell.colspan, self._own_cell_html(cell, idx), self._reach(cell, idx) - idx + 1)
            for col, _gap, cell in placed
            if cell.text
        ]

    def _materialize_blank_compact(self, placed: Sequence[PlacedCell], idx: int) -> list[str]:
        """Return the cells of row `idx` with covered columns as blank runs."""
        cells: list[str] = []
        col = 0
        for own_col, _gap, cell in placed:
            if col < own_col:
                cells.append(format_td("", own_col - col))
            cells.append(self._own_cell_html(cell, idx))
            col = own_col + cell.colspan
        trailing_col = self._active.gap_index.trailing_gap_start()
        if col < trailing_col:
            cells.append(format_td("", trailing_col - col))
        return cells

    def _materialize_compact_text_cover(
        self, placed: Sequence[PlacedCell], idx: int, emit_text: bool
    ) -> tuple[list[str], list[str]]:
        """Return the cells and texts of row `idx` with blank runs for blank geometry.

        Live text spans are emitted (when `emit_text`) only at a fragment boundary; on later rows
        their emitted rowspans occupy those columns, so they are omitted there.
        """
        active = self._active
        cells: list[str] = []
        texts: list[str] = []
        # -- without `emit_text` no live span is emitted, so every covered column is blank --
        spans = active.text_spans.values() if emit_text else ()
        incoming = sorted(spans, key=lambda span: span.col)
        col = own_idx = span_idx = 0
        while own_idx < len(placed) or span_idx < len(incoming):
            own_col = placed[own_idx][0] if own_idx < len(placed) else None
            span_col = incoming[span_idx].col if span_idx < len(incoming) else None
            if span_col is not None and (own_col is None or span_col < own_col):
                span = incoming[span_idx]
                span_idx += 1
                if col < span.col:
                    cells.append(format_td("", span.col - col))
                cells.append(format_td(span.text, span.colspan, span.reach_idx - idx + 1))
                texts.append(span.text)
                col = span.col + span.colspan
            else:
                assert own_col is not None
                cell = placed[own_idx][2]
                own_idx += 1
                if col < own_col:
                    cells.append(format_td("", own_col - col))
                cells.append(self._own_text_or_blank_html(cell, idx))
                if cell.text:
                    texts.append(cell.text)
                col = own_col + cell.colspan
        trailing_col = active.gap_index.trailing_gap_start()
        if col < trailing_col:
            cells.append(format_td("", trailing_col - col))
        return cells, texts

    def _own_text_or_blank_html(self, cell: HtmlCell, idx: int) -> str:
        """Return the HTML of `cell`, or a one-row blank cell when it has no text."""
        return format_td("", cell.colspan) if not cell.text else self._own_cell_html(cell, idx)

    def _materialize_uniform_cover(
        self, placed: Sequence[PlacedCell], idx: int, width: int, reach: int
    ) -> tuple[list[str], list[str]]:
        """Return the cells and texts of row `idx` when live spans densely cover `[0, width)`
        and all end on row `reach`."""
        cells: list[str] = []
        texts: list[str] = []
        col = 0
        remaining_rows = reach - idx + 1
        for span in sorted(self._active.text_spans.values(), key=lambda span: span.col):
            if col < span.col:
                cells.append(format_td("", span.col - col, remaining_rows))
            cells.append(format_td(span.text, span.colspan, remaining_rows))
            texts.append(span.text)
            col = span.col + span.colspan
        if col < width:
            cells.append(format_td("", width - col, remaining_rows))
        col = width
        for own_col, _gap, cell in placed:
            if col < own_col:
                cells.append(format_td("", own_col - col))
            cells.append(self._own_cell_html(cell, idx))
            if cell.text:
                texts.append(cell.text)
            col = own_col + cell.colspan
        return cells, texts

    # -- the unit's parts (see the class docstring) ---------------------------------------------

    def _carry_fits_by_sizes(self, texts: list[str]) -> bool | None:
        """Whether the row's `texts` fit with the live covering texts, when sizes alone tell;
        None when only measuring the materialized row tells."""
        raise NotImplementedError

    def _carry_cost_terms(self, texts: list[str], own_measure: int) -> tuple[int, int, int, int]:
        """The carry heuristic's terms for a row of `texts` measuring `own_measure`: the row's
        step, a lower bound of the carried text, what repeating it costs, and the cost allowed
        per optimistic row."""
        raise NotImplementedError

    def _is_carry_too_long(self) -> bool:
        """True when the live covering text alone is too long to carry."""
        raise NotImplementedError

    def _split_room(self, empty_markup_len: int) -> int:
        """The room a cell-level split of the row gets, its blank cells' markup taking
        `empty_markup_len`."""
        raise NotImplementedError

    def _charge_carried_spans(self, new_spans: list[tuple[OpenSpan, int]]) -> None:
        """Charge the fragment for the text spans a row opened that later probes remeasure."""
        raise NotImplementedError

    def _fits(self, texts: list[str]) -> bool:
        """Return whether a row holding `texts` fits in the fragment's remaining room."""
        raise NotImplementedError

    def _carried_text_measure(self) -> int:
        """Return the measure of the live covering texts, joined."""
        raise NotImplementedError


class _LengthGroupSplitter(_OversizedGroupSplitter):
    """Character mode: joined lengths are sums, so nothing is joined to be measured."""

    def _carry_fits_by_sizes(self, texts: list[str]) -> bool | None:
        active = self._active
        carried = (
            active.text_len + sum(map(len, texts)) + max(0, active.text_count + len(texts) - 1)
        )
        return carried <= self._maxlen

    def _carry_cost_terms(self, texts: list[str], own_measure: int) -> tuple[int, int, int, int]:
        active = self._active
        carry_lower_bound = active.text_len + active.text_count - 1
        return sum(map(len, texts)) + len(texts), carry_lower_bound, carry_lower_bound, 16

    def _is_carry_too_long(self) -> bool:
        return False

    def _split_room(self, empty_markup_len: int) -> int:
        return self._maxlen - empty_markup_len

    def _charge_carried_spans(self, new_spans: list[tuple[OpenSpan, int]]) -> None:
        return

    def _fits(self, texts: list[str]) -> bool:
        if not texts:
            return True
        fragment = self._fragment
        extra = sum(map(len, texts)) + len(texts) - 1
        return fragment.char_len + extra + bool(fragment.text_count) <= self._maxlen

    def _carried_text_measure(self) -> int:
        active = self._active
        return active.text_len + max(0, active.text_count - 1)


class _CountedGroupSplitter(_OversizedGroupSplitter):
    """Token mode: joined texts are measured, within a budget of probes; the label count is a
    lower bound of the carried text's tokens, and the markup of a cell split is not budgeted."""

    def _carry_fits_by_sizes(self, texts: list[str]) -> bool | None:
        return None

    def _carry_cost_terms(self, texts: list[str], own_measure: int) -> tuple[int, int, int, int]:
        active = self._active
        return max(1, own_measure), active.text_count, active.text_len, 4

    def _is_carry_too_long(self) -> bool:
        return self._active.text_len >= max(256, self._maxlen // 2)

    def _split_room(self, empty_markup_len: int) -> int:
        return self._maxlen

    def _charge_carried_spans(self, new_spans: list[tuple[OpenSpan, int]]) -> None:
        # -- own rowspans stay in later whole-candidate probes; charge only accepted text spans,
        # -- since live spans may be blanked on fallback --
        active = self._active
        self._fragment.carry_cost += sum(
            len(span.text) + 1
            for span, _gap in new_spans
            if span.text and active.spans.get(span.col) is span
        )

    def _fits(self, texts: list[str]) -> bool:
        if not texts:
            return True
        fragment = self._fragment
        if fragment.carry_cost:
            if fragment.carry_cost > self._carry_probe_budget:
                return False
            self._carry_probe_budget -= fragment.carry_cost
        joined = " ".join(t for row_texts in fragment.texts for t in row_texts)
        candidate = f"{joined} {' '.join(texts)}" if joined else " ".join(texts)
        return self._measure(candidate) <= self._maxlen

    def _carried_text_measure(self) -> int:
        active = self._active
        if self._carry_measure_version != active.text_version:
            spans = sorted(active.text_spans.values(), key=lambda s: s.col)
            self._carry_measure_value = self._measure(" ".join(span.text for span in spans))
            self._carry_measure_version = active.text_version
        return self._carry_measure_value
