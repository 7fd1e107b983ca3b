"""The `financebench` dataset of `bench_retrieval_profile.py`: retrieval on real SEC filings.

FinanceBench's development set (`../shared/eval/financebench-dev`: 27 filings as PDFs, 37
questions, each with evidence texts and their 0-based pages). Each question's PDF is partitioned
once by partita (elements cached as JSON under the cache directory) and read once by pdfplumber
(its page texts, for the plain-text baselines, as the peers do); every configuration chunks each
document on its own, and one MiniLM index per document answers that document's questions (exact
cosine ranking).

Scores per question and configuration, at top-`k` and within budgets of retrieved characters
(the ranked chunks taken while their characters total at most the budget):

- **page hit**: 1 when an evidence page lies in the page range of a retrieved chunk
  (`page_number` to `extra["last_page_number"]`, or the pages of its `orig_elements`);
- **evidence recall**: the share of the evidence text covered by the retrieved chunks' text, on
  any page (`partita.evaluation.evidence.evidence_text_recall`: the evidence comes from another
  extraction, so it is matched by words, an evidence word covered when it lies in a run of
  `MATCH_WORDS` consecutive evidence words that one retrieved chunk holds consecutively, each
  word weighing its characters).

Baselines: `plain-512` (512 cl100k-token windows over the pdfplumber text, no overlap),
`page` (one chunk per pdfplumber page) and `by_title-1000` (partita's elements, by_title at 1,000
characters).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _shared import SHARED  # benchmarks/ is on sys.path

FINANCEBENCH = SHARED / "eval" / "financebench-dev"
PLAIN_TOKENS = 512
BASELINES = ("plain-512", "page", "by_title-1000")


@dataclass
class Document:
    name: str
    elements: list[Any]
    pages: list[str]  # -- pdfplumber's page texts, page 1 first --


@dataclass
class Chunks:
    texts: list[str]
    pages: list[tuple[int, int]]  # -- first and last page, 1-based --


@dataclass
class Scores:
    """Per-question scores of one configuration: key -> question id -> value."""

    name: str
    chunks: int
    mean_tokens: float
    values: dict[str, dict[str, float]] = field(default_factory=dict)


def load(cache: Path, progress: Callable[[str], None]) -> tuple[dict[str, Document], list[Any]]:
    """The documents the questions ask about, and the questions (dicts of questions.jsonl)."""
    import partita

    questions = [
        json.loads(line)
        for line in (FINANCEBENCH / "questions.jsonl").read_text().splitlines()
        if line.strip()
    ]
    folder = cache / "financebench"
    folder.mkdir(parents=True, exist_ok=True)
    documents: dict[str, Document] = {}
    for name in sorted({q["doc_name"] for q in questions}):
        pdf = FINANCEBENCH / "pdfs" / f"{name}.pdf"
        elements_file, pages_file = folder / f"{name}.json", folder / f"{name}.pages.json"
        if not elements_file.exists():
            started = time.perf_counter()
            elements_file.write_text(partita.elements_to_json(partita.partition(pdf)))
            progress(f"financebench: partitioned {name} in {time.perf_counter() - started:.0f} s")
        if not pages_file.exists():
            import pdfplumber

            with pdfplumber.open(pdf) as opened:
                pages_file.write_text(json.dumps([p.extract_text() or "" for p in opened.pages]))
        documents[name] = Document(
            name,
            partita.elements_from_json(text=elements_file.read_text()),
            json.loads(pages_file.read_text()),
        )
    return documents, questions


def _pages_of(chunk: Any) -> tuple[int, int]:
    meta = chunk.metadata
    pages = [e.metadata.page_number for e in meta.orig_elements or () if e.metadata.page_number]
    first = meta.page_number or (min(pages) if pages else 0)
    last = (meta.extra or {}).get("last_page_number") or (max(pages) if pages else first)
    return min([first, *pages]) if pages else first, max(last, first)


def _cl100k() -> Any:
    """cl100k_base as partita loads it, offline."""
    from partita.text.sizing._tokenizers import resolve_tokenizer

    _, tokens = resolve_tokenizer("cl100k_base")
    assert tokens is not None
    return tokens.encoding


def plain_windows(pages: Sequence[str], tokens: int = PLAIN_TOKENS) -> Chunks:
    """`tokens`-token cl100k windows over the pages' text joined by newlines, with their pages."""
    encoding = _cl100k()
    text, starts, offset = "", [], 0
    for page in pages:
        starts.append(offset)
        text += page + "\n"
        offset = len(text)
    ids = encoding.encode(text, disallowed_special=())
    texts: list[str] = []
    spans: list[tuple[int, int]] = []
    position = 0
    for start in range(0, len(ids), tokens):
        piece = encoding.decode(ids[start : start + tokens])
        end = position + len(piece)
        first = max(i for i, s in enumerate(starts) if s <= position) + 1
        last = max(i for i, s in enumerate(starts) if s <= max(end - 1, position)) + 1
        texts.append(piece)
        spans.append((first, last))
        position = end
    return Chunks(texts, spans)


def chunks_of(configuration: str | tuple[str, Mapping[str, Any]], document: Document) -> Chunks:
    """The chunks of `document` under a baseline's name or a (strategy, options) pair."""
    import partita

    if configuration == "plain-512":
        return plain_windows(document.pages)
    if configuration == "page":
        return Chunks(list(document.pages), [(i + 1, i + 1) for i in range(len(document.pages))])
    if configuration == "by_title-1000":
        configuration = ("by_title", {"max_characters": 1000})
    assert not isinstance(configuration, str)
    strategy, options = configuration
    chunks = partita.chunk(document.elements, strategy, **dict(options))
    chunks = [c for c in chunks if c.text.strip()]
    return Chunks([c.text for c in chunks], [_pages_of(c) for c in chunks])


def _selections(order: Sequence[int], lengths: Sequence[int], k: int, budgets: Sequence[int]):
    yield f"top{k}", list(order[:k])
    for budget in budgets:
        taken, used = [], 0
        for index in order:
            if used + lengths[index] > budget:
                break
            taken.append(index)
            used += lengths[index]
        yield f"{budget}", taken


def score(
    name: str,
    configuration: str | tuple[str, Mapping[str, Any]],
    documents: Mapping[str, Document],
    questions: Sequence[Mapping[str, Any]],
    embedder: Any,
    *,
    k: int,
    budgets: Sequence[int],
    progress: Callable[[str], None] = lambda _: None,
) -> Scores:
    """The per-question scores of one configuration (see the module docstring)."""
    import numpy as np

    from partita.evaluation.evidence import evidence_text_recall

    encoding = _cl100k()
    started = time.perf_counter()
    by_document = {n: chunks_of(configuration, d) for n, d in documents.items()}
    all_texts = [t for c in by_document.values() for t in c.texts]
    tokens = [len(encoding.encode(t, disallowed_special=())) for t in all_texts]
    result = Scores(name, len(all_texts), sum(tokens) / max(len(tokens), 1))
    question_vectors = np.asarray(embedder([q["question"] for q in questions]))
    for index, question in enumerate(questions):
        chunks = by_document[question["doc_name"]]
        vectors = np.asarray(embedder(chunks.texts))
        similarity = vectors @ question_vectors[index]
        order = [int(i) for i in np.argsort(-similarity, kind="stable")]
        lengths = [len(t) for t in chunks.texts]
        evidence = [e["evidence_text"] for e in question["evidence"]]
        pages = {int(e["evidence_page_num"]) + 1 for e in question["evidence"]}
        qid = question["financebench_id"]
        for label, taken in _selections(order, lengths, k, budgets):
            hit = any(
                any(first <= p <= last for p in pages)
                for first, last in (chunks.pages[i] for i in taken)
            )
            recall = evidence_text_recall(evidence, [chunks.texts[i] for i in taken])
            result.values.setdefault(f"page@{label}", {})[qid] = float(hit)
            result.values.setdefault(f"recall@{label}", {})[qid] = recall
    progress(f"financebench: {name} in {time.perf_counter() - started:.0f} s")
    return result


def difference(ours: Scores, theirs: Scores, key: str) -> str:
    from partita.evaluation._retrieval import paired_bootstrap

    ids = sorted(ours.values[key])
    boot = paired_bootstrap(
        [ours.values[key][i] for i in ids], [theirs.values[key][i] for i in ids]
    )
    return (
        f"{boot.mean_difference * 100:+.1f} [{boot.ci_low * 100:+.1f}, {boot.ci_high * 100:+.1f}]"
    )


def table(results: Sequence[Scores], k: int, budgets: Sequence[int], questions: int) -> list[str]:
    """The Markdown section: each configuration's means, and Δ against the best baseline at
    each measure (the baseline with the highest mean there)."""
    keys = [f"page@{b}" for b in budgets] + [f"recall@{b}" for b in budgets]
    keys += [f"page@top{k}", f"recall@top{k}"]
    mean = {r.name: {key: sum(r.values[key].values()) / questions for key in keys} for r in results}
    baselines = [r for r in results if r.name in BASELINES]
    best = {
        key: max(baselines, key=lambda r: mean[r.name][key]) if baselines else None for key in keys
    }
    lines = [
        "## financebench",
        "",
        f"{questions} questions, one MiniLM index per document; page hit and evidence"
        " recall in %; Δ: against the best baseline at that measure (named), paired bootstrap"
        " [95 % interval].",
        "",
        "| configuration | chunks | mean tokens | "
        + " | ".join(f"{key} | Δ" for key in keys)
        + " |",
        "|---|---:|---:|" + "---:|---|" * len(keys),
    ]
    for result in results:
        cells = [result.name, f"{result.chunks:,}", f"{result.mean_tokens:.0f}"]
        for key in keys:
            cells.append(f"{mean[result.name][key] * 100:.1f}")
            reference = best[key]
            if reference is None or reference is result or result.name in BASELINES:
                cells.append("—")
            else:
                cells.append(f"{difference(result, reference, key)} vs {reference.name}")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def progress_printer(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
