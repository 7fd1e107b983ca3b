"""Characters to lines: one pass over a page's characters.

The characters come from the page's layout as `_interpreter` builds it, which leaves out those
drawn out of range: their boxes, sizes and baselines are finite and within ±1e9.

A `Line` is a run of characters on one baseline (from each glyph's text matrix) with no gap
wider than `SEGMENT_GAP_EM` em between them and no narrow column gutter (a gap of at least 0.6
em that lines up down the page, see `_gutters`) inside: a line of one column, a table-less
cell, a heading, a running header. Two columns printed side by side give two `Line`s for each
printed line, so reading order can be settled later from the lines' boxes alone.

Cleaning done here, while the characters are visited once:

- rotated characters (`upright` false) are left out: margin stamps, rotated axis labels;
- "fake bold" (the same glyph drawn twice at almost the same place) is drawn once;
- ligature glyphs (`ﬁ`, `ﬂ`, ...) are spelled out; unmapped glyphs (`(cid:12)`) are dropped,
  except one opening a line, which is read as a bullet (symbol-font bullets often have no
  Unicode mapping): the first glyph of a printed line, or one after a gap that ends a line (a
  column gutter: the right column's part of the printed line), whether the glyph before was
  kept or not, when its next mapped glyph (spaces and other unmapped glyphs passed over)
  starts within `_LABEL_GAP_EM` em of it. So the right column's bulleted list keeps its
  bullets as the left column's does, and an unmapped glyph standing alone beside a column's
  text (a scattered icon) is not read as one;
- a space is put between two glyphs whose gap is wider than `WORD_GAP_EM` em, or where the PDF
  drew a space character;
- link annotations: the characters inside a link's box carry its URL (`Line.links`); the boxes
  are looked up in a grid (`_boxes.BoxIndex`), at most `MAX_LINK_CHECKS` box tests per page
  (`LinkFinder.exhausted` tells when characters beyond were left without their URL).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from partita.partitioners.pdf._boxes import BoxIndex
from partita.partitioners.pdf._gutters import gutter_cuts

__all__ = [
    "MAX_LINK_CHECKS",
    "SEGMENT_GAP_EM",
    "WORD_GAP_EM",
    "BBox",
    "Line",
    "LinkArea",
    "LinkFinder",
    "chars_to_lines",
    "is_bold_font",
]

BBox = tuple[float, float, float, float]
"""(x0, top, x1, bottom) in PDF points, origin at the top left (pdfplumber's convention)."""

WORD_GAP_EM = 0.18
"""A gap between two glyphs wider than this many em (of the larger glyph) is a space."""

SEGMENT_GAP_EM = 1.1
"""A gap wider than this many em ends a line: the gutter between columns or table cells."""

_BASELINE_TOLERANCE_EM = 0.45
"""Characters sorted by baseline stay on one line while each baseline is within this many em of
the one before: sub- and superscripts (shifted 0.2-0.4 em) stay on their line, the next line
(at least 1 em lower) starts a new one."""

MAX_LINK_CHECKS = 2_000_000
"""Tests of a character against a link box, per page: with link boxes filed in a grid a real
page needs about one per character; thousands of tiny link boxes piled where the text is could
otherwise cost a test per box for every character."""

_LABEL = re.compile(r"^(?:[1-9]\d{0,2}(?:\.\d{1,3})*\.?|[A-Z]\.|[IVX]{1,5}\.|[•●○◦▪■□‣⁃∙·►▸–*-])$")
_LABEL_GAP_EM = 5.0

_LIGATURES: Mapping[str, str] = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
    "\u00a0": " ",
}
_CID = re.compile(r"^\(cid:\d+\)$")
_BOLD_NAME = re.compile(
    r"bold|black|heavy|semibd|demi|extrab|ultrab|-medi\b|^cmbx|^cmb\d|,b$|-b$|-bd\b", re.I
)


@dataclass(frozen=True, slots=True)
class LinkArea:
    """A URI link annotation: its box and target."""

    bbox: BBox
    url: str


class LinkFinder:
    """The URL of the first link area (in the given order) around a character's centre, within
    1 pt, looked up in a grid; after `MAX_LINK_CHECKS` box tests it finds none (`exhausted`)."""

    __slots__ = ("_index", "_urls", "exhausted")

    def __init__(self, links: Sequence[LinkArea]) -> None:
        self._index = BoxIndex([link.bbox for link in links], pad=1.0)
        self._urls = [link.url for link in links]
        self.exhausted = False

    def __bool__(self) -> bool:
        return bool(self._urls)

    def url_at(self, char: Mapping[str, Any]) -> str | None:
        """The URL of the link `char` is in, or None."""
        if self.exhausted:
            return None
        cx = (char["x0"] + char["x1"]) / 2
        cy = (char["top"] + char["bottom"]) / 2
        found = self._index.first_containing(cx, cy)
        if self._index.checks > MAX_LINK_CHECKS:
            self.exhausted = True
        return None if found is None else self._urls[found]


@dataclass(slots=True)
class Line:
    """One printed line (or one column's part of it) with its typography."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    """The font size most of its characters have, rounded to 0.1 pt."""
    bold: bool
    """True when most of its characters are bold (by font name, or drawn twice)."""
    char_count: int
    links: tuple[tuple[int, int, str], ...] = ()
    """(start, end, url) spans of `text` inside link annotations."""

    @property
    def bbox(self) -> BBox:
        """The line's box."""
        return (self.x0, self.top, self.x1, self.bottom)


_bold_cache: dict[str, bool] = {}


def is_bold_font(fontname: str) -> bool:
    """True when `fontname` names a bold (or heavier) face, e.g. "ABCDEF+Arial-BoldMT"."""
    cached = _bold_cache.get(fontname)
    if cached is None:
        cached = bool(_BOLD_NAME.search(fontname.partition("+")[2] or fontname))
        if len(_bold_cache) < 4096:
            _bold_cache[fontname] = cached
    return cached


def chars_to_lines(
    chars: Iterable[Mapping[str, Any]],
    *,
    exclude: Sequence[BBox] = (),
    links: Sequence[LinkArea] | LinkFinder = (),
) -> list[Line]:
    """Return the lines formed by pdfplumber `chars`, top to bottom and left to right.

    Characters whose centre lies in one of the `exclude` boxes (tables) are left out; those in
    `links` carry its URL.
    """
    upright = [c for c in chars if c["upright"]]
    if exclude:
        index = BoxIndex(exclude)
        upright = [c for c in upright if not _inside_any(c, index)]
    finder = links if isinstance(links, LinkFinder) else LinkFinder(links)
    keyed = sorted(((-char["matrix"][5], char) for char in upright), key=_first)
    clusters: list[list[Mapping[str, Any]]] = []
    cluster: list[Mapping[str, Any]] = []
    last = 0.0
    last_size = 0.0
    tolerance = _BASELINE_TOLERANCE_EM
    for baseline, char in keyed:
        size = char["size"]
        if cluster and baseline - last > tolerance * (size if size > last_size else last_size):
            clusters.append(cluster)
            cluster = []
        cluster.append(char)
        last = baseline
        last_size = size
    if cluster:
        clusters.append(cluster)
    for cluster in clusters:
        cluster.sort(key=_x0_key)
    lines: list[Line] = []
    for cluster, cuts in zip(clusters, gutter_cuts(clusters, WORD_GAP_EM), strict=True):
        _cluster_to_lines(cluster, finder, lines, cuts)
    return _merged_labels(lines)


def _first(item: tuple[float, Mapping[str, Any]]) -> float:
    return item[0]


def _x0_key(char: Mapping[str, Any]) -> float:
    x0: float = char["x0"]
    return x0


def _inside_any(char: Mapping[str, Any], boxes: BoxIndex) -> bool:
    cx = (char["x0"] + char["x1"]) / 2
    cy = (char["top"] + char["bottom"]) / 2
    return boxes.first_containing(cx, cy) is not None


class _LineBuilder:
    """Accumulates the glyphs of one line; `flush` returns it as a `Line` (or None if blank).

    `add` only keeps the text and the glyph; the line's box, font size and weight are computed
    once, at `flush`, over all its glyphs (`map` over the glyphs runs in C, a per-glyph update
    in Python cost as much as the rest of the line finder)."""

    __slots__ = (
        "chars",
        "dup_chars",
        "length",
        "link_spans",
        "parts",
        "pending_space",
        "prev",
        "url",
        "url_start",
    )

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.chars: list[Mapping[str, Any]] = []
        self.length = 0
        self.dup_chars = 0
        self.prev: Mapping[str, Any] | None = None
        self.pending_space = False
        self.link_spans: list[tuple[int, int, str]] = []
        self.url: str | None = None
        self.url_start = 0

    def add(self, char: Mapping[str, Any], text: str, url: str | None) -> None:
        if url is None and self.url is None:  # -- the usual case: no link to track --
            if self.pending_space and self.parts:
                self.parts.append(" ")
                self.length += 1
            self.parts.append(text)
            self.length += len(text)
        else:
            if self.pending_space and self.parts:
                self._append(" ", url if url == self.url else None)
            self._append(text, url)
        self.pending_space = False
        self.prev = char
        self.chars.append(char)

    def _append(self, text: str, url: str | None) -> None:
        if url != self.url:
            self._close_link()
            self.url = url
            self.url_start = self.length
        self.parts.append(text)
        self.length += len(text)

    def _close_link(self) -> None:
        if self.url is not None:
            end = self.length
            if self.parts and self.parts[-1] == " ":
                end -= 1
            if end > self.url_start:
                self.link_spans.append((self.url_start, end, self.url))
        self.url = None

    def flush(self) -> Line | None:
        self._close_link()
        chars = self.chars
        count = len(chars)
        if not count:
            return None
        sizes: Counter[float] = Counter()
        for size, n in Counter(map(_SIZE, chars)).items():
            sizes[round(size, 1)] += n
        size = max(sizes.items(), key=lambda item: (item[1], item[0]))[0]
        fonts = Counter(map(_FONTNAME, chars))
        bold_chars = sum(n for name, n in fonts.items() if is_bold_font(name))
        bold = bold_chars * 2 > count or self.dup_chars * 2 >= count
        return Line(
            "".join(self.parts),
            min(map(_X0, chars)),
            min(map(_TOP, chars)),
            max(map(_X1, chars)),
            max(map(_BOTTOM, chars)),
            size,
            bold,
            count,
            tuple(self.link_spans),
        )


_SIZE = itemgetter("size")
_FONTNAME = itemgetter("fontname")
_X0 = itemgetter("x0")
_X1 = itemgetter("x1")
_TOP = itemgetter("top")
_BOTTOM = itemgetter("bottom")


def _cluster_to_lines(
    cluster: list[Mapping[str, Any]],
    links: LinkFinder,
    out: list[Line],
    cuts: frozenset[int],
) -> None:
    """Append the lines of one printed line (`cluster`, sorted left to right) to `out`: cut at
    gaps wider than `SEGMENT_GAP_EM` em and before the characters at the `cuts` indexes."""
    builder = _LineBuilder()
    has_links = bool(links)
    last: Mapping[str, Any] | None = None  # -- the glyph before, added or dropped --
    following: list[int] | None = None  # -- `_next_mapped`, computed at the first bullet --
    for index, char in enumerate(cluster):
        text: str = char["text"]
        if not text or text.isspace():
            builder.pending_space = True
            continue
        if len(text) > 1 and _CID.match(text):
            # -- an unmapped glyph is a symbol-font bullet where it opens a line: first on the
            # -- printed line, or after a gap that ends a line (the right column's part of it)
            # -- with text after it; it is dropped anywhere else --
            first = last is None
            opens = (
                last is None
                or index in cuts
                or char["x0"] - last["x1"] > SEGMENT_GAP_EM * max(char["size"], last["size"])
            )
            last = char
            if not opens:
                continue
            if builder.prev is not None:
                line = builder.flush()
                if line is not None:
                    out.append(line)
                builder = _LineBuilder()
            if not first:
                if following is None:
                    following = _next_mapped(cluster)
                after = following[index]
                if after < 0 or cluster[after]["x0"] - char["x1"] > _LABEL_GAP_EM * max(
                    char["size"], cluster[after]["size"]
                ):
                    continue  # -- no text after it: a scattered icon, a symbol-font word --
            text = "\u2022"
        last = char
        text = _LIGATURES.get(text, text)
        prev = builder.prev
        if prev is not None:
            size = char["size"]
            if prev["size"] > size:
                size = prev["size"]
            gap = char["x0"] - prev["x1"]
            if gap > SEGMENT_GAP_EM * size or (cuts and index in cuts):
                line = builder.flush()
                if line is not None:
                    out.append(line)
                builder = _LineBuilder()
            elif (
                prev["text"] == char["text"]
                and abs(char["x0"] - prev["x0"]) <= min(1.0, 0.5 * (prev["x1"] - prev["x0"]))
                and abs(char["top"] - prev["top"]) <= 1.0
            ):
                builder.dup_chars += 1
                continue
            elif gap > WORD_GAP_EM * size:
                builder.pending_space = True
        url = links.url_at(char) if has_links else None
        builder.add(char, text, url)
    line = builder.flush()
    if line is not None:
        out.append(line)


def _next_mapped(cluster: list[Mapping[str, Any]]) -> list[int]:
    """For each glyph of `cluster`, the index of the next mapped glyph after it (spaces and
    unmapped glyphs passed over), or -1: one pass from the right."""
    out = [-1] * len(cluster)
    following = -1
    for k in range(len(cluster) - 1, -1, -1):
        out[k] = following
        text: str = cluster[k]["text"]
        if text and not text.isspace() and not (len(text) > 1 and _CID.match(text)):
            following = k
    return out


def _merged_labels(lines: list[Line]) -> list[Line]:
    """Return `lines` with a section number or bullet set apart from its text by a wide gap
    ("3.1      Scope", "•      item") joined to the line on its right, unless that line starts
    with a digit (numbers side by side in a table)."""
    out: list[Line] = []
    for line in lines:
        prev = out[-1] if out else None
        if (
            prev is not None
            and _LABEL.match(prev.text)
            and not line.text[:1].isdigit()  # -- "0.82      0.85": numbers in table cells --
            and abs(prev.top - line.top) < 0.5 * line.size
            and 0 < line.x0 - prev.x1 < _LABEL_GAP_EM * line.size
        ):
            shift = len(prev.text) + 1
            out[-1] = Line(
                f"{prev.text} {line.text}",
                prev.x0,
                min(prev.top, line.top),
                line.x1,
                max(prev.bottom, line.bottom),
                line.size,
                line.bold,
                prev.char_count + line.char_count,
                tuple((a + shift, b + shift, url) for a, b, url in line.links),
            )
        else:
            out.append(line)
    return out
