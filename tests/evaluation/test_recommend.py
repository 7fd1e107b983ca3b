"""The recommendation: only measured configurations, for reasons in measured figures.

The entries are results as `evaluate` writes them (plain data), cut to the fields the
recommendation reads; the last test runs the whole evaluation with all-MiniLM-L6-v2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from partita.evaluation._recommend import recommend
from tests.shared import require_module

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "evaluation"


def entry(
    name: str,
    recall: float | None,
    *,
    over: float | None = 0.0,
    iou: float = 0.05,
    tokens: int = 1000,
    per_question: list[float] | None = None,
) -> dict[str, Any]:
    scores = None if recall is None else {"recall": recall, "iou": iou}
    rows = [
        {"id": f"q{i:04d}", "question": f"question {i}", "recall_at_token_budget": r}
        for i, r in enumerate(per_question or [], start=1)
    ]
    return {
        "name": name,
        "strategy": name.split(":")[0],
        "options": {"max_tokens": 200},
        "intrinsic": {"tokens": {"over_window_share": over}},
        "retrieval": None
        if scores is None
        else {"top_k": scores, "token_budget": scores, "per_question": rows},
        "efficiency": {"tokens_to_embed": tokens},
    }


def test_the_best_recall_at_the_budget_wins_and_the_reason_quotes_it() -> None:
    entries = [entry("recursive:a", 0.55), entry("sentence:b", 0.62), entry("token:c", 0.40)]
    picked = recommend(entries, k=5, token_budget=1250, window_tokens=256)
    assert picked["configuration"] == "sentence:b"
    assert picked["basis"] == "retrieval"
    assert picked["strategy"] == "sentence"
    assert picked["options"] == {"max_tokens": 200}
    assert picked["reasons"] == [
        "it found the most of the answers' text: recall 62.0% within 1,250 retrieved tokens,"
        " vs 55.0% for recursive:a (the next best)",
        "0% of its chunks exceed the embedder's 256-token window",
    ]
    assert picked["excluded"] == []


def test_a_configuration_over_the_window_is_excluded_and_says_so() -> None:
    entries = [
        entry("headings:max_tokens=384", 0.70, over=0.345),
        entry("sentence:b", 0.62, over=0.004),
    ]
    picked = recommend(entries, k=5, token_budget=1250, window_tokens=256)
    assert picked["configuration"] == "sentence:b"
    assert picked["excluded"] == [
        {
            "configuration": "headings:max_tokens=384",
            "reason": "34.5% of its chunks exceed the embedder's 256-token window"
            " (their ends go unread)",
        }
    ]
    assert picked["reasons"][0] == (
        "recall 62.0% within 1,250 retrieved tokens; it is the only configuration eligible"
    )
    assert picked["reasons"][-1] == "0.4% of its chunks exceed the embedder's 256-token window"
    nothing = recommend(entries[:1], k=5, token_budget=1250, window_tokens=256)
    assert nothing["configuration"] is None
    assert nothing["reasons"] == ["no configuration measured fits the embedding model's window"]


def test_a_near_tie_is_broken_by_iou_or_by_tokens_to_embed() -> None:
    entries = [
        entry("token:a", 0.800, iou=0.06, tokens=900),
        entry("recursive:b", 0.795, iou=0.08, tokens=1200),
        entry("sentence:c", 0.700, iou=0.20, tokens=100),
    ]
    precise = recommend(entries, token_budget=1250, window_tokens=256)
    assert precise["configuration"] == "recursive:b"
    assert precise["reasons"][0] == (
        "its recall within 1,250 retrieved tokens, 79.5%, is within 1 point of the best"
        " (80.0%, token:a); of those it retrieves the least other text around the answers"
        " (IoU 8.0% vs 6.0%, within 1,250 retrieved tokens)"
    )
    fast = recommend(entries, token_budget=1250, window_tokens=256, priority="speed")
    assert fast["configuration"] == "token:a"
    assert "fewest tokens to embed (900 vs 1,200)" in fast["reasons"][0]
    entries[0]["retrieval"]["token_budget"]["iou"] = 0.09  # -- the top recall, and best IoU --
    top = recommend(entries, token_budget=1250)
    assert top["configuration"] == "token:a"
    assert top["reasons"][0].startswith(
        "it found the most of the answers' text, recall 80.0% within 1,250 retrieved tokens,"
        " but another configuration comes within 1 point (recursive:b: 79.5%); of those it"
        " retrieves the least other text around the answers (IoU 9.0% vs 8.0%"
    )
    with pytest.raises(ValueError, match="priority"):
        recommend(entries, priority="cheap")


def test_whether_a_lead_could_be_chance_is_said() -> None:
    steady = recommend(
        [
            entry("a", 0.9, per_question=[0.9] * 30),
            entry("b", 0.5, per_question=[0.5] * 30),
        ],
        token_budget=1250,
    )
    assert steady["reasons"][1].startswith("the lead holds over the 30 questions")
    noisy = recommend(
        [
            entry("a", 0.55, per_question=[1.0, 0.0, 1.0, 0.2]),
            entry("b", 0.45, per_question=[0.0, 1.0, 0.8, 0.0]),
        ],
        token_budget=1250,
    )
    assert noisy["reasons"][1].startswith("with 4 questions, that lead could be chance")


def test_without_retrieval_nothing_is_recommended_but_the_window_is_still_checked() -> None:
    entries = [entry("token:a", None, over=0.5), entry("recursive:b", None)]
    picked = recommend(entries, window_tokens=256)
    assert picked["configuration"] is None
    assert picked["reasons"][0].startswith("retrieval was not measured")
    assert [e["configuration"] for e in picked["excluded"]] == ["token:a"]
    assert recommend([])["reasons"] == [picked["reasons"][0]]


def test_the_character_budget_is_the_measure_when_it_was_given() -> None:
    entries = [entry("a", 0.1), entry("b", 0.2)]
    for e, recall in zip(entries, (0.62, 0.55), strict=True):
        e["retrieval"]["character_budget"] = {"recall": recall, "iou": 0.1}
    picked = recommend(entries, k=5, token_budget=1250, character_budget=4000, window_tokens=256)
    assert picked["configuration"] == "a"
    assert "recall 62.0% within 4,000 retrieved characters, vs 55.0% for b" in picked["reasons"][0]


@pytest.mark.embedding_model
def test_with_minilm_a_configuration_over_its_window_is_not_recommended(tmp_path: Path) -> None:
    require_module("sentence_transformers", extra="embed")
    from partita.cli import main

    # -- the corpus as one paragraph of plain text, so 400-token windows pass MiniLM's 256
    # -- wordpieces (the questions' answers are found in it whitespace-insensitively) --
    long = tmp_path / "all.txt"
    words = [p.read_text(encoding="utf-8").split() for p in sorted(CORPUS.glob("*.md"))]
    long.write_text(" ".join(w for text in words for w in text if w != "#"), encoding="utf-8")
    out = tmp_path / "r.json"
    args = [
        "evaluate", str(long), "--questions", str(CORPUS / "questions.jsonl"),
        "--config", "token:max_tokens=400,tokenizer=cl100k_base",
        "--config", "sentence:max_tokens=120,tokenizer=cl100k_base",
        "--config", "recursive:max_tokens=60,tokenizer=cl100k_base",
        "--cache-dir", str(tmp_path / "cache"), "--json", str(out),
        "-o", str(tmp_path / "r.html"), "-q", "--no-coherence",
    ]  # fmt: skip
    assert main(args) == 0
    results = json.loads(out.read_text(encoding="utf-8"))
    shares = {
        c["name"]: c["intrinsic"]["tokens"]["over_window_share"] for c in results["configurations"]
    }
    assert shares["token:max_tokens=400,tokenizer=cl100k_base"] > 0.01
    recommendation = results["recommendation"]
    assert recommendation["configuration"] != "token:max_tokens=400,tokenizer=cl100k_base"
    assert recommendation["configuration"] in shares
    (excluded,) = recommendation["excluded"]
    assert excluded["configuration"] == "token:max_tokens=400,tokenizer=cl100k_base"
    assert "exceed the embedder's 256-token window" in excluded["reason"]
    assert "% of its chunks exceed the embedder's 256-token window" in recommendation["reasons"][-1]
