"""Where the topic changes: which boundaries a rule marks as breakpoints.

Each rule reads the similarities of every eligible boundary of the input (all its groups
together, as LangChain reads one document's), so a threshold is the document's, not a
section's: a short section is cut only where the document's own measure says its topic
changes. Distances are `1 - similarity`; a boundary is a breakpoint when its measure is
strictly above the threshold (as LangChain compares):

- `percentile` (default amount 95): the distance above the `amount`-th percentile of all
  distances (LangChain's default, 95 %);
- `std` (3): the distance above the mean plus `amount` standard deviations;
- `iqr` (1.5): the distance above the mean plus `amount` interquartile ranges (LangChain's
  "interquartile");
- `gradient` (95): the distance's gradient within its group (`numpy.gradient`) above the
  `amount`-th percentile of all gradients: a sharp rise rather than a high level;
- `absolute` (0.5, the simple form's default): the similarity below `amount`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from partita.chunking.strategies.semantic._options import BREAKPOINT_DEFAULTS

__all__ = ["breakpoint_masks"]


Floats = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]


def breakpoint_masks(
    similarities: Sequence[Floats], eligible: Sequence[Mask], rule: str, amount: float
) -> list[Mask]:
    """For each group's boundary `similarities`, which boundaries are breakpoints under `rule`
    with `amount`; the threshold is read from the `eligible` boundaries of all groups, and only
    those are ever marked. Raise `ValueError` for an unknown `rule`."""
    if rule not in BREAKPOINT_DEFAULTS:
        raise ValueError(
            f"unknown breakpoint rule {rule!r}; known: {', '.join(BREAKPOINT_DEFAULTS)}"
        )
    if rule == "absolute":
        return [(sims < amount) & ok for sims, ok in zip(similarities, eligible, strict=True)]
    if rule == "gradient":
        measures = [_gradient(1.0 - sims) for sims in similarities]
    else:
        measures = [1.0 - sims for sims in similarities]
    pooled = np.concatenate(
        [m[ok] for m, ok in zip(measures, eligible, strict=True)] or [np.zeros(0)]
    )
    if pooled.size == 0:
        return [np.zeros(len(sims), dtype=np.bool_) for sims in similarities]
    if rule in ("percentile", "gradient"):
        threshold = float(np.percentile(pooled, amount))
    elif rule == "std":
        threshold = float(pooled.mean() + amount * pooled.std())
    else:
        q1, q3 = np.percentile(pooled, [25.0, 75.0])
        threshold = float(pooled.mean() + amount * (q3 - q1))
    return [(m > threshold) & ok for m, ok in zip(measures, eligible, strict=True)]


def _gradient(distances: Floats) -> Floats:
    if len(distances) < 2:
        return np.zeros(len(distances), dtype=np.float64)
    return np.gradient(distances)
