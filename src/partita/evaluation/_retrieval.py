"""Retrieval for evaluation: exact top-k, ranked metrics, token budgets, and comparing two runs.

Contracts:

- `top_k` is exact cosine retrieval: the rows are taken as L2-normalized, so the score is the
  dot product. It is deterministic: equal scores rank the lower chunk index first, and the same
  inputs give the same ranking. Scores are computed a block of queries at a time, no block over
  `block_elements` scores, so memory stays bounded (100k chunks × 1k queries: about 40 queries
  a block). `allowed` (a mask over chunks) or `top_k_by_document` (each query among its own
  document's chunks) restricts the candidates.
- A retrieved chunk is relevant to a question when it shares a character with one of the
  question's references of the same corpus (`rank_scores`). That is stricter than the span
  metrics' Chroma-faithful meeting (`partita.evaluation._spans`, quirk 1), where touching counts.
- A token budget makes chunkings of different chunk sizes comparable at equal context cost: the
  ranked chunks are taken in order while their running total stays within the budget, and at
  least one is always taken (`token_budget_prefix`).
- Figures over questions are plain means of per-question figures, as Chroma's are.
- `paired_bootstrap` resamples questions, keeping each question's two scores paired; it is
  deterministic for a seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numpy.typing import NDArray

from partita.evaluation._spans import Span, span_overlap

__all__ = [
    "DEFAULT_BLOCK_ELEMENTS",
    "CurvePoint",
    "PairedBootstrap",
    "RankScores",
    "RankedRetrieval",
    "mean_rank_scores",
    "paired_bootstrap",
    "rank_scores",
    "span_curve",
    "token_budget_prefix",
    "top_k",
    "top_k_by_document",
]

DEFAULT_BLOCK_ELEMENTS = 1 << 22
"""Scores held at once by `top_k` (4M: 16 MB of float32, 32 MB of float64)."""

_BOOTSTRAP_BLOCK = 1 << 20
"""Resampled indices drawn at once by `paired_bootstrap`; fixed, so a seed fixes the result."""


# -- ranked metrics --


@dataclass(frozen=True, slots=True)
class RankScores:
    """One question's ranked figures over its retrieved list (or their means over questions)."""

    hit: float
    reciprocal_rank: float
    precision: float
    recall: float
    f1: float


def _shares_a_character(chunk: Span, reference: Span) -> bool:
    return chunk.corpus == reference.corpus and max(chunk.start, reference.start) < min(
        chunk.end, reference.end
    )


def rank_scores(references: Sequence[Span], retrieved: Sequence[Span]) -> RankScores:
    """Hit, reciprocal rank, precision@k, recall@k and F1@k of `retrieved`, best first.

    precision = relevant retrieved chunks / retrieved chunks (a repeat counts again); recall =
    references sharing a character with some retrieved chunk / references. An empty reference
    is never found. Empty denominators give 0.
    """
    relevant = [any(_shares_a_character(c, r) for r in references) for c in retrieved]
    first = next((rank for rank, is_relevant in enumerate(relevant, 1) if is_relevant), None)
    found = sum(1 for r in references if any(_shares_a_character(c, r) for c in retrieved))
    precision = sum(relevant) / len(retrieved) if retrieved else 0.0
    recall = found / len(references) if references else 0.0
    return RankScores(
        hit=0.0 if first is None else 1.0,
        reciprocal_rank=0.0 if first is None else 1.0 / first,
        precision=precision,
        recall=recall,
        f1=2 * precision * recall / (precision + recall) if precision + recall else 0.0,
    )


def mean_rank_scores(scores: Sequence[RankScores]) -> RankScores:
    """Each figure's mean over questions."""
    if not scores:
        raise ValueError("no questions to average")
    names = [field.name for field in fields(RankScores)]
    table = np.array([[getattr(s, name) for name in names] for s in scores], dtype=np.float64)
    return RankScores(*(float(v) for v in table.mean(axis=0)))


# -- exact top-k --


def _vectors(values: npt.ArrayLike, name: str) -> NDArray[np.floating[Any]]:
    array = np.asarray(values)
    if array.ndim != 2:
        raise ValueError(f"{name} must be 2-D (rows are vectors), got shape {array.shape}")
    if not np.issubdtype(array.dtype, np.floating):
        array = array.astype(np.float64)
    if not np.isfinite(array).all():
        raise ValueError(f"{name} holds a NaN or an infinity")
    return array


def _best(scores: NDArray[np.floating[Any]], width: int) -> NDArray[np.int64]:
    """Each row's `width` best columns, best first, equal scores by lower column."""
    columns = scores.shape[1]
    if width == columns:
        return np.argsort(-scores, axis=1, kind="stable").astype(np.int64)
    cut = columns - width
    picked = np.argpartition(scores, cut, axis=1)[:, cut:]
    kth = np.take_along_axis(scores, picked[:, :1], axis=1)
    # -- argpartition breaks a tie at the cut arbitrarily: redo those rows, lower index first --
    straddling = np.flatnonzero(
        (scores == kth).sum(axis=1) != (np.take_along_axis(scores, picked, axis=1) == kth).sum(1)
    )
    for row in straddling:
        line, value = scores[row], kth[row, 0]
        above = np.flatnonzero(line > value)
        ties = np.flatnonzero(line == value)[: width - above.size]
        picked[row] = np.concatenate([above, ties])
    values = np.take_along_axis(scores, picked, axis=1)
    order = np.lexsort((picked, -values), axis=1)
    return np.take_along_axis(picked, order, axis=1).astype(np.int64)


def top_k(
    query_vectors: npt.ArrayLike,
    chunk_vectors: npt.ArrayLike,
    k: int,
    *,
    allowed: npt.ArrayLike | None = None,
    block_elements: int = DEFAULT_BLOCK_ELEMENTS,
) -> NDArray[np.int64]:
    """The indices of each query's `k` best chunks by dot product, best first.

    Shape (queries, min(k, candidates)); candidates are all chunks, or those `allowed` (a
    boolean mask over chunks, the same for every query). Equal scores rank the lower index first.
    """
    queries = _vectors(query_vectors, "query_vectors")
    chunks = _vectors(chunk_vectors, "chunk_vectors")
    if queries.shape[1] != chunks.shape[1]:
        raise ValueError(f"dimensions differ: queries {queries.shape[1]}, chunks {chunks.shape[1]}")
    if k < 0 or block_elements < 1:
        raise ValueError("k must be >= 0 and block_elements >= 1")
    blocked: NDArray[np.bool_] | None = None
    candidates = chunks.shape[0]
    if allowed is not None:
        mask = np.asarray(allowed)
        if mask.dtype != np.bool_ or mask.shape != (chunks.shape[0],):
            raise ValueError("allowed must be a boolean mask with one entry per chunk")
        blocked = ~mask
        candidates = int(mask.sum())
    width = min(k, candidates)
    ranked = np.empty((queries.shape[0], width), dtype=np.int64)
    if width == 0:
        return ranked
    rows = max(1, block_elements // chunks.shape[0])
    for low in range(0, queries.shape[0], rows):
        scores = queries[low : low + rows] @ chunks.T
        if blocked is not None:
            scores[:, blocked] = -np.inf
        ranked[low : low + rows] = _best(scores, width)
    return ranked


def top_k_by_document(
    query_vectors: npt.ArrayLike,
    query_documents: Sequence[str],
    chunk_vectors: npt.ArrayLike,
    chunk_documents: Sequence[str],
    k: int,
    *,
    block_elements: int = DEFAULT_BLOCK_ELEMENTS,
) -> list[NDArray[np.int64]]:
    """Each query's `k` best chunks among its own document's chunks: global indices, best first.

    One array per query, of min(k, chunks of its document) indices; equal scores rank the lower
    index first. Each document's chunks are gathered once, for all its queries.
    """
    queries = _vectors(query_vectors, "query_vectors")
    chunks = _vectors(chunk_vectors, "chunk_vectors")
    if len(query_documents) != queries.shape[0] or len(chunk_documents) != chunks.shape[0]:
        raise ValueError("one document label per query vector and per chunk vector")
    chunks_of: dict[str, list[int]] = {}
    for index, document in enumerate(chunk_documents):
        chunks_of.setdefault(document, []).append(index)
    queries_of: dict[str, list[int]] = {}
    for index, document in enumerate(query_documents):
        queries_of.setdefault(document, []).append(index)

    ranked: list[NDArray[np.int64]] = [np.empty(0, dtype=np.int64)] * queries.shape[0]
    for document, query_indices in queries_of.items():
        members = np.array(chunks_of.get(document, []), dtype=np.int64)
        if members.size == 0:
            local = np.empty((len(query_indices), 0), dtype=np.int64)
        else:
            local = top_k(queries[query_indices], chunks[members], k, block_elements=block_elements)
        for row, query in enumerate(query_indices):
            ranked[query] = members[local[row]]
    return ranked


# -- token budgets and the curve --


def _budget_depth(tokens: Sequence[int], budget: int) -> int:
    """How many of `tokens`, in order, fit in `budget`: at least one when there is one."""
    if budget < 0:
        raise ValueError(f"a token budget must be >= 0, got {budget}")
    total = 0
    for depth, count in enumerate(tokens):
        if count < 0:
            raise ValueError(f"token counts must be >= 0, got {count}")
        if depth and total + count > budget:
            return depth
        total += count
    return len(tokens)


def token_budget_prefix(
    ranked: Sequence[int] | NDArray[np.integer[Any]],
    chunk_tokens: Sequence[int] | NDArray[np.integer[Any]],
    budget: int,
) -> tuple[int, ...]:
    """The prefix of `ranked` (chunk indices, best first) whose tokens fit in `budget`.

    Chunks are taken in rank order while the running total of `chunk_tokens[chunk]` stays
    within `budget`; the first chunk is taken whatever its size. Taking stops at the first chunk
    that does not fit: a smaller one after it is not taken.
    """
    chunks = [int(chunk) for chunk in ranked]
    depth = _budget_depth([int(chunk_tokens[chunk]) for chunk in chunks], budget)
    return tuple(chunks[:depth])


@dataclass(frozen=True, slots=True)
class RankedRetrieval:
    """One question's references and its retrieved chunks, best first, with their token counts."""

    references: tuple[Span, ...]
    retrieved: tuple[Span, ...]
    tokens: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.tokens) != len(self.retrieved):
            raise ValueError("one token count per retrieved chunk")

    def top(self, k: int) -> RankedRetrieval:
        """The first `k` retrieved chunks."""
        return RankedRetrieval(self.references, self.retrieved[:k], self.tokens[:k])

    def within_token_budget(self, budget: int) -> RankedRetrieval:
        """The retrieved prefix `token_budget_prefix` would select."""
        return self.top(_budget_depth(self.tokens, budget))


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """Mean figures over questions when each question keeps its first `k` retrieved chunks."""

    k: int
    mean_tokens: float
    recall: float
    precision: float
    iou: float


def span_curve(questions: Sequence[RankedRetrieval], max_k: int) -> tuple[CurvePoint, ...]:
    """Span recall, precision and IoU against mean retrieved tokens, for k = 1..max_k.

    A question with fewer than k retrieved chunks keeps all of them. Figures are
    `_spans.span_overlap`'s, averaged over questions.
    """
    if not questions or max_k < 1:
        raise ValueError("a curve needs questions and max_k >= 1")
    points: list[CurvePoint] = []
    for k in range(1, max_k + 1):
        tops = [question.top(k) for question in questions]
        overlaps = [span_overlap(top.references, top.retrieved) for top in tops]
        points.append(
            CurvePoint(
                k=k,
                mean_tokens=float(np.mean([sum(top.tokens) for top in tops])),
                recall=float(np.mean([o.recall for o in overlaps])),
                precision=float(np.mean([o.precision for o in overlaps])),
                iou=float(np.mean([o.iou for o in overlaps])),
            )
        )
    return tuple(points)


# -- comparing two runs --


class PairedBootstrap(NamedTuple):
    """Mean of a − b over questions, its bootstrap confidence interval and two-sided p-value."""

    mean_difference: float
    ci_low: float
    ci_high: float
    p_value: float


def paired_bootstrap(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    iterations: int = 10_000,
    seed: int = 0,
    *,
    confidence: float = 0.95,
) -> PairedBootstrap:
    """Compare two runs' per-question scores, question by question.

    Each iteration resamples the questions with replacement and takes the mean of the paired
    differences a − b. The interval is the percentile interval of those means. The p-value tests
    "no difference" with the resampled means shifted to mean 0: the share, with the observed
    sample counted in, whose distance from the observed mean reaches the observed mean's
    distance from 0, (1 + #{|m* − m| >= |m|}) / (1 + iterations). So it is at least
    1 / (1 + iterations), and 1 when the runs score alike on every question.
    """
    first = np.asarray(a, dtype=np.float64)
    second = np.asarray(b, dtype=np.float64)
    if first.ndim != 1 or first.shape != second.shape or first.size == 0:
        raise ValueError("a and b must be 1-D, of the same non-zero length")
    if not (np.isfinite(first).all() and np.isfinite(second).all()):
        raise ValueError("scores must be finite")
    if iterations < 1 or not 0.0 < confidence < 1.0:
        raise ValueError("iterations must be >= 1 and confidence in (0, 1)")
    differences = first - second
    questions = differences.size
    observed = float(differences.mean())
    rng = np.random.default_rng(seed)
    means = np.empty(iterations, dtype=np.float64)
    rows = max(1, _BOOTSTRAP_BLOCK // questions)
    for low in range(0, iterations, rows):
        high = min(iterations, low + rows)
        resampled = rng.integers(0, questions, size=(high - low, questions))
        means[low:high] = differences[resampled].mean(axis=1)
    tail = (1.0 - confidence) / 2.0
    ci_low, ci_high = np.quantile(means, [tail, 1.0 - tail])
    extreme = int(np.count_nonzero(np.abs(means - observed) >= abs(observed)))
    return PairedBootstrap(
        mean_difference=observed,
        ci_low=float(ci_low),
        ci_high=float(ci_high),
        p_value=(1 + extreme) / (1 + iterations),
    )
