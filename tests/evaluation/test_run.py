"""evaluate() end to end on the bundled tiny corpus, with a deterministic embedder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import partita
from partita.embeddings import hashing_embedder
from partita.evaluation._configurations import parse_configuration
from partita.evaluation._documents import document_text
from partita.evaluation._questions import read_questions
from partita.evaluation._run import evaluate

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "evaluation"
CONFIGS = [
    "token:max_tokens=30,overlap=10,tokenizer=cl100k_base",
    "by_title:max_characters=400",
    "headings:max_tokens=80,tokenizer=cl100k_base",
]


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    documents = [document_text(p, partita.partition(p)) for p in sorted(CORPUS.glob("*.md"))]
    questions = read_questions(CORPUS / "questions.jsonl", {d.name: d.text for d in documents})
    return evaluate(
        documents,
        [parse_configuration(c) for c in CONFIGS],
        questions=questions,
        embedder=hashing_embedder(),
        k=3,
        curve_k=5,
    )


def test_every_configuration_is_measured(results: dict[str, Any]) -> None:
    assert [c["name"] for c in results["configurations"]] == CONFIGS
    assert results["questions"] == 9
    assert results["token_budget"] == 750
    assert [d["alignment"] for d in results["documents"]] == [1.0, 1.0, 1.0]
    for entry in results["configurations"]:
        intrinsic = entry["intrinsic"]
        assert intrinsic["chunks"] == sum(intrinsic["histogram"]["counts"]) > 3
        assert 0 < intrinsic["tokens"]["mean"] <= intrinsic["tokens"]["max"]
        assert 0 <= intrinsic["coherence"] <= 1
        assert 0 <= intrinsic["boundary_quality"] <= 2
        assert entry["unplaced_chunks"] == 0
        retrieval = entry["retrieval"]
        assert len(retrieval["per_question"]) == 9
        assert [p["k"] for p in retrieval["curve"]] == [1, 2, 3, 4, 5]
        top = retrieval["top_k"]
        assert 0.5 <= top["recall"] <= 1
        assert top["hit_rate"] >= top["mrr"] > 0
    json.dumps(results)  # -- plain data --


def test_token_windows_respect_their_size_and_by_title_its_characters(
    results: dict[str, Any],
) -> None:
    token, by_title, headings = results["configurations"]
    assert token["intrinsic"]["tokens"]["max"] <= 30
    assert by_title["intrinsic"]["characters"]["max"] <= 400
    assert headings["intrinsic"]["tokens"]["max"] <= 80
    assert token["intrinsic"]["mid_sentence_share"] > headings["intrinsic"]["mid_sentence_share"]


def test_recall_grows_with_k_and_retrieved_tokens(results: dict[str, Any]) -> None:
    for entry in results["configurations"]:
        curve = entry["retrieval"]["curve"]
        recalls = [p["recall"] for p in curve]
        tokens = [p["retrieved_tokens"] for p in curve]
        assert recalls == sorted(recalls)
        assert tokens == sorted(tokens)


def test_the_recommendation_is_a_measured_configuration_and_quotes_its_figures(
    results: dict[str, Any],
) -> None:
    recommendation = results["recommendation"]
    assert recommendation["configuration"] in CONFIGS
    assert recommendation["basis"] == "retrieval"
    chosen = next(
        c for c in results["configurations"] if c["name"] == recommendation["configuration"]
    )
    # -- ranked at the matched budget of characters (k x 800 by default) --
    assert results["character_budget"] == 3 * 800
    recall = chosen["retrieval"]["character_budget"]["recall"]
    assert f"{recall * 100:.1f}%" in recommendation["reasons"][0]
    assert "within 2,400 retrieved characters" in recommendation["reasons"][0]
    # -- the hashing embedder declares no window: said, not silently skipped --
    assert "declares no window" in recommendation["reasons"][-1]
    assert not any("seed" in r or "tree" in r for r in recommendation["reasons"])


def test_per_question_scores_carry_the_question_text(results: dict[str, Any]) -> None:
    lines = (CORPUS / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    asked = [json.loads(line)["question"] for line in lines]
    for entry in results["configurations"]:
        per_question = entry["retrieval"]["per_question"]
        assert [q["question"] for q in per_question] == asked
        assert all(0 <= q["recall_at_token_budget"] <= 1 for q in per_question)


def test_without_an_embedder_only_intrinsic_figures_are_measured() -> None:
    documents = [document_text(p, partita.partition(p)) for p in sorted(CORPUS.glob("*.md"))]
    plain = evaluate(documents, [parse_configuration(CONFIGS[1])])
    (entry,) = plain["configurations"]
    assert entry["retrieval"] is None
    assert entry["intrinsic"]["coherence"] is None
    assert plain["embedding"] is None
    assert plain["recommendation"]["configuration"] is None
    assert "retrieval was not measured" in plain["recommendation"]["reasons"][0]


def test_long_embedding_work_reports_its_progress() -> None:
    from partita.evaluation._run import EMBEDDING_BATCH, _embedded

    embedder = hashing_embedder()
    texts = [f"passage {i} about topic {i % 7}" for i in range(EMBEDDING_BATCH * 2 + 5)]
    messages: list[str] = []
    batched = _embedded(embedder, texts, messages.append)
    assert messages[-1] == f"  embedded {len(texts):,} of {len(texts):,}"
    assert len(messages) == 3
    assert (batched == _embedded(embedder, texts, None)).all()


def test_a_character_budget_takes_the_ranked_chunks_that_fit_it() -> None:
    documents = [document_text(p, partita.partition(p)) for p in sorted(CORPUS.glob("*.md"))]
    questions = read_questions(CORPUS / "questions.jsonl", {d.name: d.text for d in documents})
    configuration = parse_configuration("by_title:profile=retrieval,max_tokens=60")
    measured = evaluate(
        documents,
        [configuration],
        questions=questions,
        embedder=hashing_embedder(),
        k=3,
        character_budget=600,
    )
    assert measured["character_budget"] == 600
    (entry,) = measured["configurations"]
    within = entry["retrieval"]["character_budget"]
    assert 0 < within["retrieved_characters"] <= 600 + entry["intrinsic"]["characters"]["max"]
    assert 0 <= within["recall"] <= 1
    per_question = entry["retrieval"]["per_question"]
    assert all(0 <= q["recall_at_character_budget"] <= 1 for q in per_question)
    mean = sum(q["recall_at_character_budget"] for q in per_question) / len(per_question)
    assert mean == pytest.approx(within["recall"])
