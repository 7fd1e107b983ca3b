"""Ranked metrics, exact top-k, token budgets, the span curve and the paired bootstrap of
`partita.evaluation._retrieval`.
"""

from __future__ import annotations

from dataclasses import astuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from partita.evaluation._retrieval import (
    CurvePoint,
    PairedBootstrap,
    RankedRetrieval,
    RankScores,
    mean_rank_scores,
    paired_bootstrap,
    rank_scores,
    span_curve,
    token_budget_prefix,
    top_k,
    top_k_by_document,
)
from partita.evaluation._spans import Span


def a(start: int, end: int) -> Span:
    return Span("a", start, end)


def b(start: int, end: int) -> Span:
    return Span("b", start, end)


# -- ranked metrics --


def test_rank_scores_by_hand() -> None:
    references = [a(0, 10), a(50, 60)]
    # -- ranks: 1 another corpus, 2 touching only, 3 relevant (first ref), 4 relevant (same ref)
    retrieved = [b(0, 10), a(10, 20), a(5, 15), a(0, 3)]
    got = rank_scores(references, retrieved)
    precision, recall = 2 / 4, 1 / 2
    assert got == RankScores(
        hit=1.0,
        reciprocal_rank=1 / 3,
        precision=precision,
        recall=recall,
        f1=pytest.approx(2 * precision * recall / (precision + recall)),
    )


def test_rank_scores_of_every_reference_found_at_rank_one() -> None:
    got = rank_scores([a(0, 10), a(20, 30)], [a(0, 30)])
    assert got == RankScores(1.0, 1.0, 1.0, 1.0, 1.0)


def test_rank_scores_without_a_relevant_chunk() -> None:
    assert rank_scores([a(0, 10)], [a(10, 20), b(0, 10)]) == RankScores(0.0, 0.0, 0.0, 0.0, 0.0)
    assert rank_scores([a(0, 10)], []) == RankScores(0.0, 0.0, 0.0, 0.0, 0.0)
    assert rank_scores([], [a(0, 10)]) == RankScores(0.0, 0.0, 0.0, 0.0, 0.0)
    assert rank_scores([a(5, 5)], [a(0, 10)]) == RankScores(0.0, 0.0, 0.0, 0.0, 0.0)


def test_mean_rank_scores() -> None:
    got = mean_rank_scores(
        [RankScores(1.0, 0.5, 0.5, 1.0, 0.6), RankScores(0.0, 0.0, 0.0, 0.0, 0.0)]
    )
    assert astuple(got) == pytest.approx((0.5, 0.25, 0.25, 0.5, 0.3))
    with pytest.raises(ValueError, match="no questions"):
        mean_rank_scores([])


# -- exact top-k --


def _brute_top_k(
    queries: np.ndarray, chunks: np.ndarray, k: int, allowed: np.ndarray
) -> list[list[int]]:
    """Sort each query's allowed chunks by (−score, index); scores exact (small integers)."""
    rows = []
    for query in queries.astype(int).tolist():
        scored = [
            (-sum(q * c for q, c in zip(query, chunk, strict=True)), j)
            for j, chunk in enumerate(chunks.astype(int).tolist())
            if allowed[j]
        ]
        rows.append([j for _, j in sorted(scored)[:k]])
    return rows


@st.composite
def _retrieval_case(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, int]:
    dim = draw(st.integers(1, 4))
    n_chunks = draw(st.integers(0, 30))
    n_queries = draw(st.integers(0, 6))
    values = st.integers(-2, 2).map(float)  # -- few values, so many exact ties --
    queries = draw(arrays(np.float64, (n_queries, dim), elements=values))
    chunks = draw(arrays(np.float64, (n_chunks, dim), elements=values))
    allowed = draw(arrays(np.bool_, (n_chunks,)))
    return queries, chunks, draw(st.integers(0, 35)), allowed, draw(st.integers(1, 70))


@settings(max_examples=300, deadline=None)
@given(case=_retrieval_case())
def test_top_k_against_brute_force_sort(
    case: tuple[np.ndarray, np.ndarray, int, np.ndarray, int],
) -> None:
    queries, chunks, k, allowed, block = case
    everything = np.ones(len(chunks), dtype=np.bool_)
    got = top_k(queries, chunks, k, block_elements=block)
    assert got.dtype == np.int64
    assert got.shape == (len(queries), min(k, len(chunks)))
    assert got.tolist() == _brute_top_k(queries, chunks, k, everything)
    masked = top_k(queries, chunks, k, allowed=allowed, block_elements=block)
    assert masked.shape == (len(queries), min(k, int(allowed.sum())))
    assert masked.tolist() == _brute_top_k(queries, chunks, k, allowed)


@settings(max_examples=150, deadline=None)
@given(case=_retrieval_case(), data=st.data())
def test_top_k_by_document_against_brute_force_sort(
    case: tuple[np.ndarray, np.ndarray, int, np.ndarray, int], data: st.DataObject
) -> None:
    queries, chunks, k, _, block = case
    documents = st.sampled_from(["x", "y", "z"])
    query_documents = data.draw(st.lists(documents, min_size=len(queries), max_size=len(queries)))
    chunk_documents = data.draw(st.lists(documents, min_size=len(chunks), max_size=len(chunks)))
    got = top_k_by_document(
        queries, query_documents, chunks, chunk_documents, k, block_elements=block
    )
    assert len(got) == len(queries)
    for row, (query, document) in enumerate(zip(queries, query_documents, strict=True)):
        own = np.array([d == document for d in chunk_documents], dtype=np.bool_)
        assert got[row].dtype == np.int64
        assert got[row].tolist() == _brute_top_k(query[None, :], chunks, k, own)[0]


def test_top_k_of_normalized_vectors_is_their_cosine_ranking() -> None:
    rng = np.random.default_rng(7)
    queries = rng.normal(size=(50, 16)).astype(np.float32)
    chunks = rng.normal(size=(2_000, 16)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    chunks /= np.linalg.norm(chunks, axis=1, keepdims=True)
    cosine = queries.astype(np.float64) @ chunks.astype(np.float64).T
    expected = np.argsort(-cosine, axis=1, kind="stable")[:, :10]
    got = top_k(queries, chunks, 10, block_elements=5_000)
    assert (got == expected).all()
    assert (top_k(queries, chunks, 10) == got).all()


def test_top_k_ties_go_to_the_lower_index() -> None:
    chunks = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    assert top_k(np.array([[1.0, 0.0]]), chunks, 4).tolist() == [[1, 2, 4, 0]]
    assert top_k(np.array([[1.0, 0.0]]), chunks, 2, block_elements=1).tolist() == [[1, 2]]


def test_top_k_rejects_bad_inputs() -> None:
    good = np.zeros((2, 3))
    with pytest.raises(ValueError, match="dimensions differ"):
        top_k(good, np.zeros((4, 2)), 1)
    with pytest.raises(ValueError, match="2-D"):
        top_k(np.zeros(3), good, 1)
    with pytest.raises(ValueError, match="NaN"):
        top_k(good, np.full((4, 3), np.nan), 1)
    with pytest.raises(ValueError, match="boolean mask"):
        top_k(good, np.zeros((4, 3)), 1, allowed=np.ones(3, dtype=np.bool_))
    with pytest.raises(ValueError, match="k must be"):
        top_k(good, good, -1)


# -- token budgets --


def test_token_budget_takes_a_prefix_within_the_budget() -> None:
    tokens = [100, 200, 50, 10]  # -- indexed by chunk --
    assert token_budget_prefix([0, 1, 2], tokens, 300) == (0, 1)
    assert token_budget_prefix([0, 1, 2], tokens, 350) == (0, 1, 2)
    assert token_budget_prefix([2, 3, 0], tokens, 160) == (2, 3, 0)
    assert token_budget_prefix(np.array([2, 3, 0]), np.array(tokens), 159) == (2, 3)


def test_token_budget_always_takes_one_and_stops_at_the_first_misfit() -> None:
    tokens = [100, 300, 10]
    assert token_budget_prefix([1, 0], tokens, 50) == (1,)
    assert token_budget_prefix([0, 1, 2], tokens, 150) == (0,)  # -- chunk 2 would fit: not taken
    assert token_budget_prefix([], tokens, 150) == ()
    with pytest.raises(ValueError, match="budget"):
        token_budget_prefix([0], tokens, -1)
    with pytest.raises(ValueError, match="token counts"):
        token_budget_prefix([0], [-3], 10)


def test_ranked_retrieval_within_a_token_budget() -> None:
    question = RankedRetrieval((a(0, 10),), (a(0, 5), a(5, 10), a(10, 20)), (30, 30, 30))
    assert question.within_token_budget(70).retrieved == (a(0, 5), a(5, 10))
    assert question.within_token_budget(0).tokens == (30,)
    with pytest.raises(ValueError, match="one token count"):
        RankedRetrieval((), (a(0, 1),), ())


# -- the curve --


def test_span_curve_by_hand() -> None:
    first = RankedRetrieval((a(0, 10),), (a(0, 10), a(10, 20)), (4, 6))
    second = RankedRetrieval((a(0, 10),), (a(20, 30), a(0, 5), a(5, 10)), (2, 2, 2))
    got = span_curve([first, second], 3)
    assert [p.k for p in got] == [1, 2, 3]
    assert got[0] == CurvePoint(k=1, mean_tokens=3.0, recall=0.5, precision=0.5, iou=0.5)
    # -- k=2: first covers 10 of 20 retrieved (precision, IoU 1/2); second 5 of 10 + 5
    # -- retrieved (precision 5/15, IoU 5/(15 + 5)) --
    assert astuple(got[1]) == pytest.approx(
        (2, 7.0, 0.75, (1 / 2 + 1 / 3) / 2, (1 / 2 + 1 / 4) / 2)
    )
    # -- k=3: first keeps its two chunks; second covers 10 of 20 --
    assert astuple(got[2]) == pytest.approx((3, 8.0, 1.0, 0.5, 0.5))
    with pytest.raises(ValueError, match="max_k"):
        span_curve([first], 0)


# -- paired bootstrap --


def test_bootstrap_is_deterministic_for_a_seed() -> None:
    rng = np.random.default_rng(3)
    a_scores, b_scores = rng.random(120), rng.random(120)
    once = paired_bootstrap(a_scores, b_scores, iterations=2_000, seed=11)
    assert paired_bootstrap(a_scores, b_scores, iterations=2_000, seed=11) == once
    assert paired_bootstrap(a_scores, b_scores, iterations=2_000, seed=12) != once
    assert isinstance(once, PairedBootstrap)
    mean, low, high, p = once
    assert low < mean < high
    assert 0.0 < p <= 1.0


def test_bootstrap_of_a_constant_difference() -> None:
    base = np.linspace(0.0, 0.8, 50)
    mean, low, high, p = paired_bootstrap(base + 0.1, base, iterations=1_000)
    assert (mean, low, high) == pytest.approx((0.1, 0.1, 0.1))
    assert p == 1 / 1_001


def test_bootstrap_of_identical_runs() -> None:
    scores = [0.2, 0.9, 0.4]
    assert paired_bootstrap(scores, scores) == PairedBootstrap(0.0, 0.0, 0.0, 1.0)


def test_bootstrap_of_a_known_noisy_difference() -> None:
    rng = np.random.default_rng(5)
    b_scores = rng.random(400)
    a_scores = b_scores + 0.05 + rng.normal(0.0, 0.1, 400)
    mean, low, high, p = paired_bootstrap(a_scores, b_scores)
    spread = 1.96 * np.std(a_scores - b_scores) / np.sqrt(400)
    assert low == pytest.approx(mean - spread, abs=0.003)
    assert high == pytest.approx(mean + spread, abs=0.003)
    assert low > 0.0
    assert p == 1 / 10_001  # -- about 10 standard errors from 0 --
    # -- no difference on average: noise and its mirror image --
    noise = rng.normal(0.0, 0.1, 200)
    mean, low, high, p = paired_bootstrap(b_scores + np.concatenate([noise, -noise]), b_scores)
    assert mean == pytest.approx(0.0, abs=1e-12)
    assert low < 0.0 < high
    assert p > 0.9


def test_bootstrap_rejects_bad_inputs() -> None:
    with pytest.raises(ValueError, match="same non-zero length"):
        paired_bootstrap([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="same non-zero length"):
        paired_bootstrap([], [])
    with pytest.raises(ValueError, match="finite"):
        paired_bootstrap([1.0, np.nan], [1.0, 2.0])
    with pytest.raises(ValueError, match="iterations"):
        paired_bootstrap([1.0], [2.0], iterations=0)
