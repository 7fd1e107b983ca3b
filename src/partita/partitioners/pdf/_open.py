"""Opening a PDF with pdfplumber, and running pdfminer code, with typed errors.

pdfminer raises many exception types (`PDFSyntaxError`, `PSEOF`, `PDFPasswordIncorrect`, plain
`ValueError`/`KeyError`/`TypeError` from a malformed object graph, ...) and pdfplumber wraps some
of them in `PdfminerException`. None of them should escape partita: `open_pdf` and `guarded`
turn every one of them into a `DocumentError` naming the file.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import pdfplumber
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfplumber.pdf import PDF

from partita.errors import DocumentError, PartitaError

__all__ = ["guarded", "guarded_call", "open_pdf"]

T = TypeVar("T")


def open_pdf(data: bytes, name: str, *, password: str | None = None) -> PDF:
    """Return `data` opened as a pdfplumber PDF whose page list is already read.

    Raises `DocumentError` naming `name` when the data is not a PDF, is corrupt, or is encrypted
    and `password` (default: the empty user password) does not open it.
    """
    if b"%PDF" not in data[:1024]:
        raise DocumentError("not a PDF (no %PDF header)", filename=name)
    with guarded(name, "cannot open the PDF"):
        pdf = pdfplumber.open(io.BytesIO(data), password=password or "")
        try:
            _ = pdf.pages  # -- reads the page tree now, so a broken one fails here --
        except BaseException:
            pdf.close()
            raise
    return pdf


@contextmanager
def guarded(name: str, what: str) -> Iterator[None]:
    """Run the body, turning any pdfminer or pdfplumber failure into a `DocumentError`.

    `what` starts the message ("cannot read page 3"). `PartitaError`s pass through unchanged.
    """
    try:
        yield
    except PartitaError:
        raise
    except RecursionError as exc:
        raise DocumentError(f"{what}: its objects nest too deeply", filename=name) from exc
    except Exception as exc:  # -- pdfminer raises anything on malformed input --
        raise DocumentError(f"{what}: {_describe(exc)}", filename=name) from exc


def guarded_call(name: str, what: str, func: Callable[[], T]) -> T:
    """Return `func()`, with failures turned into a `DocumentError` as by `guarded`."""
    with guarded(name, what):
        return func()


def _describe(exc: BaseException) -> str:
    inner = exc.args[0] if exc.args and isinstance(exc.args[0], BaseException) else exc
    if isinstance(inner, PDFPasswordIncorrect):
        return "it is encrypted and the password does not open it"
    if isinstance(inner, PDFEncryptionError):
        return f"unsupported encryption ({inner})"
    text = str(inner) or type(inner).__name__
    return f"{type(inner).__name__}: {text}" if str(inner) else text
