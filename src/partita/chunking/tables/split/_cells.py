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

import re
from collections.abc import Callable, Iterator

from partita.chunking.tables.read._model import HtmlCell, HtmlRow, format_td
from partita.text.sizing._sizer import CHARACTERS, Sizer
from partita.text.splitting._splitter import TextSplitter

__all__ = ["Measure", "TextAndHtml", "is_cell_split_starved", "iter_row_splits"]

Measure = Callable[[str], int]
"""A function returning the size of a text in chunking units (characters or tokens)."""

TextAndHtml = tuple[str, str]
"""A chunk's text and the `<table>` HTML that holds exactly that text."""


def iter_row_splits(row: HtmlRow, maxlen: int, sizer: Sizer = CHARACTERS) -> Iterator[TextAndHtml]:
    """Generate `(text, html)` fragments of `row`, each holding as many whole cells as fit.

    Sizes are measured by `sizer`, in characters or tokens.
    """
    # -- a cell's count matters only up to the window: a huge cell costs a window's count --
    measure = sizer.bounded_by(maxlen)
    accum = _CellAccumulator(maxlen, measure)
    for cell in row.iter_cells():
        if not accum.will_fit(cell):
            yield from accum.flush()
        if accum.will_fit(cell):
            accum.add_cell(cell)
        else:
            yield from _iter_cell_splits(cell, maxlen, sizer)
    yield from accum.flush()


def is_cell_split_starved(cell: HtmlCell, maxlen: int, sizer: Sizer) -> bool:
    """True when splitting `cell` (too big for `maxlen`) in `sizer`'s unit would starve, leaving
    no useful room for its text (see each unit's `is_starved`)."""
    return _cell_split_for(sizer).is_starved(cell, maxlen)


def _iter_cell_splits(cell: HtmlCell, maxlen: int, sizer: Sizer) -> Iterator[TextAndHtml]:
    """Generate single-cell `<table>` fragments that together hold the text of `cell`."""
    return _cell_split_for(sizer).iter_splits(cell, maxlen)


class _CharacterCellSplit:
    """Character mode: each piece's whole fragment HTML is kept within `maxlen`."""

    __slots__ = ()

    def is_starved(self, cell: HtmlCell, maxlen: int) -> bool:
        """True when `maxlen` cannot hold a two-character fragment's HTML."""
        # -- a quote has the longest escaped spelling of any character; include a separator when
        # -- the cell has whitespace --
        probe = "' '" if any(c.isspace() for c in cell.text) else "''"
        two_char_fragment_len = len(
            f"<table><tr>{format_td(probe, cell.colspan, rowspan=1)}</tr></table>"
        )
        return maxlen < two_char_fragment_len

    def iter_splits(self, cell: HtmlCell, maxlen: int) -> Iterator[TextAndHtml]:
        """The word-boundary pieces whose HTML fits (`_split_cell_fragment`)."""
        empty_td = format_td("", cell.colspan, rowspan=1)
        budget = max(1, maxlen - len(f"<table><tr>{empty_td}</tr></table>"))
        text, start = cell.text, 0
        while True:
            piece, html, start = _split_cell_fragment(text, start, cell.colspan, maxlen, budget)
            yield piece, html
            if start >= len(text):
                return


class _TokenCellSplit:
    """Token mode: the text is split to `maxlen - 10` tokens (the tags cost roughly 10-15), and
    the HTML is not budgeted."""

    __slots__ = ("_sizer",)

    def __init__(self, sizer: Sizer) -> None:
        self._sizer = sizer

    def is_starved(self, cell: HtmlCell, maxlen: int) -> bool:
        """True when the text room is at most one token or a character of the cell costs more."""
        if maxlen <= 11:
            return True
        split_budget = max(1, maxlen - 10)
        return any(self._sizer.measure(char) > split_budget for char in set(cell.text))

    def iter_splits(self, cell: HtmlCell, maxlen: int) -> Iterator[TextAndHtml]:
        """The splitter's pieces of the cell's text, each in its own fragment."""
        # -- a normalized cell text (no leading space) is split into non-empty pieces that
        # -- always make progress --
        split = TextSplitter(max(1, maxlen - 10), 0, sizer=self._sizer)
        for text in split.iter_pieces(cell.text):
            yield text, f"<table><tr>{format_td(text, cell.colspan, rowspan=1)}</tr></table>"


_CHARACTER_CELL_SPLIT = _CharacterCellSplit()


def _cell_split_for(sizer: Sizer) -> _CharacterCellSplit | _TokenCellSplit:
    """How a cell too big for its room is split, in `sizer`'s unit."""
    return _TokenCellSplit(sizer) if sizer.counts_tokens else _CHARACTER_CELL_SPLIT


def _split_cell_fragment(
    text: str, start: int, colspan: int, maxlen: int, budget: int
) -> tuple[str, str, int]:
    """Return `(piece, html, rest)`, the longest word-boundary piece of `text[start:]` whose HTML
    fits, and where the remainder starts.

    `budget` bounds the raw text handed to the word splitter; escaping can only grow the HTML,
    and a bigger budget only grows the piece, so the fitting budgets form a prefix that a binary
    search can find. When not even one character fits, falls back to a raw cut. The word
    splitter reads at most `budget + 1` characters, so only those are copied (the cell can be
    megabytes long).
    """
    window = text[start : start + budget + 1]
    lo, hi = 1, budget
    best: tuple[str, str, str] | None = None
    while lo <= hi:
        mid = (lo + hi) // 2
        piece, remainder = TextSplitter(mid)(window)
        html = f"<table><tr>{format_td(piece, colspan, rowspan=1)}</tr></table>"
        if len(html) <= maxlen:
            best = (piece, html, remainder)
            lo = mid + 1
        else:
            hi = mid - 1
    if best is None:
        return _truncate_cell_fragment(text, start, colspan, maxlen)
    piece, html, remainder = best
    if remainder:  # -- the window's remainder is the text's from the same (non-space) start --
        return piece, html, start + len(window) - len(remainder)
    return piece, html, _first_non_space(text, start + len(window))


def _truncate_cell_fragment(
    text: str, start: int, colspan: int, maxlen: int
) -> tuple[str, str, int]:
    """Return `(piece, html, rest)` for the longest raw prefix of `text[start:]` whose HTML fits.

    Word boundaries are ignored. The piece is at least one character, even when that overflows,
    so the caller always makes progress. A piece's HTML is at least as long as the piece, so no
    more than `maxlen` characters are tried.
    """
    lo, hi, best = 0, min(len(text) - start, maxlen), 0
    while lo <= hi:
        mid = (lo + hi) // 2
        td = format_td(text[start : start + mid], colspan, rowspan=1)
        candidate = f"<table><tr>{td}</tr></table>"
        if len(candidate) <= maxlen:
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    best = max(best, 1) if start < len(text) else 0
    piece = text[start : start + best]
    html = f"<table><tr>{format_td(piece, colspan, rowspan=1)}</tr></table>"
    return piece, html, start + best


_NON_SPACE = re.compile(r"\S")


def _first_non_space(text: str, pos: int) -> int:
    """The index of the first non-whitespace character of `text` at or after `pos`, or its end."""
    match = _NON_SPACE.search(text, pos)
    return len(text) if match is None else match.start()


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
