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

PDF (issue 5, `PDF_CASES`): partita's `partition_pdf` on `unstructured/pdf2image-memory-error-
test-400p.pdf` and `unstructured/DA-619p.pdf` in pages/s, against pdfplumber's `extract_text`
of every page in the same process as the floor (target: partita's time <= 2x the floor's, i.e.
ratio >= 0.5x; the floor's "elements" are its pages). Then the peak RSS (`VmHWM`) of streaming
`iter_pdf_elements` over the first 100 pages and over all pages of the 619-page PDF, each in a
fresh interpreter, with pdfplumber's page-by-page `extract_text` + `page.close()` for scale
(`--skip-memory` leaves these out).

Run it from the repository root with the dev venv (`pip install -e '.[bench]'`):

    python benchmarks/bench_partition.py [--only docx|html|md|pdf] [--repeat 3]
                                         [--reference-repeat 1] [--startup-runs 5]
                                         [--skip-startup] [--skip-memory]
                                         [--corpus ../shared/corpus]

The table is printed and written as Markdown to `benchmarks/results/partition.md` (gitignored).
The reference runs offline: see `benchmarks/_reference.py`.
"""

from __future__ import annotations

import argparse
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
from _timing import best_time
from compare_partition import FORMATS, load_partitioner

BENCHMARKS = Path(__file__).resolve().parent
RESULTS = BENCHMARKS / "results" / "partition.md"
DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
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
    """"unstructured" (the reference partitioner of `format`) or "pdfplumber extract_text"."""
    target: float = SPEED_TARGET
    pages: int | None = None
    """Page count, for a pages/s column (PDF rows)."""


BUILT_MARKDOWN = "<corpus *.md concatenated to ~2 MB>"

CASES: list[Case] = [
    Case("docx", "unstructured/handbook-872p.docx"),
    Case("docx", "docling/docx_rich_tables_01.docx"),
    Case("html", "unstructured/example-10k.html"),
    Case("md", BUILT_MARKDOWN),
]

# ------------------------------------------------------------------------------------------------
# PDF rows (issue 5). Partita's PDF partitioner is measured in pages/s against pdfplumber's
# `extract_text` on every page as the floor (`baseline="pdfplumber extract_text"`, same process):
# partita's time may be at most 2x the floor's, i.e. the ratio floor / partita >= 0.5. The PDF
# partitioner is looked up here (`PDF_PARTITA`), not in `compare_partition.FORMATS`, which has no
# "pdf" entry (its rows compare with the reference, which needs models for PDF). `--only pdf`
# also runs the streaming memory rows (`pdf_memory_rows`; `--skip-memory` leaves them out).
# ------------------------------------------------------------------------------------------------
PDF_FLOOR = "pdfplumber extract_text"
PDF_TARGET = 0.5
"""Floor time / partita time: partita at most 2x pdfplumber's `extract_text`."""
PDF_PARTITA = ("partita.partitioners.pdf", "partition_pdf")
PDF_STREAM = ("partita.partitioners.pdf", "iter_pdf_elements")
PDF_MEMORY_DOCUMENT = "unstructured/DA-619p.pdf"
PDF_MEMORY_FIRST_PAGES = 100
WARM_UP["pdf"] = "unstructured/multi-column-2p.pdf"
PDF_CASES: list[Case] = [
    Case(
        "pdf",
        "unstructured/pdf2image-memory-error-test-400p.pdf",
        baseline=PDF_FLOOR,
        target=PDF_TARGET,
        pages=400,
    ),
    Case("pdf", "unstructured/DA-619p.pdf", baseline=PDF_FLOOR, target=PDF_TARGET, pages=619),
]


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


def pdfplumber_extract_text(filename: str) -> list[str]:
    """The PDF floor: pdfplumber's `extract_text` of every page."""
    import pdfplumber

    with pdfplumber.open(filename) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def baseline_partitioner(case: Case) -> Partitioner | str:
    if case.baseline == "unstructured":
        module, function, _, _ = FORMATS[case.format]
        return load_partitioner(module, function)
    if case.baseline == "pdfplumber extract_text":
        return pdfplumber_extract_text
    return f"unknown baseline {case.baseline!r}"


def partita_partitioner(fmt: str) -> Partitioner | str:
    if fmt == "pdf":
        return load_partitioner(*PDF_PARTITA)
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
    """Peak RSS (VmHWM) of streaming the first 100 pages vs all pages of the 619-page PDF."""
    path = corpus / PDF_MEMORY_DOCUMENT
    header = ["streaming", "pages", "elements", "time", "VmHWM", "RSS after imports", "notes"]
    rows: list[list[str]] = []
    peaks: dict[str, list[int]] = {}
    print(f"\nPDF streaming memory: {PDF_MEMORY_DOCUMENT}, fresh interpreters", flush=True)
    for mode, label in (
        ("partita", f"partita {PDF_STREAM[1]}"),
        ("pdfplumber", "pdfplumber extract_text + page.close()"),
    ):
        for max_pages in (PDF_MEMORY_FIRST_PAGES, None):
            result = pdf_memory_run(mode, path, max_pages)
            span = f"first {max_pages}" if max_pages else "all"
            if isinstance(result, str):
                row = [f"{label}, {span} pages", "-", "-", "-", "-", "-", result]
            else:
                peaks.setdefault(mode, []).append(result["hwm_kib"])
                row = [
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
        if len(peaks.get(mode, [])) == 2:
            growth = (peaks[mode][1] - peaks[mode][0]) / 1024
            rows.append(
                [f"{label}: peak growth (all - first 100)", "", "", "", f"{growth:+.1f} MiB"]
            )
            rows[-1] += ["", ""]
            print(" | ".join(rows[-1]), flush=True)
    return [
        f"PDF streaming memory ({PDF_MEMORY_DOCUMENT}; each row a fresh interpreter; VmHWM is "
        "the process's peak resident set; partita stops at the first element past the page "
        "limit):",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(row) + " |" for row in rows),
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
    cases = [c for c in [*CASES, *PDF_CASES] if not args.only or c.format in args.only]
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
        pages = f"{case.pages / par.seconds:.1f}" if case.pages and par.seconds is not None else "-"
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
            pages,
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
        "partita pages/s",
        "notes",
    ]
    md = [
        "# partita vs unstructured: partitioning speed",
        "",
        *(f"- {line}" for line in intro),
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows),
        "",
    ]

    if not args.skip_memory and (not args.only or "pdf" in args.only):
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
                times, count, error = [], None, str(partita_partitioner("docx"))
            else:
                times, count, error = startup_times(code, args.startup_runs)
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
