"""Two runs compared question by question: `partita evaluate --compare A.json B.json`.

For every configuration name in both runs (or, when the names differ, every pair of one
configuration of A and one of B), each per-question figure (recall, IoU, precision, reciprocal
rank) is compared with a paired bootstrap (`retrieval.paired_bootstrap`): the mean difference
B − A, its 95% interval and a two-sided p-value. Questions are paired by id, and only the ids
both runs scored are compared (their count is reported).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from partita.evaluation.retrieval import paired_bootstrap

__all__ = ["FIGURES", "compare_results", "comparison_to_markdown"]

FIGURES = ("recall", "iou", "precision", "reciprocal_rank")
"""The per-question figures compared."""


def _per_question(entry: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    retrieval = entry.get("retrieval") or {}
    return {q["id"]: q for q in retrieval.get("per_question", ())}


def compare_results(
    a: Mapping[str, Any], b: Mapping[str, Any], *, iterations: int = 10_000, seed: int = 0
) -> list[dict[str, Any]]:
    """One row per compared pair of configurations and figure: `{a, b, figure, questions,
    mean_a, mean_b, difference, ci_low, ci_high, p_value}` (difference = B − A)."""
    entries_a = {e["name"]: e for e in a.get("configurations", ()) if e.get("retrieval")}
    entries_b = {e["name"]: e for e in b.get("configurations", ()) if e.get("retrieval")}
    shared = [name for name in entries_a if name in entries_b]
    pairs = [(n, n) for n in shared] or [(x, y) for x in entries_a for y in entries_b]
    rows: list[dict[str, Any]] = []
    for name_a, name_b in pairs:
        first, second = _per_question(entries_a[name_a]), _per_question(entries_b[name_b])
        ids = [i for i in first if i in second]
        if not ids:
            continue
        for figure in FIGURES:
            xs = [float(first[i][figure]) for i in ids]
            ys = [float(second[i][figure]) for i in ids]
            result = paired_bootstrap(ys, xs, iterations=iterations, seed=seed)
            rows.append(
                {
                    "a": name_a,
                    "b": name_b,
                    "figure": figure,
                    "questions": len(ids),
                    "mean_a": sum(xs) / len(xs),
                    "mean_b": sum(ys) / len(ys),
                    "difference": result.mean_difference,
                    "ci_low": result.ci_low,
                    "ci_high": result.ci_high,
                    "p_value": result.p_value,
                }
            )
    return rows


def comparison_to_markdown(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table (figures in percentage points)."""
    if not rows:
        return "No configuration of the two runs has per-question retrieval scores to pair."
    lines = [
        "| A | B | figure | questions | A | B | B − A | 95% interval | p |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['a']} | {r['b']} | {r['figure']} | {r['questions']} "
            f"| {r['mean_a'] * 100:.1f} | {r['mean_b'] * 100:.1f} "
            f"| {r['difference'] * 100:+.1f} "
            f"| [{r['ci_low'] * 100:+.1f}, {r['ci_high'] * 100:+.1f}] | {r['p_value']:.4f} |"
        )
    return "\n".join(lines)
