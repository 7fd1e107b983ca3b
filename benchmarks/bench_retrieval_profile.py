"""Which retrieval options to put in `profile="retrieval"`: each option alone, and the profile.

Retrieval quality of chunking configurations on two question sets, all-MiniLM-L6-v2 embedding
chunks and questions (the `embed` extra, offline, cached on disk) and k = 5:

- `chroma`: Chroma's evaluation (`../shared/eval/chroma`: five Markdown corpora, 472 questions,
  its `questions_df.csv`), as `bench_retrieval.py` runs it;
- `corpus`: `benchmarks/data/corpus_questions` (nine real documents of `../shared/corpus`, HTML,
  PDF and DOCX with headings and tables, 128 questions), each document partitioned by partita and
  passed on its own, the answers located in the documents' texts;
- `financebench`: FinanceBench's development set (27 SEC filings as PDFs, 37 questions), one
  MiniLM index per document, page hit and evidence recall against plain-text baselines
  (`_financebench.py`, which states the scoring).

Every dataset is scored at top-5 and within each budget of `--budgets` retrieved characters
(default 4,000 and 10,000).

The configurations: baselines (fixed 250-token windows with 125 overlap, Chroma's best; recursive
at 200 tokens; `by_title` at 1,000 characters, with and without overlap everywhere; `by_title` at
256 cl100k tokens), each retrieval option of `basic`/`by_title` alone on top of `by_title` at 256
tokens (the rows named `+option`), the profile itself on `by_title` and `basic`, and any variant
given with `--extra`.

Each dataset is run through `partita.evaluation._run.evaluate` (one collection of all chunks,
exact cosine top-5, Chroma's span metrics, `coherence=False`). Per configuration: chunks, mean
cl100k tokens per chunk, the share of chunks longer than MiniLM's 256-wordpiece window, recall and
IoU at top-5, and recall within 4,000 characters (the ranked chunks taken while their characters
total at most 4,000, so configurations with different chunk sizes compare at equal context). For
recall@5 and recall@4,000 a paired bootstrap over the questions (10,000 resamples) gives the
difference in points and its 95 % interval against `--against` (default `token-250-125`) and, for
the `+option` rows, against `by_title-256`. Reference configurations a comparison needs are run
even when `--configs` leaves them out.

Run from the repository root with the `embed` extra installed:

    python benchmarks/bench_retrieval_profile.py [--datasets chroma,corpus] [--configs a,b,...]
        [--extra "name=strategy:opt=v,..."]... [--against NAME|none] [--cache DIR]
        [--output FILE]

`--extra` takes `parse_configuration`'s syntax after a name; `tokenizer=minilm` there is MiniLM's
own wordpiece counter (`--extra "bt-minilm=by_title:profile=retrieval,tokenizer=minilm"`). The
tables are printed and written to `benchmarks/results/retrieval_profile.md` (or `--output`).
Chroma's dataset takes about 5 minutes of CPU per configuration with a cold cache on 2 cores; the
corpus dataset is several times smaller.

Connections to the internet are blocked in this process (`_reference.block_network`).
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _reference import block_network
from _shared import CORPUS, SHARED  # benchmarks/ is on sys.path

if TYPE_CHECKING:
    from partita.evaluation._configurations import Configuration
    from partita.evaluation._documents import DocumentText
    from partita.evaluation._questions import Question

ROOT = Path(__file__).resolve().parents[1]
CHROMA = SHARED / "eval" / "chroma"
CORPUS_QUESTIONS = ROOT / "benchmarks" / "data" / "corpus_questions" / "questions.jsonl"
CORPUS_DOCUMENTS = (
    "unstructured/example-10k.html",
    "pdfplumber/federal-register-2020-17221.pdf",
    "docling/redp5110_sampled.pdf",
    "markitdown/test_wikipedia.html",
    "docling/wiki_duck.html",
    "mineru/demo1.pdf",
    "docling/docx_rich_tables_01.docx",
    "unstructured/layout-parser-paper-with-table.pdf",
    "docling/amt_handbook_sample.pdf",
)
"""The corpus questions' documents (their README): passed one by one, since the corpus has
another file with the stem `demo1`."""

DATASETS = ("chroma", "corpus", "financebench")
MODEL = "all-MiniLM-L6-v2"
K = 5
CHARACTER_BUDGET = 4000
CHARACTER_BUDGETS = (4000, 10000)
"""The budgets of retrieved characters every dataset is scored at (`--budgets`)."""
OPTION_BASE = "by_title-256"
"""The configuration every `+option` row adds one option to, and is compared against."""

_BY_TITLE_256: dict[str, Any] = {"max_tokens": 256, "tokenizer": "cl100k_base"}
_BASELINES: dict[str, tuple[str, dict[str, Any]]] = {
    "token-250-125": (
        "token",
        {"max_tokens": 250, "overlap": 125, "tokenizer": "cl100k_base", "respect_sections": False},
    ),
    "recursive-200": ("recursive", {"max_tokens": 200, "tokenizer": "cl100k_base"}),
    "by_title-1000": ("by_title", {"max_characters": 1000}),
    "by_title-1000-overlap-all": (
        "by_title",
        {"max_characters": 1000, "overlap": 200, "overlap_all": True},
    ),
    OPTION_BASE: ("by_title", _BY_TITLE_256),
    "by_title-128": ("by_title", {"max_tokens": 128, "tokenizer": "cl100k_base"}),
}
_OPTIONS_ALONE: dict[str, dict[str, Any]] = {
    "+split_at=sentences": {"split_at": "sentences"},
    "+overlap_unit=sentences,overlap=128,overlap_all": {
        "overlap_unit": "sentences",
        "overlap": 128,
        "overlap_all": True,
    },
    "+keep_titles_with_body": {"keep_titles_with_body": True},
    "+heading_context=prefix": {"heading_context": "prefix"},
    "+table_context": {"table_context": True},
    "+table_text=rows": {"table_text": "rows"},
    "+combine_unit=window": {"combine_unit": "window"},
}
_PROFILES: dict[str, tuple[str, dict[str, Any]]] = {
    "by_title:profile=retrieval": ("by_title", {"profile": "retrieval"}),
    "basic:profile=retrieval": ("basic", {"profile": "retrieval"}),
}


def configurations() -> dict[str, Configuration]:
    """The named configurations, in table order (see the module docstring)."""
    from partita.evaluation._configurations import Configuration

    found: dict[str, Configuration] = {}
    for name, (strategy, options) in _BASELINES.items():
        found[name] = Configuration(name, strategy, options)
    for name, extra in _OPTIONS_ALONE.items():
        found[name] = Configuration(name, "by_title", {**_BY_TITLE_256, **extra})
    for name, (strategy, options) in _PROFILES.items():
        found[name] = Configuration(name, strategy, options)
    return found


def extra_configuration(value: str, minilm: Callable[[str], int]) -> Configuration:
    """The configuration of `--extra "name=strategy:opt=v,..."` (no name: the spec is the name);
    `tokenizer=minilm` becomes MiniLM's wordpiece counter `minilm`."""
    from partita.evaluation._configurations import Configuration, parse_configuration

    head, colon, rest = value.partition(":")
    name, equals, strategy = head.rpartition("=")
    if not equals:
        name, strategy = value, head
    items = [item.strip() for item in rest.split(",") if item.strip()] if colon else []
    uses_minilm = any(item.replace(" ", "") == "tokenizer=minilm" for item in items)
    # -- parsed (and validated) with a stand-in tokenizer, then given MiniLM's counter --
    items = [
        "tokenizer=cl100k_base" if i.replace(" ", "") == "tokenizer=minilm" else i for i in items
    ]
    parsed = parse_configuration(strategy + ":" + ",".join(items))
    options = dict(parsed.options)
    if uses_minilm:
        options["tokenizer"] = minilm
    return Configuration(name.strip(), parsed.strategy, options)


def selected(spec: str, known: Sequence[str]) -> list[str]:
    """The names of `--configs`, split at commas except inside a known name (several `+option`
    names hold commas)."""
    names: list[str] = []
    pieces = [p.strip() for p in spec.split(",") if p.strip()]
    index = 0
    while index < len(pieces):
        name = pieces[index]
        index += 1
        while name not in known and index < len(pieces):
            longer = name + "," + pieces[index]
            if not any(k.startswith(longer) for k in known):
                break
            name = longer
            index += 1
        if name not in known:
            raise SystemExit(f"unknown configuration {name!r}; known: {', '.join(known)}")
        names.append(name)
    return names


@dataclass
class Dataset:
    """A question set: its documents, questions, and how long partitioning took."""

    name: str
    documents: list[DocumentText]
    questions: list[Question]
    seconds: float


def load_dataset(name: str) -> Dataset:
    """The dataset `name` (`chroma` or `corpus`), partitioned by partita."""
    import partita
    from partita.evaluation._documents import document_text
    from partita.evaluation._questions import document_key, read_questions

    started = time.perf_counter()
    if name == "chroma":
        paths = sorted((CHROMA / "corpora").glob("*.md"))
        documents = [document_text(p, partita.partition(p)) for p in paths]
        questions = read_questions(CHROMA / "questions_df.csv")
    else:
        documents = [
            document_text(CORPUS / p, partita.partition(CORPUS / p)) for p in CORPUS_DOCUMENTS
        ]
        texts = {document_key(d.name): d.text for d in documents}
        questions = read_questions(CORPUS_QUESTIONS, texts)
    return Dataset(name, documents, questions, time.perf_counter() - started)


def difference(entry: Mapping[str, Any], reference: Mapping[str, Any] | None, key: str) -> str:
    """`entry`'s per-question `key` minus `reference`'s, paired: "+x.x [lo, hi]" in points."""
    from partita.evaluation._retrieval import paired_bootstrap

    if reference is None or reference is entry:
        return "—"
    ours = {q["id"]: q[key] for q in entry["retrieval"]["per_question"]}
    theirs = {q["id"]: q[key] for q in reference["retrieval"]["per_question"]}
    ids = sorted(ours)
    result = paired_bootstrap([ours[i] for i in ids], [theirs[i] for i in ids])
    return (
        f"{result.mean_difference * 100:+.1f}"
        f" [{result.ci_low * 100:+.1f}, {result.ci_high * 100:+.1f}]"
    )


def table(
    dataset: Dataset,
    entries: Sequence[Mapping[str, Any]],
    against: str | None,
    window: int | None,
    budget: int = CHARACTER_BUDGET,
) -> list[str]:
    """The Markdown section of one dataset (`window`: the embedder's, in its wordpieces). The Δ
    columns appear only when there is something to compare: a reference (`against`), `+option`
    rows (against `by_title-256`)."""
    by_name = {e["name"]: e for e in entries}
    reference = by_name.get(against) if against else None
    base = by_name.get(OPTION_BASE)
    options_run = base is not None and any(e["name"] in _OPTIONS_ALONE for e in entries)

    def deltas(key: str) -> list[tuple[str, Callable[[Mapping[str, Any]], str]]]:
        found: list[tuple[str, Callable[[Mapping[str, Any]], str]]] = []
        if reference is not None:
            found.append((f"Δ vs {against}", lambda e: difference(e, reference, key)))
        if options_run:
            found.append(
                (
                    f"Δ vs {OPTION_BASE}",
                    lambda e: difference(e, base if e["name"] in _OPTIONS_ALONE else None, key),
                )
            )
        return found

    def over(entry: Mapping[str, Any]) -> str:
        share = entry["intrinsic"]["tokens"].get("over_window_share")
        return "" if share is None else f"{share * 100:.1f} %"

    columns: list[tuple[str, Callable[[Mapping[str, Any]], str]]] = [
        ("configuration", lambda e: str(e["name"])),
        ("chunks", lambda e: f"{e['intrinsic']['chunks']:,}"),
        ("mean tokens", lambda e: f"{e['intrinsic']['tokens']['mean']:.0f}"),
        (f"over {window or '?'} wordpieces", over),
        (f"recall@{K}", lambda e: f"{e['retrieval']['top_k']['recall'] * 100:.1f}"),
        *deltas("recall"),
        (f"IoU@{K}", lambda e: f"{e['retrieval']['top_k']['iou'] * 100:.1f}"),
        (
            f"recall@{budget:,} chars",
            lambda e: f"{e['retrieval']['character_budget']['recall'] * 100:.1f}",
        ),
        *deltas("recall_at_character_budget"),
    ]
    lines = [
        f"## {dataset.name}, {budget:,} characters",
        "",
        f"{len(dataset.questions)} questions, {len(dataset.documents)} documents"
        f" ({sum(len(d.text) for d in dataset.documents):,} characters; partitioned and aligned"
        f" in {dataset.seconds:.1f} s, alignment {min(d.coverage for d in dataset.documents):.4f})",
        "",
        "| " + " | ".join(header for header, _ in columns) + " |",
        "|"
        + "|".join("---" if h.startswith(("configuration", "Δ")) else "---:" for h, _ in columns)
        + "|",
    ]
    for entry in entries:
        lines.append("| " + " | ".join(cell(entry) for _, cell in columns) + " |")
    unplaced = [f"{e['name']} {e['unplaced_chunks']:,}" for e in entries if e["unplaced_chunks"]]
    if unplaced:
        lines += [
            "",
            "Chunks not placed in their document (they match no answer): " + "; ".join(unplaced),
        ]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--datasets", default=",".join(DATASETS), help="chroma, corpus, financebench (any of)"
    )
    parser.add_argument(
        "--budgets",
        default=",".join(str(b) for b in CHARACTER_BUDGETS),
        help="budgets of retrieved characters, comma-separated",
    )
    parser.add_argument("--configs", help="names to run (default: all); see CONFIGURATIONS")
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        help='another configuration, "name=strategy:opt=v,..." (tokenizer=minilm: MiniLM\'s)',
    )
    parser.add_argument(
        "--against", default="token-250-125", help="the reference of the Δ columns, or none"
    )
    parser.add_argument(
        "--cache",
        default=os.path.join(tempfile.gettempdir(), "partita-bench-retrieval-profile"),
        help="the embedding cache directory, kept between runs (default: in the temp dir)",
    )
    parser.add_argument(
        "--output", default=str(ROOT / "benchmarks" / "results" / "retrieval_profile.md")
    )
    args = parser.parse_args(argv)
    datasets = [d.strip() for d in args.datasets.split(",") if d.strip()]
    for name in datasets:
        if name not in DATASETS:
            parser.error(f"unknown dataset {name!r}; known: {', '.join(DATASETS)}")
    block_network()

    import partita
    from partita.embeddings import embedder_named
    from partita.embeddings._models import _minilm_count_tokens
    from partita.evaluation._run import evaluate

    known = configurations()
    extras = [extra_configuration(value, _minilm_count_tokens) for value in args.extra]
    for configuration in extras:
        if configuration.name in known:
            parser.error(f"--extra {configuration.name!r}: the name is taken")
        known[configuration.name] = configuration
    names = selected(args.configs, list(known)) if args.configs else list(known)
    names += [c.name for c in extras if c.name not in names]
    against = None if args.against.lower() == "none" else args.against
    if against is not None and against not in known:
        parser.error(f"--against {against!r}: no such configuration")
    needed = set(names) | ({against} if against else set())
    if any(n in _OPTIONS_ALONE for n in names):
        needed.add(OPTION_BASE)
    chosen = [known[n] for n in known if n in needed]  # -- in table order --

    budgets = [int(b) for b in args.budgets.split(",") if b.strip()]
    embedder = embedder_named("minilm", args.cache)
    sections: list[list[str]] = []
    counts: list[str] = []
    for dataset_name in datasets:
        if dataset_name == "financebench":
            section, count = run_financebench(known, names, extras, embedder, args.cache, budgets)
            print("\n".join(section) + "\n", file=sys.stderr, flush=True)
            sections.append(section)
            counts.append(f"financebench {count}")
            continue
        print(f"{dataset_name}: partitioning", file=sys.stderr, flush=True)
        dataset = load_dataset(dataset_name)
        for budget in budgets:
            results = evaluate(
                dataset.documents,
                chosen,
                questions=dataset.questions,
                embedder=embedder,
                k=K,
                coherence=False,
                character_budget=budget,
                progress=lambda message: print(message, file=sys.stderr, flush=True),
            )
            window = (results["embedding"] or {}).get("window_tokens")
            section = table(dataset, results["configurations"], against, window, budget)
            print("\n".join(section) + "\n", file=sys.stderr, flush=True)
            sections.append(section)
        counts.append(f"{dataset_name} {len(dataset.questions)}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    header = (
        f"{datetime.date.today()}, partita {partita.__version__}, {MODEL} (CPU) for chunks and"
        f" questions, k = {K}, character budgets {', '.join(f'{b:,}' for b in budgets)},"
        " questions:"
        f" {', '.join(counts)}; {os.cpu_count()} CPUs, load average {load:.2f}."
        " Δ: paired bootstrap over the questions, mean difference in points [95 % interval]."
    )
    text = "\n\n".join([header] + ["\n".join(s) for s in sections])
    print(text)
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text + "\n", encoding="utf-8")
    return 0


def run_financebench(
    known: Mapping[str, Configuration],
    names: Sequence[str],
    extras: Sequence[Configuration],
    embedder: Any,
    cache: str,
    budgets: Sequence[int],
) -> tuple[list[str], int]:
    """The financebench section (`_financebench`): its baselines, then the profile
    configurations and the `--extra` ones among `names` (the others are Chroma's baselines)."""
    import _financebench as fb

    documents, questions = fb.load(Path(cache), fb.progress_printer)
    ours = [n for n in names if n in _PROFILES or any(c.name == n for c in extras)]
    results = [
        fb.score(n, n, documents, questions, embedder, k=K, budgets=budgets) for n in fb.BASELINES
    ]
    for name in ours:
        configuration = known[name]
        results.append(
            fb.score(
                name,
                (configuration.strategy, configuration.options),
                documents,
                questions,
                embedder,
                k=K,
                budgets=budgets,
                progress=fb.progress_printer,
            )
        )
    return fb.table(results, K, budgets, len(questions)), len(questions)


if __name__ == "__main__":
    raise SystemExit(main())
