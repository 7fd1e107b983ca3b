"""Which strategy to use: seed 004's decision tree, then the measurements when there are any.

The tree (seed 004, "Chunking 決策樹"), on a profile of the documents:

1. Source code (every document a source file)? -> "code", 500-1,000 characters.
2. Headings (titles on at least `HEADINGS_SHARE` of the documents, and at least two per
   document on average)? -> "headings", split at levels 1-3, 384 tokens (seed 001's embedder).
3. Paragraphs (most text in blank-line separated blocks: several elements per document)? ->
   "recursive", 400-500 tokens, the default separators.
4. Else precision or speed: `priority="precision"` -> "sentence" (semantic chunking where it is
   available), `priority="speed"` -> "token", fixed windows.

Latency and budget constraints bend it: `max_latency_ms` below what embedding a chunk costs
prefers larger chunks (fewer to embed); `embedding_budget_tokens` caps the total tokens to embed
(overlap off when it would pass it).

When the run measured retrieval, the recommendation is among the configurations whose recall at
the matched token budget is within `CLOSE_RECALL` (one point) of the best: the tree's strategy
if one of them uses it, else the one with the best IoU (the least noise around the answer;
ties: fewer tokens to embed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from partita.elements import CodeSnippet, Element, Title

__all__ = ["CLOSE_RECALL", "HEADINGS_SHARE", "DocumentProfile", "profile_documents", "recommend"]

CLOSE_RECALL = 0.01
"""Recall within this of the best measured counts as a tie (one point)."""

HEADINGS_SHARE = 0.5
"""The share of documents with titles that makes heading sections the tree's answer."""


@dataclass(frozen=True, slots=True)
class DocumentProfile:
    """What the tree asks of the documents."""

    documents: int
    code: int
    with_headings: int
    titles: int
    elements: int
    characters: int


def profile_documents(documents: Sequence[Sequence[Element]]) -> DocumentProfile:
    """The profile of partitioned documents."""
    code = sum(1 for d in documents if d and all(isinstance(e, CodeSnippet) for e in d))
    titles = [sum(1 for e in d if isinstance(e, Title)) for d in documents]
    return DocumentProfile(
        documents=len(documents),
        code=code,
        with_headings=sum(1 for t in titles if t >= 2),
        titles=sum(titles),
        elements=sum(len(d) for d in documents),
        characters=sum(len(e.text) for d in documents for e in d),
    )


@dataclass(frozen=True, slots=True)
class _Answer:
    strategy: str
    options: dict[str, Any]
    path: list[str] = field(default_factory=list)


def _tree(
    profile: DocumentProfile,
    priority: str,
    max_latency_ms: float | None,
    embedding_budget_tokens: int | None,
) -> _Answer:
    path: list[str] = []
    n = max(profile.documents, 1)
    if profile.documents and profile.code == profile.documents:
        path.append(f"code: all {profile.documents} documents are source files")
        answer = _Answer("code", {"max_tokens": 384, "tokenizer": "cl100k_base"}, path)
    elif profile.with_headings / n >= HEADINGS_SHARE and profile.titles >= 2 * n:
        path.append(
            f"headings: {profile.with_headings} of {profile.documents} documents have titles"
            f" ({profile.titles} in all)"
        )
        answer = _Answer(
            "headings", {"max_tokens": 384, "tokenizer": "cl100k_base", "split_depth": 3}, path
        )
    elif profile.elements / n >= 5:
        path.append("no heading structure; paragraphs: several blocks per document")
        answer = _Answer("recursive", {"max_tokens": 400, "tokenizer": "cl100k_base"}, path)
    elif priority == "speed":
        path.append("no structure, speed first: fixed windows")
        answer = _Answer(
            "token", {"max_tokens": 400, "overlap": 60, "tokenizer": "cl100k_base"}, path
        )
    else:
        path.append("no structure, precision first: sentence packing")
        answer = _Answer(
            "sentence", {"max_tokens": 300, "overlap": 30, "tokenizer": "cl100k_base"}, path
        )
    if max_latency_ms is not None and max_latency_ms < 50:
        answer.options["max_tokens"] = max(answer.options.get("max_tokens", 400), 512)
        path.append(f"latency under {max_latency_ms:g} ms: larger chunks, fewer to embed")
    if embedding_budget_tokens is not None and profile.characters / 4 > embedding_budget_tokens:
        answer.options.pop("overlap", None)
        path.append("embedding budget below the documents' size: no overlap")
    return answer


def recommend(
    profile: DocumentProfile,
    configurations: Sequence[Mapping[str, Any]] = (),
    *,
    priority: str = "precision",
    max_latency_ms: float | None = None,
    embedding_budget_tokens: int | None = None,
) -> dict[str, Any]:
    """The recommendation: `{strategy, options, configuration, reasons, decision_path}`.

    `configurations` are the run's measured configurations (the results' entries); with
    retrieval measured, the best one is recommended (see the module docstring)."""
    if priority not in ("precision", "speed"):
        raise ValueError(f"priority must be 'precision' or 'speed', got {priority!r}")
    answer = _tree(profile, priority, max_latency_ms, embedding_budget_tokens)
    reasons = [f"seed 004's decision tree: {answer.strategy}"]
    measured = [c for c in configurations if c.get("retrieval")]
    if not measured:
        return {
            "strategy": answer.strategy,
            "options": answer.options,
            "configuration": None,
            "reasons": reasons,
            "decision_path": answer.path,
        }

    def scores(c: Mapping[str, Any]) -> Mapping[str, float]:
        retrieval = c["retrieval"]
        chosen: Mapping[str, float] = retrieval.get("token_budget") or retrieval["top_k"]
        return chosen

    top_recall = max(scores(c)["recall"] for c in measured)
    close = [c for c in measured if top_recall - scores(c)["recall"] <= CLOSE_RECALL]
    tree_picks = [c for c in close if c["strategy"] == answer.strategy]
    pool = tree_picks or close
    best = max(pool, key=lambda c: (scores(c)["iou"], -c["efficiency"]["tokens_to_embed"]))
    recall = scores(best)["recall"]
    reasons.insert(
        0,
        f"recall at the token budget {recall * 100:.1f}% ({top_recall * 100:.1f}% the best"
        f" measured; {len(close)} configuration(s) within {CLOSE_RECALL * 100:.0f} point)",
    )
    if tree_picks:
        reasons.append(f"{best['name']} is close to the best and is what the tree picks")
    elif len(close) > 1:
        reasons.append(f"{best['name']} has the best IoU of those close to the best recall")
    return {
        "strategy": best["strategy"],
        "options": dict(best["options"]),
        "configuration": best["name"],
        "reasons": reasons,
        "decision_path": answer.path,
    }
