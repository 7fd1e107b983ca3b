"""Opening a PDF with pdfplumber, and running pdfminer code, with typed errors and bounds.

pdfminer raises many exception types (`PDFSyntaxError`, `PSEOF`, `PDFPasswordIncorrect`, plain
`ValueError`/`KeyError`/`TypeError` from a malformed object graph, ...) and pdfplumber wraps some
of them in `PdfminerException`. None of them should escape partita: `open_pdf` and `guarded`
turn every one of them into a `DocumentError` naming the file.

Every document gets a `DocumentBudget` (`limits`) when it is opened; `guarded` makes it the
active one while its body runs pdfminer code, so the bounds of `_pdfminer_bounds` apply to that
document, and a `DocumentLimitError` raised deep inside pdfminer or pdfplumber reaches the
caller as itself.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

import pdfplumber
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfplumber.pdf import PDF

from partita.errors import DocumentError, PartitaError
from partita.partitioners.pdf import _pdfminer_bounds
from partita.partitioners.pdf.limits import ACTIVE, DocumentBudget
from partita.partitioners.pdf.page_tree import read_pages

__all__ = ["OpenPdf", "guarded", "guarded_call", "open_pdf"]

T = TypeVar("T")

_pdfminer_bounds.install()


@dataclass(frozen=True, slots=True)
class OpenPdf:
    """An open PDF: the pdfplumber document, its name in errors, and its budget."""

    pdf: PDF
    name: str
    budget: DocumentBudget

    @contextmanager
    def guarded(self, what: str) -> Iterator[None]:
        """`guarded(self.name, what, self.budget)`."""
        with guarded(self.name, what, self.budget):
            yield

    def close(self) -> None:
        """Release the pages' caches (the data was given as bytes: no file to close)."""
        _close(self.pdf)


def open_pdf(data: bytes, name: str, *, password: str | None = None) -> OpenPdf:
    """Return `data` opened as a pdfplumber PDF whose page list is already read.

    Raises `DocumentError` naming `name` when the data is not a PDF, is corrupt, or is encrypted
    and `password` (default: the empty user password) does not open it; `DocumentLimitError`
    when opening it exceeds one of the bounds.
    """
    if b"%PDF" not in data[:1024]:
        raise DocumentError("not a PDF (no %PDF header)", filename=name)
    budget = DocumentBudget(name, len(data))
    with guarded(name, "cannot open the PDF", budget):
        pdf = pdfplumber.open(io.BytesIO(data), password=password or "")
        try:
            # -- reads the page tree now, so a broken one fails here --
            pdf._pages = read_pages(pdf, budget)
        except BaseException:
            _close(pdf)
            raise
    return OpenPdf(pdf, name, budget)


def _close(pdf: PDF) -> None:
    """Close the pages of `pdf` without `PDF.close`, which flushes its page list and reads the
    page tree again with pdfminer (unbounded)."""
    for page in getattr(pdf, "_pages", ()):
        page.close()


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
