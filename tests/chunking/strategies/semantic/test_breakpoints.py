from __future__ import annotations

import numpy as np
import pytest

from partita.chunking.strategies.semantic._breakpoints import breakpoint_masks


def masks(
    sims: list[list[float]], rule: str, amount: float, eligible: list[list[bool]] | None = None
) -> list[list[bool]]:
    arrays = [np.asarray(s, dtype=np.float64) for s in sims]
    ok = (
        [np.asarray(e, dtype=np.bool_) for e in eligible]
        if eligible
        else [np.ones(len(a), dtype=np.bool_) for a in arrays]
    )
    return [m.tolist() for m in breakpoint_masks(arrays, ok, rule, amount)]


def test_percentile_is_read_over_the_whole_document() -> None:
    # -- a two-boundary section is cut only where the document's 90th percentile says --
    document = [[0.9] * 18 + [0.2], [0.8, 0.95]]
    assert masks(document, "percentile", 90) == [[False] * 18 + [True], [True, False]]


def test_absolute_std_iqr_gradient() -> None:
    sims = [[0.9, 0.9, 0.3, 0.9, 0.9, 0.6, 0.9, 0.9]]
    assert masks(sims, "absolute", 0.5) == [[False, False, True, False, False, False, False, False]]
    assert masks(sims, "std", 1.5)[0] == [False, False, True, False, False, False, False, False]
    assert masks(sims, "iqr", 1.5)[0] == [False, False, True, False, False, True, False, False]
    # -- the gradient rises before the dip --
    assert masks(sims, "gradient", 80)[0].index(True) == 1


def test_ineligible_boundaries_are_never_marked_nor_counted() -> None:
    sims = [[0.1, 0.9, 0.9, 0.5]]
    assert masks(sims, "percentile", 50, [[False, True, True, True]]) == [
        [False, False, False, True]
    ]
    assert masks(sims, "absolute", 0.5, [[False, True, True, True]]) == [[False] * 4]
    assert masks([[], [0.4]], "percentile", 95, [[], [False]]) == [[], [False]]


def test_unknown_rule() -> None:
    with pytest.raises(ValueError, match="unknown breakpoint rule"):
        masks([[0.5]], "median", 1)
