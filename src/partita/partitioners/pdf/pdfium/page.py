"""One PDFium page read into what the page stages use: characters, rulings, links, images.

`read_pdfium_page` loads the page, reads it within the page and document bounds, and closes it
(PDFium's page and text page) before returning, so only the `PdfiumPage` summary outlives it.
It offers what the stages read of a pdfplumber page: `chars`, `lines`, `rects`, `edges`,
`bbox`, `width`, `height`, `images`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pdfplumber.utils.geometry import obj_to_edges

from partita.partitioners.pdf.limits import MAX_PAGE_GLYPHS, DocumentBudget
from partita.partitioners.pdf.lines import LinkArea
from partita.partitioners.pdf.pdfium.chars import Char, read_chars
from partita.partitioners.pdf.pdfium.frame import frame_for
from partita.partitioners.pdf.pdfium.links import read_links
from partita.partitioners.pdf.pdfium.paths import read_rulings

__all__ = ["PdfiumPage", "read_pdfium_page"]


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


def read_pdfium_page(document: Any, index: int, budget: DocumentBudget) -> PdfiumPage:
    """Read page `index` (0-based) of the pypdfium2 `document` within the document's `budget`.

    Raises `DocumentLimitError` when the document's glyph budget runs out on this page.
    """
    glyphs_left = budget.max_glyphs - budget.glyphs
    if glyphs_left <= 0:
        raise _glyphs_refused(budget)
    page = document[index]
    try:
        frame = frame_for(tuple(page.get_mediabox()), page.get_rotation() % 360)
        textpage = page.get_textpage()
        try:
            count = textpage.count_chars()
            limit = min(MAX_PAGE_GLYPHS, glyphs_left)
            read = read_chars(textpage, min(max(count, 0), limit), frame)
        finally:
            textpage.close()
        budget.glyphs += min(max(count, 0), limit)
        cuts: list[str] = []
        if count > limit:
            if limit < MAX_PAGE_GLYPHS:
                raise _glyphs_refused(budget)
            cuts.append(f"stopped after {limit:,} glyphs")
        if read.dropped:
            cuts.append(
                f"{read.dropped} character(s) drawn at positions or sizes out of range (not "
                "finite, or beyond ±1e+09 pt) were left out"
            )
        rulings = read_rulings(page, frame)
        if rulings.cut:
            cuts.append(rulings.cut)
        links = read_links(document, page, frame)
    finally:
        page.close()
    return PdfiumPage(
        frame.width,
        frame.height,
        read.chars,
        rulings.lines,
        rulings.rects,
        rulings.images,
        links,
        tuple(cuts),
    )


def _glyphs_refused(budget: DocumentBudget) -> Exception:
    return budget.refuse(f"its pages draw more than {budget.max_glyphs:,} glyphs", "glyphs")
