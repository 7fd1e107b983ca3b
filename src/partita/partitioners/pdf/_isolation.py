"""PDFs read in a resident worker process, so that no file can take the caller down.

PRINCIPLES

- **The parsers run outside the caller.** PDFium parses without bounds of its own: a few
  kilobytes can make it allocate until the process aborts. With `isolation="process"` (the
  default of `partition_pdf`), a PDF is opened, and each of its pages read (the preflight,
  PDFium or the pdfminer interpreter, and the page stages that turn characters into lines,
  paragraphs and tables), in one worker process started on first use and kept for the
  process's life (`_workers.WorkerPipe`, started as a new interpreter, so it works from any
  caller). The caller only assembles the elements from what each page holds, while the worker
  reads the next page (each page is asked for before the last one's answer is read). Every
  request runs
  under an address-space limit (`WORKER_MAX_MEMORY`) and a CPU-time limit (`REQUEST_MAX_CPU`),
  with a wall-clock backstop (`REQUEST_TIMEOUT`) for a worker that stops answering.
- **A page that kills the worker is read by pdfminer.** When the worker dies reading a page
  with PDFium (an abort, the memory or the CPU limit), a fresh worker reads that page with
  partita's bounded pdfminer interpreter, which is what the pdfplumber backend reads it with,
  and the document goes on; after `MAX_PDFIUM_FAILURES` such pages, the rest of the document is
  read by pdfminer. A document PDFium cannot even open is read by pdfminer alone. Where pdfminer
  fails too, the document fails with the typed error of what happened
  (`DocumentMemoryError`, `DocumentTimeoutError` or `WorkerCrashError`), naming the file.
- **Nothing else changes.** The elements are those of `isolation="none"`, which parses in the
  calling process as before: faster by the cost of sending each page's summary across (see
  `benchmarks/bench_pdf.py`), with no protection. Use it only for trusted files.
- **The document travels by path.** A file object is copied to a temporary file (1 MiB at a
  time) that the worker reads and that is deleted when the document is closed.
- **One worker per process.** Requests from several threads take turns; documents stay open in
  the worker between requests (`_MAX_OPEN` at most, the least recently used closed first; a
  closed or lost one is opened again, its budget's counters carried over). A forked child
  starts its own worker; `stop_pdf_worker` stops it (it also stops when the process exits).
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import shutil
import tempfile
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import IO, Any

from partita._workers import BatchResult, WorkerPipe
from partita.errors import (
    DocumentError,
    DocumentMemoryError,
    DocumentTimeoutError,
    PartitaError,
    PartitaWarning,
    WorkerCrashError,
)
from partita.partitioners.pdf._document import COUNT_FAILURE, OUTLINE_FAILURE, page_failure
from partita.partitioners.pdf._limits import DocumentBudget
from partita.partitioners.pdf._open import OpenPdf, open_pdf
from partita.partitioners.pdf._pages import PageContent
from partita.partitioners.pdf.pdfium._document import OpenPdfium, open_pdfium

__all__ = [
    "ISOLATIONS",
    "MAX_PDFIUM_FAILURES",
    "REQUEST_MAX_CPU",
    "REQUEST_TIMEOUT",
    "WORKER_MAX_MEMORY",
    "ContainedPdf",
    "WorkerUnavailableWarning",
    "open_contained",
    "stop_pdf_worker",
]

ISOLATIONS = ("process", "none")
"""Where `partition_pdf` parses a PDF: in the resident worker process (the default), or in the
calling process (trusted files only)."""

WORKER_MAX_MEMORY = 2 << 30
"""Address space of the worker process (2 GiB): reading DA-619p, the corpus's densest PDF,
peaks under 100 MB of it."""

REQUEST_MAX_CPU = 10.0
"""CPU seconds one request may use: opening a document, or reading one page (the corpus's
slowest page takes 0.2 s)."""

REQUEST_TIMEOUT = 300.0
"""Wall-clock seconds after which a request's worker is stopped, for a worker that stops
answering without using CPU; far above `REQUEST_MAX_CPU` so that a busy machine never trips it."""

MAX_PDFIUM_FAILURES = 2
"""Pages of one document on which PDFium may end the worker before the rest is read by pdfminer."""

_MAX_OPEN = 8
"""Documents the worker keeps open at once (several threads may read several)."""
_COPY_BYTES = 1 << 20

_WORKER_FAILURES = (DocumentMemoryError, DocumentTimeoutError, WorkerCrashError)
"""The errors of a request whose worker died (or was stopped)."""

_COUNTERS = tuple(f.name for f in fields(DocumentBudget) if f.init)[2:]
"""The budget's counters (after `name` and `file_bytes`): what the document has cost so far."""


class WorkerUnavailableWarning(PartitaWarning):
    """The PDF worker process could not be started: the PDF is parsed in the calling process
    (as with `isolation="none"`), without the worker's protection."""


# -- the worker's side -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Spec:
    """How to open a document in the worker (again, when it was closed or the worker lost)."""

    key: str
    path: str
    name: str
    password: str | None
    size: int
    backend: str
    pdfium: bool
    """False once PDFium failed to open it: pdfminer reads every page."""
    preflight: bool = True
    """False lets PDFium read pages the preflight would refuse (to test containment)."""


@dataclass(frozen=True, slots=True)
class _Request:
    spec: _Spec
    action: str
    """"open", "page" or "close"."""
    index: int = 0
    pdfminer: bool = False
    """Read page `index` with the pdfminer interpreter (PDFium ended a worker on it)."""
    counters: tuple[int, ...] = ()
    """The document's budget counters, to carry over when it is opened again."""

    @property
    def what(self) -> str:
        """What the request does, in an error's words ("cannot read page 3")."""
        return page_failure(self.index) if self.action == "page" else "cannot open the PDF"


_OPEN: OrderedDict[str, OpenPdf | OpenPdfium] = OrderedDict()
"""The worker's open documents, by key, the most recently used last."""


def serve_request(request: _Request) -> tuple[Any, tuple[int, ...], list[Warning]]:
    """Carry out `request` in the worker: (its value, the document's budget counters after it,
    the warnings it raised). Runs in the worker process (the `WorkerPipe`'s task)."""
    spec = request.spec
    if request.action == "close":
        opened = _OPEN.pop(spec.key, None)
        if opened is not None:
            opened.close()
        return None, (), []
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        opened = _document(spec, request.counters)
        if request.action == "open":
            # -- the outline and the page count come with the opening (one request, not
            # -- three); their errors are raised when the caller asks for them, as in process --
            value: Any = (
                opened.origin,
                _guarded_call(opened, OUTLINE_FAILURE, opened.read_outline),
                _guarded_call(opened, COUNT_FAILURE, opened.page_count),
            )
        else:
            value = _guarded_call(opened, request.what, lambda: _read(opened, request))
            if isinstance(value, PartitaError):
                raise value
    return value, _counters(opened.budget), [_warning(w.message, w.category) for w in said]


def _guarded_call(opened: OpenPdf | OpenPdfium, what: str, call: Callable[[], Any]) -> Any:
    """`call()` under `opened.guarded(what)`, or the `PartitaError` it raised (a memory
    failure as a `DocumentMemoryError`, which ends the worker)."""
    try:
        with opened.guarded(what):
            return call()
    except DocumentError as exc:
        if isinstance(exc.__cause__, MemoryError):
            raise DocumentMemoryError(
                f"{what}: out of memory", filename=opened.name, limit=WORKER_MAX_MEMORY
            ) from None
        return exc
    except PartitaError as exc:
        return exc


def _warning(message: Warning | str, category: type[Warning]) -> Warning:
    return message if isinstance(message, Warning) else category(message)


def _read(opened: OpenPdf | OpenPdfium, request: _Request) -> PageContent:
    if request.pdfminer and isinstance(opened, OpenPdfium):
        return opened.structure.read_page(request.index)
    return opened.read_page(request.index)


def _document(spec: _Spec, counters: tuple[int, ...]) -> OpenPdf | OpenPdfium:
    opened = _OPEN.get(spec.key)
    if opened is not None:
        _OPEN.move_to_end(spec.key)
        return opened
    while len(_OPEN) >= _MAX_OPEN:
        _OPEN.popitem(last=False)[1].close()
    if spec.backend == "pdfium" and spec.pdfium:
        opened = open_pdfium(
            spec.path, spec.name, password=spec.password, size=spec.size, preflight=spec.preflight
        )
    else:
        opened = open_pdf(spec.path, spec.name, password=spec.password, size=spec.size)
    for name, value in zip(_COUNTERS, counters, strict=False):
        setattr(opened.budget, name, max(getattr(opened.budget, name), value))
    _OPEN[spec.key] = opened
    return opened


def _counters(budget: DocumentBudget) -> tuple[int, ...]:
    return tuple(getattr(budget, name) for name in _COUNTERS)


# -- the caller's side -----------------------------------------------------------------------------

_LOCK = threading.Lock()
_PIPE: list[WorkerPipe[_Request, Any]] = []
"""The resident worker's pipe (one, once started)."""
_OWNER = [0]
"""The process the pipe belongs to (a forked child starts its own)."""
_KEYS = itertools.count()


def _pipe() -> WorkerPipe[_Request, Any]:
    with _LOCK:
        if _OWNER[0] != os.getpid():  # -- first use, or a forked child: a worker of its own --
            for pipe in _PIPE:
                pipe.abandon()
            _PIPE[:] = [
                WorkerPipe(
                    serve_request,
                    max_memory=WORKER_MAX_MEMORY,
                    max_cpu=REQUEST_MAX_CPU,
                    timeout=REQUEST_TIMEOUT,
                    start="subprocess",
                )
            ]
            _OWNER[0] = os.getpid()
        return _PIPE[0]


def stop_pdf_worker() -> None:
    """Stop the resident worker process (the next PDF read starts a new one)."""
    with _LOCK:
        if _OWNER[0] == os.getpid():
            for pipe in _PIPE:
                pipe.close()


atexit.register(stop_pdf_worker)


class ContainedPdf:
    """An open PDF whose pages the resident worker reads (a `_document.PdfSource`)."""

    def __init__(
        self,
        spec: _Spec,
        opening: tuple[str, dict[str, int] | PartitaError, int | PartitaError],
        spooled: str | None,
        pages: frozenset[int] | None,
    ) -> None:
        self._spec = spec
        self._origin, self._outline, self._count = opening
        self._spooled = spooled
        self._pages = pages
        self._counters: tuple[int, ...] = ()
        self._ahead: dict[int, int] = {}
        """Tickets of the pages asked for ahead, by page."""
        self.failures: list[tuple[int, PartitaError]] = []
        """(page, why its worker died) for each page PDFium failed on, read by pdfminer."""

    @property
    def name(self) -> str:
        """The document's name in messages."""
        return self._spec.name

    @property
    def origin(self) -> str:
        """The elements' `detection_origin`: the library that read the characters."""
        return self._origin

    def guarded(self, what: str) -> contextlib.nullcontext[None]:
        """Nothing to guard here: the worker names its failures as `document` does (each
        request knows `what` it is) and they come back typed."""
        return contextlib.nullcontext()

    def page_count(self) -> int:
        """The number of pages (read when the document was opened)."""
        if isinstance(self._count, PartitaError):
            raise self._count
        return self._count

    def read_outline(self) -> dict[str, int]:
        """{outline_key(title): depth} of the outline's entries (read when the document was
        opened)."""
        if isinstance(self._outline, PartitaError):
            raise self._outline
        return self._outline

    def read_page(self, index: int) -> PageContent:
        """The content of page `index` (1-based), the next wanted page asked for at once; read
        by pdfminer when PDFium ends the worker on it (see the PRINCIPLES)."""
        ticket = self._ahead.pop(index, None)
        if ticket is None:
            ticket = self._send(self._page_request(index))
        following = self._next_page(index)
        if following is not None and following not in self._ahead:
            self._ahead[following] = self._send(self._page_request(following))
        try:
            content: PageContent = self._answer(_pipe().result(ticket))
        except _WORKER_FAILURES as failure:
            if not self._reads_pdfium():
                raise
            self.failures.append((index, failure))
            content = self._ask(self._request("page", index=index, pdfminer=True))
        return content

    def close(self) -> None:
        """Close the document in the worker (not waiting for it) and delete its temporary
        copy (the worker has opened it already: the copy is no longer read by name)."""
        pipe = _pipe()
        for ticket in self._ahead.values():
            pipe.drop(ticket)
        self._ahead.clear()
        try:
            pipe.drop(self._send(self._request("close")))
        finally:
            if self._spooled is not None:
                with contextlib.suppress(OSError):
                    os.unlink(self._spooled)
                self._spooled = None

    def _reads_pdfium(self) -> bool:
        return (
            self._spec.pdfium
            and self._spec.backend == "pdfium"
            and len(self.failures) < MAX_PDFIUM_FAILURES
        )

    def _page_request(self, index: int) -> _Request:
        return self._request("page", index=index, pdfminer=not self._reads_pdfium())

    def _next_page(self, index: int) -> int | None:
        if not isinstance(self._count, int):
            return None
        if self._pages is None:
            return index + 1 if index < self._count else None
        return min((p for p in self._pages if index < p <= self._count), default=None)

    def _request(self, action: str, *, index: int = 0, pdfminer: bool = False) -> _Request:
        return _Request(self._spec, action, index, pdfminer, self._counters)

    def _send(self, request: _Request) -> int:
        return _pipe().send(request, self._spec.name)

    def _ask(self, request: _Request) -> Any:
        return self._answer(_pipe().run(request, self._spec.name))

    def _answer(self, result: BatchResult[Any]) -> Any:
        if result.error is not None:
            raise result.error
        assert result.value is not None
        value, counters, said = result.value
        if counters:
            self._counters = counters
        for warning in said:
            warnings.warn(warning, stacklevel=4)
        return value


def open_contained(
    source: str | os.PathLike[str] | IO[bytes],
    name: str,
    *,
    password: str | None,
    size: int,
    backend: str,
    pages: Iterable[int] | None = None,
    preflight: bool = True,
) -> ContainedPdf:
    """Open `source` (a path, or a binary file object copied to a temporary file) in the
    resident worker with `backend`, to read `pages` (default: all, in order); see the
    PRINCIPLES. Raises what opening it in this process would (`DocumentError`,
    `DocumentLimitError`, `FileReadError`), or, when opening it ended the worker even without
    PDFium, the typed error of that. `preflight=False` lets PDFium read the pages the
    preflight would refuse: only to test that the worker contains them."""
    spooled = None
    if isinstance(source, str | os.PathLike):
        path = os.path.abspath(os.fspath(source))
    else:
        path = spooled = _spool(source)
    key = f"{os.getpid()}-{next(_KEYS)}"
    spec = _Spec(key, path, name, password, size, backend, True, preflight)
    try:
        try:
            opening = _open_in_worker(spec)
        except _WORKER_FAILURES:
            if backend != "pdfium":
                raise
            spec = _Spec(key, path, name, password, size, backend, False, preflight)
            opening = _open_in_worker(spec)
    except BaseException:
        if spooled is not None:
            with contextlib.suppress(OSError):
                os.unlink(spooled)
        raise
    return ContainedPdf(spec, opening, spooled, None if pages is None else frozenset(pages))


def _open_in_worker(
    spec: _Spec,
) -> tuple[str, dict[str, int] | PartitaError, int | PartitaError]:
    """(origin, outline, page count) of `spec` opened in the worker. Raises
    `WorkerUnavailableWarning` as an error when no worker process can be started."""
    pipe = _pipe()
    try:
        result = pipe.run(_Request(spec, "open"), spec.name)
    except OSError as exc:  # -- no interpreter to start (an embedded Python), no processes --
        pipe.abandon()
        raise WorkerUnavailableWarning(
            f"{spec.name}: the PDF worker process could not start ({exc}); the PDF is parsed "
            "in this process, without its protection"
        ) from exc
    if result.error is not None:
        raise result.error
    assert result.value is not None
    opening: tuple[str, dict[str, int] | PartitaError, int | PartitaError] = result.value[0]
    return opening


def _spool(file: IO[bytes]) -> str:
    """Copy `file` (from its start, as the readers read it) to a new temporary file, leaving
    `file` where it was; return the copy's path."""
    start = file.tell()
    handle, path = tempfile.mkstemp(prefix="partita-", suffix=".pdf")
    try:
        with os.fdopen(handle, "wb") as copy:
            file.seek(0)
            shutil.copyfileobj(file, copy, _COPY_BYTES)
    except BaseException:
        os.unlink(path)
        raise
    finally:
        file.seek(start)
    return path
