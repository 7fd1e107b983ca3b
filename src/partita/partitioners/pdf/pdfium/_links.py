"""A page's URI links from PDFium (`FPDFLink_Enumerate`), boxes on the page's frame."""

from __future__ import annotations

import ctypes
import math
from typing import Any

import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]

from partita.partitioners.pdf._limits import MAX_COORDINATE
from partita.partitioners.pdf._lines import LinkArea
from partita.partitioners.pdf._links import MAX_ANNOTATIONS
from partita.partitioners.pdf.pdfium._frame import Frame

__all__ = ["read_links"]

_MAX_URI_BYTES = 64 << 10


def read_links(document: Any, page: Any, frame: Frame) -> list[LinkArea]:
    """The URI links of the pypdfium2 `page` of `document` (at most `MAX_ANNOTATIONS`)."""
    out: list[LinkArea] = []
    position = ctypes.c_int(0)
    link = pdfium_c.FPDF_LINK()
    rect = pdfium_c.FS_RECTF()
    for _ in range(MAX_ANNOTATIONS):
        if not pdfium_c.FPDFLink_Enumerate(page.raw, ctypes.byref(position), ctypes.byref(link)):
            break
        action = pdfium_c.FPDFLink_GetAction(link)
        if not action or pdfium_c.FPDFAction_GetType(action) != pdfium_c.PDFACTION_URI:
            continue
        size = pdfium_c.FPDFAction_GetURIPath(document.raw, action, None, 0)
        if not 1 < size <= _MAX_URI_BYTES:
            continue
        buffer = ctypes.create_string_buffer(size)
        pdfium_c.FPDFAction_GetURIPath(document.raw, action, buffer, size)
        url = buffer.raw[: size - 1].decode("utf-8", errors="replace")
        if not pdfium_c.FPDFLink_GetAnnotRect(link, ctypes.byref(rect)):
            continue
        corners = (rect.left, rect.bottom, rect.right, rect.top)
        if not all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in corners):
            continue
        left, bottom, right, top = corners
        x0, top_, x1, bottom_ = frame.box(
            min(left, right), min(bottom, top), max(left, right), max(bottom, top)
        )
        out.append(LinkArea((x0, top_, x1, bottom_), url))
    return out
