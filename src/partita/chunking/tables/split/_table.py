"""Splitting an oversized HTML table into chunks whose HTML holds exactly their text.

`HtmlTableSplitter.iter_subtables()` generates `(text, html)` pairs. Each holds as many whole
rowspan-bound row groups as fit the window (measured text plus one unit per packed row); a group
too big for an empty window is split row by row (re-materializing covered columns), a row too
big alone cell by cell, and a cell too big alone by text splitting. A group whose span was
clipped is not packed with rows of another `<thead>`/`<tbody>`/`<tfoot>`. The HTML of every pair
is a parseable `<table>` whose `rowspan`s never reach past its own rows; the text is the
space-joined non-empty cell texts. With `header_row_count`, leading header rows repeat on every
continuation chunk (see `split._headers`). The splitter only budgets text, so a chunk's HTML can
exceed `maxlen`. Follows unstructured's `_HtmlTableSplitter._iter_subtables` (Apache-2.0): the
output is byte-identical to the reference's.
"""

from __future__ import annotations

from collections.abc import Iterator

from partita.chunking.tables.read._model import HtmlTable
from partita.chunking.tables.split._cells import Measure, TextAndHtml, iter_row_splits
from partita.chunking.tables.split._headers import HeaderRepetition
from partita.chunking.tables.split._row_groups import iter_oversized_group_splits
from partita.chunking.tables.split._rows import RowAccumulator, iter_rowspan_bound_row_groups
from partita.text.sizing._sizer import CHARACTERS, Sizer

__all__ = ["HtmlTableSplitter"]


class HtmlTableSplitter:
    """Splits `table` into `(text, html)` chunks of at most `maxlen` text units.

    Sizes are measured by `sizer`, in characters or tokens.
    `header_row_count` leading rows repeat on continuation chunks (0 disables repetition).
    """

    def __init__(
        self,
        table: HtmlTable,
        *,
        maxlen: int,
        sizer: Sizer = CHARACTERS,
        header_row_count: int = 0,
    ) -> None:
        self._maxlen = maxlen
        self._sizer = sizer
        # -- rows are compared with the window and added up only while they fit: a huge row
        # -- costs the count of about a window --
        self._measure: Measure = sizer.bounded_by(maxlen)
        self._rows = tuple(table.iter_rows())
        self._headers = HeaderRepetition(self._rows, header_row_count, maxlen, sizer)

    @property
    def carried_over_header_row_count(self) -> int:
        """The number of header rows prepended to each continuation chunk, 0 when none are."""
        return self._headers.carried_over_row_count

    @property
    def repeated_header_text(self) -> str:
        """The header text that starts every continuation chunk's text (then a space), "" when
        none does."""
        return self._headers.repeated_text

    def iter_subtables(self) -> Iterator[TextAndHtml]:
        """Generate a `(text, html)` pair for each chunk of the table, in order."""
        if all(row.max_rowspan == 1 for row in self._rows):
            return self._iter_spanless_subtables()
        return self._iter_grouped_subtables()

    def _iter_spanless_subtables(self) -> Iterator[TextAndHtml]:
        """`iter_subtables()` for a table where no cell spans rows: every row is its own group.

        Packs as `RowAccumulator` does, without the group bookkeeping no span calls for.
        """
        headers, measure = self._headers, self._measure
        is_first_chunk = True
        maxlen = headers.maxlen(True)
        used = 0  # -- measured text of the packed rows, plus one per packed row --
        texts: list[str] = []
        trs: list[str] = []
        for row in self._rows:
            size = measure(row.text)
            if maxlen - used < size:
                if trs:
                    yield headers.prepend(
                        " ".join(texts), f"<table>{''.join(trs)}</table>", is_first_chunk
                    )
                    is_first_chunk = False
                    texts, trs = [], []
                maxlen = headers.maxlen(is_first_chunk)
                used = 0
                if maxlen < size:
                    # -- too big for an empty window: split cell by cell --
                    splits = iter_row_splits(
                        row.row_clipped_to_rows(1), headers.maxlen(False), self._sizer
                    )
                    for text, html in splits:
                        yield headers.prepend(text, html, is_first_chunk)
                        is_first_chunk = False
                    maxlen = headers.maxlen(is_first_chunk)
                    continue
            if row.text:
                texts.append(row.text)
            trs.append(row.html)
            used += size + 1
        if trs:
            yield headers.prepend(" ".join(texts), f"<table>{''.join(trs)}</table>", is_first_chunk)

    def _iter_grouped_subtables(self) -> Iterator[TextAndHtml]:
        """`iter_subtables()` for any table: packs whole rowspan-bound row groups."""
        headers = self._headers
        is_first_chunk = True
        accum = self._new_accumulator(is_first_chunk)

        for group in iter_rowspan_bound_row_groups(self._rows):
            # -- a clipped span must not blend with another row group's rows; the group bounds
            # -- already keep every emitted rowspan inside its chunk --
            if (
                accum.crosses_a_row_group_unsafely_if_extended
                and accum.last_row_group_key is not None
                and group.rows[0].row_group_key is not accum.last_row_group_key
            ):
                for text, html in accum.flush():
                    yield headers.prepend(text, html, is_first_chunk)
                    is_first_chunk = False
                accum = self._new_accumulator(is_first_chunk)
            if not accum.will_fit(group):
                for text, html in accum.flush():
                    yield headers.prepend(text, html, is_first_chunk)
                    is_first_chunk = False
                accum = self._new_accumulator(is_first_chunk)
                if accum.will_fit(group):
                    accum.add_rows(group)
                    continue
            else:
                accum.add_rows(group)
                continue

            # -- every fragment but the first carries headers, so all are sized for a
            # -- continuation chunk --
            if len(group.rows) == 1:
                # -- bound the spans even of a lone row: a chunk reassembled later must not
                # -- reach into the rows that follow it --
                bounded_row = group.rows[0].row_clipped_to_rows(group.bounds[0])
                splits = iter_row_splits(bounded_row, headers.maxlen(False), self._sizer)
            else:
                splits = iter_oversized_group_splits(group.rows, headers.maxlen(False), self._sizer)
            for text, html in splits:
                yield headers.prepend(text, html, is_first_chunk)
                is_first_chunk = False
            accum = self._new_accumulator(is_first_chunk)

        for text, html in accum.flush():
            yield headers.prepend(text, html, is_first_chunk)
            is_first_chunk = False

    def _new_accumulator(self, is_first_chunk: bool) -> RowAccumulator:
        return RowAccumulator(self._headers.maxlen(is_first_chunk), self._measure)
