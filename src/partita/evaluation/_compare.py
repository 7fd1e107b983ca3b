"""Two runs compared question by question: `partita evaluate --compare A.json B.json`.

For every configuration name in both runs (or, when the names differ, every pair of one
configuration of A and one of B), each per-question figure (recall, IoU, precision, reciprocal
rank) is compared with a paired bootstrap (`_retrieval.paired_bootstrap`): the mean difference
B − A, its 95% interval and a two-sided p-value.

Questions are paired by their text (a text asked twice pairs its first asking with the other
run's first, and so on), never by position or line number: a run of other questions, or of the
same file edited, would pair unrelated scores. Two runs whose question sets differ are refused
(`ComparisonError`, naming how many each asked and how many they share), as are results written
before question texts were recorded and runs with no retrieval scores.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["FIGURES", "ComparisonError", "compare_results", "comparison_to_markdown"]

FIGURES = ("recall", "iou", "precision", "reciprocal_rank")
"""The per-question figures compared."""


class ComparisonError(ValueError):
    """Two runs that cannot be compared question by question; the message says why."""


def _per_question(entry: Mapping[str, Any], run: str) -> dict[tuple[str, int], Mapping[str, Any]]:
    """An entry's per-question scores keyed by (question text, how many times asked before)."""
    retrieval = entry.get("retrieval") or {}
    keyed: dict[tuple[str, int], Mapping[str, Any]] = {}
    seen: dict[str, int] = {}
    for row in retrieval.get("per_question", ()):
        text = row.get("question")
        if not isinstance(text, str):
            raise ComparisonError(
                f"{run} records no question texts (written by an older partita):"
                " run it again to compare"
            )
        keyed[(text, seen.get(text, 0))] = row
        seen[text] = seen.get(text, 0) + 1
    return keyed


def compare_results(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    *,
    iterations: int = 10_000,
    seed: int = 0,
    names: tuple[str, str] = ("A", "B"),
) -> list[dict[str, Any]]:
    """One row per compared pair of configurations and figure: `{a, b, figure, questions,
    mean_a, mean_b, difference, ci_low, ci_high, p_value}` (difference = B − A).

    Raise `ComparisonError` when a run has no retrieval scores, records no question texts, or
    asked other questions than the other (`names` name the runs in the message)."""
    from partita.evaluation._retrieval import paired_bootstrap

    entries_a = {e["name"]: e for e in a.get("configurations", ()) if e.get("retrieval")}
    entries_b = {e["name"]: e for e in b.get("configurations", ()) if e.get("retrieval")}
    for run, entries in zip(names, (entries_a, entries_b), strict=True):
        if not entries:
            raise ComparisonError(
                f"{run} has no retrieval scores (it was run without questions or an embedder)"
            )
    shared = [name for name in entries_a if name in entries_b]
    pairs = [(n, n) for n in shared] or [(x, y) for x in entries_a for y in entries_b]
    rows: list[dict[str, Any]] = []
    for name_a, name_b in pairs:
        first = _per_question(entries_a[name_a], names[0])
        second = _per_question(entries_b[name_b], names[1])
        if first.keys() != second.keys():
            both = len(first.keys() & second.keys())
            raise ComparisonError(
                f"the runs asked different questions ({len(first)} in {names[0]},"
                f" {len(second)} in {names[1]}, {both} in both): compare runs of the same questions"
            )
        keys = list(first)
        for figure in FIGURES:
            xs = [float(first[q][figure]) for q in keys]
            ys = [float(second[q][figure]) for q in keys]
            result = paired_bootstrap(ys, xs, iterations=iterations, seed=seed)
            rows.append(
                {
                    "a": name_a,
                    "b": name_b,
                    "figure": figure,
                    "questions": len(keys),
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
