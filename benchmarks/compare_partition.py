"""Compare partita's partitioners with the reference (`unstructured`) on the shared corpus.

For each corpus document of the chosen formats (docx, html, md; from
`../shared/corpus/manifest.tsv`), both libraries partition the file in this process, and the
script prints:

- the element counts by type, side by side (reference | partita);
- the Title sequences side by side, aligned on equal texts (difflib), each with its
  `category_depth` and text truncated; `=` marks a pair with the same text and depth, `~` the same
  text at another depth;
- a summary table at the end: elements, titles, titles matched, time of each library, and any
  error (a failure of either library on a file is reported, never fatal). A format whose partita
  module does not exist yet is reported as "not available".

Run it from the repository root with the dev venv (the one with `unstructured` installed and the
`bench` extra: `pip install -e '.[bench]'`):

    python benchmarks/compare_partition.py [--format docx|html|md] [--files PATTERN ...]
                                           [--max-titles 60] [--width 48]
                                           [--corpus ../shared/corpus]

`--files` keeps the documents whose corpus path contains any of the given strings (for example
`--files category-level wiki.md`). The report is also written as Markdown to
`benchmarks/results/compare_partition.md` (gitignored). The reference runs offline: see
`benchmarks/_reference.py`.
"""

from __future__ import annotations

import argparse
import csv
import difflib
import importlib
import sys
import time
import traceback
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _reference import reference_version, setup_reference  # benchmarks/ is on sys.path
from _shared import CORPUS  # benchmarks/ is on sys.path

RESULTS = Path(__file__).resolve().parent / "results" / "compare_partition.md"
DEFAULT_CORPUS = CORPUS

FORMATS: dict[str, tuple[str, str, str, str]] = {
    # -- format: (reference module, reference function, partita module, partita function) --
    "docx": (
        "unstructured.partition.docx",
        "partition_docx",
        "partita.partitioners.docx",
        "partition_docx",
    ),
    "html": (
        "unstructured.partition.html",
        "partition_html",
        "partita.partitioners.html",
        "partition_html",
    ),
    "md": (
        "unstructured.partition.md",
        "partition_md",
        "partita.partitioners.markdown",
        "partition_md",
    ),
}

Partitioner = Callable[..., list[Any]]


# ------------------------------------------------------------------------------------------------
# corpus and partitioners
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Document:
    path: Path
    relative: str
    format: str
    note: str


def corpus_documents(
    corpus: Path, formats: Sequence[str], patterns: Sequence[str]
) -> list[Document]:
    """The manifest's documents of `formats` (`md(reference-output)` counts as md)."""
    documents = []
    with (corpus / "manifest.tsv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            fmt = row["format"].split("(", 1)[0]
            if fmt not in formats:
                continue
            relative = row["local_file"]
            if patterns and not any(p in relative for p in patterns):
                continue
            note = row.get("notes") or ""
            if row["format"] != fmt:
                note = f"[{row['format']}] {note}"
            documents.append(Document(corpus / relative, relative, fmt, note))
    return documents


def load_partitioner(module_name: str, function_name: str) -> Partitioner | str:
    """The partitioner function, or a string saying why it is not available."""
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            return f"not available ({module_name} does not exist yet)"
        return f"not available (import failed: {exc})"
    except Exception as exc:
        return f"not available (import failed: {type(exc).__name__}: {exc})"
    function = getattr(module, function_name, None)
    if not callable(function):
        return f"not available ({module_name}.{function_name} missing)"
    return function  # type: ignore[no-any-return]


# ------------------------------------------------------------------------------------------------
# running
# ------------------------------------------------------------------------------------------------


@dataclass
class Run:
    """One library's result on one document."""

    ok: bool = False
    n_elements: int = 0
    seconds: float = 0.0
    error: str | None = None
    counts: Counter[str] = field(default_factory=Counter)
    titles: list[tuple[int | None, str]] = field(default_factory=list)


def run_partitioner(partitioner: Partitioner | str, path: Path) -> Run:
    if isinstance(partitioner, str):
        return Run(error=partitioner)
    start = time.perf_counter()
    try:
        elements = list(partitioner(filename=str(path)))
    except Exception as exc:
        lines = traceback.format_exception_only(type(exc), exc)
        return Run(seconds=time.perf_counter() - start, error="".join(lines).strip())
    seconds = time.perf_counter() - start
    counts = Counter(str(getattr(e, "category", type(e).__name__)) for e in elements)
    titles = [
        (getattr(e.metadata, "category_depth", None), str(e.text))
        for e in elements
        if getattr(e, "category", None) == "Title"
    ]
    return Run(ok=True, n_elements=len(elements), seconds=seconds, counts=counts, titles=titles)


# ------------------------------------------------------------------------------------------------
# side by side
# ------------------------------------------------------------------------------------------------


def _normalized(text: str) -> str:
    return " ".join(text.split()).casefold()


def align_titles(
    reference: list[tuple[int | None, str]], partita: list[tuple[int | None, str]]
) -> list[tuple[tuple[int | None, str] | None, tuple[int | None, str] | None]]:
    """Pairs of titles aligned on equal (whitespace- and case-normalized) texts."""
    matcher = difflib.SequenceMatcher(
        None, [_normalized(t) for _, t in reference], [_normalized(t) for _, t in partita], False
    )
    pairs: list[tuple[tuple[int | None, str] | None, tuple[int | None, str] | None]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs.extend(zip(reference[i1:i2], partita[j1:j2], strict=True))
            continue
        left, right = reference[i1:i2], partita[j1:j2]
        for k in range(max(len(left), len(right))):
            pairs.append((left[k] if k < len(left) else None, right[k] if k < len(right) else None))
    return pairs


def matched_titles(reference: Run, partita: Run) -> int:
    if not (reference.ok and partita.ok):
        return 0
    pairs = align_titles(reference.titles, partita.titles)
    return sum(
        1
        for a, b in pairs
        if a is not None and b is not None and _normalized(a[1]) == _normalized(b[1])
    )


def _display_width(text: str) -> int:
    """Terminal columns of `text`: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _cell(title: tuple[int | None, str] | None, width: int) -> str:
    if title is None:
        return ""
    depth, text = title
    text = " ".join(text.split())
    if _display_width(text) > width:
        text = text[:width]
        while _display_width(text) > width - 1:
            text = text[:-1]
        text += "…"
    return f"[{'-' if depth is None else depth}] {text}"


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _display_width(text))


def _mark(a: tuple[int | None, str] | None, b: tuple[int | None, str] | None) -> str:
    if a is None or b is None or _normalized(a[1]) != _normalized(b[1]):
        return " "
    return "=" if a[0] == b[0] else "~"


def _status(run: Run) -> str:
    if run.ok:
        return f"{run.n_elements} elements in {run.seconds:.3f} s"
    return (run.error or "").splitlines()[-1][:160]


def document_report(
    doc: Document, reference: Run, partita: Run, *, max_titles: int, width: int
) -> tuple[list[str], list[str]]:
    """Plain-text lines for the terminal and Markdown lines for the report."""
    text = [f"=== {doc.relative} ({doc.format}) {doc.note}".rstrip()]
    text.append(f"  reference: {_status(reference)}")
    text.append(f"  partita:   {_status(partita)}")
    md = [f"## {doc.relative}", "", f"{doc.format}; {doc.note}".rstrip("; "), ""]
    md.append(f"- reference: {_status(reference)}")
    md.append(f"- partita: {_status(partita)}")
    md.append("")

    categories = sorted(set(reference.counts) | set(partita.counts))
    if categories:
        text.append(f"  {'type':<22} {'reference':>10} {'partita':>10}")
        md += ["| type | reference | partita |", "|---|---:|---:|"]
        for cat in categories:
            ref = str(reference.counts[cat]) if reference.ok else "-"
            par = str(partita.counts[cat]) if partita.ok else "-"
            diff = "" if ref == par or not (reference.ok and partita.ok) else "  *"
            text.append(f"  {cat:<22} {ref:>10} {par:>10}{diff}")
            md.append(f"| {cat} | {ref} | {par} |")
        md.append("")

    if reference.titles or partita.titles:
        pairs = (
            align_titles(reference.titles, partita.titles)
            if reference.ok and partita.ok
            else [(t, None) for t in reference.titles] + [(None, t) for t in partita.titles]
        )
        shown = pairs[:max_titles]
        col = width + 5
        text.append(f"  Titles [depth] ({len(reference.titles)} | {len(partita.titles)}):")
        text.append(f"    {'reference':<{col}}   partita")
        md += [
            f"Titles [category_depth]: reference {len(reference.titles)}, "
            f"partita {len(partita.titles)}",
            "",
            "| reference | | partita |",
            "|---|---|---|",
        ]
        for a, b in shown:
            mark = _mark(a, b)
            text.append(f"    {_pad(_cell(a, width), col)} {mark} {_cell(b, width)}")
            left, right = _md_escape(_cell(a, width)), _md_escape(_cell(b, width))
            md.append(f"| {left} | {mark.strip()} | {right} |")
        if len(pairs) > len(shown):
            text.append(f"    … {len(pairs) - len(shown)} more rows (--max-titles)")
            md.append(f"| … {len(pairs) - len(shown)} more rows | | |")
        md.append("")
    for name, run in (("reference", reference), ("partita", partita)):
        if run.error and not run.error.startswith("not available"):
            md += [f"{name} error:", "", "```", run.error, "```", ""]
    text.append("")
    return text, md


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


# ------------------------------------------------------------------------------------------------
# main
# ------------------------------------------------------------------------------------------------


def summary_rows(results: list[tuple[Document, Run, Run]]) -> list[list[str]]:
    rows = []
    for doc, ref, par in results:

        def fmt(run: Run, value: str) -> str:
            return (
                value if run.ok else ("n/a" if (run.error or "").startswith("not av") else "ERROR")
            )

        rows.append(
            [
                doc.relative,
                doc.format,
                fmt(ref, str(ref.n_elements)),
                fmt(par, str(par.n_elements)),
                fmt(ref, str(len(ref.titles))),
                fmt(par, str(len(par.titles))),
                str(matched_titles(ref, par)) if ref.ok and par.ok else "-",
                fmt(ref, f"{ref.seconds:.3f}"),
                fmt(par, f"{par.seconds:.3f}"),
            ]
        )
    return rows


SUMMARY_HEADER = [
    "document",
    "format",
    "ref elements",
    "partita elements",
    "ref titles",
    "partita titles",
    "titles matched",
    "ref s",
    "partita s",
]


def print_table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    for row in rows:
        lines.append(
            "  ".join(
                (c.ljust(w) if i < 2 else c.rjust(w))
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--format", choices=sorted(FORMATS), action="append", dest="formats")
    parser.add_argument("--files", nargs="+", default=[], metavar="PATTERN")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--max-titles", type=int, default=60)
    parser.add_argument("--width", type=int, default=48, help="title text width")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)

    setup = setup_reference()
    formats = args.formats or list(FORMATS)
    documents = corpus_documents(args.corpus, formats, args.files)
    if not documents:
        print("no corpus documents match", file=sys.stderr)
        return 2

    partitioners: dict[str, tuple[Partitioner | str, Partitioner | str]] = {}
    for fmt in formats:
        ref_module, ref_function, par_module, par_function = FORMATS[fmt]
        partitioners[fmt] = (
            load_partitioner(ref_module, ref_function),
            load_partitioner(par_module, par_function),
        )

    header = [
        f"unstructured {reference_version()} vs partita; {setup}",
        *(
            f"  {fmt}: reference {'ok' if callable(r) else r}; partita {'ok' if callable(p) else p}"
            for fmt, (r, p) in partitioners.items()
        ),
        "",
    ]
    print("\n".join(header))
    md = [
        "# partita vs unstructured: partition output by document",
        "",
        *(f"- {line.strip()}" for line in header if line),
        "",
    ]
    results: list[tuple[Document, Run, Run]] = []
    for doc in documents:
        ref_partitioner, par_partitioner = partitioners[doc.format]
        reference = run_partitioner(ref_partitioner, doc.path)
        partita = run_partitioner(par_partitioner, doc.path)
        text, doc_md = document_report(
            doc, reference, partita, max_titles=args.max_titles, width=args.width
        )
        print("\n".join(text), flush=True)
        md += doc_md
        results.append((doc, reference, partita))

    rows = summary_rows(results)
    summary = print_table(SUMMARY_HEADER, rows)
    print("Summary")
    print("\n".join(summary))
    md_summary = [
        "## Summary",
        "",
        "| " + " | ".join(SUMMARY_HEADER) + " |",
        "|" + "---|" * 2 + "---:|" * (len(SUMMARY_HEADER) - 2),
        *("| " + " | ".join(row) + " |" for row in rows),
        "",
    ]
    insert_at = md.index("", 2) + 1  # -- after the header list --
    md[insert_at:insert_at] = md_summary
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text("\n".join(md) + "\n", encoding="utf-8")
    print(f"\nreport written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
