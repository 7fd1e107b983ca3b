"""PDFs read in the resident worker process (`partitioners.pdf.isolation`): the same elements
as in-process reading, and a caller that survives what kills PDFium."""

from __future__ import annotations

import io
import os
import resource
import threading
import time
from pathlib import Path

import pytest

import partita
from partita.elements import Element
from partita.errors import (
    DocumentError,
    DocumentTimeoutError,
    FileReadError,
    PartitaError,
    WorkerCrashError,
)
from partita.partitioners._build import iter_finished_elements
from partita.partitioners.pdf import (
    ISOLATIONS,
    WorkerUnavailableWarning,
    partition_pdf,
    stop_pdf_worker,
)
from partita.partitioners.pdf import _isolation as isolation_module
from partita.partitioners.pdf._document import iter_pdf_drafts
from partita.partitioners.pdf._isolation import open_contained
from tests.partitioners.pdf.structured_docs import structured_docs
from tests.robustness.hostile_pdf import compressed_stream, flate_bomb, one_page, text_content


def _json(elements: list[Element]) -> str:
    return partita.elements_to_json(elements)


@pytest.mark.parametrize("doc", structured_docs()[:4], ids=lambda doc: doc.name)
def test_the_worker_gives_the_elements_of_in_process_reading(doc: object) -> None:
    data: bytes = doc.data  # type: ignore[attr-defined]
    for backend in ("pdfium", "pdfplumber"):
        contained = partition_pdf(file=io.BytesIO(data), backend=backend)
        in_process = partition_pdf(file=io.BytesIO(data), backend=backend, isolation="none")
        assert _json(contained) == _json(in_process)
        assert contained


def test_a_path_and_a_file_object_read_alike_and_the_copy_is_deleted(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(structured_docs()[0].data)
    spooled_before = set(Path(os.environ.get("TMPDIR", "/tmp")).glob("partita-*.pdf"))
    with path.open("rb") as file:
        file.seek(7)
        from_file = partition_pdf(file=file, metadata_filename=str(path))
        assert file.tell() == 7  # -- left where the caller had it --
    from_path = partition_pdf(path)
    assert [e.text for e in from_file] == [e.text for e in from_path]
    assert set(Path(os.environ.get("TMPDIR", "/tmp")).glob("partita-*.pdf")) == spooled_before


def test_errors_come_back_typed_and_naming_the_file(tmp_path: Path) -> None:
    not_pdf = tmp_path / "notes.pdf"
    not_pdf.write_bytes(b"plain text, not a PDF at all")
    with pytest.raises(DocumentError, match=r"notes\.pdf"):
        partition_pdf(not_pdf)
    with pytest.raises(FileReadError, match=r"missing\.pdf"):
        partition_pdf(tmp_path / "missing.pdf")


def test_an_unknown_isolation_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="process, none"):
        partition_pdf(file=io.BytesIO(structured_docs()[0].data), isolation="thread")
    assert ISOLATIONS == ("process", "none")


def _nested_marks(levels: int) -> bytes:
    """A line of text, then `levels` marked-content sequences opened and never closed (about
    1 KB compressed): PDFium copies the stack at each one, quadratic memory."""
    data = flate_bomb(text_content("Text before the marks.") + b"\n", b"/P BMC ", levels)
    return one_page(compressed_stream(data))


def _partition_unweighed(path: Path) -> tuple[list[Element], list[tuple[int, PartitaError]]]:
    """Partition `path` in the worker with the preflight switched off, as `partition_pdf` does
    otherwise; the elements, and the pages PDFium failed on with why."""
    opened = open_contained(
        path, path.name, password=None, size=path.stat().st_size, backend="pdfium", preflight=False
    )
    try:
        drafts = iter_pdf_drafts(
            opened,
            pages=None,
            starting_page_number=1,
            include_page_breaks=False,
            include_headers_footers=True,
        )
        elements = list(iter_finished_elements(drafts, path=str(path), filetype="application/pdf"))
    finally:
        opened.close()
    return elements, opened.failures


def test_a_page_that_kills_pdfium_is_read_by_pdfminer_and_the_caller_lives_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "marks.pdf"
    path.write_bytes(_nested_marks(40_000))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    elements, failures = _partition_unweighed(path)
    assert [e.text for e in elements] == ["Text before the marks."]
    # -- PDFium ended the worker (out of its address space); pdfminer read the page --
    assert [(page, type(error)) for page, error in failures] == [(1, WorkerCrashError)]
    assert "SIGABRT" in str(failures[0][1]) or "SIGSEGV" in str(failures[0][1])
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mib < 200
    # -- the default reading refuses the page before PDFium sees it: no worker dies --
    assert [e.text for e in partition_pdf(path)] == ["Text before the marks."]


def test_a_page_over_the_cpu_limit_is_read_by_pdfminer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # -- a worker whose requests may use 1 s of CPU (and 4 GiB): PDFium spends seconds copying
    # -- 20,000 nested marked-content sequences --
    monkeypatch.setattr(isolation_module, "REQUEST_MAX_CPU", 1.0)
    monkeypatch.setattr(isolation_module, "WORKER_MAX_MEMORY", 4 << 30)
    # -- a worker of the test's own, left behind when the test ends --
    monkeypatch.setattr(isolation_module, "_PIPE", [])
    monkeypatch.setattr(isolation_module, "_OWNER", [0])
    path = tmp_path / "marks.pdf"
    path.write_bytes(_nested_marks(20_000))
    started = time.process_time()
    try:
        elements, failures = _partition_unweighed(path)
    finally:
        stop_pdf_worker()
    assert [e.text for e in elements] == ["Text before the marks."]
    assert [(page, type(error)) for page, error in failures] == [(1, DocumentTimeoutError)]
    assert "1 s of CPU" in str(failures[0][1])
    assert time.process_time() - started < 5  # -- the caller's own CPU: it only waited --


def test_threads_take_turns_in_one_worker() -> None:
    docs = [doc.data for doc in structured_docs()[:3]]
    expected = [_json(partition_pdf(file=io.BytesIO(d), isolation="none")) for d in docs]
    results: dict[int, str] = {}

    def read(number: int) -> None:
        results[number] = _json(partition_pdf(file=io.BytesIO(docs[number % 3])))

    threads = [threading.Thread(target=read, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [results[n] for n in range(6)] == [expected[n % 3] for n in range(6)]


def test_the_worker_can_be_stopped_and_starts_again() -> None:
    data = structured_docs()[0].data
    first = partition_pdf(file=io.BytesIO(data))
    stop_pdf_worker()
    assert _json(partition_pdf(file=io.BytesIO(data))) == _json(first)


def test_without_a_worker_process_the_pdf_is_read_here_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # -- an interpreter that cannot start processes (an embedded Python): the executable the
    # -- worker would run does not exist --
    monkeypatch.setattr(isolation_module, "_PIPE", [])
    monkeypatch.setattr(isolation_module, "_OWNER", [0])
    monkeypatch.setattr("sys.executable", "/nonexistent/python")
    data = structured_docs()[0].data
    with pytest.warns(WorkerUnavailableWarning, match="parsed in this process"):
        elements = partition_pdf(file=io.BytesIO(data))
    assert _json(elements) == _json(partition_pdf(file=io.BytesIO(data), isolation="none"))
