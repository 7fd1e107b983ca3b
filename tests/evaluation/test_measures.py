"""Intrinsic figures, the decision tree and the comparison of two runs, on small real cases."""

from __future__ import annotations

import numpy as np
import pytest

from partita.elements import CodeSnippet, CompositeElement, ElementMetadata, NarrativeText, Title
from partita.embeddings import hashing_embedder
from partita.evaluation.compare import compare_results, comparison_to_markdown
from partita.evaluation.intrinsic import (
    boundary_quality,
    distribution,
    histogram,
    is_mid_sentence,
    orphaned_headings,
    semantic_coherence,
)
from partita.evaluation.recommend import profile_documents, recommend


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


def test_the_decision_tree_reads_the_documents() -> None:
    code = [[CodeSnippet("def f(): pass")]]
    assert recommend(profile_documents(code))["strategy"] == "code"
    titled = [[Title("A"), NarrativeText("x"), Title("B"), NarrativeText("y")]]
    assert recommend(profile_documents(titled))["strategy"] == "headings"
    paragraphs = [[NarrativeText(f"p{i}") for i in range(8)]]
    assert recommend(profile_documents(paragraphs))["strategy"] == "recursive"
    flat = [[NarrativeText("one block")]]
    assert recommend(profile_documents(flat))["strategy"] == "sentence"
    assert recommend(profile_documents(flat), priority="speed")["strategy"] == "token"
    with pytest.raises(ValueError, match="priority"):
        recommend(profile_documents(flat), priority="cheap")


def measured(name: str, recall: float, tokens: int, iou: float = 0.05) -> dict[str, object]:
    scores = {"recall": recall, "iou": iou}
    return {
        "name": name,
        "strategy": name.split(":")[0],
        "options": {},
        "retrieval": {"top_k": scores, "token_budget": scores, "per_question": []},
        "efficiency": {"tokens_to_embed": tokens},
    }


def test_measurements_pick_among_the_best_recalls_the_tree_s_or_the_best_iou() -> None:
    profile = profile_documents([[NarrativeText("x")]])  # -- the tree says "sentence" --
    entries = [measured("token:a", 0.80, 900, iou=0.06), measured("recursive:b", 0.80, 500)]
    assert recommend(profile, entries)["configuration"] == "token:a"  # -- better IoU --
    entries.append(measured("sentence:c", 0.795, 700, iou=0.01))
    picked = recommend(profile, entries)
    assert picked["configuration"] == "sentence:c"  # -- within a point, and the tree's --
    assert "what the tree picks" in picked["reasons"][-1]
    entries.append(measured("headings:d", 0.85, 2000))
    assert recommend(profile, entries)["configuration"] == "headings:d"


def run_with(recalls: list[float]) -> dict[str, object]:
    per_question = [
        {"id": f"q{i}", "recall": r, "iou": r / 10, "precision": r / 5, "reciprocal_rank": r}
        for i, r in enumerate(recalls)
    ]
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
