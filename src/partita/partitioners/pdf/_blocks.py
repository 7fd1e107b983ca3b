"""Lines in reading order to paragraphs (`Block`s), and a paragraph's text and links.

A line continues the paragraph before it unless one of these says it starts a new one:

- it starts with a bullet or a list number (`BULLET_LINE`, `NUMBERED_LINE`);
- its font size differs from the paragraph's by more than 0.5 pt, or its weight (bold or not);
- it is not just below the previous line: on the same row, above it (a new column), not
  overlapping the paragraph horizontally, or further below than the page's usual line gap plus
  `PARAGRAPH_GAP_EM` em (the usual gap is measured per page, so double-spaced text works);
- it is indented by more than `INDENT_EM` em from the line before (a first-line indent), unless
  the paragraph is a list item (a hanging indent) or centred: the line centred on the line
  before and that one on the paragraph so far (a left-aligned paragraph's short last line
  centred by chance on the next one's indented first line, as a column's footnotes often
  are, does not join them);
- the line before ends a sentence and stops more than 4 em short of the paragraph's right edge;
- the line before ends with a dot leader (four dots or more, spaced or not, or ellipses,
  maybe followed by a page number; or three dots and a page number in digits): a table of
  contents entry ("1.2 Scope ........ 7") is a paragraph of its own, however close the next
  entry stands (only the line's last `_LEADER_TAIL` characters are looked at).

Joining: a line ending in a hyphen after a letter, followed by a line starting with a lowercase
letter, is joined without the hyphen ("hyphen-\\nated" → "hyphenated"); a soft hyphen likewise.
Chinese and Japanese text is joined without a space, everything else (Korean included: Hangul
wraps at word spaces) with one.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from partita.elements import Link
from partita.partitioners._text import BULLET_LINE, NUMBERED_LINE
from partita.partitioners.pdf._lines import BBox, Line
from partita.text._scripts import wraps_without_space

__all__ = ["INDENT_EM", "PARAGRAPH_GAP_EM", "Block", "ends_with_leader", "lines_to_blocks"]

PARAGRAPH_GAP_EM = 0.4
"""Extra vertical space, in em, beyond the usual line gap that separates two paragraphs."""

INDENT_EM = 0.8
"""A line indented by more than this many em from the line before starts a paragraph."""

_SENTENCE_END = frozenset(".!?:。！？")

_LEADER_TAIL = 48
_LEADER_END = re.compile(
    r"(?:(?:[.·∙…]\s?){4,}\s*(?:\d{1,4}|[ivxlcdm]{1,7})?|(?:[.·∙…]\s?){3}\s*\d{1,4})\s*$",
    re.IGNORECASE,
)
"""A dot leader at the end of a line, maybe followed by a page number (searched in the line's
last `_LEADER_TAIL` characters only, so in constant time)."""


@dataclass(slots=True)
class Block:
    """A paragraph: consecutive lines of one column, in one font size and weight."""

    lines: list[Line] = field(default_factory=list[Line])

    @property
    def first(self) -> Line:
        return self.lines[0]

    @property
    def size(self) -> float:
        """The paragraph's font size (its first line's)."""
        return self.lines[0].size

    @property
    def bold(self) -> bool:
        return self.lines[0].bold

    @property
    def bbox(self) -> BBox:
        return (
            min(line.x0 for line in self.lines),
            min(line.top for line in self.lines),
            max(line.x1 for line in self.lines),
            max(line.bottom for line in self.lines),
        )

    @property
    def starts_list_item(self) -> bool:
        text = self.lines[0].text
        return bool(BULLET_LINE.match(text) or NUMBERED_LINE.match(text))

    def text_and_links(self) -> tuple[str, tuple[Link, ...]]:
        """Return the paragraph's joined text and its links (offsets into that text)."""
        out = ""
        links: list[Link] = []
        for line in self.lines:
            text = line.text.strip()
            if not text:
                continue
            shift = len(line.text) - len(line.text.lstrip())
            if out:
                last = out[-1]
                if last == "\u00ad" or (
                    last == "-" and len(out) > 1 and out[-2].isalpha() and text[0].islower()
                ):
                    out = out[:-1]
                elif not (wraps_without_space(last) and wraps_without_space(text[0])):
                    out += " "
            base = len(out) - shift
            out += text
            for start, end, url in line.links:
                start = max(start + base, base + shift)
                end = min(end + base, len(out))
                if end > start:
                    links.append(Link(out[start:end], url, start))
        if "\u00ad" in out:
            out, links = _drop_soft_hyphens(out, links)
        return out, tuple(links)


def _drop_soft_hyphens(text: str, links: list[Link]) -> tuple[str, list[Link]]:
    clean = text.replace("\u00ad", "")
    moved = [
        Link(
            (link.text or "").replace("\u00ad", ""),
            link.url,
            (link.start_index or 0) - text.count("\u00ad", 0, link.start_index or 0),
        )
        for link in links
    ]
    return clean, moved


def ends_with_leader(text: str) -> bool:
    """True when `text` ends with a dot leader, maybe followed by a page number: a table of
    contents entry ("1.2 Scope ........ 7"). Constant time: only its end is looked at."""
    return _LEADER_END.search(text[-_LEADER_TAIL:]) is not None


def lines_to_blocks(lines: Sequence[Line]) -> list[Block]:
    """Return `lines` (in reading order) grouped into paragraphs, in the same order."""
    gap_ratio = _usual_gap_ratio(lines)
    blocks: list[Block] = []
    block: Block | None = None
    left = right = 0.0  # -- the block's horizontal extent, kept as lines join (linear time) --
    for line in lines:
        if block is not None and _continues(block, line, left, right, gap_ratio):
            block.lines.append(line)
            left = min(left, line.x0)
            right = max(right, line.x1)
            continue
        block = Block([line])
        blocks.append(block)
        left, right = line.x0, line.x1
    return blocks


def _usual_gap_ratio(lines: Sequence[Line]) -> float:
    ratios = [
        (b.top - a.bottom) / b.size
        for a, b in itertools.pairwise(lines)
        if abs(a.size - b.size) <= 0.5
        and b.size > 0
        and -0.3 < (b.top - a.bottom) / b.size < 1.5
        and a.x0 < b.x1
        and b.x0 < a.x1
    ]
    return statistics.median(ratios) if ratios else 0.3


def _continues(block: Block, line: Line, left: float, right: float, gap_ratio: float) -> bool:
    prev = block.lines[-1]
    size = line.size
    if abs(size - block.size) > 0.5 or line.bold != block.bold:
        return False
    text = line.text
    if BULLET_LINE.match(text) or NUMBERED_LINE.match(text):
        return False
    gap = line.top - prev.bottom
    if gap < -0.3 * size or gap > (gap_ratio + PARAGRAPH_GAP_EM) * size:
        return False
    if line.x0 >= right or line.x1 <= left:
        return False
    # -- a centred block (a heading over several lines): the line is centred on the line
    # -- before, and that one on the block; not a left-aligned paragraph whose short last line
    # -- happens to be centred on the next paragraph's indented first line --
    centred = (
        abs((line.x0 + line.x1) - (prev.x0 + prev.x1)) < 0.5 * size
        and abs((prev.x0 + prev.x1) - (left + right)) < 0.5 * size
    )
    if line.x0 - prev.x0 > INDENT_EM * size and not centred and not block.starts_list_item:
        return False
    if ends_with_leader(prev.text):
        return False  # -- a table of contents entry ends at its page number --
    ends = prev.text.rstrip()[-1:]
    return not (len(block.lines) >= 2 and ends in _SENTENCE_END and prev.x1 < right - 4 * size)
