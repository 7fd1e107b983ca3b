"""Page numbers from the breaks a .docx records.

A document is read in one of two page modes, chosen once for the whole document:

- **rendered**: when Word saved any `w:lastRenderedPageBreak` (it writes one wherever its layout
  started a new page), only those count. Hard page breaks and section breaks are then ignored,
  because Word also writes a rendered break where each of them took effect.
- **logical**: otherwise, hard page breaks (`w:br w:type="page"`), "page break before"
  paragraphs and section breaks that start a new page (next/odd/even page; an odd- or even-page
  section break may skip a page) count.

When the document records no page break of either kind, page numbers are unknown and
`page_number` is None everywhere (a document without breaks is not known to be one page).
"""

from __future__ import annotations

from lxml import etree

from partita.partitioners.docx import _ns as ns
from partita.partitioners.docx._styles import StyleSheet

__all__ = ["PageCounter", "section_start_type"]

_W_TYPE = ns.w("type")


def section_start_type(sect_pr: etree._Element | None) -> str:
    """How the section with properties `sect_pr` starts: "nextPage" (the default),
    "continuous", "nextColumn", "evenPage" or "oddPage"."""
    if sect_pr is None or not len(sect_pr):
        return "nextPage"
    type_el = sect_pr.find(_W_TYPE)
    return (type_el.get(ns.W_VAL) or "nextPage") if type_el is not None else "nextPage"


class PageCounter:
    """The current page while walking a document's body."""

    def __init__(
        self, body: etree._Element, styles: StyleSheet, sections: list[etree._Element], start: int
    ) -> None:
        self.rendered = next(body.iter(ns.LAST_RENDERED_PAGE_BREAK), None) is not None
        """True in rendered mode, False in logical mode."""
        self.enabled = self.rendered or _has_logical_breaks(body, styles, sections)
        """Whether page numbers are known at all."""
        self.page = start
        self.has_content = False
        """Whether anything was placed on the current page yet."""
        self._parity: int | None = None

    @property
    def number(self) -> int | None:
        """The current page number, or None when the document has no page breaks."""
        return self.page if self.enabled else None

    def advance(self, count: int = 1) -> None:
        """Move `count` pages on (one more if a pending odd/even section start requires it)."""
        if count > 0:
            self.page += count
            self.has_content = False
            if self._parity is not None:
                if self.page % 2 != self._parity:
                    self.page += 1
                self._parity = None

    def section_break(self, next_type: str) -> int:
        """Return how many pages a section break into a section of `next_type` advances.

        In rendered mode the break itself is Word's rendered break that follows; an odd- or
        even-page start is remembered and applied to it.
        """
        if next_type in ("continuous", "nextColumn"):
            return 0
        if self.rendered:
            self._parity = {"oddPage": 1, "evenPage": 0}.get(next_type)
            return 0
        if next_type == "oddPage" and (self.page + 1) % 2 == 0:
            return 2
        if next_type == "evenPage" and (self.page + 1) % 2 == 1:
            return 2
        return 1


def _has_logical_breaks(
    body: etree._Element, styles: StyleSheet, sections: list[etree._Element]
) -> bool:
    if any(br.get(_W_TYPE) == "page" for br in body.iter(ns.BR)):
        return True
    if next(body.iter(ns.w("pageBreakBefore")), None) is not None or styles.any_page_break_before:
        return True
    return any(
        section_start_type(sect) not in ("continuous", "nextColumn") for sect in sections[1:]
    )
