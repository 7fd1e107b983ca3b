"""The document's typography: its body font and its heading classes.

`FontStats` counts characters per *font class* (size rounded to 0.5 pt, bold or not) over the
pages read so far. The class with the most characters is the *body*. A paragraph's class is a
*heading class* when it is clearly more prominent than the body:

- **larger**: at least `LARGER_RATIO` times the body size and at least `LARGER_POINTS` pt more;
- **bolder**: bold, at least the body size less 0.5 pt, while the body is not bold.

Heading classes are ranked, larger sizes first and bold before regular at the same size. A
Title's `category_depth` is decided once per class and then kept for the whole document, so
the same heading font never changes depth:

- at the first Title, every heading class of the short paragraphs seen so far
  (`note_heading_candidate`; the partitioner has read a few pages ahead by then) gets its rank;
- a class first met later takes 0 when it is larger than every class decided so far (a late
  part title does not push the sections down), else one more than the nearest larger class;
- depths stop at `MAX_DEPTH` (deeper classes share it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

__all__ = ["LARGER_POINTS", "LARGER_RATIO", "MAX_DEPTH", "FontClass", "FontStats"]

LARGER_RATIO = 1.15
LARGER_POINTS = 1.0
MAX_DEPTH = 5

FontClass = tuple[float, bool]
"""(size rounded to 0.5 pt, bold)."""


def font_class(size: float, bold: bool) -> FontClass:
    """Return the font class of text of `size` points, bold or not."""
    return (round(size * 2) / 2, bold)


@dataclass(slots=True)
class FontStats:
    """Character counts per font class, and the classes of heading-like paragraphs."""

    chars: Counter[FontClass] = field(default_factory=Counter[FontClass])
    candidates: set[FontClass] = field(default_factory=set[FontClass])
    depths: dict[FontClass, int] = field(default_factory=dict[FontClass, int])

    def add_line(self, size: float, bold: bool, char_count: int) -> None:
        """Count a line's characters."""
        self.chars[font_class(size, bold)] += char_count

    def note_heading_candidate(self, size: float, bold: bool) -> None:
        """Remember the class of a short, stand-alone paragraph (a possible heading)."""
        self.candidates.add(font_class(size, bold))

    @property
    def body(self) -> FontClass:
        """The most common font class (12 pt regular when nothing was counted)."""
        if not self.chars:
            return (12.0, False)
        return max(self.chars.items(), key=lambda item: (item[1], -item[0][0]))[0]

    def is_heading_class(self, size: float, bold: bool) -> bool:
        """True when text of `size` and weight `bold` stands out from the body."""
        body_size, body_bold = self.body
        size = round(size * 2) / 2
        if size >= body_size * LARGER_RATIO and size >= body_size + LARGER_POINTS:
            return True
        return bold and not body_bold and size >= body_size - 0.5

    def heading_depth(self, size: float, bold: bool) -> int:
        """The depth of the heading class of `size` and `bold` (0 = top), fixed at first use."""
        own = font_class(size, bold)
        known = self.depths.get(own)
        if known is not None:
            return known
        if not self.depths:
            ranked = sorted(
                {c for c in self.candidates if self.is_heading_class(*c)} | {own}, key=_rank_key
            )
            for rank, cls in enumerate(ranked):
                self.depths[cls] = min(rank, MAX_DEPTH)
            return self.depths[own]
        larger = [c for c in self.depths if _rank_key(c) < _rank_key(own)]
        depth = 0 if not larger else min(self.depths[max(larger, key=_rank_key)] + 1, MAX_DEPTH)
        self.depths[own] = depth
        return depth


def _rank_key(cls: FontClass) -> tuple[float, bool]:
    return (-cls[0], not cls[1])
