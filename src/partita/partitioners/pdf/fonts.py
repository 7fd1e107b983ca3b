"""The document's typography: its body font and its heading classes.

`FontStats` counts characters per *font class* (size rounded to 0.5 pt, bold or not) over the
pages read so far. The class with the most characters is the *body*. A paragraph's class is a
*heading class* when it is clearly more prominent than the body:

- **larger**: at least `LARGER_RATIO` times the body size and at least `LARGER_POINTS` pt more;
- **bolder**: bold, at least the body size less 0.5 pt, while the body is not bold.

Heading classes are ranked, larger sizes first and bold before regular at the same size; a
Title's `category_depth` is its class's rank among the heading classes of the short paragraphs
seen so far (`note_heading_candidate`). The partitioner reads a few pages ahead before it
decides anything, so the body is known from the start; ranks can still shift when a new,
larger heading class first appears late in the document.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

__all__ = ["LARGER_POINTS", "LARGER_RATIO", "FontClass", "FontStats"]

LARGER_RATIO = 1.15
LARGER_POINTS = 1.0

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
        """The rank of the heading class of `size` and `bold` among those seen (0 = top)."""
        own = font_class(size, bold)
        ranked = sorted(
            {c for c in self.candidates if self.is_heading_class(*c)} | {own},
            key=lambda c: (-c[0], not c[1]),
        )
        return ranked.index(own)
