"""Fixed top-k against budgets on real financial reports: small-to-big, budgets and the peers.

FinanceBench's development set (`../shared/eval/financebench-dev`: 27 SEC filings as PDFs, 37
questions with their evidence pages and texts). Each PDF is partitioned once by partita (the
elements cached as JSON under `--elements`), each question is asked of its own document's chunks
only (one all-MiniLM-L6-v2 index per document, exact cosine), and scored by
`partita.evaluation.evidence`: page hit (an evidence page among the retrieved chunks' pages) and
evidence recall (the share of the evidence's words in the retrieved text of its pages), with the
characters retrieved, at top-5 and within 4,000 and 10,000 retrieved characters.

The configurations:

- `profile-128`: `by_title` under `profile="retrieval"` (128-token chunks, heading path prefix,
  table context);
- `profile+parents-512`: the same chunks matched, their parents retrieved (small-to-big,
  `with_parents(chunks, 512)`: consecutive chunks of one section, up to 512 tokens);
- `profile+parents-512-document`: the same, parents running on across sections
  (`scope="document"`: windows of up to 512 tokens of consecutive chunks);
- `profile+parents-768`: section parents of up to 768 tokens (sections are short: about as much
  text at top-5 as the windows);
- `profile-budget-2560`: the profile's chunks retrieved while they fit 2,560 tokens (what five
  512-token windows hold) instead of the top 5;
- `windows-512`: the peers' 512-token windows over the plain text (`baselines.text_windows`);
- `pages`: one chunk per page (`baselines.page_chunks`);
- `by_title-1000`: the reference's `by_title` at 1,000 characters.

For each figure a paired bootstrap over the questions (10,000 resamples) gives the difference to
`windows-512` in points and its 95 % interval. The acceptance check of small-to-big: at top-5,
`profile+parents-512` has at least `windows-512`'s evidence recall while retrieving no more
characters.

Run from the repository root with the `embed` extra (offline; embeddings cached on disk):

    PARTITA_SHARED=/path/to/shared python benchmarks/bench_financebench.py
        [--documents N] [--configs a,b] [--elements DIR] [--cache DIR] [--output FILE]

`--documents N` keeps the first N documents (sorted by name) and their questions, for a quick
run; the table says how many questions it scored. A cold cache embeds about 40,000 profile chunks
of the 27 filings: an hour or more of CPU on two cores.

Connections to the internet are blocked in this process (`_reference.block_network`).
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _reference import block_network
from _shared import SHARED  # benchmarks/ is on sys.path

if TYPE_CHECKING:
    from partita.evaluation.configurations import Configuration
    from partita.evaluation.documents import DocumentText

ROOT = Path(__file__).resolve().parents[1]
DATA = SHARED / "eval" / "financebench-dev"
MODEL = "all-MiniLM-L6-v2"
K = 5
BUDGETS = (4000, 10000)
REFERENCE = "windows-512"
SMALL_TO_BIG = "profile+parents-512"


def configurations() -> dict[str, Configuration]:
    """The named configurations, in table order (see the module docstring)."""
    from partita.evaluation.configurations import Configuration

    profile = {"profile": "retrieval"}
    return {
        "profile-128": Configuration("profile-128", "by_title", profile),
        SMALL_TO_BIG: Configuration(SMALL_TO_BIG, "by_title", profile, parent_tokens=512),
        "profile+parents-768": Configuration(
            "profile+parents-768", "by_title", profile, parent_tokens=768
        ),
        SMALL_TO_BIG + "-document": Configuration(
            SMALL_TO_BIG + "-document",
            "by_title",
            profile,
            parent_tokens=512,
            parent_scope="document",
        ),
        "profile-budget-2560": Configuration(
            "profile-budget-2560", "by_title", profile, budget_tokens=2560
        ),
        REFERENCE: Configuration(REFERENCE, "text_windows", {"max_tokens": 512}),
        "pages": Configuration("pages", "pages"),
        "by_title-1000": Configuration("by_title-1000", "by_title", {"max_characters": 1000}),
    }


def load_documents(elements_dir: Path, limit: int | None) -> list[DocumentText]:
    """The filings partitioned (each PDF once; its elements cached as JSON in `elements_dir`)."""
    import partita
    from partita.evaluation.documents import joined_text

    elements_dir.mkdir(parents=True, exist_ok=True)
    pdfs = sorted((DATA / "pdfs").glob("*.pdf"))[:limit]
    documents = []
    for pdf in pdfs:
        cached = elements_dir / f"{pdf.stem}.json"
        if not cached.exists():
            print(f"partitioning {pdf.name}", file=sys.stderr, flush=True)
            partial = cached.with_suffix(".partial")
            partial.write_text(partita.elements_to_json(partita.partition(pdf)), encoding="utf-8")
            partial.rename(cached)
        documents.append(joined_text(pdf.stem, partita.elements_from_json(str(cached))))
    return documents


def _per_question(entry: Mapping[str, Any], key: str) -> dict[str, float]:
    return {q["id"]: float(q[key]) for q in entry["retrieval"]["per_question"]}


def difference(entry: Mapping[str, Any], reference: Mapping[str, Any], key: str) -> str:
    """`entry`'s per-question `key` minus `reference`'s, paired: "+x.x [lo, hi]" in points."""
    from partita.evaluation.retrieval import paired_bootstrap

    if entry is reference:
        return "—"
    ours, theirs = _per_question(entry, key), _per_question(reference, key)
    ids = sorted(ours)
    result = paired_bootstrap([ours[i] for i in ids], [theirs[i] for i in ids])
    return (
        f"{result.mean_difference * 100:+.1f}"
        f" [{result.ci_low * 100:+.1f}, {result.ci_high * 100:+.1f}]"
    )


def _where(budget: int | None) -> tuple[str, str]:
    """The results key and the per-question suffix of a figure set."""
    return ("top_k", "") if budget is None else ("character_budget", "_at_character_budget")


def table(runs: Mapping[int, Sequence[Mapping[str, Any]]], questions: int) -> list[str]:
    """The Markdown table: one row per configuration, each figure with its Δ to the reference."""
    first = next(iter(runs.values()))
    names = [e["name"] for e in first]
    by_budget = {b: {e["name"]: e for e in entries} for b, entries in runs.items()}
    header = ["configuration", "chunks"]
    rows: list[list[str]] = [[n, f"{by_budget[BUDGETS[0]][n]['intrinsic']['chunks']:,}"]
                             for n in names]  # fmt: skip
    for budget in (None, *BUDGETS):
        label = f"top-{K}" if budget is None else f"{budget:,} chars"
        source = by_budget[budget or BUDGETS[0]]
        key, suffix = _where(budget)
        reference = source[REFERENCE]
        header += [f"page hit {label}", "Δ", f"evidence {label}", "Δ", f"chars {label}"]
        for row, name in zip(rows, names, strict=True):
            figures = source[name]["retrieval"][key]
            entry = source[name]
            row += [
                f"{figures['page_hit'] * 100:.1f}",
                difference(entry, reference, "page_hit" + suffix),
                f"{figures['evidence_recall'] * 100:.1f}",
                difference(entry, reference, "evidence_recall" + suffix),
                f"{figures['retrieved_characters']:,.0f}",
            ]
    lines = [
        f"{questions} questions; Δ: paired bootstrap against {REFERENCE}, points [95 % interval].",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" if h in ("configuration", "Δ") else "---:" for h in header) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def acceptance(entries: Sequence[Mapping[str, Any]]) -> str:
    """Whether small-to-big at top-5 matches the windows' evidence recall with no more text."""
    by_name = {e["name"]: e for e in entries}
    if SMALL_TO_BIG not in by_name or REFERENCE not in by_name:
        return "Acceptance not checked: it needs both configurations."
    ours, theirs = by_name[SMALL_TO_BIG], by_name[REFERENCE]
    a, b = ours["retrieval"]["top_k"], theirs["retrieval"]["top_k"]
    recall_ok = a["evidence_recall"] >= b["evidence_recall"]
    text_ok = a["retrieved_characters"] <= b["retrieved_characters"]
    verdict = "MET" if recall_ok and text_ok else "NOT MET"
    return (
        f"Small-to-big at top-{K}: evidence recall {a['evidence_recall'] * 100:.1f} vs"
        f" {b['evidence_recall'] * 100:.1f} for {REFERENCE}"
        f" (Δ {difference(ours, theirs, 'evidence_recall')}), with"
        f" {a['retrieved_characters']:,.0f} vs {b['retrieved_characters']:,.0f} characters"
        f" retrieved: target {verdict}."
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--documents", type=int, default=None, help="the first N filings only")
    parser.add_argument("--configs", help="names to run (default: all)")
    parser.add_argument(
        "--elements",
        default=os.path.join(tempfile.gettempdir(), "partita-bench-financebench-elements"),
        help="where each filing's elements are cached as JSON",
    )
    parser.add_argument(
        "--cache",
        default=os.path.join(tempfile.gettempdir(), "partita-bench-financebench"),
        help="the embedding cache directory, kept between runs",
    )
    parser.add_argument(
        "--output", default=str(ROOT / "benchmarks" / "results" / "financebench.md")
    )
    args = parser.parse_args(argv)
    block_network()

    import partita
    from partita.embeddings import embedder_named
    from partita.evaluation.questions import read_questions
    from partita.evaluation.run import evaluate

    known = configurations()
    names = [n.strip() for n in args.configs.split(",")] if args.configs else list(known)
    for name in names:
        if name not in known:
            parser.error(f"unknown configuration {name!r}; known: {', '.join(known)}")
    if REFERENCE not in names:
        names.append(REFERENCE)
    chosen = [known[n] for n in known if n in names]
    documents = load_documents(Path(args.elements), args.documents)
    texts = {d.name: d.text for d in documents}
    pages = {d.name: d.page_regions() for d in documents}
    questions = read_questions(DATA / "questions.jsonl", texts, pages)
    print(f"{len(questions)} questions on {len(documents)} filings", file=sys.stderr, flush=True)
    embedder = embedder_named("minilm", args.cache)
    runs: dict[int, list[dict[str, Any]]] = {}
    for budget in BUDGETS:
        results = evaluate(
            documents,
            chosen,
            questions=questions,
            embedder=embedder,
            k=K,
            character_budget=budget,
            per_document=True,
            coherence=False,
            progress=lambda message: print(message, file=sys.stderr, flush=True),
        )
        runs[budget] = results["configurations"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    header = (
        f"{datetime.date.today()}, partita {partita.__version__}, {MODEL} (CPU), one index per"
        f" filing, k = {K}; {len(documents)} filings, {os.cpu_count()} CPUs, load average"
        f" {load:.2f}."
    )
    text = "\n".join([header, "", *table(runs, len(questions)), "", acceptance(runs[BUDGETS[0]])])
    print(text)
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
