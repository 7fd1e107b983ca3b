"""Opening a PDF with pdfplumber, and running pdfminer code, with typed errors and bounds.

pdfminer raises many exception types (`PDFSyntaxError`, `PSEOF`, `PDFPasswordIncorrect`, plain
`ValueError`/`KeyError`/`TypeError` from a malformed object graph, ...) and pdfplumber wraps some
of them in `PdfminerException`. None of them should escape partita: `open_pdf` and `guarded`
turn every one of them into a `DocumentError` naming the file.

Every document gets a `DocumentBudget` (`_limits`) when it is opened; `guarded` makes it the
active one while its body runs pdfminer code, so the bounds of `_pdfminer_bounds` apply to that
document, and a `DocumentLimitError` raised deep inside pdfminer or pdfplumber reaches the
caller as itself.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, TypeVar

import pdfplumber
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfplumber.pdf import PDF

from partita.errors import DocumentError, FileReadError, PartitaError
from partita.partitioners.pdf import _pdfminer_bounds
from partita.partitioners.pdf._limits import ACTIVE, DocumentBudget
from partita.partitioners.pdf._outline import read_outline
from partita.partitioners.pdf._page_tree import read_pages
from partita.partitioners.pdf._pages import PageContent, read_page

__all__ = ["OpenPdf", "file_head", "guarded", "guarded_call", "open_pdf"]

T = TypeVar("T")

_pdfminer_bounds.install()


@dataclass(frozen=True, slots=True)
class OpenPdf:
    """An open PDF: the pdfplumber document, its name in errors, and its budget."""

    pdf: PDF
    name: str
    budget: DocumentBudget
    origin: str = "pdfplumber"
    """The elements' `detection_origin`."""

    @contextmanager
    def guarded(self, what: str) -> Iterator[None]:
        """`guarded(self.name, what, self.budget)`."""
        with guarded(self.name, what, self.budget):
            yield

    def page_count(self) -> int:
        """The number of pages."""
        return len(self.pdf.pages)

    def read_outline(self) -> dict[str, int]:
        """{outline_key(title): depth} of the outline's entries (`_outline.read_outline`)."""
        return read_outline(self.pdf.doc)

    def read_page(self, index: int) -> PageContent:
        """The content of page `index` (1-based), read within the document's budget."""
        return read_page(self.pdf.pages[index - 1], index, self.budget)

    def close(self) -> None:
        """Release the pages' caches and close the file pdfplumber opened."""
        _close(self.pdf)


def open_pdf(
    source: str | os.PathLike[str] | IO[bytes] | bytes,
    name: str,
    *,
    password: str | None = None,
    size: int | None = None,
) -> OpenPdf:
    """Return `source` (a path, a seekable binary file object, or bytes) opened as a
    pdfplumber PDF whose page list is already read; a path is opened by pdfplumber, which reads
    from the file as it goes. `size` is the file's size in bytes (that of `source` when bytes).

    Raises `DocumentError` naming `name` when the data is not a PDF, is corrupt, or is encrypted
    and `password` (default: the empty user password) does not open it; `DocumentLimitError`
    when opening it exceeds one of the bounds.
    """
    if isinstance(source, bytes):
        size = len(source)
        head = source[:1024]
        source = io.BytesIO(source)
    else:
        head = file_head(source, name)
    if b"%PDF" not in head:
        raise DocumentError("not a PDF (no %PDF header)", filename=name)
    budget = DocumentBudget(name, size or 0)
    with guarded(name, "cannot open the PDF", budget):
        pdf = pdfplumber.open(source, password=password or "")  # type: ignore[arg-type]
        try:
            # -- reads the page tree now, so a broken one fails here --
            pdf._pages = read_pages(pdf, budget)
        except BaseException:
            _close(pdf)
            raise
    return OpenPdf(pdf, name, budget)


def file_head(source: str | os.PathLike[str] | IO[bytes], name: str) -> bytes:
    """The first 1,024 bytes of `source`, a file object left where it was."""
    try:
        if isinstance(source, str | os.PathLike):
            with open(source, "rb") as f:
                return f.read(1024)
        start = source.tell()
        head = source.read(1024)
        source.seek(start)
        return head
    except OSError as exc:
        raise FileReadError(f"cannot read {name}: {exc.strerror or exc}") from exc


def _close(pdf: PDF) -> None:
    """Close the pages of `pdf` without `PDF.close`, which flushes its page list and reads the
    page tree again with pdfminer (unbounded), then the file pdfplumber opened."""
    for page in getattr(pdf, "_pages", ()):
        page.close()
    if not getattr(pdf, "stream_is_external", True):
        pdf.stream.close()


@contextmanager
def guarded(name: str, what: str, budget: DocumentBudget | None = None) -> Iterator[None]:
    """Run the body with `budget` active, turning any pdfminer or pdfplumber failure into a
    `DocumentError`.

    `what` starts the message ("cannot read page 3"). `PartitaError`s pass through unchanged,
    also when pdfplumber wrapped one in its `PdfminerException`.
    """
    token = ACTIVE.set(budget)
    try:
        yield
    except PartitaError:
        raise
    except RecursionError as exc:
        raise DocumentError(f"{what}: its objects nest too deeply", filename=name) from exc
    except Exception as exc:  # -- pdfminer raises anything on malformed input --
        inner = _wrapped(exc)
        if isinstance(inner, PartitaError):
            raise inner from None
        raise DocumentError(f"{what}: {_describe(exc)}", filename=name) from exc
    finally:
        ACTIVE.reset(token)


def guarded_call(name: str, what: str, func: Callable[[], T]) -> T:
    """Return `func()`, with failures turned into a `DocumentError` as by `guarded`."""
    with guarded(name, what):
        return func()


def _wrapped(exc: BaseException) -> BaseException:
    """The exception pdfplumber wrapped in `exc` (its first argument), or `exc`."""
    while exc.args and isinstance(exc.args[0], BaseException):
        exc = exc.args[0]
    return exc


def _describe(exc: BaseException) -> str:
    inner = _wrapped(exc)
    if isinstance(inner, PDFPasswordIncorrect):
        return "it is encrypted and the password does not open it"
    if isinstance(inner, PDFEncryptionError):
        return f"unsupported encryption ({inner})"
    text = str(inner) or type(inner).__name__
    return f"{type(inner).__name__}: {text}" if str(inner) else text
