"""Opening a PDF with PDFium (pypdfium2), with typed errors and the document's budget.

The file is given to PDFium as a path or a file object, never read whole into Python: PDFium
reads what it needs (the cross-reference table, then each page's objects as the page loads).
Failures inside PDFium (a `PdfiumError`, or anything raised while reading) become a
`DocumentError` naming the file, through `guarded`, as for pdfplumber.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

import pypdfium2  # type: ignore[import-untyped]

from partita.errors import DocumentError, FileReadError
from partita.partitioners.pdf._open import file_head, guarded
from partita.partitioners.pdf.limits import DocumentBudget
from partita.partitioners.pdf.outline import MAX_ENTRIES, outline_key
from partita.partitioners.pdf.pages import PageContent, page_content
from partita.partitioners.pdf.pdfium.page import read_pdfium_page

__all__ = ["OpenPdfium", "open_pdfium"]

_MAX_OUTLINE_DEPTH = 32

# -- PDFium's FPDF_ERR_* codes (fpdfview.h) --
_ERRORS = {
    1: "PDFium could not read it (unknown error)",
    2: "the file cannot be opened",
    3: "it is not a PDF or is corrupt",
    4: "it is encrypted and the password does not open it",
    5: "unsupported security scheme",
    6: "a page is missing or corrupt",
}


@dataclass(frozen=True, slots=True)
class OpenPdfium:
    """An open PDF read by PDFium: the pypdfium2 document, its name in errors, its budget."""

    document: Any
    name: str
    budget: DocumentBudget
    origin: str = "pdfium"
    """The elements' `detection_origin`."""

    @contextmanager
    def guarded(self, what: str) -> Iterator[None]:
        """`_open.guarded(self.name, what, self.budget)`."""
        with guarded(self.name, what, self.budget):
            yield

    def page_count(self) -> int:
        """The number of pages."""
        return len(self.document)

    def read_outline(self) -> dict[str, int]:
        """{outline_key(title): depth} of the outline's entries (the first of a key wins), at
        most `outline.MAX_ENTRIES` entries, `_MAX_OUTLINE_DEPTH` levels deep; PDFium's walk
        visits each item once."""
        levels: dict[str, int] = {}
        try:
            entries = self.document.get_toc(max_depth=_MAX_OUTLINE_DEPTH)
            for entry in itertools.islice(entries, MAX_ENTRIES):
                key = outline_key(entry.get_title() or "")
                if key:
                    levels.setdefault(key, entry.level)
        except Exception:  # -- a malformed outline: the typography decides alone --
            return levels
        return levels

    def read_page(self, index: int) -> PageContent:
        """The content of page `index` (1-based)."""
        page = read_pdfium_page(self.document, index - 1, self.budget)
        return page_content(page, index, page.cuts, page.links)

    def close(self) -> None:
        """Close the document."""
        self.document.close()


def open_pdfium(
    source: str | os.PathLike[str] | IO[bytes] | bytes,
    name: str,
    *,
    password: str | None = None,
    size: int,
) -> OpenPdfium:
    """Return `source` (a path, a seekable binary file object or bytes) opened by PDFium.

    `size` is the file's size in bytes (the document's work bounds grow with it). Raises
    `DocumentError` naming `name` when it is not a PDF, is corrupt, or is encrypted and
    `password` (default: none) does not open it; `FileReadError` when it cannot be read.
    """
    head = source[:1024] if isinstance(source, bytes) else file_head(source, name)
    if b"%PDF" not in head:
        raise DocumentError("not a PDF (no %PDF header)", filename=name)
    budget = DocumentBudget(name, size)
    given: Any = os.fspath(source) if isinstance(source, str | os.PathLike) else source
    try:
        document = pypdfium2.PdfDocument(given, password=password or None)
    except pypdfium2.PdfiumError as exc:
        code = getattr(exc, "err_code", 1)
        message = f"cannot open the PDF: {_ERRORS.get(code, _ERRORS[1])}"
        raise DocumentError(message, filename=name) from exc
    except OSError as exc:
        raise FileReadError(f"cannot read {name}: {exc.strerror or exc}") from exc
    return OpenPdfium(document, name, budget)
