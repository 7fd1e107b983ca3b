"""Page furniture: running headers, footers and page numbers.

A paragraph is *in the top band* when it ends within `BAND_SHARE` of the page height from the
top, *in the bottom band* when it starts within that share from the bottom. A paragraph in a
band is a PageNumber when it is a page number on its own ("7", "- 7 -", "Page 7", "Page 7 of
20", "vii"; `partita.partitioners._text.PAGE_NUMBER`), on any page, even the only one, unless
it stands on one line with another such number (years over a table's columns). The page's
lowest paragraph is in the bottom band wherever it stands when it is a page number in digits
(a letter page printed on A4 leaves its number high above the page's bottom). Another
paragraph in a band is furniture (Header at the top, Footer at the bottom) when

- its text, with digits masked and case and spacing ignored, stands at about the same height
  (`_Y_TOLERANCE` pt) on at least `REPEAT_SHARE` of the pages within `WINDOW` pages before and
  after its page, its own page counted (so on at least one other page: on a two-page document,
  both pages must show it; in a full window, 3 of the 8 others). Counting its own page lets a
  running header printed on every other page of a short document count as one (the even pages
  of four or five pages: two of four, two of five); with the other pages alone, one of three or
  four was too few; or
- it stands on one line with a page number in the same band (their heights overlap by half
  the taller one): the running head printed beside the page number ("LayoutParser: A Unified
  Toolkit ...   5"). Only a page number the band holds alone, written with digits and not in
  brackets, on the band's outermost line (no paragraph between it and the page's edge), and
  standing at the same height on another page of the window (any number there: digits masked)
  unless the document has a single page, has a running head beside it: "(1)", "[5]" and "V"
  are as often paragraph, reference or table labels, several numbers in one band are figure
  labels or a list, and a number in a table row near the page's edge has the footer below it.

A paragraph in a heading font class (see `_fonts`) must repeat with its digits too, and is never
furniture by standing beside a page number: "Chapter 1", "Chapter 2", ... at the top of
successive pages are headings, not a running header.

Only `WINDOW` pages of look-ahead are needed, so the decision streams. Each page's band texts
are indexed (`PageBands`: sorted heights per text), so a paragraph is matched against a
neighbouring page in logarithmic time, however many paragraphs its bands hold.
"""

from __future__ import annotations

import itertools
import math
import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from partita.partitioners._text import PAGE_NUMBER

__all__ = [
    "BAND_SHARE",
    "REPEAT_SHARE",
    "WINDOW",
    "BandText",
    "PageBands",
    "band_texts",
    "crowded_numbers",
    "furniture_kind",
    "page_numbers_of",
]

BAND_SHARE = 0.15
REPEAT_SHARE = 0.4
WINDOW = 4
_Y_TOLERANCE = 4.0

_DIGITS = re.compile(r"\d+(?:[a-z](?![a-z]))?")
"""A number masked in a band text, with a letter closing it ("Item 7A" and "Item 8" are one
running head)."""


@dataclass(frozen=True, slots=True)
class BandText:
    """A paragraph in a page's top or bottom band, reduced to what repeats across pages."""

    key: str
    top: float
    at_top: bool
    exact: str = ""
    """The text with case and spacing ignored but its digits kept."""
    bottom: float = 0.0
    """Where the paragraph ends (top-down, as `top`)."""

    @property
    def is_page_number(self) -> bool:
        """`True` when the paragraph is a page number on its own."""
        return PAGE_NUMBER.match(self.exact) is not None

    def is_below(self, other: BandText) -> bool:
        """`True` when `other` lies wholly between this paragraph and the page's edge in the
        same band: above it in the top band, below it in the bottom band."""
        if self.at_top != other.at_top:
            return False
        return other.bottom <= self.top if self.at_top else other.top >= self.bottom

    def is_beside(self, other: BandText) -> bool:
        """`True` when this paragraph and `other` are in the same band and on one line: their
        heights overlap by at least half the taller one (a paragraph of several lines is not
        beside a one-line page number)."""
        overlap = min(self.bottom, other.bottom) - max(self.top, other.top)
        height = max(self.bottom - self.top, other.bottom - other.top)
        return self.at_top == other.at_top and overlap > 0 and overlap >= height / 2


class PageBands:
    """One page's band texts, indexed by text (digits masked, and exact) for `furniture_kind`."""

    __slots__ = ("_by_exact", "_by_key")

    def __init__(self, bands: Iterable[BandText]) -> None:
        self._by_key: dict[str, list[float]] = {}
        self._by_exact: dict[str, list[float]] = {}
        for band in bands:
            self._by_key.setdefault(band.key, []).append(band.top)
            self._by_exact.setdefault(band.exact, []).append(band.top)
        for tops in (*self._by_key.values(), *self._by_exact.values()):
            tops.sort()

    def repeats(self, band: BandText, *, exact: bool) -> bool:
        """True when this page has `band`'s text (with its digits when `exact`) within
        `_Y_TOLERANCE` of its height."""
        tops = (self._by_exact if exact else self._by_key).get(band.exact if exact else band.key)
        if not tops:
            return False
        k = bisect_left(tops, band.top - _Y_TOLERANCE)
        return k < len(tops) and tops[k] <= band.top + _Y_TOLERANCE


def band_texts(
    blocks: Sequence[tuple[str, float, float]], page_height: float
) -> list[BandText | None]:
    """Return, for each (text, top, bottom) paragraph, its `BandText`, or None if in no band.

    The page's lowest paragraph, when it is a page number written with digits, is in the
    bottom band wherever it stands: a page whose content fills only its upper part (a letter
    page printed on A4) has its number far above the page's bottom band."""
    band = BAND_SHARE * page_height
    lowest = max(range(len(blocks)), key=lambda k: blocks[k][1], default=-1)
    out: list[BandText | None] = []
    for k, (text, top, bottom) in enumerate(blocks):
        exact = " ".join(text.casefold().split())
        low = top >= page_height - band or (
            k == lowest
            and top > page_height / 2
            and any(c.isdigit() for c in exact)
            and PAGE_NUMBER.match(exact) is not None
        )
        if bottom <= band or low:
            out.append(BandText(_DIGITS.sub("#", exact), top, bottom <= band, exact, bottom))
        else:
            out.append(None)
    return out


def crowded_numbers(bands: Sequence[BandText | None]) -> set[int]:
    """The indexes of the page-number-like band texts standing beside another one on one line
    (the years over a table's columns, a row of figures): none of them is a page number.
    Sorted by height, each is compared with the next few only (lines beside each other
    overlap in height), so the cost stays linear in the band texts."""
    numbers = sorted(
        (k for k, band in enumerate(bands) if band is not None and band.is_page_number),
        key=lambda k: bands[k].top,  # type: ignore[union-attr]
    )
    out: set[int] = set()
    for a, b in itertools.pairwise(numbers):
        first, second = bands[a], bands[b]
        if first is not None and second is not None and first.is_beside(second):
            out.update((a, b))
    return out


def furniture_kind(
    text: str,
    band: BandText | None,
    neighbours: Sequence[PageBands],
    *,
    heading: bool = False,
    page_numbers: Sequence[BandText] = (),
    crowded: bool = False,
) -> str | None:
    """Return "PageNumber", "Header", "Footer" or None for the paragraph `text` whose band is
    `band`.

    `neighbours` holds the band texts of the other pages in the window; `heading` is True when
    the paragraph is in a heading font class (then its digits must repeat too); `page_numbers`
    holds the page numbers of this page a running head may stand beside (`page_numbers_of`);
    `crowded` is True when the paragraph stands beside another number (`crowded_numbers`), so
    it is no page number.
    """
    if band is None:
        return None
    if PAGE_NUMBER.match(text.strip()):
        return None if crowded else "PageNumber"
    kind = "Header" if band.at_top else "Footer"
    if not heading and any(band.is_beside(number) for number in page_numbers):
        return kind
    if not neighbours:
        return None
    hits = sum(1 for page in neighbours if page.repeats(band, exact=heading))
    # -- the share is of the window's pages, this one included (it shows the text): a header
    # -- on every other page of a short document (the even pages of four) reaches it --
    needed = max(1, math.ceil(REPEAT_SHARE * (len(neighbours) + 1) - 1e-9) - 1)
    return kind if hits >= needed else None


def page_numbers_of(
    bands: Iterable[BandText | None], neighbours: Sequence[PageBands]
) -> list[BandText]:
    """Return the page numbers of one page that a running head may stand beside: each alone in
    its band, written with digits, not in brackets, and repeated (digits masked) on a page of
    `neighbours` when there are any (see the module docstring)."""
    present = [band for band in bands if band is not None]
    numbers = [band for band in present if band.is_page_number]
    return [
        number
        for number in numbers
        if sum(other.at_top == number.at_top for other in numbers) == 1
        and not any(number.is_below(other) for other in present)
        and any(c.isdigit() for c in number.exact)
        and number.exact[:1] not in "([{"
        and number.exact[-1:] not in ")]}"
        and (not neighbours or any(page.repeats(number, exact=False) for page in neighbours))
    ]
