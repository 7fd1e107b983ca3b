"""`evaluate`: chunk documents under several configurations and measure each.

Principles:

- **Everything is measured on the same inputs**: the documents are partitioned once; every
  configuration chunks the same elements (with provenance on, so each chunk's place in its
  document is known: `partita.evaluation._documents`); one embedder embeds every chunk and every
  question (cached on disk by model and text, so a re-run embeds only new chunks).
- **Retrieval is exact**: cosine top-k over all chunks of all documents in one collection, as
  Chroma's evaluation does (`_retrieval.top_k`), or within each question's own document
  (`per_document=True`). It is scored at top-k and at matched budgets of retrieved characters
  (`character_budget`, default k × `CHARACTERS_PER_RESULT`: 4,000 at k = 5) and tokens
  (`token_budget`, default k × 250 cl100k tokens: Chroma's k windows of 250), so configurations
  with different chunk sizes compare at equal context cost, and along a curve of k = 1..`curve_k`.
  Every figure comes with the characters it retrieved (`retrieved_characters`).
- **How to retrieve is part of a configuration** (`_configurations`): small-to-big
  (`parent_tokens`: the chunks are matched, their parents retrieved, each once, in rank order)
  and budgeted retrieval (`budget_tokens`: the "top-k" figures take results while they fit that
  many tokens instead of k). The matched budgets apply to what is retrieved (the parents).
- **Evidence-page questions** (FinanceBench's, `_questions.Evidence`) add page hit and evidence
  recall (`evidence`) to every figure set; the recommendation ranks by evidence recall then.
- **Character-span metrics are Chroma's** (`_spans`): recall, precision, IoU, precision_Ω; ranked
  ones beside them (`_retrieval.rank_scores`): hit rate, MRR, precision/recall/F1 at k.
- **Results are plain data** (the JSON `partita evaluate` writes; its schema is `results_schema`
  in the package docstring), per-question scores included so two runs compare with a paired
  bootstrap (`_compare.py`).
- Timings: chunking (all documents, the best of one run), embedding (the cache's misses only).
- **numpy only where vectors are**: without an embedder (sizes and boundaries only) nothing here
  imports numpy, so that much runs on the core install.
- **A configuration that fails is reported, not fatal**, when `on_error` is given: its error
  goes to `on_error` and to the results' `failed_configurations`, and the others are measured.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from partita.chunking._registry import chunk as run_chunking
from partita.chunking._registry import strategy_named
from partita.chunking.parents import PARENT_ID_KEY, take_ranked, with_parents
from partita.elements import Element
from partita.evaluation._baselines import chunk_with_baseline, is_baseline
from partita.evaluation._configurations import Configuration
from partita.evaluation._documents import DocumentText
from partita.evaluation._intrinsic import (
    boundary_quality,
    distribution,
    histogram,
    is_mid_sentence,
    orphaned_headings,
    semantic_coherence,
)
from partita.evaluation._questions import Question
from partita.evaluation._recommend import recommend
from partita.evaluation._spans import CorpusChunks, Span, span_scores, summarize_span_scores
from partita.text.sizing._tokenizers import token_counter

__all__ = ["Embedder", "evaluate", "evaluate_configuration"]

Embedder = Callable[[Sequence[str]], Any]
"""Texts to an L2-normalized float matrix; may carry `model_id`, `dimensions`, `max_tokens`,
`count_tokens(text)` and `embedding_seconds` (time spent on texts not in its cache)."""

_UNPLACED = "<unplaced>"
"""The corpus of a chunk whose place in its document is unknown: it counts in precision's
denominator and meets no reference."""


@dataclass
class _Chunked:
    """One configuration's chunks: per document, and flat with their spans and documents; with
    small-to-big, the parents (flat, with their spans) and each chunk's parent index."""

    chunks: list[Element]
    documents: list[str]
    spans: list[Span]
    by_document: list[list[int]]
    seconds: float
    parents: list[Element] = field(default_factory=list)
    parent_spans: list[Span] = field(default_factory=list)
    parent_of: list[int] = field(default_factory=list)


def _placed(document: DocumentText, chunk: Element) -> Span:
    place = document.chunk_span(chunk)
    return Span(document.name, *place) if place else Span(_UNPLACED, 0, len(chunk.text))


def _chunk_all(configuration: Configuration, documents: Sequence[DocumentText]) -> _Chunked:
    options = dict(configuration.options)
    baseline = is_baseline(configuration.strategy)
    if not baseline and "provenance" in strategy_named(configuration.strategy).option_names:
        options["provenance"] = True
    parent_tokens = configuration.parent_tokens
    run = _Chunked([], [], [], [], 0.0)
    started = time.perf_counter()
    produced = [
        chunk_with_baseline(d.elements, configuration.strategy, **options)
        if baseline
        else run_chunking(d.elements, configuration.strategy, **options)
        for d in documents
    ]
    scope = configuration.parent_scope
    families = [
        with_parents(c, parent_tokens, scope=scope) if parent_tokens else None for c in produced
    ]
    run.seconds = time.perf_counter() - started
    for document, document_chunks, family in zip(documents, produced, families, strict=True):
        indices: list[int] = []
        if family is not None:
            document_chunks = family.children
            first = len(run.parents)
            position = {p.element_id: first + i for i, p in enumerate(family.parents)}
            run.parents += family.parents
            run.parent_spans += [_placed(document, p) for p in family.parents]
            run.parent_of += [
                position[(c.metadata.extra or {})[PARENT_ID_KEY]] for c in document_chunks
            ]
        for c in document_chunks:
            indices.append(len(run.chunks))
            run.chunks.append(c)
            run.documents.append(document.name)
            run.spans.append(_placed(document, c))
        run.by_document.append(indices)
    return run


CHARACTERS_PER_RESULT = 800
"""The default matched budget is k times this many retrieved characters (4,000 at k = 5)."""

EMBEDDING_BATCH = 512
"""Texts embedded per call when progress is reported (between calls it says how far it got)."""


def _embedded(
    embedder: Embedder, texts: Sequence[str], progress: Callable[[str], None] | None
) -> Any:
    import numpy as np

    if progress is None or len(texts) <= EMBEDDING_BATCH:
        return np.asarray(embedder(texts), dtype=np.float32)
    parts = []
    for low in range(0, len(texts), EMBEDDING_BATCH):
        parts.append(np.asarray(embedder(texts[low : low + EMBEDDING_BATCH]), dtype=np.float32))
        progress(f"  embedded {min(low + EMBEDDING_BATCH, len(texts)):,} of {len(texts):,}")
    return np.concatenate(parts)


def _intrinsic(
    run: _Chunked,
    documents: Sequence[DocumentText],
    vectors: Any,
    embedder: Embedder | None,
    coherence: bool,
) -> dict[str, Any]:
    count = token_counter("cl100k_base")
    tokens = [count(c.text) for c in run.chunks]
    characters = [len(c.text) for c in run.chunks]
    by_id = {e.element_id: e for d in documents for e in d.elements}
    token_stats: dict[str, Any] = dict(distribution(tokens))
    window = getattr(embedder, "max_tokens", None)
    counter = getattr(embedder, "count_tokens", None)
    if window and counter is not None and run.chunks:
        over = sum(1 for c in run.chunks if counter(c.text) > window)
        token_stats["over_window_share"] = over / len(run.chunks)
    else:
        token_stats["over_window_share"] = None
    ordered = [[run.chunks[i] for i in indices] for indices in run.by_document]
    return {
        "chunks": len(run.chunks),
        "characters": distribution(characters),
        "tokens": token_stats,
        "histogram": histogram(tokens),
        "coherence": (semantic_coherence(run.chunks, embedder) if coherence and embedder else None),
        "boundary_quality": (
            boundary_quality([vectors[indices] for indices in run.by_document])
            if vectors is not None
            else None
        ),
        "mid_sentence_share": (
            sum(1 for c in run.chunks if is_mid_sentence(c, by_id)) / len(run.chunks)
            if run.chunks
            else 0.0
        ),
        "orphaned_headings": sum(orphaned_headings(chunks, by_id) for chunks in ordered),
    }


def _scores_dict(span_mean: Any, rank_mean: Any, tokens: float) -> dict[str, float]:
    return {
        "recall": span_mean.recall,
        "precision": span_mean.precision,
        "iou": span_mean.iou,
        "precision_omega": span_mean.precision_omega,
        "hit_rate": rank_mean.hit,
        "mrr": rank_mean.reciprocal_rank,
        "precision_at_k": rank_mean.precision,
        "recall_at_k": rank_mean.recall,
        "f1_at_k": rank_mean.f1,
        "retrieved_tokens": tokens,
    }


RANKED_DEPTH = 128
"""Chunks ranked per question when a budget is measured (or parents are retrieved): enough to
fill any sensible budget, and to find that many distinct parents."""

EVIDENCE_FIGURES = ("page_hit", "evidence_recall", "evidence_recall_any_page")
"""The per-question figures of questions with evidence pages (`partita.evaluation.evidence`)."""


def _retrieval(
    run: _Chunked,
    vectors: Any,
    questions: Sequence[Question],
    question_vectors: Any,
    k: int,
    token_budget: int | None,
    curve_k: int,
    per_document: bool,
    character_budget: int | None = None,
    *,
    budget_tokens: int | None = None,
    texts: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    import numpy as np

    from partita.evaluation._retrieval import (
        RankedRetrieval,
        mean_rank_scores,
        rank_scores,
        span_curve,
        token_budget_prefix,
        top_k,
        top_k_by_document,
    )
    from partita.evaluation.evidence import evidence_recall, evidence_recall_any_page, page_hit

    count = token_counter("cl100k_base")
    small_to_big = bool(run.parent_of)
    # -- what is retrieved: the chunks, or (small-to-big) their parents --
    units = run.parents if small_to_big else run.chunks
    unit_spans = run.parent_spans if small_to_big else run.spans
    unit_tokens = [count(u.text) for u in units]
    unit_chars = [len(u.text) for u in units]
    depth = max(k, curve_k)
    if token_budget is not None or character_budget is not None or budget_tokens is not None:
        depth = max(depth, RANKED_DEPTH)
    if small_to_big:
        depth = max(depth, RANKED_DEPTH)
    if per_document:
        wanted = [q.references[0].corpus if q.references else "" for q in questions]
        ranked = top_k_by_document(question_vectors, wanted, vectors, run.documents, depth)
    else:
        ranked = list(top_k(question_vectors, vectors, depth))
    orders: list[list[int]] = []
    for order in ranked:
        chosen = [int(i) for i in order]
        if small_to_big:
            chosen = [run.parent_of[i] for i in take_ranked(chosen, key=run.parent_of.__getitem__)]
        orders.append(chosen)
    corpus = CorpusChunks(unit_spans)
    retrievals = [
        RankedRetrieval(
            question.references,
            tuple(unit_spans[i] for i in order),
            tuple(unit_tokens[i] for i in order),
        )
        for question, order in zip(questions, orders, strict=True)
    ]
    with_evidence = any(q.evidence for q in questions)

    def scored(depths: list[int]) -> tuple[dict[str, float], list[dict[str, Any]]]:
        selection = [r.top(d) for r, d in zip(retrievals, depths, strict=True)]
        spans = [span_scores(r.references, r.retrieved, corpus) for r in selection]
        ranks = [rank_scores(r.references, r.retrieved) for r in selection]
        tokens = float(np.mean([sum(r.tokens) for r in selection]))
        scores = _scores_dict(summarize_span_scores(spans).mean, mean_rank_scores(ranks), tokens)
        characters = [
            sum(unit_chars[i] for i in o[:d]) for o, d in zip(orders, depths, strict=True)
        ]
        scores["retrieved_characters"] = float(np.mean(characters))
        rows: list[dict[str, Any]] = [
            {"recall": s.recall, "precision": s.precision, "iou": s.iou, "hit": bool(r.hit),
             "reciprocal_rank": r.reciprocal_rank, "characters": c}
            for s, r, c in zip(spans, ranks, characters, strict=True)
        ]  # fmt: skip
        if with_evidence:
            for row, question, chosen in zip(rows, questions, selection, strict=True):
                row["page_hit"] = page_hit(question.evidence, chosen.retrieved)
                row["evidence_recall"] = evidence_recall(
                    question.evidence, chosen.retrieved, texts or {}
                )
                row["evidence_recall_any_page"] = evidence_recall_any_page(
                    question.evidence, chosen.retrieved, texts or {}
                )
            for name in EVIDENCE_FIGURES:
                scores[name] = float(np.mean([row[name] for row in rows]))
        return scores, rows

    if budget_tokens is not None:
        fixed = [len(r.within_token_budget(budget_tokens).retrieved) for r in retrievals]
    else:
        fixed = [min(k, len(r.retrieved)) for r in retrievals]
    top, rows = scored(fixed)
    budget = None
    if token_budget is not None:
        budget, token_rows = scored([len(r.within_token_budget(token_budget).retrieved)
                                     for r in retrievals])  # fmt: skip
        for row, within in zip(rows, token_rows, strict=True):
            row["recall_at_token_budget"] = within["recall"]
    by_characters = None
    if character_budget is not None:
        by_characters, character_rows = scored(
            [len(token_budget_prefix(order, unit_chars, character_budget)) for order in orders]
        )
        for row, within in zip(rows, character_rows, strict=True):
            row["recall_at_character_budget"] = within["recall"]
            for name in ("characters", *EVIDENCE_FIGURES):
                if name in within:
                    row[f"{name}_at_character_budget"] = within[name]
    curve = [
        {"k": p.k, "retrieved_tokens": p.mean_tokens, "recall": p.recall, "iou": p.iou}
        for p in span_curve(retrievals, curve_k)
    ]
    per_question = [
        {"id": q.id, "question": q.text, **row} for q, row in zip(questions, rows, strict=True)
    ]
    return {
        "top_k": top,
        "token_budget": budget,
        "character_budget": by_characters,
        "curve": curve,
        "per_question": per_question,
    }


def evaluate_configuration(
    configuration: Configuration,
    documents: Sequence[DocumentText],
    *,
    embedder: Embedder | None = None,
    questions: Sequence[Question] = (),
    question_vectors: Any = None,
    k: int = 5,
    token_budget: int | None = None,
    character_budget: int | None = None,
    curve_k: int = 10,
    per_document: bool = False,
    coherence: bool = True,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The measurements of one configuration (an entry of the results' `configurations`)."""
    run = _chunk_all(configuration, documents)
    vectors = None
    embedding_seconds = None
    if progress is not None:
        progress(f"  {len(run.chunks):,} chunks in {run.seconds:.2f} s")
    if embedder is not None and run.chunks:
        if progress is not None:
            progress(f"  embedding {len(run.chunks):,} chunks (cached ones are not embedded again)")
        before = float(getattr(embedder, "embedding_seconds", 0.0))
        started = time.perf_counter()
        vectors = _embedded(embedder, [c.text for c in run.chunks], progress)
        spent = time.perf_counter() - started
        after = getattr(embedder, "embedding_seconds", None)
        embedding_seconds = float(after) - before if after is not None else spent
    count = token_counter("cl100k_base")
    entry: dict[str, Any] = {
        "name": configuration.name,
        "strategy": configuration.strategy,
        "options": dict(configuration.options),
        "intrinsic": _intrinsic(run, documents, vectors, embedder, coherence),
        "retrieval": None,
        "efficiency": {
            "chunking_seconds": run.seconds,
            "chunks_per_second": len(run.chunks) / run.seconds if run.seconds else None,
            "tokens_to_embed": sum(count(c.text) for c in run.chunks),
            "embedding_seconds": embedding_seconds,
        },
        "unplaced_chunks": sum(1 for s in run.spans if s.corpus == _UNPLACED),
    }
    if configuration.parent_tokens is not None or configuration.budget_tokens is not None:
        entry["retrieve"] = {
            "parent_tokens": configuration.parent_tokens,
            "parent_scope": configuration.parent_scope,
            "budget_tokens": configuration.budget_tokens,
            "parents": len(run.parents) if run.parent_of else None,
        }
    if questions and vectors is not None and question_vectors is not None:
        entry["retrieval"] = _retrieval(
            run,
            vectors,
            questions,
            question_vectors,
            k,
            token_budget,
            curve_k,
            per_document,
            character_budget,
            budget_tokens=configuration.budget_tokens,
            texts={d.name: d.text for d in documents},
        )
    return entry


def evaluate(
    documents: Sequence[DocumentText],
    configurations: Iterable[Configuration],
    *,
    questions: Sequence[Question] = (),
    embedder: Embedder | None = None,
    k: int = 5,
    token_budget: int | None = None,
    character_budget: int | None = None,
    curve_k: int = 10,
    per_document: bool = False,
    coherence: bool = True,
    priority: str = "precision",
    progress: Callable[[str], None] | None = None,
    on_error: Callable[[Configuration, Exception], None] | None = None,
) -> dict[str, Any]:
    """The results of every configuration on `documents` (see the module docstring).

    With `on_error`, a configuration whose chunking or embedding raises is passed to it with
    its exception and listed in `failed_configurations` instead of ending the run."""
    configurations = list(configurations)
    if token_budget is None and questions:
        token_budget = k * 250
    if character_budget is None and questions:
        character_budget = k * CHARACTERS_PER_RESULT
    question_vectors = None
    if questions and embedder is not None:
        if progress is not None:
            progress(f"embedding {len(questions):,} questions")
        question_vectors = _embedded(embedder, [q.text for q in questions], None)
    entries = []
    failed: list[dict[str, str]] = []
    for index, configuration in enumerate(configurations, start=1):
        if progress is not None:
            progress(f"[{index}/{len(configurations)}] {configuration.name}")
        try:
            entries.append(
                evaluate_configuration(
                    configuration,
                    documents,
                    embedder=embedder,
                    questions=questions,
                    question_vectors=question_vectors,
                    k=k,
                    token_budget=token_budget,
                    character_budget=character_budget,
                    curve_k=curve_k,
                    per_document=per_document,
                    coherence=coherence,
                    progress=progress,
                )
            )
        except Exception as exc:  # -- any failure of this configuration, when asked to go on --
            if on_error is None:
                raise
            on_error(configuration, exc)
            failed.append({"name": configuration.name, "error": f"{type(exc).__name__}: {exc}"})
    window = getattr(embedder, "max_tokens", None) if embedder is not None else None
    return {
        "partita_version": _version(),
        "created": datetime.date.today().isoformat(),
        "documents": [
            {"name": d.name, "characters": len(d.text), "alignment": round(d.coverage, 4)}
            for d in documents
        ],
        "embedding": (
            {
                "model": getattr(embedder, "model_id", type(embedder).__name__),
                "dimensions": getattr(embedder, "dimensions", None),
                "window_tokens": getattr(embedder, "max_tokens", None),
            }
            if embedder is not None
            else None
        ),
        "k": k,
        "token_budget": token_budget,
        "character_budget": character_budget,
        "questions": len(questions),
        "configurations": entries,
        "failed_configurations": failed,
        "recommendation": recommend(
            entries,
            priority=priority,
            k=k,
            token_budget=token_budget,
            character_budget=character_budget,
            window_tokens=window if isinstance(window, int) else None,
        ),
    }


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("partita")
    except PackageNotFoundError:  # pragma: no cover -- a source tree never installed
        return "unknown"
