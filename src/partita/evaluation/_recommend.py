"""Which configuration to use: one the run measured, for a reason stated in its measured figures.

Rules:

- **Only measured configurations are recommended**, and the reasons quote the figures the
  choice rests on, in words (recall, chunks over the window, tokens to embed), never a rule of
  thumb the run did not check.
- **Chunks over the embedding model's window rule a configuration out.** The model never reads
  a chunk's text past its window, so a question about that text cannot find it. A configuration
  with more than `OVER_WINDOW_TOLERANCE` of its chunks over the window is not recommended; it
  is listed in `excluded` with its share. When the model declares no window, the reasons say the
  lengths were not checked against one.
- **With retrieval measured** (questions and an embedding model), the configuration that found
  the most of the answers' text at equal context cost wins: recall within the character budget
  when one was given, else within the token budget, else in the top k. Configurations within
  `CLOSE_RECALL` of the best recall tie; `priority` breaks a tie: "precision" takes the best IoU
  (the least other text retrieved around the answers), "speed" the fewest tokens to embed.
  When both runs' per-question scores are at hand, a paired bootstrap over the questions says
  whether the winner's lead over the runner-up could be chance. With evidence-page questions
  (`partita.evaluation.evidence`) the figure is evidence recall, the share of the evidence's
  words retrieved, and the reasons give the characters each configuration retrieved.
- **Without retrieval** (no questions, or no embedding model) nothing is recommended, and the
  reasons say why: chunk sizes and boundaries alone do not say which configuration retrieves
  best (configurations over the window are still listed in `excluded`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["CHANCE_P", "CLOSE_RECALL", "OVER_WINDOW_TOLERANCE", "recommend"]

CLOSE_RECALL = 0.01
"""Recall within this of the best measured counts as a tie (one point)."""

OVER_WINDOW_TOLERANCE = 0.01
"""The largest share of chunks over the embedding model's window a recommended configuration
may have (1 %: a stray table or code block, not a chunk size that does not fit)."""

CHANCE_P = 0.05
"""A paired-bootstrap p-value at or above this says the winner's lead could be chance."""

Entry = Mapping[str, Any]


def _percent(value: float) -> str:
    return "0%" if value == 0 else f"{value * 100:.1f}%"


def _over_window(entry: Entry) -> float | None:
    share = (entry.get("intrinsic") or {}).get("tokens", {}).get("over_window_share")
    return float(share) if isinstance(share, int | float) else None


def _measure(
    entries: Sequence[Entry], k: int | None, token_budget: int | None, character_budget: int | None
) -> tuple[str, str, str]:
    """Which retrieval figures to rank by: (results key, per-question key, words)."""
    if character_budget is not None and all(
        e["retrieval"].get("character_budget") for e in entries
    ):
        words = f"within {character_budget:,} retrieved characters"
        if all("evidence_recall" in e["retrieval"]["character_budget"] for e in entries):
            return "character_budget", "evidence_recall_at_character_budget", words
        return "character_budget", "recall_at_character_budget", words
    if token_budget is not None and all(e["retrieval"].get("token_budget") for e in entries):
        return "token_budget", "recall_at_token_budget", f"within {token_budget:,} retrieved tokens"
    return "top_k", "recall", f"in the top {k} chunks" if k else "in the top k chunks"


def _figure(per_question_key: str) -> tuple[str, str, str]:
    """The figure ranked by (its key in a figure set), its name, and what the best found."""
    if per_question_key.startswith("evidence_recall"):
        return "evidence_recall", "evidence recall", "it retrieved the most of the evidence"
    return "recall", "recall", "it found the most of the answers' text"


def recommend(
    configurations: Sequence[Entry] = (),
    *,
    priority: str = "precision",
    k: int | None = None,
    token_budget: int | None = None,
    character_budget: int | None = None,
    window_tokens: int | None = None,
) -> dict[str, Any]:
    """The recommendation among the measured `configurations` (the results' entries):
    `{configuration, strategy, options, basis, reasons, excluded}`.

    `basis` is "retrieval" (what the choice rests on); `reasons` quote the measured figures;
    `excluded` lists `{configuration, reason}` for those ruled out by the window. With nothing
    eligible or no retrieval measured, `configuration`, `strategy`, `options` and `basis` are
    None and `reasons` say why.
    `k`, `token_budget` and `character_budget` are the run's; `window_tokens` is the embedding
    model's window (None when it declares none)."""
    if priority not in ("precision", "speed"):
        raise ValueError(f"priority must be 'precision' or 'speed', got {priority!r}")
    window = f"the embedder's {window_tokens:,}-token window" if window_tokens else "its window"
    eligible: list[Entry] = []
    excluded: list[dict[str, str]] = []
    for entry in configurations:
        share = _over_window(entry)
        if share is not None and share > OVER_WINDOW_TOLERANCE:
            reason = f"{_percent(share)} of its chunks exceed {window} (their ends go unread)"
            excluded.append({"configuration": str(entry["name"]), "reason": reason})
        else:
            eligible.append(entry)
    measured = [e for e in eligible if e.get("retrieval")]
    if not measured:
        if eligible or not excluded:
            why = (
                "retrieval was not measured (it needs questions with known answers and an"
                " embedding model), and chunk sizes alone do not say which retrieves best"
            )
        else:
            why = "no configuration measured fits the embedding model's window"
        return {
            "configuration": None,
            "strategy": None,
            "options": None,
            "basis": None,
            "reasons": [why],
            "excluded": excluded,
        }
    best, reasons = _by_retrieval(measured, priority, k, token_budget, character_budget)
    fixed = best["retrieval"].get("top_k") or {}
    if "evidence_recall" in fixed and "retrieved_characters" in fixed:
        reasons.append(
            f"in the top {k or 'k'} it retrieved {_percent(fixed['evidence_recall'])} of the"
            f" evidence and {fixed['retrieved_characters']:,.0f} characters a question"
        )
    share = _over_window(best)
    if share is None:
        reasons.append(
            "the embedding model declares no window, so chunk lengths were not checked against one"
        )
    else:
        reasons.append(f"{_percent(share)} of its chunks exceed {window}")
    return {
        "configuration": best["name"],
        "strategy": best["strategy"],
        "options": dict(best["options"]),
        "basis": "retrieval",
        "reasons": reasons,
        "excluded": excluded,
    }


def _by_retrieval(
    entries: Sequence[Entry],
    priority: str,
    k: int | None,
    token_budget: int | None,
    character_budget: int | None,
) -> tuple[Entry, list[str]]:
    key, per_question_key, where = _measure(entries, k, token_budget, character_budget)
    figure_key, figure_name, most = _figure(per_question_key)

    def scores(entry: Entry) -> Mapping[str, float]:
        chosen: Mapping[str, float] = dict(entry["retrieval"][key])
        return {**chosen, "recall": chosen[figure_key]}

    ranked = sorted(entries, key=lambda e: -scores(e)["recall"])
    top = ranked[0]
    top_recall = scores(top)["recall"]
    close = [e for e in ranked if top_recall - scores(e)["recall"] <= CLOSE_RECALL]
    if priority == "speed":
        best = min(close, key=lambda e: (e["efficiency"]["tokens_to_embed"], -scores(e)["recall"]))
    else:
        best = max(close, key=lambda e: (scores(e)["iou"], -e["efficiency"]["tokens_to_embed"]))
    recall = scores(best)["recall"]
    if len(ranked) == 1:
        return best, [
            f"{figure_name} {_percent(recall)} {where}; it is the only configuration eligible"
        ]
    if best is top and len(close) == 1:
        second = ranked[1]
        reasons = [
            f"{most}: {figure_name} {_percent(recall)} {where},"
            f" vs {_percent(scores(second)['recall'])} for {second['name']} (the next best)"
        ]
        chance = _chance(best, second, per_question_key)
        if chance:
            reasons.append(chance)
        return best, reasons
    other = top if best is not top else next(e for e in close if e is not best)
    if best is top:
        tie = (
            f"{most}, {figure_name} {_percent(recall)} {where}, but"
            f" {_others(len(close) - 1)} within {CLOSE_RECALL * 100:.0f} point"
            f" ({other['name']}: {_percent(scores(other)['recall'])})"
        )
    else:
        tie = (
            f"its {figure_name} {where}, {_percent(recall)}, is within"
            f" {CLOSE_RECALL * 100:.0f} point of the best ({_percent(top_recall)}, {top['name']})"
        )
    if priority == "speed":
        mine, theirs = best["efficiency"]["tokens_to_embed"], other["efficiency"]["tokens_to_embed"]
        figure, ours, yours = "tokens to embed", f"{mine:,}", f"{theirs:,}"
        tiebreak = f"of those it has the fewest tokens to embed ({ours} vs {yours})"
    else:
        figure, ours, yours = "IoU", _percent(scores(best)["iou"]), _percent(scores(other)["iou"])
        tiebreak = (
            "of those it retrieves the least other text around the answers"
            f" (IoU {ours} vs {yours}, {where})"
        )
    if ours == yours:
        tiebreak = f"it and {other['name']} tie on {figure} too ({ours})"
    return best, [f"{tie}; {tiebreak}"]


def _others(count: int) -> str:
    return "another configuration comes" if count == 1 else f"{count} other configurations come"


def _chance(best: Entry, second: Entry, per_question_key: str) -> str | None:
    """Whether `best`'s lead over `second` could be chance, by a paired bootstrap over the
    questions both scored (None when their per-question scores are not at hand)."""
    try:
        from partita.evaluation._retrieval import paired_bootstrap
    except ImportError:  # -- numpy missing: results read on a core install --
        return None

    def by_question(entry: Entry) -> dict[str, float]:
        rows = entry["retrieval"].get("per_question") or ()
        return {
            str(row.get("question", row.get("id"))): float(row[per_question_key])
            for row in rows
            if per_question_key in row
        }

    a, b = by_question(best), by_question(second)
    shared = [q for q in a if q in b]
    if len(shared) < 2:
        return None
    test = paired_bootstrap([a[q] for q in shared], [b[q] for q in shared], iterations=2000)
    if test.p_value >= CHANCE_P:
        return (
            f"with {len(shared)} questions, that lead could be chance (paired bootstrap"
            f" p = {test.p_value:.2f}): more questions would tell"
        )
    return (
        f"the lead holds over the {len(shared)} questions (paired bootstrap p = {test.p_value:.3f})"
    )
