"""What containment costs: `partition_pdf` reading in its worker process (the default,
`isolation="process"`) against reading in the calling process (`isolation="none"`).

Two budgets (issue 29): on a long document, the contained reading keeps at least
`SPEED_BUDGET` of in-process pages per second; on small documents, it costs at most
`SMALL_BUDGET_MS` more per document. Both are measured alternately, contained then in process,
`repeat` times, and the best of each kept, so machine drift falls on both alike. The worker's
start (paid once per process, on the first PDF) is measured apart: the first contained call
after `stop_pdf_worker`, less an in-process call of the same small document.
"""

from __future__ import annotations

import gc
import io
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "SMALL_BUDGET_MS",
    "SPEED_BUDGET",
    "Alternated",
    "alternate",
    "containment_lines",
    "small_documents",
    "worker_start_seconds",
]

SPEED_BUDGET = 0.90
"""Contained pages/s at least this share of in-process pages/s."""
SMALL_BUDGET_MS = 20.0
"""Contained reading of a small document at most this many milliseconds slower."""
SMALL_PAGES = 4
"""Documents of at most this many pages are the small ones."""


@dataclass(frozen=True)
class Alternated:
    """Best times of the contained and the in-process reading of one document."""

    document: str
    pages: int
    contained: float
    in_process: float


def _timed(run: Callable[[], Any]) -> float:
    gc.collect()
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def alternate(
    path: Path, pages: int | None, repeat: int, *, from_bytes: bool = False
) -> Alternated:
    """Read `path` (its first `pages`; all when None) contained, then in process, `repeat`
    times; the best time of each. `from_bytes` reads it from a file object (the bytes in
    memory), as a web service would."""
    from partita.partitioners.pdf import partition_pdf

    selected = None if pages is None else range(1, pages + 1)
    data = path.read_bytes() if from_bytes else b""

    def read(isolation: str) -> list[Any]:
        if from_bytes:
            return partition_pdf(file=io.BytesIO(data), pages=selected, isolation=isolation)
        return partition_pdf(str(path), pages=selected, isolation=isolation)

    read("process")  # -- warm-up: the worker, imports, font caches --
    read("none")
    contained = in_process = float("inf")
    for _ in range(repeat):
        contained = min(contained, _timed(lambda: read("process")))
        in_process = min(in_process, _timed(lambda: read("none")))
    count = pages if pages is not None else _page_count(path)
    return Alternated(path.name, count, contained, in_process)


def _page_count(path: Path) -> int:
    import pypdfium2  # type: ignore[import-untyped]

    document = pypdfium2.PdfDocument(path)
    try:
        return len(document)
    finally:
        document.close()


def small_documents(corpus: Path) -> list[Path]:
    """The corpus's PDFs of at most `SMALL_PAGES` pages, by name."""
    found = sorted(corpus.rglob("*.pdf"), key=lambda p: p.name)
    return [path for path in found if _page_count(path) <= SMALL_PAGES]


def worker_start_seconds(path: Path) -> float:
    """The first contained read of `path` after the worker stopped, less an in-process read."""
    from partita.partitioners.pdf import partition_pdf, stop_pdf_worker

    partition_pdf(str(path), isolation="none")
    in_process = _timed(lambda: partition_pdf(str(path), isolation="none"))
    stop_pdf_worker()
    return _timed(lambda: partition_pdf(str(path))) - in_process


def containment_lines(long: list[Alternated], small: list[Alternated], start: float) -> list[str]:
    """The budgets' verdicts, with the measured figures."""
    lines: list[str] = []
    for measured in long:
        share = measured.in_process / measured.contained
        verdict = "PASS" if share >= SPEED_BUDGET else "FAIL"
        lines.append(
            f"- {measured.document} ({measured.pages} pages): contained "
            f"{measured.pages / measured.contained:.1f} pages/s, in process "
            f"{measured.pages / measured.in_process:.1f}: {share:.1%} of in-process speed "
            f"(budget >= {SPEED_BUDGET:.0%}): {verdict}"
        )
    if small:
        extra = sorted((m.contained - m.in_process) * 1000 for m in small)
        worst = max(small, key=lambda m: m.contained - m.in_process)
        verdict = "PASS" if extra[-1] <= SMALL_BUDGET_MS else "FAIL"
        lines.append(
            f"- {len(small)} small documents (<= {SMALL_PAGES} pages, read from bytes): contained "
            f"costs {extra[len(extra) // 2]:+.1f} ms per document (median), "
            f"{extra[-1]:+.1f} ms at most ({worst.document}) (budget <= {SMALL_BUDGET_MS:g} ms): "
            f"{verdict}"
        )
    lines.append(f"- the worker's start, once per process: {start * 1000:.0f} ms")
    return lines
