"""Partitioning speed of partita against the reference (`unstructured`), in one process.

What is measured:

- the wall time of each library's partitioner on the large corpus documents:
  `unstructured/handbook-872p.docx` and `docling/docx_rich_tables_01.docx` (docx),
  `unstructured/example-10k.html` (html), and a ~2 MB Markdown file the script builds
  deterministically by concatenating the corpus's Markdown files (`docling/wiki.md` and the
  `*.md` reference outputs) until it reaches 2,000,000 bytes (md). Each library is warmed up
  first on a small document of the same format (imports, spaCy model load), then timed
  best-of-N, each call after `gc.collect()` + `gc.freeze()` (as `bench_chunking.py` does);
  the ratio reference / partita is held against the target (partita >= 10x faster);
- the elements each library produced;
- "import partita + first partition of a small docx" in a fresh interpreter (median of
  `--startup-runs`; target < 0.5 s), and the same for the reference (import unstructured +
  spaCy model load + first partition) for scale.

A partita format whose module does not exist yet is reported as "not available".

PDF (issues 5 and 17, `PDF_CASES`: `unstructured/DA-619p.pdf` and `unstructured/pdf2image-
memory-error-test-400p.pdf`, all pages), four rows per document, each reading every page in
this one process and opening the file itself (the open is timed):

- the floor (`PDF_FLOOR`): PDFium's characters of the same pages, `bench_pdf.py`'s
  `pdfium_chars(path, pages, "matrix")` (its `chars-matrix` row: each page's text in one
  `get_text_range()` call, then per character its loose box and its font size x the text
  matrix's scale), best of `--repeat`;
- pdfplumber's `extract_text` of every page, `page.close()` after each (`bench_pdf.py`'s
  `pdfplumber_text`), best of `--reference-repeat`;
- partita's `partition_pdf(filename, backend="pdfplumber")`, the old pdfminer-based backend,
  best of `--reference-repeat`;
- partita's `partition_pdf(filename)` with its default backend (PDFium through pypdfium2; the
  default found is printed), best of `--repeat`.

Every row is warmed up first on `unstructured/multi-column-2p.pdf`. Printed per row: time,
pages/s, time / the floor's, pages/s / the old backend's, and its output (characters or
elements); then per document the two targets with the measured ratio and PASS/FAIL: partita
(default) at most 2x the floor's time, and at least 10x the old backend's pages/s. Then, unless
`--skip-memory`, the peak RSS (`VmHWM` of `/proc/self/status`) of streaming
`iter_pdf_elements` (default backend) over the first 100 pages and over all pages of each of
the two PDFs, each run in a fresh interpreter (the 100-page run stops at the first element past
page 100), so "flat in the page count" can be read off the two peaks and their difference; and
the same for pdfplumber's `extract_text` + `page.close()` page by page, for scale.

Run it from the repository root with the dev venv (`pip install -e '.[bench]'`):

    python benchmarks/bench_partition.py [--only docx|html|md|pdf] [--repeat 3]
                                         [--reference-repeat 1] [--startup-runs 5]
                                         [--skip-startup] [--skip-memory]
                                         [--corpus ../shared/corpus]
    python benchmarks/bench_partition.py --only pdf --skip-startup   # the PDF rows and memory

The table is printed and written as Markdown to `benchmarks/results/partition.md` (gitignored).
The reference runs offline: see `benchmarks/_reference.py`.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _reference import reference_version, setup_reference  # benchmarks/ is on sys.path
from _shared import CORPUS  # benchmarks/ is on sys.path
from _timing import best_time
from bench_pdf import page_count, pdfium_chars, pdfplumber_text
from compare_partition import FORMATS, load_partitioner

BENCHMARKS = Path(__file__).resolve().parent
RESULTS = BENCHMARKS / "results" / "partition.md"
DEFAULT_CORPUS = CORPUS
SPEED_TARGET = 10.0
STARTUP_TARGET = 0.5
MARKDOWN_BYTES = 2_000_000
QUICK_BASELINE = 2.0
"""Seconds under which a baseline call is also timed best-of-`--repeat`."""
SMALL_DOCX = "unstructured/category-level.docx"
WARM_UP = {
    "docx": "unstructured/category-level.docx",
    "html": "unstructured/example-10k-1p.html",
    "md": "docling/wiki.md",
}

Partitioner = Callable[..., Any]


@dataclass(frozen=True)
class Case:
    """One timed row: a document, what partita is compared against, and the target ratio."""

    format: str
    document: str
    """Corpus-relative path, or `BUILT_MARKDOWN` for the generated Markdown file."""
    baseline: str = "unstructured"
    """The reference partitioner of `format`."""
    target: float = SPEED_TARGET


BUILT_MARKDOWN = "<corpus *.md concatenated to ~2 MB>"

CASES: list[Case] = [
    Case("docx", "unstructured/handbook-872p.docx"),
    Case("docx", "docling/docx_rich_tables_01.docx"),
    Case("html", "unstructured/example-10k.html"),
    Case("md", BUILT_MARKDOWN),
]

# ------------------------------------------------------------------------------------------------
# PDF rows (issues 5 and 17), timed apart from `CASES` (`pdf_speed_section`): per document the
# floor, PDFium's characters of the same pages (`bench_pdf.pdfium_chars(..., "matrix")`),
# pdfplumber's `extract_text`, partita on its old backend (`PDF_OLD_BACKEND`) and partita on its
# default backend. Targets: partita (default) at most `PDF_TIME_TARGET` x the floor's time and at
# least `PDF_SPEEDUP_TARGET` x the old backend's pages/s. The PDF partitioner is imported here,
# not looked up in `compare_partition.FORMATS`, which has no "pdf" entry (its rows compare with
# the reference, which needs models for PDF). `--only pdf` also runs the streaming memory
# rows (`pdf_memory_section`; `--skip-memory` leaves them out).
# ------------------------------------------------------------------------------------------------
PDF_FLOOR = "floor: PDFium chars-matrix"
PDF_PLUMBER = "pdfplumber extract_text"
PDF_OLD_BACKEND = "pdfplumber"
PDF_OLD = f"partita backend={PDF_OLD_BACKEND!r}"
PDF_DEFAULT = "partita default"
PDF_TIME_TARGET = 2.0
"""partita's (default backend) time at most this many times the floor's."""
PDF_SPEEDUP_TARGET = 10.0
"""partita's (default backend) pages/s at least this many times the old backend's."""
PDF_SLOW_ROWS = (PDF_PLUMBER, PDF_OLD)
"""Timed best of `--reference-repeat` (minutes a run on DA-619p); the others best of `--repeat`."""
PDF_STREAM = ("partita.partitioners.pdf", "iter_pdf_elements")
PDF_MEMORY_FIRST_PAGES = 100
WARM_UP["pdf"] = "unstructured/multi-column-2p.pdf"
PDF_CASES: list[str] = [
    "unstructured/DA-619p.pdf",
    "unstructured/pdf2image-memory-error-test-400p.pdf",
]
"""Corpus-relative PDFs, timed on all their pages and streamed for the memory rows."""


# ------------------------------------------------------------------------------------------------
# inputs and partitioners
# ------------------------------------------------------------------------------------------------


def build_markdown(corpus: Path, target_bytes: int = MARKDOWN_BYTES) -> Path:
    """Concatenate the corpus's Markdown files (sorted) again and again to `target_bytes`."""
    sources = sorted(p for p in corpus.rglob("*.md") if p.is_file())
    if not sources:
        raise FileNotFoundError(f"no *.md under {corpus}")
    texts = [p.read_text(encoding="utf-8").strip() + "\n" for p in sources]
    parts: list[str] = []
    size = 0
    while size < target_bytes:
        for text in texts:
            parts.append(text)
            size += len(text.encode("utf-8")) + 1
            if size >= target_bytes:
                break
    path = Path(tempfile.mkdtemp(prefix="partita-bench-md-")) / "corpus-2mb.md"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def baseline_partitioner(case: Case) -> Partitioner | str:
    if case.baseline == "unstructured":
        module, function, _, _ = FORMATS[case.format]
        return load_partitioner(module, function)
    return f"unknown baseline {case.baseline!r}"


def partita_partitioner(fmt: str) -> Partitioner | str:
    if fmt not in FORMATS:
        return f"not available (no partita module known for {fmt})"
    _, _, module, function = FORMATS[fmt]
    return load_partitioner(module, function)


@dataclass
class Timing:
    seconds: float | None = None
    elements: int | None = None
    error: str | None = None


def timed(partitioner: Partitioner | str, path: Path, repeat: int) -> Timing:
    if isinstance(partitioner, str):
        return Timing(error=partitioner)
    try:
        seconds, result = best_time(lambda: partitioner(filename=str(path)), repeat)
    except Exception as exc:
        return Timing(error="".join(traceback.format_exception_only(type(exc), exc)).strip())
    return Timing(seconds=seconds, elements=len(result))


def warm_up(partitioner: Partitioner | str, path: Path) -> str | None:
    """Call once on a small document (imports, model loads); return an error or None."""
    if isinstance(partitioner, str):
        return partitioner
    try:
        partitioner(filename=str(path))
    except Exception as exc:
        return f"warm-up failed: {type(exc).__name__}: {exc}"
    return None


# ------------------------------------------------------------------------------------------------
# startup in a fresh interpreter
# ------------------------------------------------------------------------------------------------

_PARTITA_STARTUP = """
import time
t = time.perf_counter()
import importlib
import partita
partition = getattr(importlib.import_module({module!r}), {function!r})
elements = partition(filename={path!r})
print(time.perf_counter() - t, len(elements))
"""

_REFERENCE_STARTUP = """
import sys, time
sys.path.insert(0, {benchmarks!r})
import _reference
_reference.setup_reference()
t = time.perf_counter()
import importlib
partition = getattr(importlib.import_module({module!r}), {function!r})
elements = partition(filename={path!r})
print(time.perf_counter() - t, len(elements))
"""


def startup_times(code: str, runs: int) -> tuple[list[float], int | None, str | None]:
    """In-process seconds of `code` (it prints them) over `runs` fresh interpreters."""
    times: list[float] = []
    count = None
    env = {**os.environ, "DO_NOT_TRACK": "1", "SCARF_NO_ANALYTICS": "true"}
    env["UNSTRUCTURED_DISABLE_NOTICE"] = "1"
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
        )
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["?"])[-1]
            return times, count, f"failed: {last}"
        seconds, n = done.stdout.split()[-2:]
        times.append(float(seconds))
        count = int(n)
    return times, count, None


# ------------------------------------------------------------------------------------------------
# PDF streaming memory in fresh interpreters (issue 5)
# ------------------------------------------------------------------------------------------------

_PDF_MEMORY_CHILD = """
import json, sys, time
from pathlib import Path

def kib(name):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(name + ":"):
            return int(line.split()[1])
    return 0

mode, path, max_pages = {mode!r}, {path!r}, {max_pages!r}
if mode == "partita":
    import importlib
    stream = getattr(importlib.import_module({module!r}), {function!r})
else:
    import pdfplumber
import_rss = kib("VmRSS")
start = time.perf_counter()
elements = pages = 0
if mode == "partita":
    for element in stream(filename=path):
        page = element.metadata.page_number or pages
        if max_pages and page > max_pages:
            break
        elements += 1
        pages = max(pages, page)
else:
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages[:max_pages or None]:
            elements += bool(page.extract_text())
            pages += 1
            page.close()
seconds = time.perf_counter() - start
print(json.dumps(dict(pages=pages, elements=elements, seconds=seconds, hwm_kib=kib("VmHWM"),
                      import_rss_kib=import_rss)))
"""


def pdf_memory_run(mode: str, path: Path, max_pages: int | None) -> dict[str, Any] | str:
    """Stream `path` in a fresh interpreter (partita's `iter_pdf_elements`, or pdfplumber's
    `extract_text` page by page with `page.close()`), stopping after `max_pages` pages; return
    its figures (VmHWM, RSS after imports, pages, elements, seconds) or an error."""
    module, function = PDF_STREAM
    code = _PDF_MEMORY_CHILD.format(
        mode=mode, path=str(path), max_pages=max_pages, module=module, function=function
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        if "ModuleNotFoundError" in last or "AttributeError" in last:
            return f"not available ({module}.{function}: {last[:100]})"
        return f"failed: {last[:160]}"
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def pdf_memory_section(corpus: Path) -> list[str]:
    """Peak RSS (VmHWM) of streaming the first 100 pages vs all pages of each `PDF_CASES` PDF,
    partita's `iter_pdf_elements` (default backend) and pdfplumber's `extract_text`."""
    header = ["document", "streaming", "pages", "elements", "time", "VmHWM", "RSS after imports"]
    header.append("notes")
    rows: list[list[str]] = []
    print("\nPDF streaming memory, fresh interpreters", flush=True)
    for document in PDF_CASES:
        path = corpus / document
        name = Path(document).name
        for mode, label in (
            ("partita", f"partita {PDF_STREAM[1]} (default backend: {partita_pdf_backend()})"),
            ("pdfplumber", "pdfplumber extract_text + page.close()"),
        ):
            peaks: list[int] = []
            for max_pages in (PDF_MEMORY_FIRST_PAGES, None):
                result = pdf_memory_run(mode, path, max_pages)
                span = f"first {max_pages}" if max_pages else "all"
                if isinstance(result, str):
                    row = [name, f"{label}, {span} pages", "-", "-", "-", "-", "-", result]
                else:
                    peaks.append(result["hwm_kib"])
                    row = [
                        name,
                        f"{label}, {span} pages",
                        str(result["pages"]),
                        f"{result['elements']:,}",
                        f"{result['seconds']:.1f} s",
                        f"{result['hwm_kib'] / 1024:.1f} MiB",
                        f"{result['import_rss_kib'] / 1024:.1f} MiB",
                        "",
                    ]
                rows.append(row)
                print(" | ".join(row), flush=True)
            if len(peaks) == 2:
                growth = (peaks[1] - peaks[0]) / 1024
                span = f"all - first {PDF_MEMORY_FIRST_PAGES}"
                rows.append([name, f"{label}: peak growth ({span})", "", "", ""])
                rows[-1] += [f"{growth:+.1f} MiB", "", ""]
                print(" | ".join(rows[-1]), flush=True)
    return [
        "PDF streaming memory (each row a fresh interpreter; VmHWM is the process's peak resident "
        "set; partita stops at the first element past the page limit):",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(row) + " |" for row in rows),
        "",
    ]


# ------------------------------------------------------------------------------------------------
# PDF speed (issues 5 and 17)
# ------------------------------------------------------------------------------------------------


def partita_pdf_backend() -> str:
    """The `backend` partita's `partition_pdf` uses when none is given."""
    from partita.partitioners.pdf import partition_pdf

    default: str = inspect.signature(partition_pdf).parameters["backend"].default
    return default


def pdf_rows(path: Path, pages: int) -> dict[str, Callable[[], Any]]:
    """The timed calls on every page of `path`, in table order (floor first)."""
    from partita.partitioners.pdf import partition_pdf

    return {
        PDF_FLOOR: lambda: pdfium_chars(path, pages, "matrix"),
        PDF_PLUMBER: lambda: pdfplumber_text(path, pages),
        PDF_OLD: lambda: partition_pdf(filename=str(path), backend=PDF_OLD_BACKEND),
        PDF_DEFAULT: lambda: partition_pdf(filename=str(path)),
    }


def pdf_output(row: str, result: Any) -> str:
    """A short account of a row's output, to see that it did its work."""
    if row == PDF_FLOOR:
        return f"{sum(len(text) for text, _, _ in result):,} chars"
    if row == PDF_PLUMBER:
        return f"{sum(len(text) for text in result):,} text chars"
    return f"{len(result):,} elements"


def _pdf_verdict(label: str, ratio: float, target: str, passed: bool, detail: str) -> str:
    """One line of the PDF targets: the ratio, the target, PASS or FAIL, and the pages/s."""
    return f"{label} {ratio:.2f}x (target {target}): {'PASS' if passed else 'FAIL'} ({detail})"


def pdf_speed_section(corpus: Path, repeat: int, slow_repeat: int) -> list[str]:
    """Time the PDF rows on every page of each `PDF_CASES` document; the table and the targets."""
    default = partita_pdf_backend()
    print(f"\nPDF speed: all pages, one process; partita's default backend: {default}", flush=True)
    warm = corpus / WARM_UP["pdf"]
    for row, run in pdf_rows(warm, page_count(warm)).items():
        try:
            run()
        except Exception as exc:
            print(f"warm-up of {row} failed: {type(exc).__name__}: {exc}", flush=True)
    header = ["document", "row", "pages", "time", "pages/s", "time / floor"]
    header += ["pages/s / old backend", "output"]
    rows: list[list[str]] = []
    verdicts: list[str] = []
    for document in PDF_CASES:
        path = corpus / document
        name = Path(document).name
        pages = page_count(path)
        seconds: dict[str, float] = {}
        outputs: dict[str, str] = {}
        for row, run in pdf_rows(path, pages).items():
            try:
                best, result = best_time(run, slow_repeat if row in PDF_SLOW_ROWS else repeat)
            except Exception as exc:
                outputs[row] = "".join(traceback.format_exception_only(type(exc), exc)).strip()
                print(f"{name} | {row} | failed: {outputs[row]}", flush=True)
                continue
            seconds[row], outputs[row] = best, pdf_output(row, result)
            del result
            print(f"{name} | {row} | {best:.3f} s | {pages / best:.1f} pages/s", flush=True)
        floor, old = seconds.get(PDF_FLOOR), seconds.get(PDF_OLD)
        for row in pdf_rows(path, pages):
            taken = seconds.get(row)
            label = f"{PDF_DEFAULT} ({default})" if row == PDF_DEFAULT else row
            if taken is None:
                rows.append([name, label, str(pages), "-", "-", "-", "-", outputs.get(row, "")])
                continue
            rows.append(
                [
                    name,
                    label,
                    str(pages),
                    f"{taken:.3f} s",
                    f"{pages / taken:.1f}",
                    "-" if floor is None else f"{taken / floor:.2f}x",
                    "-" if old is None else f"{old / taken:.1f}x",
                    outputs[row],
                ]
            )
        partita = seconds.get(PDF_DEFAULT)
        if partita is not None and floor is not None:
            verdicts.append(
                _pdf_verdict(
                    f"{name}: partita ({default}) time / floor",
                    partita / floor,
                    f"<= {PDF_TIME_TARGET:g}x",
                    partita / floor <= PDF_TIME_TARGET,
                    f"{pages / partita:.1f} against {pages / floor:.1f} pages/s",
                )
            )
        if partita is not None and old is not None:
            verdicts.append(
                _pdf_verdict(
                    f"{name}: partita ({default}) pages/s / old backend ({PDF_OLD_BACKEND})",
                    old / partita,
                    f">= {PDF_SPEEDUP_TARGET:g}x",
                    old / partita >= PDF_SPEEDUP_TARGET,
                    f"{pages / partita:.1f} against {pages / old:.1f} pages/s",
                )
            )
    table = [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(row) + " |" for row in rows),
    ]
    print("\n" + "\n".join(table), flush=True)
    print("\n".join(["", "PDF targets:", *verdicts]), flush=True)
    return [
        f"PDF speed (all pages, one process; {', '.join(PDF_SLOW_ROWS)} best of {slow_repeat}, "
        f"the others best of {repeat}; partita's default backend: {default}):",
        "",
        *table,
        "",
        *(f"- {line}" for line in verdicts),
        "",
    ]


# ------------------------------------------------------------------------------------------------
# main
# ------------------------------------------------------------------------------------------------


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f} s"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", choices=["docx", "html", "md", "pdf"], action="append")
    parser.add_argument("--repeat", type=int, default=3, help="best-of-N for partita")
    parser.add_argument(
        "--reference-repeat", type=int, default=1, help="best-of-N for the baseline (slow)"
    )
    parser.add_argument("--startup-runs", type=int, default=5)
    parser.add_argument("--skip-startup", action="store_true")
    parser.add_argument("--skip-memory", action="store_true", help="no PDF streaming memory rows")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)

    setup = setup_reference()
    cases = [c for c in CASES if not args.only or c.format in args.only]
    intro = [
        f"unstructured {reference_version()} vs partita; Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs; partita best of {args.repeat}, baseline best of "
        f"{args.reference_repeat}",
        setup,
    ]
    print("\n".join(intro), flush=True)

    markdown_path: Path | None = None
    rows: list[list[str]] = []
    warmed: dict[tuple[str, str], str | None] = {}
    for case in cases:
        if case.document == BUILT_MARKDOWN:
            if markdown_path is None:
                markdown_path = build_markdown(args.corpus)
                print(f"built {markdown_path} ({markdown_path.stat().st_size:,} bytes)")
            path, label = markdown_path, f"{BUILT_MARKDOWN} {markdown_path.stat().st_size:,} B"
        else:
            path, label = args.corpus / case.document, case.document
        baseline = baseline_partitioner(case)
        partita = partita_partitioner(case.format)
        for name, partitioner in (("baseline", baseline), ("partita", partita)):
            key = (case.format, f"{name}:{case.baseline}")
            if key not in warmed and case.format in WARM_UP:
                warmed[key] = warm_up(partitioner, args.corpus / WARM_UP[case.format])
        ref = timed(baseline, path, args.reference_repeat)
        if ref.seconds is not None and ref.seconds < QUICK_BASELINE and args.repeat > 1:
            # -- a quick baseline call is noisy: give it partita's best-of-N too --
            again = timed(baseline, path, args.repeat)
            if again.seconds is not None:
                ref.seconds = min(ref.seconds, again.seconds)
        par = timed(partita, path, args.repeat)
        ratio = (
            ref.seconds / par.seconds
            if ref.seconds is not None and par.seconds  # -- a 0.0 s partita stays "-" --
            else None
        )
        result = "-" if ratio is None else ("PASS" if ratio >= case.target else "MISS")
        notes = "; ".join(
            f"{who}: {t.error.splitlines()[-1][:120]}"
            for who, t in (("baseline", ref), ("partita", par))
            if t.error
        )
        row = [
            case.format,
            label,
            case.baseline,
            _seconds(ref.seconds),
            _seconds(par.seconds),
            "-" if ratio is None else f"{ratio:.1f}x",
            f">= {case.target:g}x",
            result,
            "-" if ref.elements is None else f"{ref.elements:,}",
            "-" if par.elements is None else f"{par.elements:,}",
            notes,
        ]
        rows.append(row)
        print(" | ".join(row), flush=True)

    header = [
        "format",
        "document",
        "baseline",
        "baseline time",
        "partita time",
        "ratio",
        "target",
        "result",
        "baseline elements",
        "partita elements",
        "notes",
    ]
    md = [
        "# partita vs unstructured: partitioning speed",
        "",
        *(f"- {line}" for line in intro),
        "",
    ]
    if rows:
        md += [
            "| " + " | ".join(header) + " |",
            "|" + "---|" * len(header),
            *("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows),
            "",
        ]

    if not args.only or "pdf" in args.only:
        md += pdf_speed_section(args.corpus, args.repeat, args.reference_repeat)
        if not args.skip_memory:
            md += pdf_memory_section(args.corpus)

    if not args.skip_startup:
        print(f"\nstartup: fresh interpreters, median of {args.startup_runs}", flush=True)
        small = str(args.corpus / SMALL_DOCX)
        module, function = FORMATS["docx"][2:]
        ref_module, ref_function = FORMATS["docx"][:2]
        startup_rows = []
        for name, code, target in (
            (
                "import partita + first partition_docx",
                _PARTITA_STARTUP.format(module=module, function=function, path=small),
                STARTUP_TARGET,
            ),
            (
                "reference: import + spaCy load + first partition_docx",
                _REFERENCE_STARTUP.format(
                    benchmarks=str(BENCHMARKS), module=ref_module, function=ref_function, path=small
                ),
                None,
            ),
        ):
            if name.startswith("import partita") and isinstance(partita_partitioner("docx"), str):
                times: list[float] = []
                count, error = None, str(partita_partitioner("docx"))
            else:
                times, count, found = startup_times(code, args.startup_runs)
                error = found or ""
            median = statistics.median(times) if times else None
            verdict = "-"
            if target is not None and median is not None:
                verdict = "PASS" if median < target else "MISS"
            startup_rows.append(
                [
                    name,
                    SMALL_DOCX,
                    _seconds(median),
                    _seconds(min(times) if times else None),
                    _seconds(max(times) if times else None),
                    "-" if target is None else f"< {target:g} s",
                    verdict,
                    "-" if count is None else str(count),
                    error or "",
                ]
            )
            print(" | ".join(startup_rows[-1]), flush=True)
        startup_header = [
            "startup",
            "document",
            "median",
            "min",
            "max",
            "target",
            "result",
            "elements",
            "notes",
        ]
        md += [
            f"Startup in fresh interpreters (median of {args.startup_runs}; time measured inside "
            "the interpreter from before the first import to after the first partition):",
            "",
            "| " + " | ".join(startup_header) + " |",
            "|" + "---|" * len(startup_header),
            *("| " + " | ".join(row) + " |" for row in startup_rows),
            "",
        ]

    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text("\n".join(md) + "\n", encoding="utf-8")
    print(f"\nreport written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
