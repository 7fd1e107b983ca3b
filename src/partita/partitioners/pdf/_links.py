"""URI link annotations of a page, read shallowly.

pdfplumber's `page.hyperlinks` resolves every annotation's whole object graph, which recurses
without end on PDFs whose annotations point back at their page (seen in the corpus). Only
`/Rect` and `/A /URI` are needed, so they are resolved here one reference at a time; a `/Rect`
that is not four numbers within ±`MAX_COORDINATE` is skipped. At most `MAX_ANNOTATIONS` are
read per page.
"""

from __future__ import annotations

from typing import Any

from pdfminer.pdftypes import resolve1

from partita.partitioners.pdf._limits import MAX_COORDINATE
from partita.partitioners.pdf._lines import LinkArea

__all__ = ["MAX_ANNOTATIONS", "page_links"]

MAX_ANNOTATIONS = 5_000


def page_links(page: Any) -> list[LinkArea]:
    """Return the URI links of the pdfplumber `page`, boxes in pdfplumber's coordinates."""
    annots = resolve1(getattr(page.page_obj, "annots", None))
    if not isinstance(annots, list):
        return []
    x_left, _, _, y_top = (float(v) for v in page.mediabox)
    out: list[LinkArea] = []
    for ref in annots[:MAX_ANNOTATIONS]:
        annot = resolve1(ref)
        if not isinstance(annot, dict):
            continue
        action = resolve1(annot.get("A"))
        uri = resolve1(action.get("URI")) if isinstance(action, dict) else None
        rect = resolve1(annot.get("Rect"))
        if uri is None or not isinstance(rect, list) or len(rect) != 4:
            continue
        if isinstance(uri, bytes):
            uri = uri.decode("utf-8", errors="replace")
        try:
            a, b, c, d = (float(resolve1(v)) for v in rect)
        except (TypeError, ValueError, OverflowError):
            continue
        if not all(-MAX_COORDINATE <= v <= MAX_COORDINATE for v in (a, b, c, d)):
            continue  # -- not finite, or far off any page: no character is inside --
        x0, x1 = sorted((a - x_left, c - x_left))
        top, bottom = sorted((y_top - b, y_top - d))
        out.append(LinkArea((x0, top, x1, bottom), str(uri)))
    return out
