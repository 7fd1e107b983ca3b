"""Headers and footers: one `Header` / `Footer` element per distinct header or footer part, or a
`PageNumber` when the part holds a page number only.

They are emitted after the body (so they never become the parents of body headings), section
by section: each section's headers, then its footers. Only parts a section names are read
(a section that inherits its predecessor's header adds nothing), first-page ones only when the
section has a distinct first page (`w:titlePg`), even-page ones only when the document turns on
different odd and even pages. A part's text is its blocks' texts joined by "\n"; an empty one is
skipped, and a header or footer repeating the text of an earlier one of the same kind is too.
A part whose whole text is a page number ("2", "- 2 -", "Page 2 of 9": the cached result of its
PAGE field; `partita.partitioners._text.PAGE_NUMBER`) is a `PageNumber`.
`header_footer_type` is "primary", "first_page" or "even_page", `category_depth` 0, and there is
no `page_number` (a header is on every page of its section).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from lxml import etree

from partita.elements import Element, Footer, Header, PageNumber
from partita.partitioners._build import Draft
from partita.partitioners._text import PAGE_NUMBER
from partita.partitioners.docx import _ns as ns
from partita.partitioners.docx._package import Relationship

__all__ = ["iter_furniture_drafts"]

_KINDS = {"default": "primary", "first": "first_page", "even": "even_page"}
_TITLE_PG = ns.w("titlePg")
_HEADER_REFERENCE = ns.w("headerReference")
_FOOTER_REFERENCE = ns.w("footerReference")
_W_TYPE = ns.w("type")


def iter_furniture_drafts(
    sections: list[etree._Element],
    rels: dict[str, Relationship],
    even_and_odd: bool,
    read_part_text: Callable[[str], str],
) -> Iterator[Draft]:
    """Generate the Header and Footer drafts of `sections`; `read_part_text` gives a part's text."""
    seen_parts: set[str] = set()
    seen_texts: set[tuple[str, str, str]] = set()
    for sect in sections:
        if not len(sect):  # -- a section without properties names no header or footer --
            continue
        title_page = ns.is_on(sect.find(_TITLE_PG))
        for tag, cls in ((_HEADER_REFERENCE, Header), (_FOOTER_REFERENCE, Footer)):
            for ref in sect.iter(tag):
                kind = _KINDS.get(ref.get(_W_TYPE, "default"), "primary")
                if (kind == "first_page" and not title_page) or (
                    kind == "even_page" and not even_and_odd
                ):
                    continue
                rel = rels.get(ref.get(ns.R_ID) or "")
                if rel is None or rel.is_external or rel.target in seen_parts:
                    continue
                seen_parts.add(rel.target)
                text = read_part_text(rel.target)
                key = (cls.__name__, kind, text)
                if not text or key in seen_texts:
                    continue
                seen_texts.add(key)
                yield _draft(PageNumber if PAGE_NUMBER.match(text.strip()) else cls, text, kind)


def _draft(cls: type[Element], text: str, kind: str) -> Draft:
    meta: dict[str, Any] = {
        "detection_origin": "docx",
        "header_footer_type": kind,
        "category_depth": 0,
    }
    return Draft(cls, text, meta)
