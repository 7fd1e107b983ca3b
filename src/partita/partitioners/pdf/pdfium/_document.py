"""Opening a PDF with PDFium (pypdfium2) and pdfplumber side by side, with typed errors and the
document's budget.

The file is given to both as a path or a file object, never read whole into Python: each reads
what it needs (the cross-reference table, then each page's objects). pdfplumber's bounded page
tree walk gives the page list, and its pdfminer objects let `_preflight` weigh each page's content
before PDFium, which parses without bounds, is given it. Failures inside PDFium (a
`PdfiumError`, or anything raised while reading) become a `DocumentError` naming the file,
through `guarded`, as for pdfplumber.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, Any

import pypdfium2  # type: ignore[import-untyped]

from partita._gc import collector_paused
from partita.errors import DocumentError, FileReadError
from partita.partitioners.pdf._limits import DocumentBudget
from partita.partitioners.pdf._open import OpenPdf, guarded, open_pdf
from partita.partitioners.pdf._outline import MAX_ENTRIES, outline_key
from partita.partitioners.pdf._pages import PageContent, page_content
from partita.partitioners.pdf.pdfium._page import read_pdfium_page
from partita.partitioners.pdf.pdfium._preflight import Preflight, shows_text

__all__ = ["OpenPdfium", "open_pdfium"]

_MAX_OUTLINE_DEPTH = 32
_REFUSALS = frozenset({4, 5})
"""PDFium's errors that pdfplumber's reading cannot make up for: password, security scheme."""

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
    """An open PDF read by PDFium page by page, with pdfplumber's view of the same file.

    pdfplumber (`structure`) gives the page list (its page tree walk is bounded) and each page's
    content weight (`preflight`); PDFium reads every page light enough for it, and the bounded
    pdfminer interpreter the rest, and any page PDFium cannot load.
    """

    document: Any
    structure: OpenPdf
    preflight: Preflight | None = field(default_factory=Preflight)
    """Weighs each page before PDFium reads it; None reads every page with PDFium (to test
    what happens when a page the preflight should refuse gets through)."""
    origin: str = "pdfium"
    """The elements' `detection_origin`."""

    @property
    def name(self) -> str:
        """The document's name in messages."""
        return self.structure.name

    @property
    def budget(self) -> DocumentBudget:
        """The document's budget, shared by both readers."""
        return self.structure.budget

    @contextmanager
    def guarded(self, what: str) -> Iterator[None]:
        """`_open.guarded(self.name, what, self.budget)`."""
        with guarded(self.name, what, self.budget):
            yield

    def page_count(self) -> int:
        """The number of pages (pdfplumber's page tree walk)."""
        return self.structure.page_count()

    def read_outline(self) -> dict[str, int]:
        """{outline_key(title): depth} of the outline's entries (the first of a key wins), at
        most `_outline.MAX_ENTRIES` entries, `_MAX_OUTLINE_DEPTH` levels deep; PDFium's walk
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
        """The content of page `index` (1-based): by PDFium when the preflight finds nothing
        too heavy in it, PDFium loads and reads it (`_page.read_pdfium_page`) and finds text
        where the content shows some; else by the bounded pdfminer interpreter."""
        with collector_paused():  # -- a page's thousands of glyph dicts hold no cycles --
            return self._read_page(index)

    def _read_page(self, index: int) -> PageContent:
        plumber_page = self.structure.pdf.pages[index - 1]
        if index <= len(self.document):
            preflight = self.preflight
            if preflight is None or preflight.refusal(plumber_page.page_obj) is None:
                try:
                    page = read_pdfium_page(self.document, index - 1, self.budget)
                except pypdfium2.PdfiumError:
                    page = None  # -- PDFium cannot load the page: pdfminer reads it --
                if page is not None and (page.chars or not shows_text(plumber_page.page_obj)):
                    plumber_page.close()
                    return page_content(page, index, page.cuts, page.links)
                # -- PDFium drew no text where the content shows some (it gave up on an
                # -- object it could not resolve): pdfminer reads the page --
        return self.structure.read_page(index)

    def close(self) -> None:
        """Close both readers' documents."""
        try:
            self.document.close()
        finally:
            self.structure.close()


def open_pdfium(
    source: str | os.PathLike[str] | IO[bytes] | bytes,
    name: str,
    *,
    password: str | None = None,
    size: int,
    preflight: bool = True,
) -> OpenPdfium | OpenPdf:
    """Return `source` (a path, a seekable binary file object or bytes) opened by PDFium and by
    pdfplumber (`_open.open_pdf`, for the page list and the pages PDFium does not read), or by
    pdfplumber alone when PDFium cannot open what pdfplumber could (a broken page tree).

    `size` is the file's size in bytes (the document's work bounds grow with it). Raises
    `DocumentError` naming `name` when it is not a PDF, is corrupt, or is encrypted and
    `password` (default: none) does not open it; `DocumentLimitError` when opening it exceeds
    one of the bounds; `FileReadError` when it cannot be read. `preflight=False` lets PDFium
    read every page, even those the preflight would refuse (only to test containment).
    """
    structure = open_pdf(source, name, password=password, size=size)
    given: Any = os.fspath(source) if isinstance(source, str | os.PathLike) else source
    if not isinstance(given, str | bytes):
        given = _SharedFile(given)
    try:
        document = pypdfium2.PdfDocument(given, password=password or None)
    except pypdfium2.PdfiumError as exc:
        code = getattr(exc, "err_code", 1)
        if code not in _REFUSALS:
            return structure  # -- pdfminer opened what PDFium cannot: it reads every page --
        structure.close()
        message = f"cannot open the PDF: {_ERRORS.get(code, _ERRORS[1])}"
        raise DocumentError(message, filename=name) from exc
    except OSError as exc:
        structure.close()
        raise FileReadError(f"cannot read {name}: {exc.strerror or exc}") from exc
    except BaseException:
        structure.close()
        raise
    return OpenPdfium(document, structure, Preflight() if preflight else None)


class _SharedFile:
    """A file object PDFium reads while pdfminer reads it too: each read goes to PDFium's own
    position and puts the file back where pdfminer left it."""

    def __init__(self, file: IO[bytes]) -> None:
        self._file = file
        self._position = file.tell()

    def seek(self, position: int, whence: int = 0) -> int:
        if whence == os.SEEK_SET:
            self._position = position
        elif whence == os.SEEK_CUR:
            self._position += position
        else:
            saved = self._file.tell()
            self._position = self._file.seek(position, whence)
            self._file.seek(saved)
        return self._position

    def tell(self) -> int:
        return self._position

    def readinto(self, buffer: Any) -> int:
        saved = self._file.tell()
        try:
            self._file.seek(self._position)
            data = self._file.read(len(buffer))
        finally:
            self._file.seek(saved)
        buffer[: len(data)] = data
        self._position += len(data)
        return len(data)

    def read(self, size: int = -1) -> bytes:
        saved = self._file.tell()
        try:
            self._file.seek(self._position)
            data = self._file.read(size)
        finally:
            self._file.seek(saved)
        self._position += len(data)
        return data
