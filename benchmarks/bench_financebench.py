"""Fixed top-k against budgets on real financial reports: small-to-big, budgets and the peers.

FinanceBench's development set (`../shared/eval/financebench-dev`: 27 SEC filings as PDFs, 37
questions with their evidence pages and texts). Each PDF is partitioned once by partita (the
elements cached as JSON under `--elements`), each question is asked of its own document's chunks
only (one all-MiniLM-L6-v2 index per document, exact cosine), and scored by
`partita.evaluation.evidence`: page hit (an evidence page among the retrieved chunks' pages),
evidence recall (the share of the evidence's words in the retrieved text of its pages) and
evidence recall on any page (the share of the evidence's words in all the retrieved text, the
measure the targets were first stated in), with the characters retrieved, at top-5 and within
4,000 and 10,000 retrieved characters.

The configurations:

- `profile-128`: `by_title` under `profile="retrieval"` (128-token chunks, heading path prefix,
  table context);
- `profile+parents-768`: the same chunks matched, their parents retrieved (small-to-big,
  `with_parents(chunks)`: consecutive chunks of one section, up to 768 tokens, the default);
- `profile+parents-512`: section parents of up to 512 tokens;
- `profile+parents-768-document`: the same as `profile+parents-768`, parents running on across
  sections (`scope="document"`: windows of up to 768 tokens of consecutive chunks);
- `profile-budget-2560`: the profile's chunks retrieved while they fit 2,560 tokens (what five
  512-token windows hold) instead of the top 5;
- `windows-512`: the peers' 512-token windows over the plain text (`baselines.text_windows`);
- `pages`: one chunk per page (`baselines.page_chunks`);
- `by_title-1000`: the reference's `by_title` at 1,000 characters.

`--extra SPEC` (repeatable) measures more configurations, written as `partita evaluate --config`
takes them (`strategy:option=value,...`, `partita.evaluation._configurations`), e.g.
`--extra by_title:profile=retrieval,parent_tokens=1024`; each row is named by its SPEC.

The baselines are the peers' chunkings, `windows-512` and `pages` (always measured). For each
figure (page hit and evidence recall, at top-5 and at each budget) the best baseline is the one
of the two with the higher figure, and a paired bootstrap over the questions (10,000 resamples)
gives each configuration's difference to it in points, with its 95 % interval.

The targets, each printed as met or not met with its figures (met: the point estimate is ahead
by the margin; whether the interval excludes zero is said beside it), evidence recall checked in
both of its measures:

- at 4,000 characters, `profile-128`'s page hit and evidence recall exceed the best baseline's by
  10 points or more;
- at 10,000 characters, `profile-128`'s evidence recall exceeds the best baseline's by 5 points
  or more;
- at top-5, small-to-big (`profile+parents-768`) matches or beats `windows-512` on evidence
  recall while retrieving no more characters.

Run from the repository root with the `embed` extra (offline; embeddings cached on disk):

    PARTITA_SHARED=/path/to/shared python benchmarks/bench_financebench.py
        [--documents N] [--configs a,b] [--extra SPEC]... [--elements DIR] [--cache DIR]
        [--output FILE]

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
    from partita.evaluation._configurations import Configuration
    from partita.evaluation._documents import DocumentText

ROOT = Path(__file__).resolve().parents[1]
DATA = SHARED / "eval" / "financebench-dev"
MODEL = "all-MiniLM-L6-v2"
K = 5
BUDGETS = (4000, 10000)
PROFILE = "profile-128"
WINDOWS = "windows-512"
PAGES = "pages"
BASELINES = (WINDOWS, PAGES)
"""The peers' chunkings: each figure's Δ is against the better of the two."""
SMALL_TO_BIG = "profile+parents-768"
FIGURES = ("page_hit", "evidence_recall", "evidence_recall_any_page")
"""Per question: the evidence page retrieved, the share of the evidence's words in the retrieved
text of its page, and in all the retrieved text (`partita.evaluation.evidence`)."""
SHORT = {
    "page_hit": "page hit",
    "evidence_recall": "evidence",
    "evidence_recall_any_page": "any page",
}
TARGETS = ((BUDGETS[0], "page_hit", 10.0), (BUDGETS[0], "evidence_recall", 10.0),
           (BUDGETS[0], "evidence_recall_any_page", 10.0), (BUDGETS[1], "evidence_recall", 5.0),
           (BUDGETS[1], "evidence_recall_any_page", 5.0))  # fmt: skip
"""(budget, figure, margin in points): `PROFILE` is to beat the best baseline by the margin."""


def configurations() -> dict[str, Configuration]:
    """The named configurations, in table order (see the module docstring)."""
    from partita.evaluation._configurations import Configuration

    profile = {"profile": "retrieval"}
    return {
        PROFILE: Configuration(PROFILE, "by_title", profile),
        SMALL_TO_BIG: Configuration(SMALL_TO_BIG, "by_title", profile, parent_tokens=768),
        "profile+parents-512": Configuration(
            "profile+parents-512", "by_title", profile, parent_tokens=512
        ),
        SMALL_TO_BIG + "-document": Configuration(
            SMALL_TO_BIG + "-document",
            "by_title",
            profile,
            parent_tokens=768,
            parent_scope="document",
        ),
        "profile-budget-2560": Configuration(
            "profile-budget-2560", "by_title", profile, budget_tokens=2560
        ),
        WINDOWS: Configuration(WINDOWS, "text_windows", {"max_tokens": 512}),
        PAGES: Configuration(PAGES, "pages"),
        "by_title-1000": Configuration("by_title-1000", "by_title", {"max_characters": 1000}),
    }


def load_documents(elements_dir: Path, limit: int | None) -> list[DocumentText]:
    """The filings partitioned (each PDF once; its elements cached as JSON in `elements_dir`)."""
    import partita
    from partita.evaluation._documents import joined_text

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


def _where(budget: int | None) -> tuple[str, str]:
    """The results key and the per-question suffix of a figure set."""
    return ("top_k", "") if budget is None else ("character_budget", "_at_character_budget")


def figure(entry: Mapping[str, Any], budget: int | None, name: str) -> float:
    """`entry`'s mean `name` (a key of `FIGURES`, or "retrieved_characters") at top-k (`budget`
    None) or within `budget` characters (`entry` from the run at that budget)."""
    return float(entry["retrieval"][_where(budget)[0]][name])


def difference(
    entry: Mapping[str, Any], reference: Mapping[str, Any], budget: int | None, name: str
) -> tuple[float, float, float] | None:
    """`entry`'s per-question `name` minus `reference`'s, paired, in points: the mean and its
    95 % bootstrap interval; None when `entry` is `reference`."""
    from partita.evaluation._retrieval import paired_bootstrap

    if entry is reference:
        return None
    key = name + _where(budget)[1]
    ours, theirs = _per_question(entry, key), _per_question(reference, key)
    ids = sorted(ours)
    result = paired_bootstrap([ours[i] for i in ids], [theirs[i] for i in ids])
    return (result.mean_difference * 100, result.ci_low * 100, result.ci_high * 100)


def shown(delta: tuple[float, float, float] | None) -> str:
    """A difference as "+x.x [lo, hi]" (points), "—" for none."""
    if delta is None:
        return "—"
    mean, low, high = delta
    return f"{mean:+.1f} [{low:+.1f}, {high:+.1f}]"


def best_baseline(source: Mapping[str, Mapping[str, Any]], budget: int | None, name: str) -> str:
    """The baseline (of `BASELINES`) with the higher mean `name` in `source` (on a tie, the
    first)."""
    return max(BASELINES, key=lambda b: figure(source[b], budget, name))


def _source(
    runs: Mapping[int, Sequence[Mapping[str, Any]]], budget: int | None
) -> dict[str, Mapping[str, Any]]:
    """The entries by name of the run a figure set comes from (top-k: the first budget's run)."""
    return {e["name"]: e for e in runs[budget or BUDGETS[0]]}


def table(runs: Mapping[int, Sequence[Mapping[str, Any]]], questions: int) -> list[str]:
    """The Markdown table: one row per configuration, each figure with its Δ to the best
    baseline for that figure, and a line naming the best baseline of each figure."""
    names = [e["name"] for e in runs[BUDGETS[0]]]
    header = ["configuration", "chunks"]
    first = _source(runs, None)
    rows: list[list[str]] = [[n, f"{first[n]['intrinsic']['chunks']:,}"] for n in names]
    best: list[str] = []
    for budget in (None, *BUDGETS):
        label = f"top-{K}" if budget is None else f"{budget:,} chars"
        source = _source(runs, budget)
        references = {name: best_baseline(source, budget, name) for name in FIGURES}
        best += [f"{name.replace('_', ' ')} {label}: {references[name]}" for name in FIGURES]
        for measure in FIGURES:
            header += [f"{SHORT[measure]} {label}", "Δ"]
        header.append(f"chars {label}")
        for row, name in zip(rows, names, strict=True):
            entry = source[name]
            for measure in FIGURES:
                reference = source[references[measure]]
                row += [
                    f"{figure(entry, budget, measure) * 100:.1f}",
                    shown(difference(entry, reference, budget, measure)),
                ]
            row.append(f"{figure(entry, budget, 'retrieved_characters'):,.0f}")
    lines = [
        f"{questions} questions; Δ: paired bootstrap against the best baseline of each figure"
        f" (the better of {' and '.join(BASELINES)}), points [95 % interval].",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" if h in ("configuration", "Δ") else "---:" for h in header) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    lines += ["", "Best baseline: " + "; ".join(best) + "."]
    return lines


def _verdict(met: bool, delta: tuple[float, float, float] | None) -> str:
    if delta is None:
        return "MET" if met else "NOT MET"
    beyond = delta[1] > 0 or delta[2] < 0
    return ("MET" if met else "NOT MET") + (
        " (interval excludes 0)" if beyond else " (interval includes 0)"
    )


def targets(runs: Mapping[int, Sequence[Mapping[str, Any]]]) -> list[str]:
    """Each target (see the module docstring) as one line: met or not met, with the figures."""
    lines = []
    for budget, measure, margin in TARGETS:
        source = _source(runs, budget)
        what = (
            f"At {budget:,} characters, {PROFILE} beats the best baseline on"
            f" {measure.replace('_', ' ')} by {margin:.0f} points or more"
        )
        if PROFILE not in source:
            lines.append(f"{what}: not checked ({PROFILE} not run).")
            continue
        reference = best_baseline(source, budget, measure)
        ours = figure(source[PROFILE], budget, measure)
        theirs = figure(source[reference], budget, measure)
        delta = difference(source[PROFILE], source[reference], budget, measure)
        met = (ours - theirs) * 100 >= margin
        lines.append(
            f"{what}: {ours * 100:.1f} vs {theirs * 100:.1f} for {reference} (Δ {shown(delta)}):"
            f" {_verdict(met, delta)}."
        )
    source = _source(runs, None)
    if SMALL_TO_BIG not in source:
        lines.append(f"At top-{K}, small-to-big: not checked ({SMALL_TO_BIG} not run).")
        return lines
    ours_entry, theirs_entry = source[SMALL_TO_BIG], source[WINDOWS]
    chars = [figure(e, None, "retrieved_characters") for e in (ours_entry, theirs_entry)]
    for measure in FIGURES[1:]:
        recall = [figure(e, None, measure) for e in (ours_entry, theirs_entry)]
        delta = difference(ours_entry, theirs_entry, None, measure)
        met = recall[0] >= recall[1] and chars[0] <= chars[1]
        lines.append(
            f"At top-{K}, small-to-big ({SMALL_TO_BIG}) matches or beats {WINDOWS} on"
            f" {measure.replace('_', ' ')} with no more text retrieved: {recall[0] * 100:.1f} vs"
            f" {recall[1] * 100:.1f} (Δ {shown(delta)}), with {chars[0]:,.0f} vs {chars[1]:,.0f}"
            f" characters retrieved: {_verdict(met, delta)}."
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--documents", type=int, default=None, help="the first N filings only")
    parser.add_argument("--configs", help="names to run (default: all)")
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="SPEC",
        help="another configuration, strategy:option=value,... (repeatable)",
    )
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
    from partita.evaluation._configurations import parse_configuration
    from partita.evaluation._questions import read_questions
    from partita.evaluation._run import evaluate

    known = configurations()
    names = [n.strip() for n in args.configs.split(",")] if args.configs else list(known)
    for name in names:
        if name not in known:
            parser.error(f"unknown configuration {name!r}; known: {', '.join(known)}")
    names += [b for b in BASELINES if b not in names]
    chosen = [known[n] for n in known if n in names]
    for spec in args.extra:
        try:
            extra = parse_configuration(spec)
        except ValueError as exc:
            parser.error(f"--extra {spec!r}: {exc}")
        if extra.name in known or any(c.name == extra.name for c in chosen):
            parser.error(f"--extra {spec!r}: a configuration of that name is already measured")
        chosen.append(extra)
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
    text = "\n".join([header, "", *table(runs, len(questions)), "", *targets(runs)])
    print(text)
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
