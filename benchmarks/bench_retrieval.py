"""Proof that `partita evaluate`'s retrieval figures are right: Chroma's benchmark, reproduced.

On `../shared/eval/chroma` (Chroma's five corpora and 472 questions, `SOURCE.md`), with
all-MiniLM-L6-v2 (the `embed` extra, offline) and k = 5, the evaluation must reproduce the
published figures of "Evaluating Chunking Strategies for Retrieval" (Chroma, 2024): fixed
250-token windows with 125 overlap reach recall 82.4 there (an independent re-implementation of
their protocol measured 81.9; the target is within 1.5 points of 81.9). Beside it: partita's
`by_title` at 1,000 characters (the reference's output) and the other strategies.

Each configuration is run through `partita.evaluation._run.evaluate` exactly as `partita
evaluate` runs it: the Markdown corpora partitioned by partita, chunks placed in the corpus
files by their provenance, one collection of all chunks, exact cosine top-5, Chroma's span
metrics. Timing: the first configuration cold (an empty embedding cache) and again warm (the
same cache), each over all five corpora; the rest share the cache.

Run from the repository root with the `embed` extra installed:

    python benchmarks/bench_retrieval.py [--configs token,by_title,...] [--output FILE]

Connections to the internet are blocked in this process (`_reference.block_network`).
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _reference import block_network
from _shared import SHARED  # benchmarks/ is on sys.path

ROOT = Path(__file__).resolve().parents[1]
CHROMA = SHARED / "eval" / "chroma"

CONFIGURATIONS: dict[str, str] = {
    "token": "token:max_tokens=250,overlap=125,tokenizer=cl100k_base,respect_sections=false",
    "token-400": "token:max_tokens=400,overlap=200,tokenizer=cl100k_base,respect_sections=false",
    "recursive": "recursive:max_tokens=200,tokenizer=cl100k_base",
    "sentence": "sentence:max_tokens=256,overlap=32,tokenizer=cl100k_base",
    "by_title": "by_title:max_characters=1000",
    "by_title-tokens": "by_title:max_tokens=256,tokenizer=cl100k_base",
    "headings": "headings:max_tokens=256,tokenizer=cl100k_base",
}
PUBLISHED = {"token": "82.4 (Chroma, published); 81.9 (independent re-implementation)"}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", default=",".join(CONFIGURATIONS))
    parser.add_argument("--output", help="also write the table to this file")
    args = parser.parse_args(argv)
    block_network()

    import partita
    from partita.embeddings import embedder_named
    from partita.evaluation._configurations import parse_configuration
    from partita.evaluation._documents import document_text
    from partita.evaluation._questions import read_questions
    from partita.evaluation._run import evaluate

    started = time.perf_counter()
    corpora = sorted((CHROMA / "corpora").glob("*.md"))
    documents = [document_text(p, partita.partition(p)) for p in corpora]
    questions = read_questions(CHROMA / "questions_df.csv")
    partitioned = time.perf_counter() - started
    names = [n.strip() for n in args.configs.split(",") if n.strip()]
    cache = tempfile.mkdtemp(prefix="partita-bench-embeddings-")
    lines = [
        f"{datetime.date.today()}, partita {partita.__version__}, all-MiniLM-L6-v2 (CPU), k = 5,"
        f" {len(questions)} questions, 5 corpora ({sum(len(d.text) for d in documents):,}"
        f" characters; partitioned and aligned in {partitioned:.1f} s, alignment"
        f" {min(d.coverage for d in documents):.4f}), {os.cpu_count()} CPUs,"
        f" load average {os.getloadavg()[0]:.2f}",
        "",
        "| configuration | chunks | mean tokens | recall | precision | IoU | precision_Ω"
        " | MRR | recall @ 1,250 tokens | seconds (embedding) | published |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    timings: list[str] = []
    for index, name in enumerate(names):
        configuration = parse_configuration(CONFIGURATIONS.get(name, name))
        runs = 2 if index == 0 else 1
        for attempt in range(runs):
            embedder = embedder_named("minilm", cache)
            began = time.perf_counter()
            results = evaluate(
                documents, [configuration], questions=questions, embedder=embedder, k=5,
                coherence=False,
            )  # fmt: skip
            seconds = time.perf_counter() - began
            if runs == 2:
                timings.append(f"{name}: {'cold' if attempt == 0 else 'warm'} {seconds:.1f} s")
        (entry,) = results["configurations"]
        top = entry["retrieval"]["top_k"]
        budget = entry["retrieval"]["token_budget"]
        embedded = entry["efficiency"]["embedding_seconds"] or 0.0
        lines.append(
            f"| {configuration.name} | {entry['intrinsic']['chunks']:,}"
            f" | {entry['intrinsic']['tokens']['mean']:.0f} | {top['recall'] * 100:.1f}"
            f" | {top['precision'] * 100:.1f} | {top['iou'] * 100:.1f}"
            f" | {top['precision_omega'] * 100:.1f} | {top['mrr'] * 100:.1f}"
            f" | {budget['recall'] * 100:.1f} | {seconds:.1f} ({embedded:.1f})"
            f" | {PUBLISHED.get(name, '')} |"
        )
        print(lines[-1], file=sys.stderr, flush=True)
    lines += ["", "Timing (one configuration over the five corpora): " + "; ".join(timings)]
    text = "\n".join(lines)
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
