"""One PDFium page read into what the page stages use: characters, rulings, links, images.

`read_pdfium_page` loads the page, reads it within the page and document bounds, and closes it
(PDFium's page and text page) before returning, so only the `PdfiumPage` summary outlives it.

The page is read in the orientation its text is written in: the rotation that turns at least 80%
of a sample of its characters upright (`text_rotation`), else its `/Rotate` as pdfminer applies
it. A page turned for display (`/Rotate 90`) whose text runs up or down the page is read as its
lines run, top to bottom, where pdfminer's upright test left all of it out or read it
backwards; its `coordinates` are then in that orientation.
It offers what the stages read of a pdfplumber page: `chars`, `lines`, `rects`, `edges`,
`bbox`, `width`, `height`, `images`.

A page with a text object long enough to hold a string PDFium cut (`_chars`: PDFium keeps 32,767
bytes of each string) is not PDFium's to read: `read_pdfium_page` returns None for it, and the
caller reads it with pdfminer's bounded interpreter, as the pdfplumber backend does.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]
from pdfplumber.utils.geometry import obj_to_edges

from partita.partitioners.pdf._limits import MAX_COORDINATE, MAX_PAGE_GLYPHS, DocumentBudget
from partita.partitioners.pdf._lines import LinkArea
from partita.partitioners.pdf.pdfium._chars import Char, read_chars
from partita.partitioners.pdf.pdfium._frame import frame_for
from partita.partitioners.pdf.pdfium._links import read_links
from partita.partitioners.pdf.pdfium._paths import read_rulings

__all__ = ["PdfiumPage", "between_glyphs", "read_pdfium_page", "text_rotation"]

_UNDER_GLYPH = 0.5
_ROTATION_SAMPLES = 32
_ROTATION_MAJORITY = 0.8


@dataclass(slots=False)
class PdfiumPage:
    """A read page, in pdfplumber's form and coordinates (top-left origin, rotation applied)."""

    width: float
    height: float
    chars: list[Char]
    lines: list[dict[str, Any]]
    rects: list[dict[str, Any]]
    images: int
    links: list[LinkArea]
    cuts: tuple[str, ...] = field(default=())

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        """The page's box, as pdfplumber's `Page.bbox`."""
        return (0.0, 0.0, self.width, self.height)

    @cached_property
    def edges(self) -> list[dict[str, Any]]:
        """The rulings' edges, as pdfplumber's `Page.edges` (rectangles' sides, then lines)."""
        return [edge for obj in (*self.rects, *self.lines) for edge in obj_to_edges(obj)]

    def close(self) -> None:
        """Nothing to release: the PDFium page was closed when it was read."""


def read_pdfium_page(document: Any, index: int, budget: DocumentBudget) -> PdfiumPage | None:
    """Read page `index` (0-based) of the pypdfium2 `document` within the document's `budget`,
    or return None, charging nothing, when PDFium cannot read it faithfully: its size is not a
    finite positive one, or a text object has `_chars.MAX_FAITHFUL_OBJECT_CHARS` characters or
    more (PDFium may have cut one of its strings at `_chars.PDFIUM_MAX_STRING_BYTES` bytes).
    The caller then reads the page with pdfminer's bounded interpreter, which reads every
    character of such a string up to the page bounds, as the pdfplumber backend does.

    Raises `DocumentLimitError` when the document's glyph budget runs out on this page.
    """
    glyphs_left = budget.max_glyphs - budget.glyphs
    if glyphs_left <= 0:
        raise _glyphs_refused(budget)
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            count = max(textpage.count_chars(), 0)
            rotation = text_rotation(textpage, count)
            if rotation is None:
                rotation = page.get_rotation() % 360
            frame = frame_for(tuple(page.get_mediabox()), rotation)
            if not (0 < frame.width < MAX_COORDINATE and 0 < frame.height < MAX_COORDINATE):
                return None
            rulings = read_rulings(page, frame)
            limit = min(MAX_PAGE_GLYPHS, glyphs_left)
            read = read_chars(textpage, min(count, limit), frame, rulings.doubled)
            if read.long_object:
                return None
        finally:
            textpage.close()
        budget.glyphs += min(count, limit)
        cuts: list[str] = []
        if count > limit:
            if limit < MAX_PAGE_GLYPHS:
                raise _glyphs_refused(budget)
            cuts.append(f"stopped after {limit:,} glyphs")
        if read.dropped:
            cuts.append(
                f"{read.dropped} character(s) drawn at positions or sizes out of range (not "
                f"finite, or beyond ±{MAX_COORDINATE:.0e} pt) were left out"
            )
        if rulings.cut:
            cuts.append(rulings.cut)
        links = read_links(document, page, frame)
    finally:
        page.close()
    return PdfiumPage(
        frame.width,
        frame.height,
        read.chars + between_glyphs(rulings.spaces, read.chars) if read.chars else read.chars,
        rulings.lines,
        rulings.rects,
        rulings.images,
        links,
        tuple(cuts),
    )


def between_glyphs(spaces: list[Char], chars: list[Char]) -> list[Char]:
    """The `spaces` (`_paths.Rulings.spaces`) placed among the glyphs of their line: one inside a
    glyph's box (more than 0.5 pt past its start) is a space or tab drawn under the glyph and
    left out; one at a glyph's start (within 0.5 pt) is moved just before it, so it separates
    that glyph from the one before and not from the one after."""
    if not spaces:
        return spaces
    lines: dict[int, list[tuple[float, float]]] = {}
    for char in chars:
        if char["upright"]:
            lines.setdefault(round(char["matrix"][5]), []).append((char["x0"], char["x1"]))
    kept: list[Char] = []
    for space in spaces:
        x = space["x0"]
        row = round(space["matrix"][5])
        boxes = [box for key in (row - 1, row, row + 1) for box in lines.get(key, ())]
        if any(x0 + _UNDER_GLYPH < x < x1 - _UNDER_GLYPH for x0, x1 in boxes):
            continue
        starts = [x0 for x0, _ in boxes if abs(x - x0) <= _UNDER_GLYPH]
        if starts:
            x = min(starts) - 0.01
            space = {**space, "x0": x, "x1": x}
        kept.append(space)
    return kept


def text_rotation(textpage: Any, count: int) -> int | None:
    """The clockwise rotation (0, 90, 180 or 270) that turns most of the page's text upright,
    from the direction of `_ROTATION_SAMPLES` characters spread over its `count`; None when
    fewer than `_ROTATION_MAJORITY` of them agree (or it has no text)."""
    handle = textpage.raw
    matrix = pdfium_c.FS_MATRIX()
    votes = [0, 0, 0, 0]
    step = max(1, count // _ROTATION_SAMPLES)
    for index in range(0, count, step):
        if not pdfium_c.FPDFText_GetMatrix(handle, index, ctypes.byref(matrix)):
            continue
        a, b = matrix.a, matrix.b
        if not (math.isfinite(a) and math.isfinite(b)) or a == b == 0.0:
            continue
        if abs(a) >= abs(b):
            votes[0 if a > 0 else 2] += 1
        else:
            votes[1 if b > 0 else 3] += 1
    total = sum(votes)
    best = max(range(4), key=votes.__getitem__)
    if not total or votes[best] < _ROTATION_MAJORITY * total:
        return None
    return 90 * best


def _glyphs_refused(budget: DocumentBudget) -> Exception:
    return budget.refuse(f"its pages draw more than {budget.max_glyphs:,} glyphs", "glyphs")
