"""Chroma's character-span metrics (`partita.evaluation._spans`): hand-computed cases for each
figure and quirk, and a property test against a brute-force implementation over character sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import astuple
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partita.evaluation._spans import (
    CorpusChunks,
    OmegaScore,
    Span,
    SpanOverlap,
    SpanScores,
    chroma_adaptive_depths,
    precision_omega,
    span_overlap,
    span_scores,
    summarize_span_scores,
)


def a(start: int, end: int) -> Span:
    return Span("a", start, end)


def b(start: int, end: int) -> Span:
    return Span("b", start, end)


# -- recall, precision, IoU of retrieved chunks --


def test_touching_chunks_cover_a_reference_whole() -> None:
    assert span_overlap([a(0, 10)], [a(0, 5), a(5, 10)]) == SpanOverlap(1.0, 1.0, 1.0)


def test_characters_under_two_chunks_are_covered_once_but_retrieved_twice() -> None:
    # -- covered [0,10) once: 10; retrieved 6 + 6 = 12 (quirk 3) --
    got = span_overlap([a(0, 10)], [a(0, 6), a(4, 10)])
    assert got == SpanOverlap(recall=1.0, precision=10 / 12, iou=10 / 12)


def test_a_partial_chunk_and_a_chunk_far_away() -> None:
    # -- covered [15,20): 5; retrieved 10 + 10; uncovered [10,15): 5 --
    got = span_overlap([a(10, 20)], [a(15, 25), a(40, 50)])
    assert got == SpanOverlap(recall=0.5, precision=5 / 20, iou=5 / 25)


def test_a_chunk_of_another_corpus_counts_only_as_retrieved_text() -> None:
    got = span_overlap([a(0, 10)], [b(0, 10), a(0, 5)])
    assert got == SpanOverlap(recall=0.5, precision=5 / 15, iou=5 / (15 + 5))


def test_empty_retrieval_scores_zero() -> None:
    assert span_overlap([a(0, 10)], []) == SpanOverlap(0.0, 0.0, 0.0)


def test_no_references_scores_zero() -> None:
    assert span_overlap([], [a(0, 10)]) == SpanOverlap(0.0, 0.0, 0.0)


def test_a_reference_spanning_two_chunks() -> None:
    reference = [a(8, 14)]
    # -- one of its two chunks: covered [10,14) --
    assert span_overlap(reference, [a(10, 20)]) == SpanOverlap(4 / 6, 4 / 10, 4 / (10 + 2))
    # -- both --
    assert span_overlap(reference, [a(10, 20), a(0, 10)]) == SpanOverlap(1.0, 6 / 20, 6 / 20)


def test_a_chunk_only_touching_a_reference_covers_nothing() -> None:
    assert span_overlap([a(5, 10)], [a(0, 5), a(10, 15)]) == SpanOverlap(0.0, 0.0, 0.0)


def test_a_repeated_reference_counts_twice_in_the_denominators() -> None:
    # -- quirk 2: recall's denominator is 10 + 10 --
    assert span_overlap([a(0, 10), a(0, 10)], [a(0, 10)]) == SpanOverlap(0.5, 1.0, 1.0)
    # -- uncovered pieces [5,10) twice: IoU 5 / (5 + 10), not 5 / 10 --
    assert span_overlap([a(0, 10), a(0, 10)], [a(0, 5)]) == SpanOverlap(5 / 20, 1.0, 5 / 15)


def test_a_chunk_retrieved_twice_counts_twice_as_retrieved() -> None:
    assert span_overlap([a(0, 10)], [a(0, 10), a(0, 10)]) == SpanOverlap(1.0, 0.5, 0.5)


def test_references_of_two_corpora_are_summed() -> None:
    assert span_overlap([a(0, 10), b(0, 10)], [a(0, 10)]) == SpanOverlap(0.5, 1.0, 0.5)


def test_rank_order_does_not_matter() -> None:
    chunks = [a(3, 9), b(0, 4), a(12, 30), a(0, 2)]
    assert span_overlap([a(1, 15)], chunks) == span_overlap([a(1, 15)], chunks[::-1])


# -- precision_Ω --


def test_precision_omega_of_a_reference_spanning_two_chunks() -> None:
    chunks = CorpusChunks([a(0, 10), a(10, 20), a(20, 30), b(0, 30)])
    # -- highlighted [0,10) and [10,20): 6 / 20 --
    assert precision_omega([a(8, 14)], chunks) == OmegaScore(6 / 20, 2)


def test_precision_omega_counts_touching_chunks() -> None:
    # -- quirk 1: [0,5) and [10,15) touch [5,10), so they join the denominator --
    chunks = CorpusChunks([a(0, 5), a(5, 10), a(10, 15)])
    assert precision_omega([a(5, 10)], chunks) == OmegaScore(5 / 15, 3)


def test_precision_omega_divides_by_the_uncovered_reference_too() -> None:
    # -- covered [2,4) [6,8); the gap [4,6) is uncovered: 4 / |[0,10)| --
    chunks = CorpusChunks([a(0, 4), a(6, 10)])
    assert precision_omega([a(2, 8)], chunks) == OmegaScore(4 / 10, 2)


def test_precision_omega_unions_overlapping_and_repeated_chunks() -> None:
    chunks = CorpusChunks([a(0, 6), a(4, 10), a(4, 10), a(30, 40)])
    assert precision_omega([a(2, 8)], chunks) == OmegaScore(6 / 10, 3)


def test_precision_omega_without_a_meeting_chunk_is_zero() -> None:
    chunks = CorpusChunks([a(0, 5), b(10, 20)])
    assert precision_omega([a(10, 20)], chunks) == OmegaScore(0.0, 0)
    assert precision_omega([], chunks) == OmegaScore(0.0, 0)
    assert precision_omega([a(10, 20)], CorpusChunks([])) == OmegaScore(0.0, 0)


def test_precision_omega_with_only_empty_ranges_is_zero() -> None:
    # -- theirs divides by zero here (quirk 6) --
    assert precision_omega([a(5, 5)], CorpusChunks([a(5, 5)])) == OmegaScore(0.0, 1)


def test_span_scores_combines_both() -> None:
    chunks = CorpusChunks([a(0, 10), a(10, 20), a(20, 30)])
    got = span_scores([a(8, 14)], [a(10, 20)], chunks)
    assert got == SpanScores(recall=4 / 6, precision=4 / 10, iou=4 / 12, precision_omega=6 / 20)


# -- over questions --


def test_the_summary_averages_questions_not_characters() -> None:
    chunks = CorpusChunks([a(0, 10), a(10, 100)])
    short = span_scores([a(0, 10)], [a(0, 10)], chunks)
    long = span_scores([a(10, 100)], [], chunks)
    summary = summarize_span_scores([short, long])
    assert summary.questions == 2
    assert summary.mean.recall == 0.5  # -- pooled characters would give 10 / 100 --
    assert summary.std.recall == 0.5
    # -- the two chunks touch at 10 (quirk 1): precision_Ω is 10 / 100, then 90 / 100 --
    assert summary.mean.precision_omega == pytest.approx(0.5)
    assert summary.std.precision_omega == pytest.approx(0.4)
    with pytest.raises(ValueError, match="no questions"):
        summarize_span_scores([])


def test_chroma_adaptive_depths() -> None:
    assert chroma_adaptive_depths([3, 25, 0]) == (3, 20, 0)
    assert chroma_adaptive_depths([3, 7]) == (3, 7)
    assert chroma_adaptive_depths([]) == ()


@pytest.mark.parametrize(("start", "end"), [(-1, 3), (5, 4)])
def test_a_span_is_ordered_and_non_negative(start: int, end: int) -> None:
    with pytest.raises(ValueError, match="0 <= start <= end"):
        Span("a", start, end)


def test_a_span_has_a_length_and_is_truthy_when_empty() -> None:
    assert a(3, 9).length == 6
    assert a(4, 4)


# -- against brute force over character sets --

Chars = set[tuple[str, int]]


def _chars(spans: Sequence[Span]) -> Chars:
    return {(s.corpus, i) for s in spans for i in range(s.start, s.end)}


def _meets(x: Span, y: Span) -> bool:
    """Chroma's test (quirk 1): same corpus, and the closed ranges share a point."""
    return x.corpus == y.corpus and x.start <= y.end and y.start <= x.end


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else 0.0


def _brute_overlap(references: Sequence[Span], retrieved: Sequence[Span]) -> SpanOverlap:
    retrieved_chars = _chars(retrieved)
    covered = len(_chars(references) & retrieved_chars)
    summed_retrieved = sum(s.end - s.start for s in retrieved)
    uncovered = sum(len(_chars([r]) - retrieved_chars) for r in references)
    return SpanOverlap(
        recall=_ratio(covered, sum(r.end - r.start for r in references)),
        precision=_ratio(covered, summed_retrieved),
        iou=_ratio(covered, summed_retrieved + uncovered),
    )


def _brute_omega(references: Sequence[Span], chunks: Sequence[Span]) -> OmegaScore:
    highlighted = [c for c in chunks if any(_meets(c, r) for r in references)]
    highlighted_chars, reference_chars = _chars(highlighted), _chars(references)
    covered = len(highlighted_chars & reference_chars)
    omega = _ratio(covered, len(highlighted_chars | reference_chars)) if highlighted else 0.0
    return OmegaScore(omega, len(highlighted))


def _span(corpora: Sequence[str]) -> st.SearchStrategy[Span]:
    return st.builds(
        lambda corpus, start, length: Span(corpus, start, start + length),
        st.sampled_from(corpora),
        st.integers(0, 40),
        st.integers(0, 12),
    )


@st.composite
def _tiling(draw: st.DrawFn) -> list[Span]:
    """Chunks cutting corpora a and b in order, with gaps and overlaps, and a few strays."""
    steps = st.tuples(st.integers(0, 10), st.integers(-3, 2))
    chunks: list[Span] = []
    for corpus in ("a", "b"):
        position = 0
        for length, shift in draw(st.lists(steps, min_size=1, max_size=10)):
            chunks.append(Span(corpus, position, position + length))
            position = max(position + 1, position + length + shift)
    chunks += draw(st.lists(_span(("a", "b")), max_size=3))
    return draw(st.permutations(chunks))


@settings(max_examples=300, deadline=None)
@given(
    references=st.lists(_span(("a", "a", "b")), max_size=4),
    chunks=_tiling(),
    picks=st.lists(st.integers(0, 10_000), max_size=7),
)
def test_against_brute_force_character_sets(
    references: list[Span], chunks: list[Span], picks: list[int]
) -> None:
    retrieved = [chunks[p % len(chunks)] for p in picks]
    assert astuple(span_overlap(references, retrieved)) == pytest.approx(
        astuple(_brute_overlap(references, retrieved))
    )
    assert astuple(precision_omega(references, CorpusChunks(chunks))) == pytest.approx(
        astuple(_brute_omega(references, chunks))
    )


@settings(max_examples=200, deadline=None)
@given(cuts=st.lists(st.integers(0, 60), min_size=2, max_size=12, unique=True), data=st.data())
def test_without_quirks_the_figures_are_the_textbook_ones(
    cuts: list[int], data: st.DataObject
) -> None:
    """Disjoint references, disjoint retrieved chunks of the same corpus: plain set ratios."""
    bounds = sorted(cuts)
    pieces = [a(x, y) for x, y in pairwise(bounds)]
    references = data.draw(st.lists(st.sampled_from(pieces), unique=True))
    retrieved = data.draw(st.lists(st.sampled_from(pieces), unique=True))
    r, c = _chars(references), _chars(retrieved)
    both = len(r & c)
    expected = (_ratio(both, len(r)), _ratio(both, len(c)), _ratio(both, len(r | c)))
    assert astuple(span_overlap(references, retrieved)) == pytest.approx(expected)
