"""Intrinsic figures and the comparison of two runs, on small real cases."""

from __future__ import annotations

import numpy as np
import pytest

from partita.elements import CompositeElement, ElementMetadata, NarrativeText, Title
from partita.embeddings import hashing_embedder
from partita.evaluation._compare import ComparisonError, compare_results, comparison_to_markdown
from partita.evaluation._intrinsic import (
    boundary_quality,
    distribution,
    histogram,
    is_mid_sentence,
    orphaned_headings,
    semantic_coherence,
)


def chunk(text: str, *records: tuple[str, int, int]) -> CompositeElement:
    sources = [{"element_id": e, "start": s, "end": t, "offset": 0} for e, s, t in records]
    return CompositeElement(text, metadata=ElementMetadata(extra={"sources": sources}))


def test_distribution_and_histogram() -> None:
    assert distribution([4, 1, 3, 2]) == {"mean": 2.5, "median": 2.5, "p95": 4.0, "max": 4}
    assert distribution(list(range(1, 101)))["p95"] == 95.0
    assert distribution([]) == {"mean": 0.0, "median": 0.0, "p95": 0.0, "max": 0}
    shape = histogram([0, 5, 10, 10], bins=2)
    assert shape["edges"] == [0, 5.0, 10.0]
    assert shape["counts"] == [1, 3]


def test_a_chunk_ends_mid_sentence_unless_at_an_element_end_or_a_sentence_end() -> None:
    body = NarrativeText("One sentence here. Another one follows", element_id="b")
    by_id = {"b": body}
    assert is_mid_sentence(chunk("One sentence here. Another", ("b", 0, 26)), by_id)
    assert not is_mid_sentence(chunk("One sentence here.", ("b", 0, 18)), by_id)
    assert not is_mid_sentence(chunk(body.text, ("b", 0, len(body.text))), by_id)
    assert not is_mid_sentence(chunk("他说：“好。”"), by_id)


def test_an_orphaned_heading_ends_a_chunk_whose_next_one_holds_its_body() -> None:
    title = Title("Safety", element_id="t")
    by_id = {"t": title, "b": NarrativeText("Wear a helmet.", element_id="b")}
    first = chunk("Intro.\n\nSafety", ("b", 0, 6), ("t", 0, 6))
    second = chunk("Wear a helmet.", ("b", 0, 14))
    assert orphaned_headings([first, second], by_id) == 1
    assert orphaned_headings([second, first], by_id) == 0  # -- nothing follows it --


def test_coherence_and_boundary_quality_follow_their_definitions() -> None:
    embed = hashing_embedder()
    same = CompositeElement("Tea is hot. Tea is hot. Tea is hot.")
    mixed = CompositeElement("Tea is hot. Volcanoes erupt ash.")
    assert semantic_coherence([same], embed) == pytest.approx(1.0, abs=1e-5)
    assert semantic_coherence([mixed], embed) < 0.5
    assert semantic_coherence([CompositeElement("One sentence.")], embed) == 1.0
    vectors = embed(["tea leaves", "tea leaves", "volcano ash"])
    assert boundary_quality([vectors[:2]]) == pytest.approx(0.0, abs=1e-6)
    assert boundary_quality([vectors[1:]]) == pytest.approx(1.0, abs=1e-6)
    assert boundary_quality([vectors[:1]]) is None
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)


def run_with(recalls: list[float], questions: list[str] | None = None) -> dict[str, object]:
    texts = questions or [f"question {i}" for i in range(len(recalls))]
    per_question = [
        {"id": f"q{i:04d}", "question": text, "recall": r, "iou": r / 10, "precision": r / 5,
         "reciprocal_rank": r}
        for i, (text, r) in enumerate(zip(texts, recalls, strict=True), start=1)
    ]  # fmt: skip
    return {"configurations": [{"name": "c", "retrieval": {"per_question": per_question}}]}


def test_two_runs_compare_question_by_question() -> None:
    a = run_with([0.2, 0.4, 0.6, 0.8] * 10)
    b = run_with([0.3, 0.5, 0.7, 0.9] * 10)
    rows = compare_results(a, b, iterations=2000)
    recall = next(r for r in rows if r["figure"] == "recall")
    assert recall["difference"] == pytest.approx(0.1)
    assert recall["ci_low"] == pytest.approx(0.1)
    assert recall["p_value"] < 0.01
    assert "| recall |" in comparison_to_markdown(rows)
    same = next(r for r in compare_results(a, a, iterations=500) if r["figure"] == "recall")
    assert same["difference"] == 0
    assert same["p_value"] == 1.0


def test_questions_pair_by_their_text_not_their_place() -> None:
    texts = [f"question {i}" for i in range(40)]
    score = {text: [0.2, 0.4, 0.6, 0.8][i % 4] for i, text in enumerate(texts)}
    a = run_with([score[t] for t in texts], texts)
    # -- B asks the same questions in another order, each scored as in A: no difference --
    reordered = texts[1::2] + texts[0::2]
    b = run_with([score[t] for t in reordered], reordered)
    recall = next(r for r in compare_results(a, b, iterations=500) if r["figure"] == "recall")
    assert recall["questions"] == 40
    assert recall["difference"] == 0
    assert recall["p_value"] == 1.0
    assert recall["ci_low"] == recall["ci_high"] == 0


def test_runs_of_other_questions_are_refused() -> None:
    four = run_with([0.5] * 4, [f"question {i}" for i in range(4)])
    nine = run_with([0.9] * 9, [f"question {i}" for i in range(9)])
    with pytest.raises(ComparisonError, match=r"4 in A, 9 in B, 4 in both"):
        compare_results(four, nine)
    other = run_with([0.5] * 4, [f"other {i}" for i in range(4)])
    with pytest.raises(ComparisonError, match=r"0 in both"):
        compare_results(four, other)
    old = {"configurations": [{"name": "c", "retrieval": {"per_question": [{"id": "q0001"}]}}]}
    with pytest.raises(ComparisonError, match="no question texts"):
        compare_results(old, four)
    with pytest.raises(ComparisonError, match="no retrieval scores"):
        compare_results({"configurations": [{"name": "c", "retrieval": None}]}, four)
