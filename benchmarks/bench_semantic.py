"""partita's semantic chunking against LangChain's and chonkie's SemanticChunker, on Chroma's data.

The evaluation of `bench_retrieval.py` (`../shared/eval/chroma`: five corpora, 472 questions;
all-MiniLM-L6-v2 on the CPU, k = 5; `partita.evaluation._run.evaluate`) scores every row: recall,
IoU and precision at top-5, recall at a matched budget of 1,250 retrieved tokens, and the
evaluation's intrinsic measures of the cuts: the share of chunks ending at a sentence end (or at
the end of an element: `intrinsic.is_mid_sentence`), boundary quality (mean 1 - cosine of
adjacent chunks), semantic coherence (mean pairwise cosine of a chunk's sentences). Chroma's
published best IoU at k = 5 with MiniLM is ClusterSemanticChunker at 200 tokens (IoU 7.2 at
recall 75.2); fixed 250/125 windows reach recall 82.4 at IoU 3.5. The issue's targets: recall at
least the best peer semantic chunker's, IoU >= 7, chunking work besides embedding at most 10 % of
the embedding time.

Rows (`--configs` picks them by name, comma-separated; default all):

- `semantic*`: `partita.chunk(elements, "semantic", embedder=E, ...)` under a few settings,
  through `evaluate` exactly as `partita evaluate` runs a configuration (the Markdown corpora
  partitioned by partita, chunks placed by their provenance);
- `langchain*`: LangChain's `SemanticChunker` (langchain-experimental), `chonkie*`: chonkie's
  `SemanticChunker`, each given the same all-MiniLM-L6-v2 (`_semantic_peers.py`); they cut each
  corpus file's whole text, and their text chunks are placed in the file by the evaluation's word
  alignment and scored by the same `evaluate` (see `_semantic_peers.py`);
- `token` (250/125 cl100k windows run across sections, Chroma's baseline) and `by_title` (1,000
  characters), partita's, for scale.

Timing. A semantic chunker's time is split into the time its embedding calls take and the rest,
its own work ("overhead"; the issue's target: at most 10 % of the embedding time). The embedding
time reported is the model's, cold: each run starts from empty sentence caches, after a warm-up
of both model instances over every padded length (torch's first passes over new shapes are
several times slower) on text no row embeds. Rows that embed the same texts share a cache within
a run: a peer's rows (its settings change the cuts, not what it embeds), and partita's semantic
rows of one hard maximum (which decides how an over-long sentence is cut). The first row of a
group embeds cold; its seconds are the "sentence embedding" figure of every row of the group,
marked * where a row read the vectors back — partita from its `CachedEmbedder` (SQLite, a fresh
temporary directory per group and run), the peers from an in-memory memo — and any text a later
row asks for that is not there is embedded and timed in that row. Overhead = chunking time less
the time spent inside embedding calls (look-ups included), so it never contains embedding. The
evaluation's own embedding of the chunks (for retrieval) is retrieval time, not the chunker's; it
is cached in `--cache-dir` (default: a directory in the system's temp dir kept between runs).
Semantic rows are labelled by name and by the settings the strategy resolves (its defaults
included, read from the code under test); the header says where partita was imported from (to
bench a fixed commit while `src` changes: `git archive <commit> src | tar -x -C DIR` and
`PYTHONPATH=DIR/src`).

Run from the repository root (the `embed` extra, `pip install langchain-experimental==0.4.2`;
chonkie is a bench dependency):

    python benchmarks/bench_semantic.py [--configs semantic,langchain,...] [--quick]
        [--output FILE.md] [--json FILE.json]

`--quick` runs one corpus (state_of_the_union, 76 questions). Connections to the internet are
blocked in this process (`_reference.block_network`).
"""

from __future__ import annotations

import argparse
import atexit
import dataclasses
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _reference import block_network
from _shared import SHARED  # benchmarks/ is on sys.path
from partita.embeddings import CachedEmbedder

ROOT = Path(__file__).resolve().parents[1]
CHROMA = SHARED / "eval" / "chroma"
QUICK_CORPUS = "state_of_the_union"


@dataclass(frozen=True)
class Row:
    """A row: `kind` is "partita" (a configuration spec), "semantic" (partita's semantic
    strategy with `options`, the embedder added; labelled by its resolved settings when run),
    "langchain" or "chonkie" (the peer with `options`)."""

    kind: str
    label: str
    options: dict[str, Any] = field(default_factory=dict)
    spec: str = ""

    @property
    def group(self) -> str:
        """The rows that embed the same texts: a peer's, or partita's semantic rows of one
        hard maximum (the maximum decides how an over-long sentence is cut)."""
        if self.kind != "semantic":
            return self.kind
        if self.options.get("max_tokens"):
            return f"semantic/{self.options['max_tokens']} tokens"
        return f"semantic/{self.options.get('max_characters', 'default')} characters"


_CL100K = {"tokenizer": "cl100k_base"}

_SEED_003 = {"window": 1, "window_sides": False, "decay": "exp"}
_256 = {"max_tokens": 256, **_CL100K}

ROWS: dict[str, Row] = {
    "semantic": Row("semantic", "partita semantic, defaults"),
    "semantic-500": Row("semantic", "partita semantic max_characters=500", {"max_characters": 500}),
    "semantic-256": Row("semantic", "partita semantic max_tokens=256", _256),
    "semantic-200": Row(
        "semantic", "partita semantic max_tokens=200", {"max_tokens": 200, **_CL100K}
    ),
    "semantic-min-100": Row("semantic", "partita semantic min_size=100", {"min_size": 100}),
    "semantic-seed003": Row("semantic", "partita semantic, seed 003's windows", _SEED_003),
    "semantic-256-seed003": Row(
        "semantic", "partita semantic max_tokens=256, seed 003's windows", {**_256, **_SEED_003}
    ),
    "semantic-256-w1": Row(
        "semantic",
        "partita semantic max_tokens=256, window=1 overlapping",
        {**_256, "window": 1, "window_sides": False, "decay": "off"},
    ),
    "semantic-256-w0": Row(
        "semantic",
        "partita semantic max_tokens=256, window=0",
        {**_256, "window": 0, "window_sides": False, "decay": "off"},
    ),
    "semantic-256-exp": Row(
        "semantic", "partita semantic max_tokens=256, decay=exp", {**_256, "decay": "exp"}
    ),
    "semantic-256-p80": Row(
        "semantic",
        "partita semantic max_tokens=256, percentile 80",
        {**_256, "breakpoint_amount": 80},
    ),
    "semantic-256-min-32": Row(
        "semantic", "partita semantic max_tokens=256, min_size=32", {**_256, "min_size": 32}
    ),
    "langchain": Row("langchain", "LangChain SemanticChunker, defaults (percentile 95)"),
    "langchain-p90": Row(
        "langchain",
        "LangChain SemanticChunker, percentile 90",
        {"breakpoint_threshold_type": "percentile", "breakpoint_threshold_amount": 90},
    ),
    "langchain-p80": Row(
        "langchain",
        "LangChain SemanticChunker, percentile 80",
        {"breakpoint_threshold_type": "percentile", "breakpoint_threshold_amount": 80},
    ),
    "chonkie": Row("chonkie", "chonkie SemanticChunker, defaults (chunk_size 2048)"),
    "chonkie-256": Row("chonkie", "chonkie SemanticChunker, chunk_size=256", {"chunk_size": 256}),
    "token": Row(
        "partita",
        "partita token 250/125 (cl100k)",
        spec="token:max_tokens=250,overlap=125,tokenizer=cl100k_base,respect_sections=false",
    ),
    "by_title": Row(
        "partita", "partita by_title max_characters=1000", spec="by_title:max_characters=1000"
    ),
}


# -- partita's sentence embedder, timed ---------------------------------------------------


class TimedEmbedder(CachedEmbedder):
    """partita's `CachedEmbedder` (which the semantic strategy uses as given), with the time
    spent inside its calls, `call_seconds` (the model's own time is `embedding_seconds`; the
    rest is the cache's look-ups and writes)."""

    call_seconds = 0.0

    def __call__(self, texts: Sequence[str], /) -> Any:
        started = time.perf_counter()
        try:
            return super().__call__(texts)
        finally:
            self.call_seconds += time.perf_counter() - started


# -- precomputed chunks, as a strategy evaluate can run --------------------------------------

_PRECOMPUTED: dict[str, dict[str, list[Any]]] = {}


def _precomputed(elements: Sequence[Any], *, run: str = "") -> list[Any]:
    """The chunks a peer made of the document whose first element is `elements[0]`."""
    return list(_PRECOMPUTED[run][elements[0].element_id])


@dataclass
class Timing:
    """A row's chunking time, its embedding calls' time, the model's time, texts embedded."""

    chunking: float
    calls: float | None = None
    model: float | None = None
    texts: int = 0
    misses: int = 0
    cold_model: float | None = None
    shared: bool = False


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", default=",".join(ROWS), help="rows, comma-separated")
    parser.add_argument("--quick", action="store_true", help=f"one corpus ({QUICK_CORPUS})")
    parser.add_argument("--output", help="also write the Markdown table to this file")
    parser.add_argument("--json", help="also write every row's figures to this JSON file")
    parser.add_argument(
        "--cache-dir",
        default=os.path.join(tempfile.gettempdir(), "partita-bench-semantic-retrieval"),
        help="the evaluation's (retrieval) embedding cache, kept between runs",
    )
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.configs.split(",") if n.strip()]
    unknown = [n for n in names if n not in ROWS]
    if unknown:
        parser.error(f"unknown rows {unknown}; known: {', '.join(ROWS)}")
    block_network()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    warnings.filterwarnings("ignore", category=DeprecationWarning, module="langchain_experimental")

    import _semantic_peers as peers
    import partita
    from partita.chunking._registry import register_chunking_strategy
    from partita.embeddings import default_embedder, embedder_named
    from partita.evaluation._configurations import Configuration, parse_configuration
    from partita.evaluation._documents import document_text
    from partita.evaluation._questions import read_questions
    from partita.evaluation._run import evaluate

    register_chunking_strategy("bench-precomputed", _precomputed, summary="precomputed chunks")
    started = time.perf_counter()
    paths = sorted((CHROMA / "corpora").glob("*.md"))
    if args.quick:
        paths = [p for p in paths if p.stem == QUICK_CORPUS]
    documents = [document_text(p, partita.partition(p)) for p in paths]
    keys = {d.name for d in documents}
    questions = [
        q
        for q in read_questions(CHROMA / "questions_df.csv")
        if q.references and q.references[0].corpus in keys
    ]
    partitioned = time.perf_counter() - started
    retrieval_embedder = embedder_named("minilm", args.cache_dir)
    sentence_caches: dict[str, str] = {}  # -- a cache group's temporary directory --
    model: Any = None
    if any(ROWS[n].kind != "partita" for n in names):
        # -- torch's first passes over new input shapes are several times slower: the first
        # -- cold row would pay for it. Both model instances (partita's, the peers') see every
        # -- padded length first, on text no row embeds.
        model = peers.load_minilm()
        t0 = time.perf_counter()
        warm = _warm_up_texts(documents[0].text)
        default_embedder()(warm)
        model.encode(warm, batch_size=peers.BATCH_SIZE, show_progress_bar=False)
        print(f"warm-up {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    memos: dict[str, dict[str, Any]] = {}
    cold: dict[str, float] = {}
    versions = peers.peer_versions()

    header = (
        f"{datetime.datetime.now():%Y-%m-%d %H:%M}, partita {partita.__version__},"
        f" all-MiniLM-L6-v2 (CPU), k = 5, {len(questions)} questions, {len(documents)} corpora"
        f" ({sum(len(d.text) for d in documents):,} characters, partitioned and aligned in"
        f" {partitioned:.1f} s), {platform.processor() or platform.machine()},"
        f" {os.cpu_count()} CPUs, load average at start {os.getloadavg()[0]:.2f};"
        f" {_source_state(partita.__file__)}; " + ", ".join(f"{k} {v}" for k, v in versions.items())
    )
    print(header, file=sys.stderr, flush=True)
    table = [
        "| row | chunks | mean tokens | recall | IoU | precision | recall @ 1,250 tokens"
        " | sentence ends % | boundary quality | coherence | over window %"
        " | sentence embedding s | chunking s besides embedding | overhead % |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    records: list[dict[str, Any]] = []
    for name in names:
        row = ROWS[name]
        began = time.perf_counter()
        placement_notes: dict[str, Any] = {}
        if row.kind == "partita":
            configuration = parse_configuration(row.spec)
            timing: Timing | None = None
        elif row.kind == "semantic":
            row = dataclasses.replace(row, label=f"partita {name}: {_resolved(row.options)}")
            if row.group not in sentence_caches:
                directory = tempfile.mkdtemp(prefix="partita-bench-semantic-sentences-")
                atexit.register(shutil.rmtree, directory, True)  # -- each run embeds cold --
                sentence_caches[row.group] = directory
            embedder = TimedEmbedder(default_embedder(), directory=sentence_caches[row.group])
            try:
                configuration = Configuration(
                    row.label, "semantic", {"embedder": embedder, **row.options}
                )
            except (ValueError, TypeError) as error:  # -- not landed yet, or an option renamed --
                table.append(f"| {row.label} | not available: {error} |")
                print(table[-1], file=sys.stderr, flush=True)
                continue
        else:
            if model is None:
                model = peers.load_minilm()
            memo = memos.setdefault(row.group, {})
            clock = peers.EmbeddingClock(model, row.kind == "langchain", memo)
            make: Callable[..., Callable[[str], list[str]]] = (
                peers.langchain_chunker if row.kind == "langchain" else peers.chonkie_chunker
            )
            split = make(clock, **row.options)
            chunking = 0.0
            by_first: dict[str, list[Any]] = {}
            totals: dict[str, Any] = {
                "words": 0,
                "found": 0,
                "unplaced": 0,
                "without_elements": 0,
                "lost": [],
            }
            for path, document in zip(paths, documents, strict=True):
                text = path.read_text(encoding="utf-8")
                t0 = time.perf_counter()
                texts = split(text)
                chunking += time.perf_counter() - t0
                placed = peers.place_chunks(path, document, texts, name)
                by_first[document.elements[0].element_id] = placed.chunks
                for key in totals:
                    totals[key] += getattr(placed, key)
                print(
                    f"  {name} {document.name}: {len(texts):,} chunks, {chunking:.1f} s so far",
                    file=sys.stderr,
                    flush=True,
                )
            _PRECOMPUTED[name] = by_first
            totals["lost"] = [t[:80] for t in totals["lost"]]
            placement_notes = totals
            configuration = Configuration(row.label, "bench-precomputed", {"run": name})
            timing = Timing(
                chunking,
                clock.call_seconds,
                clock.model_seconds,
                clock.texts,
                clock.misses,
            )
        results = evaluate(
            documents,
            [configuration],
            questions=questions,
            embedder=retrieval_embedder,
            k=5,
            coherence=True,
        )
        (entry,) = results["configurations"]
        if row.kind == "semantic":
            timing = Timing(
                entry["efficiency"]["chunking_seconds"],
                embedder.call_seconds,
                embedder.embedding_seconds,
                embedder.stats.hits + embedder.stats.misses,
                embedder.stats.misses,
            )
        if timing is not None:
            family = row.group
            if family not in cold:
                cold[family] = timing.model or 0.0
                timing.cold_model = timing.model
            else:
                timing.shared = True
                timing.cold_model = cold[family] + (timing.model or 0.0)
        elif row.kind == "partita":
            timing = Timing(entry["efficiency"]["chunking_seconds"])
        assert timing is not None
        records.append(
            {
                "name": name,
                "label": row.label,
                "kind": row.kind,
                "options": dict(row.options) or row.spec,
                "timing": timing.__dict__,
                "placement": placement_notes,
                "seconds": time.perf_counter() - began,
                "entry": {k: v for k, v in entry.items() if k != "retrieval"}
                | {
                    "retrieval": {
                        k: v for k, v in (entry["retrieval"] or {}).items() if k != "per_question"
                    }
                },
            }
        )
        table.append(_line(row, entry, timing))
        print(table[-1], file=sys.stderr, flush=True)

    notes = [
        "",
        "Placement of the peers' chunks (words of their chunks found in the file; chunks without"
        " a span; chunks covering no word of partita's elements): "
        + "; ".join(_placement_note(r["name"], r["placement"]) for r in records if r["placement"]),
        "Unplaced chunks in the evaluation: "
        + ", ".join(f"{r['name']} {r['entry']['unplaced_chunks']}" for r in records),
        "Embedding calls (texts asked for / embedded by the model; seconds in the calls / in the"
        " model): "
        + "; ".join(
            f"{r['name']} {r['timing']['texts']:,} / {r['timing']['misses']:,},"
            f" {r['timing']['calls']:.1f} / {r['timing']['model']:.1f}"
            for r in records
            if r["timing"]["calls"] is not None
        ),
    ]
    text = "\n".join([header, "", *table, *notes])
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    if args.json:
        Path(args.json).write_text(
            json.dumps({"header": header, "rows": records}, indent=1, default=str) + "\n",
            encoding="utf-8",
        )
    return 0


def _source_state(module_file: str) -> str:
    """Where partita was imported from: this repository's `src` at a commit (and its
    uncommitted changes under `src`), or another directory (a snapshot: see the README)."""
    source = Path(module_file).resolve().parents[1]
    if source != ROOT / "src":
        return f"partita imported from {source}"

    def git(*arguments: str) -> str:
        done = subprocess.run(["git", *arguments], cwd=ROOT, capture_output=True, text=True)
        return done.stdout.strip()

    dirty = git("status", "--porcelain", "--", "src").splitlines()
    changed = f", uncommitted: {', '.join(d[3:] for d in dirty)}" if dirty else ""
    return f"partita from src at {git('rev-parse', '--short', 'HEAD')}{changed}"


def _resolved(options: dict[str, Any]) -> str:
    """What the semantic strategy makes of `options`, defaults included (they may change)."""
    from partita.chunking.strategies.semantic import SemanticChunkingOptions

    value = SemanticChunkingOptions(**options)
    sides = getattr(value, "sides", bool(value.window_sides))
    unit = "tokens" if value.max_tokens else "characters"
    return (
        f"window {value.window_units}{' sides' if sides else ''}, {value.rule} {value.amount:g},"
        f" decay {'off' if value.decay_function is None else 'exp'}, max {value.hard_max} {unit}"
        + (f", min_size {value.min_units}" if value.min_units else "")
    )


def _warm_up_texts(text: str) -> list[str]:
    """Texts of 1 to 300 words (every padded length MiniLM sees, to its 256-wordpiece window),
    made of `text`'s words in reverse order, so no row embeds them."""
    words = text.split()[::-1]
    return [" ".join(words[i : i + n]) for i, n in enumerate(range(1, 301))]


def _placement_note(name: str, placed: dict[str, Any]) -> str:
    lost = f" ({', '.join(map(repr, placed['lost']))})" if placed["lost"] else ""
    return (
        f"{name} {placed['found']:,} / {placed['words']:,}, {placed['unplaced']},"
        f" {placed['without_elements']}{lost}"
    )


def _line(row: Row, entry: dict[str, Any], timing: Timing) -> str:
    intrinsic = entry["intrinsic"]
    top = entry["retrieval"]["top_k"]
    budget = entry["retrieval"]["token_budget"]
    over = intrinsic["tokens"]["over_window_share"]
    quality = intrinsic["boundary_quality"]
    coherence = intrinsic["coherence"]
    if timing.calls is None:
        embedding, besides, ratio = "—", f"{timing.chunking:.2f}", "—"
    else:
        overhead = timing.chunking - timing.calls
        cold = timing.cold_model or 0.0
        embedding = f"{cold:.1f}" + ("*" if timing.shared else "")
        besides = f"{overhead:.2f}"
        ratio = f"{overhead / cold * 100:.1f}" if cold else "—"
    return (
        f"| {row.label} | {intrinsic['chunks']:,} | {intrinsic['tokens']['mean']:.0f}"
        f" | {top['recall'] * 100:.1f} | {top['iou'] * 100:.1f} | {top['precision'] * 100:.1f}"
        f" | {budget['recall'] * 100:.1f} | {(1 - intrinsic['mid_sentence_share']) * 100:.1f}"
        f" | {quality:.3f} | {coherence:.3f} | {(over or 0) * 100:.1f}"
        f" | {embedding} | {besides} | {ratio} |"
        if quality is not None and coherence is not None
        else f"| {row.label} | {intrinsic['chunks']:,} | (no vectors) |"
    )


if __name__ == "__main__":
    raise SystemExit(main())
