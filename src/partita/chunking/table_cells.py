"""Splitting one table row that is too big for the chunking window, cell by cell.

`iter_row_splits()` packs whole cells, in order, into single-row `<table><tr>…</tr></table>`
fragments while the measured text of the packed cells plus one unit per empty cell fits `maxlen`.
A cell too big on its own is text-split: in character mode each piece's whole fragment HTML is
kept within `maxlen` (a binary search over word-boundary splits, then a raw cut); in token mode
the text is split to `maxlen - 10` tokens and the HTML is not budgeted. Each generated pair is
`(text, html)` where text is the space-joined cell texts. Follows unstructured's
`_HtmlTableSplitter._iter_row_splits` and `_CellAccumulator` (Apache-2.0), byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from partita.chunking.html_table import HtmlCell, HtmlRow, format_td
from partita.chunking.text_splitter import TextSplitter

__all__ = ["Measure", "TextAndHtml", "iter_row_splits"]

Measure = Callable[[str], int]
"""A function returning the size of a text in chunking units (characters or tokens)."""

TextAndHtml = tuple[str, str]
"""A chunk's text and the `<table>` HTML that holds exactly that text."""


def iter_row_splits(
    row: HtmlRow, maxlen: int, count_tokens: Measure | None = None
) -> Iterator[TextAndHtml]:
    """Generate `(text, html)` fragments of `row`, each holding as many whole cells as fit.

    `count_tokens`, when given, measures in tokens; otherwise sizes are character counts.
    """
    accum = _CellAccumulator(maxlen, count_tokens or len)
    for cell in row.iter_cells():
        if not accum.will_fit(cell):
            yield from accum.flush()
        if accum.will_fit(cell):
            accum.add_cell(cell)
        else:
            yield from _iter_cell_splits(cell, maxlen, count_tokens)
    yield from accum.flush()


def _iter_cell_splits(
    cell: HtmlCell, maxlen: int, count_tokens: Measure | None
) -> Iterator[TextAndHtml]:
    """Generate single-cell `<table>` fragments that together hold the text of `cell`."""
    if count_tokens is not None:
        # -- the HTML tags cost roughly 10-15 tokens, so leave that much room --
        split = TextSplitter(max(1, maxlen - 10), 0, count_tokens=count_tokens)
        remainder = cell.text
        while remainder:
            prior_remainder = remainder
            text, remainder = split(remainder)
            if not text or len(remainder) >= len(prior_remainder):
                # -- one code point can exceed a tiny token budget: keep it whole and move on --
                text, remainder = prior_remainder[:1], prior_remainder[1:].lstrip()
            yield text, f"<table><tr>{format_td(text, cell.colspan, rowspan=1)}</tr></table>"
        return

    empty_td = format_td("", cell.colspan, rowspan=1)
    budget = max(1, maxlen - len(f"<table><tr>{empty_td}</tr></table>"))
    remaining = cell.text
    while True:
        text, html, remaining = _split_cell_fragment(remaining, cell.colspan, maxlen, budget)
        yield text, html
        if not remaining:
            return


def _split_cell_fragment(text: str, colspan: int, maxlen: int, budget: int) -> tuple[str, str, str]:
    """Return `(piece, html, remainder)`, the longest word-boundary piece of `text` whose HTML fits.

    `budget` bounds the raw text handed to the word splitter; escaping can only grow the HTML,
    and a bigger budget only grows the piece, so the fitting budgets form a prefix that a binary
    search can find. When not even one character fits, falls back to a raw cut.
    """
    lo, hi = 1, budget
    best: tuple[str, str, str] | None = None
    while lo <= hi:
        mid = (lo + hi) // 2
        piece, remainder = TextSplitter(mid)(text)
        html = f"<table><tr>{format_td(piece, colspan, rowspan=1)}</tr></table>"
        if len(html) <= maxlen:
            best = (piece, html, remainder)
            lo = mid + 1
        else:
            hi = mid - 1
    return best if best is not None else _truncate_cell_fragment(text, colspan, maxlen)


def _truncate_cell_fragment(text: str, colspan: int, maxlen: int) -> tuple[str, str, str]:
    """Return `(piece, html, remainder)` for the longest raw prefix of `text` whose HTML fits.

    Word boundaries are ignored. The piece is at least one character, even when that overflows,
    so the caller always makes progress.
    """
    lo, hi, best = 0, len(text), 0
    while lo <= hi:
        mid = (lo + hi) // 2
        candidate = f"<table><tr>{format_td(text[:mid], colspan, rowspan=1)}</tr></table>"
        if len(candidate) <= maxlen:
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    best = max(best, 1) if text else 0
    piece = text[:best]
    html = f"<table><tr>{format_td(piece, colspan, rowspan=1)}</tr></table>"
    return piece, html, text[best:]


class _CellAccumulator:
    """Packs cells of one row into a single-row `<table>` fragment that fits the window.

    Use it as `if not accum.will_fit(cell): yield from accum.flush()`, then `add_cell(cell)`.
    The measured text of the packed cells plus one unit per empty cell stays within `maxlen`.
    """

    def __init__(self, maxlen: int, measure: Measure) -> None:
        self._maxlen = maxlen
        self._measure = measure
        self._cells: list[HtmlCell] = []
        self._empty_cell_count = 0
        self._text = ""
        self._text_len = measure("")
        # -- the candidate text measured by the last `will_fit()`, reused by `add_cell()` --
        self._pending_cell: HtmlCell | None = None
        self._pending_text = ""
        self._pending_text_len = self._text_len

    def add_cell(self, cell: HtmlCell) -> None:
        """Add `cell`; the caller has checked that it fits."""
        self._cells.append(cell)
        if cell.text:
            if self._pending_cell is cell:
                self._text = self._pending_text
                self._text_len = self._pending_text_len
            else:
                self._text = f"{self._text} {cell.text}" if self._text else cell.text
                self._text_len = self._measure(self._text)
        else:
            self._empty_cell_count += 1
        self._pending_cell = None

    def flush(self) -> Iterator[TextAndHtml]:
        """Generate zero or one `(text, html)` fragment of the packed cells, then reset."""
        if not self._cells:
            return
        text = self._text
        html = f"<table><tr>{''.join(c.html for c in self._cells)}</tr></table>"
        self._cells.clear()
        self._empty_cell_count = 0
        self._text = ""
        self._text_len = self._measure("")
        self._pending_cell = None
        yield text, html

    def will_fit(self, cell: HtmlCell) -> bool:
        """Return whether `cell` fits in the room the packed cells leave."""
        if not cell.text:
            return self._text_len + self._empty_cell_count + 1 <= self._maxlen
        if self._pending_cell is cell:
            return self._pending_text_len + self._empty_cell_count <= self._maxlen
        candidate_text = f"{self._text} {cell.text}" if self._text else cell.text
        self._pending_cell = cell
        self._pending_text = candidate_text
        self._pending_text_len = self._measure(candidate_text)
        return self._pending_text_len + self._empty_cell_count <= self._maxlen
