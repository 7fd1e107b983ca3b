"""PDFium (through pypdfium2) as the PDF partitioner's source of characters, rulings and links.

PRINCIPLES

- **The same stages, a faster source.** PDFium parses the file and lays out each page's text in
  C++; partita reads what its page stages read of a pdfplumber page (characters with their
  boxes, font sizes, font names and orientation; lines and rectangles; URI links; whether it
  shows images) and runs the stages unchanged (`_pages.page_content`).
- **Bulk where PDFium allows it, per object where it does not need more.** The page's text comes
  in one call; each character costs two calls (its text object and its box); size, baseline,
  font and orientation are read once per text object (`_chars`). Rulings come from path objects
  (`_paths`), links from PDFium's link enumeration (`_links`).
- **pdfplumber's coordinates.** Boxes are in points from the shown page's top left, the page's
  `/Rotate` applied as pdfminer applies it (`_frame`), so both sources give the stages the same
  page.
- **Streaming.** The file is given to PDFium as a path or a file object, never read whole; each
  page and its text page are closed once read (`_page`), so memory does not grow with the page
  count.
- **Bounded.** Glyphs per page and per document use the pdfplumber source's bounds
  (`limits`); page objects and path segments read per page are bounded (`_paths`); characters at
  non-finite or absurd positions are left out and counted. Failures inside PDFium are a
  `DocumentError` naming the file (`_document`).
"""

from __future__ import annotations

from partita.partitioners.pdf.pdfium._document import OpenPdfium, open_pdfium

__all__ = ["OpenPdfium", "open_pdfium"]
