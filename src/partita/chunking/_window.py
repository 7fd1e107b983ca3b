"""The chunk window: the hard maximum of a run's chunks, in its unit.

A window is `size` characters, or `size` tokens as a tokenizer counts them (`max_tokens` with a
`tokenizer`). `ChunkWindow` answers what the stages ask of it without their knowing the unit:
whether a text fits, whether a size already known fits, how big a span is, how many pieces a
text can make, which option sets it, and the smallest window worth an HTML table.

Where sizing itself differs by unit, a unit's class is picked once, from the window or its
sizer: pre-chunking's raw-text sizes (`_prechunk`), by_title's combining sizes, row-group
splitting (`tables.split._row_groups`) and cell splitting (`tables.split._cells`), each a
character class (the reference's arithmetic on lengths, its HTML budget) and a token class
(counts exact up to the window); the piece tracer follows the character or the token splitter's
cuts (`_tracing`). Nothing else reads the unit.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from partita.text.sizing._sizer import CHARACTERS, Sizer

__all__ = ["ChunkWindow"]


@dataclass(frozen=True, slots=True)
class ChunkWindow:
    """A window of `size` units, measured by `sizer` (characters or tokens)."""

    size: int
    sizer: Sizer

    @property
    def in_tokens(self) -> bool:
        """True when the window counts tokens, False for characters."""
        return self.sizer.counts_tokens

    @property
    def option_name(self) -> str:
        """The option that sets a window in this unit: "max_tokens" or "max_characters"."""
        return "max_tokens" if self.in_tokens else "max_characters"

    @property
    def min_html_size(self) -> int:
        """The smallest window a table's chunks keep their HTML in: 15 tokens or 50 characters
        (the markup alone needs about that much)."""
        return 15 if self.in_tokens else 50

    def in_characters(self) -> ChunkWindow:
        """This window's size, counted in characters."""
        return replace(self, sizer=CHARACTERS)

    def fits(self, text: str) -> bool:
        """`sizer.measure(text) <= size`; in tokens a long text costs the count of about a
        window, not of the whole text (see `Sizer.fits`)."""
        return self.sizer.fits(text, self.size)

    def span_size(self, text: str, start: int, end: int) -> int:
        """The size of `text[start:end]`, exact up to the window and above it when over: its
        length in characters (no copy is made), or its tokens counted at the cost of about a
        window (`Sizer.measure_at_most`)."""
        if not self.in_tokens:
            return end - start
        return self.sizer.measure_at_most(text[start:end], self.size)

    def piece_count_bound(self, text: str) -> int | None:
        """An upper bound on the pieces the run's splitter cuts `text` into: its length in
        characters (every piece takes at least one character of it); None in tokens, where only
        splitting tells."""
        return None if self.in_tokens else len(text)

    def is_known_to_fit(self, text: str, token_count: int | None) -> bool:
        """True when `text` fits without counting its tokens: by its length in characters, or by
        its `token_count` when known; False when only a count would tell (a caller then lets
        its splitter measure, which returns a text that fits whole)."""
        if not self.in_tokens:
            return len(text) <= self.size
        return token_count is not None and token_count <= self.size
