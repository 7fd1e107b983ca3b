"""PDF reading speed (issue 17): partita's `partition_pdf` against PDFium's character floor.

Every row reads the same pages of each PDF in ONE process, opening the file itself (the open is
timed): `unstructured/DA-619p.pdf` and `unstructured/pdf2image-memory-error-test-400p.pdf` of the
shared corpus (`../shared/corpus` next to the repository root). Rows (`--rows`, comma-separated):

- `chars-matrix` (**the floor**), `chars-loose`, `chars-tight`, `chars-helper`: pypdfium2's
  characters of every page with their boxes and font sizes — the page's text in one
  `PdfTextPage.get_text_range()` call (checked to have one character per `count_chars()` index,
  else `FPDFText_GetUnicode` per character), then per character `FPDFText_GetFontSize` and a
  box: `FPDFText_GetLooseCharBox` into one reused `FS_RECTF` (loose: the font's ascent to
  descent; its left, bottom, right are pdfplumber's x0, y0, x1), `FPDFText_GetCharBox` into four
  reused `c_double`s (tight: the glyph's ink), or pypdfium2's `PdfTextPage.get_charbox` (tight,
  new ctypes objects per call). `FPDFText_GetFontSize` is the nominal `Tf` size: a PDF drawing
  10 pt text as `1 Tf` under a 10x text matrix (the 400-page file) gives 1.0 where pdfplumber
  says 10.0. `chars-matrix` therefore also reads `FPDFText_GetMatrix` (one reused `FS_MATRIX`)
  and gives size x hypot(c, d), the effective size: the only correct row, so the floor (the
  fastest chars row when it is not run). PDFium has no call returning many boxes at once
  (`FPDFText_CountRects`/`GetRect` give runs, not characters), so one foreign call per character
  and attribute is the least.
- `text`: pypdfium2's plain text, `get_text_range()` per page;
- `pdfplumber`: pdfplumber's `page.extract_text()` per page (`page.close()` after each);
- `partita`: `partita.partitioners.pdf.partition_pdf(filename, pages=range(1, N + 1))` (all
  pages: `pages=None`) with its default backend (`backend` not given: PDFium through
  pypdfium2; the header line prints the default found);
- `partita-pdfplumber`: the same with `backend="pdfplumber"`, the old pdfminer-based backend;
- `partita-inprocess`: `partita` read in the calling process (`isolation="none"`), where
  `partita` reads in partita's worker process (the default). The caller's peak RSS is shown
  (the worker's memory is its own).

Then the cost of containment (`_containment`): `partita` against `partita-inprocess`, each
document read alternately `--repeat` times, pages/s kept at least 90% of in-process; the
corpus's small PDFs (at most 4 pages, read from bytes) at most 20 ms slower each; and the
worker's one-time start (`--no-containment` skips it).

Each row is warmed up once on the document's first page (imports, font caches), then timed
best-of-`--repeat` (`--slow-repeat` for `pdfplumber` and `partita-pdfplumber`) with
`_timing.best_time`. Memory, per row, in the same process: the peak resident set (`VmHWM`,
including PDFium's C heap) of one more run, with the high-water mark reset before it by writing 5
to `/proc/self/clear_refs` (Linux >= 4.0), minus the resident set before the run; where the reset
is refused, the growth of `resource.getrusage().ru_maxrss` during the run (0 when the run stays
under an earlier peak). The table says which. Then, per document, issue 17's two targets with the
measured ratios and PASS/FAIL: `partita`'s time at most 2x the floor's, and its pages/s at least
10x `partita-pdfplumber`'s.

    python benchmarks/bench_pdf.py --pages 100              # about 3 minutes on 2 cores
    python benchmarks/bench_pdf.py                          # all pages (old backend: minutes)
    python benchmarks/bench_pdf.py --rows chars-loose,text --repeat 5
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import gc
import math
import os
import platform
import resource
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _containment import (  # benchmarks/ is on sys.path
    SMALL_BUDGET_MS,
    SPEED_BUDGET,
    alternate,
    containment_lines,
    small_documents,
    worker_start_seconds,
)
from _shared import CORPUS as SHARED_CORPUS  # benchmarks/ is on sys.path
from _timing import best_time

CORPUS = SHARED_CORPUS / "unstructured"
DOCUMENTS = ("DA-619p.pdf", "pdf2image-memory-error-test-400p.pdf")
CHAR_ROWS = ("chars-matrix", "chars-loose", "chars-tight", "chars-helper")
FLOOR_ROW = "chars-matrix"
"""The floor when it ran (the only row with correct font sizes), else the fastest chars row."""
OLD_ROW = "partita-pdfplumber"
"""partita on its old backend (pdfplumber/pdfminer), the 10x target's baseline."""
INPROCESS_ROW = "partita-inprocess"
ROWS = (*CHAR_ROWS, "text", "pdfplumber", "partita", INPROCESS_ROW, OLD_ROW)
SLOW_ROWS = frozenset({"pdfplumber", OLD_ROW})
TIME_TARGET = 2.0
"""partita's time at most this many times the floor's."""
SPEED_TARGET = 10.0
"""partita's pages/s at least this many times its old backend's (`partita-pdfplumber`)."""

FALLBACK_PAGES = [0]
"""Pages whose `get_text_range` length differed from `count_chars()` (read per character)."""
Chars = tuple[str, list[tuple[float, float, float, float]], list[float]]
"""One page: its characters (one per PDFium char index), their boxes (l, b, r, t), font sizes."""


def page_count(path: Path) -> int:
    """The number of pages of `path`."""
    import pypdfium2  # type: ignore[import-untyped]

    document = pypdfium2.PdfDocument(path)
    try:
        return len(document)
    finally:
        document.close()


def _page_text(textpage: Any, count: int) -> str:
    """The page's characters, one per char index: one bulk call when its length agrees."""
    import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]

    text: str = textpage.get_text_range(0, count) if count else ""
    if len(text) == count:
        return text
    FALLBACK_PAGES[0] += 1
    get_unicode = pdfium_c.FPDFText_GetUnicode
    handle = textpage.raw
    return "".join(chr(get_unicode(handle, index)) for index in range(count))


def pdfium_chars(path: Path, pages: int, box: str) -> list[Chars]:
    """pypdfium2's characters of the first `pages` pages, with boxes (`box`: "matrix", "loose",
    "tight" or "helper") and font sizes (nominal, except "matrix": effective)."""
    import pypdfium2
    import pypdfium2.raw as pdfium_c

    get_size = pdfium_c.FPDFText_GetFontSize
    rect = pdfium_c.FS_RECTF()
    rect_ref = ctypes.byref(rect)
    get_loose = pdfium_c.FPDFText_GetLooseCharBox
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    refs = (ctypes.byref(left), ctypes.byref(right), ctypes.byref(bottom), ctypes.byref(top))
    get_tight = pdfium_c.FPDFText_GetCharBox
    matrix = pdfium_c.FS_MATRIX()
    matrix_ref = ctypes.byref(matrix)
    get_matrix = pdfium_c.FPDFText_GetMatrix
    result: list[Chars] = []
    document = pypdfium2.PdfDocument(path)
    try:
        for index in range(pages):
            page = document[index]
            textpage = page.get_textpage()
            count = textpage.count_chars()
            text = _page_text(textpage, count)
            handle = textpage.raw
            boxes: list[tuple[float, float, float, float]] = []
            add_box = boxes.append
            if box == "matrix":
                sizes = []
                for char in range(count):
                    get_loose(handle, char, rect_ref)
                    add_box((rect.left, rect.bottom, rect.right, rect.top))
                    get_matrix(handle, char, matrix_ref)
                    sizes.append(get_size(handle, char) * math.hypot(matrix.c, matrix.d))
                result.append((text, boxes, sizes))
                textpage.close()
                page.close()
                continue
            if box == "loose":
                for char in range(count):
                    get_loose(handle, char, rect_ref)
                    add_box((rect.left, rect.bottom, rect.right, rect.top))
            elif box == "tight":
                for char in range(count):
                    get_tight(handle, char, *refs)  # -- left, right, bottom, top --
                    add_box((left.value, bottom.value, right.value, top.value))
            else:
                get_charbox = textpage.get_charbox
                boxes = [get_charbox(char) for char in range(count)]
            sizes = [get_size(handle, char) for char in range(count)]
            result.append((text, boxes, sizes))
            textpage.close()
            page.close()
    finally:
        document.close()
    return result


def pdfium_text(path: Path, pages: int) -> list[str]:
    """pypdfium2's plain text of the first `pages` pages, `get_text_range()` each."""
    import pypdfium2

    texts: list[str] = []
    document = pypdfium2.PdfDocument(path)
    try:
        for index in range(pages):
            page = document[index]
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range())
            textpage.close()
            page.close()
    finally:
        document.close()
    return texts


def pdfplumber_text(path: Path, pages: int) -> list[str]:
    """pdfplumber's `extract_text()` of the first `pages` pages."""
    import pdfplumber

    texts: list[str] = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages[:pages]:
            texts.append(page.extract_text() or "")
            page.close()
    return texts


def partita_partition(
    path: Path, pages: int, total: int, backend: str | None = None, **options: Any
) -> list[Any]:
    """partita's `partition_pdf` of the first `pages` pages (all: `pages=None`), on `backend`
    (None: the default, not passed), with `options`."""
    from partita.partitioners.pdf import partition_pdf

    selected = None if pages >= total else range(1, pages + 1)
    if backend is None:
        return partition_pdf(str(path), pages=selected, **options)
    return partition_pdf(str(path), pages=selected, backend=backend, **options)


def partita_default_backend() -> str:
    """The `backend` `partition_pdf` uses when none is given."""
    import inspect

    from partita.partitioners.pdf import partition_pdf

    default: str = inspect.signature(partition_pdf).parameters["backend"].default
    return default


def row_function(row: str, path: Path, pages: int, total: int) -> Callable[[], Any]:
    """The call timed for `row` on the first `pages` of `path`."""
    if row in CHAR_ROWS:
        box = row.removeprefix("chars-")
        return lambda: pdfium_chars(path, pages, box)
    if row == "text":
        return lambda: pdfium_text(path, pages)
    if row == "pdfplumber":
        return lambda: pdfplumber_text(path, pages)
    if row == "partita":
        return lambda: partita_partition(path, pages, total)
    if row == OLD_ROW:
        return lambda: partita_partition(path, pages, total, "pdfplumber")
    if row == INPROCESS_ROW:
        return lambda: partita_partition(path, pages, total, isolation="none")
    raise ValueError(f"unknown row {row!r}; rows: {', '.join(ROWS)}")


def _status_kib(field: str) -> int:
    """A `/proc/self/status` field in KiB (VmRSS, VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def _reset_peak() -> bool:
    """Reset this process's VmHWM to its current resident set; False where refused."""
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
    except OSError:
        return False
    return True


def _trim_heap() -> None:
    """Return the C heap's free memory to the system (glibc `malloc_trim`), so that a row's
    resident set before its run does not hold what an earlier row freed."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def peak_memory(run: Callable[[], Any]) -> tuple[float, str]:
    """The peak memory growth of one call of `run`, in MiB, and how it was measured."""
    gc.collect()
    _trim_heap()
    if _reset_peak():
        before = _status_kib("VmRSS")
        result = run()
        peak = _status_kib("VmHWM")
        del result
        return (peak - before) / 1024, "VmHWM - VmRSS before (peak reset, heap trimmed)"
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = run()
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    del result
    return (after - before) / 1024, "ru_maxrss growth"


def traced_peak(run: Callable[[], Any]) -> float:
    """The peak of Python's heap (tracemalloc) during one call of `run`, in MiB."""
    gc.collect()
    tracemalloc.start()
    try:
        result = run()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del result
    return peak / 2**20


@dataclass
class Measure:
    """One row on one document."""

    document: str
    row: str
    pages: int
    seconds: float
    memory_mib: float
    memory_how: str
    output: str
    traced_mib: float | None = None


def describe(row: str, result: Any) -> str:
    """A short account of a row's output, to see that the rows did their work."""
    if row in CHAR_ROWS:
        return f"{sum(len(text) for text, _, _ in result):,} chars"
    if row in ("text", "pdfplumber"):
        return f"{sum(len(text) for text in result):,} text chars"
    return f"{len(result):,} elements"


def measure(
    document: str,
    rows: list[str],
    pages: int | None,
    repeat: int,
    slow_repeat: int,
    traced: bool = False,
) -> list[Measure]:
    """Every row on the first `pages` of `document` (all when None)."""
    path = CORPUS / document
    total = page_count(path)
    count = total if pages is None else min(pages, total)
    measures: list[Measure] = []
    for row in rows:
        row_function(row, path, 1, total)()  # -- warm-up: imports, caches --
        run = row_function(row, path, count, total)
        seconds, result = best_time(run, slow_repeat if row in SLOW_ROWS else repeat)
        output = describe(row, result)
        del result
        memory, how = peak_memory(run)
        measures.append(Measure(document, row, count, seconds, memory, how, output))
        if traced:
            measures[-1].traced_mib = traced_peak(run)
        print(
            f"  {document} {row}: {count} pages {seconds:.3f} s ({count / seconds:.1f} pages/s), "
            f"peak +{memory:.1f} MiB, {output}"
            + (
                "" if measures[-1].traced_mib is None else f", traced {measures[-1].traced_mib:.1f}"
            ),
            flush=True,
        )
    return measures


def floor_of(rows: list[Measure]) -> Measure | None:
    """A document's floor: its `FLOOR_ROW` if measured, else its fastest chars row."""
    chars = [m for m in rows if m.row in CHAR_ROWS]
    floor = [m for m in chars if m.row == FLOOR_ROW]
    return floor[0] if floor else min(chars, key=lambda m: m.seconds, default=None)


def table(measures: list[Measure]) -> list[str]:
    """The Markdown table, ratios to each document's floor (`floor_of`) and, for pages/s, to its
    old-backend row (`OLD_ROW`)."""
    traced = any(m.traced_mib is not None for m in measures)
    lines = [
        "| document | row | pages | seconds | pages/s | time / floor | pages/s / old backend | "
        "peak RSS + MiB | " + ("tracemalloc peak MiB | " if traced else "") + "output |",
        "|---|---|---|---|---|---|---|---|---|" + ("---|" if traced else ""),
    ]
    for document in dict.fromkeys(m.document for m in measures):
        rows = [m for m in measures if m.document == document]
        floor = floor_of(rows)
        old = next((m for m in rows if m.row == OLD_ROW), None)
        for m in rows:
            ratio = f"{m.seconds / floor.seconds:.2f}x" if floor else "—"
            speedup = f"{old.seconds / m.seconds:.1f}x" if old else "—"
            name = f"{m.row} (floor)" if m is floor else m.row
            lines.append(
                f"| {document} | {name} | {m.pages} | {m.seconds:.3f} | "
                f"{m.pages / m.seconds:.1f} | {ratio} | {speedup} | {m.memory_mib:.1f} | "
                + ("" if not traced else f"{m.traced_mib or 0:.1f} | ")
                + f"{m.output} |"
            )
    return lines


def targets(measures: list[Measure]) -> list[str]:
    """Issue 17's two targets per document, with the measured ratios: `partita`'s time at most
    `TIME_TARGET` x the floor's, and its pages/s at least `SPEED_TARGET` x `OLD_ROW`'s."""
    lines: list[str] = []
    for document in dict.fromkeys(m.document for m in measures):
        rows = [m for m in measures if m.document == document]
        floor = floor_of(rows)
        partita = next((m for m in rows if m.row == "partita"), None)
        old = next((m for m in rows if m.row == OLD_ROW), None)
        if partita is None:
            continue
        rate = partita.pages / partita.seconds
        if floor is not None:
            ratio = partita.seconds / floor.seconds
            verdict = "PASS" if ratio <= TIME_TARGET else "FAIL"
            lines.append(
                f"- {document} ({partita.pages} pages): partita / floor ({floor.row}) time "
                f"{ratio:.2f}x (target <= {TIME_TARGET:g}x): {verdict} "
                f"({partita.seconds:.3f} s against {floor.seconds:.3f} s; "
                f"{rate:.1f} against {floor.pages / floor.seconds:.1f} pages/s)"
            )
        if old is not None:
            speedup = rate / (old.pages / old.seconds)
            verdict = "PASS" if speedup >= SPEED_TARGET else "FAIL"
            lines.append(
                f"- {document} ({partita.pages} pages): partita / {OLD_ROW} pages/s "
                f"{speedup:.1f}x (target >= {SPEED_TARGET:g}x): {verdict} "
                f"({rate:.1f} against {old.pages / old.seconds:.1f} pages/s)"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, measure, print the table and the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=None, help="first N pages (default all)")
    parser.add_argument(
        "--rows", default=",".join(ROWS), help=f"comma-separated, of: {', '.join(ROWS)}"
    )
    parser.add_argument("--documents", default=",".join(DOCUMENTS), help="corpus file names")
    parser.add_argument("--repeat", type=int, default=3, help="best of N for the PDFium rows")
    parser.add_argument(
        "--slow-repeat", type=int, default=1, help=f"best of N for pdfplumber, {OLD_ROW}"
    )
    parser.add_argument(
        "--tracemalloc", action="store_true", help="also the Python heap's peak (one more run)"
    )
    parser.add_argument(
        "--no-containment", action="store_true", help="skip the cost of containment"
    )
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # -- what the documents warn about is not measured here --
    rows = [row.strip() for row in args.rows.split(",") if row.strip()]
    unknown = [row for row in rows if row not in ROWS]
    if unknown:
        parser.error(f"unknown rows {unknown}; rows: {', '.join(ROWS)}")
    import pypdfium2
    import pypdfium2.version  # type: ignore[import-untyped]

    print(
        f"# bench_pdf: Python {platform.python_version()}, pypdfium2 "
        f"{pypdfium2.version.PYPDFIUM_INFO} (PDFium {pypdfium2.version.PDFIUM_INFO}), "
        f"{os.cpu_count()} CPUs, load average before {os.getloadavg()[0]:.2f}; partita's "
        f"default backend: {partita_default_backend()}",
        flush=True,
    )
    start = time.perf_counter()
    measures: list[Measure] = []
    for document in args.documents.split(","):
        measures += measure(
            document.strip(), rows, args.pages, args.repeat, args.slow_repeat, args.tracemalloc
        )
    print()
    print("\n".join(table(measures)))
    hows = sorted({m.memory_how for m in measures})
    print(f"\nPeak memory: {'; '.join(hows)} (one extra run per row, same process).")
    if any(row in CHAR_ROWS for row in rows):
        print(
            f"Pages whose get_text_range() length differed from count_chars() (read with "
            f"FPDFText_GetUnicode per character): {FALLBACK_PAGES[0]}."
        )
    lines = targets(measures)
    if lines:
        print(
            f"\nIssue 17's targets (partita at most {TIME_TARGET:g}x the floor's time, at least "
            f"{SPEED_TARGET:g}x {OLD_ROW}'s pages/s):"
        )
        print("\n".join(lines))
    if not args.no_containment:
        documents = [CORPUS / d.strip() for d in args.documents.split(",")]
        long = [alternate(path, args.pages, args.repeat) for path in documents]
        small = [alternate(p, None, 5, from_bytes=True) for p in small_documents(CORPUS.parent)]
        started = worker_start_seconds(CORPUS.parent / "markitdown" / "test.pdf")
        print(
            f"\nThe cost of containment (pages/s at least {SPEED_BUDGET:.0%} of in-process; "
            f"small documents at most {SMALL_BUDGET_MS:g} ms more):"
        )
        print("\n".join(containment_lines(long, small, started)))
    elapsed = time.perf_counter() - start
    print(f"\nTotal {elapsed:.0f} s, load average after {os.getloadavg()[0]:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
