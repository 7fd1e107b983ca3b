from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from partita.chunking.strategies.semantic._decay import exp_decay
from partita.chunking.strategies.semantic._segments import (
    iter_bounded,
    iter_semantic_cuts,
    merged_small,
)


def arrays(sims: list[float], flags: list[bool] | None = None) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(sims, dtype=np.float64), np.asarray(
        flags or [False] * len(sims), dtype=np.bool_
    )


def test_exp_decay_is_seed_003s_and_rises_towards_one() -> None:
    assert exp_decay(1) == math.exp(-1)
    values = [exp_decay(j) for j in range(1, 200)]
    assert values == sorted(values)
    assert values[-1] < 1


def test_decay_caps_a_chunk_without_a_topic_shift() -> None:
    # -- every boundary 0.9 alike: no breakpoint, so only the decay cuts: after j units where
    # -- 0.9 < e^(-1/j), that is j = 10 (e^(-0.1) = 0.905) --
    sims, none = arrays([0.9] * 99)
    segments = list(iter_semantic_cuts(sims, none, none, exp_decay))
    assert [b - a for a, b in segments] == [10] * 10
    assert list(iter_semantic_cuts(sims, none, none, None)) == [(0, 100)]


def test_breakpoints_cut_but_protected_boundaries_never() -> None:
    sims, breaks = arrays([0.9, 0.2, 0.9, 0.2], [False, True, False, True])
    _, protected = arrays([0.0] * 4, [False, True, False, False])
    assert list(iter_semantic_cuts(sims, breaks, protected, None)) == [(0, 4), (4, 5)]


def test_hard_maximum_splits_at_the_weakest_boundary_first() -> None:
    sims, protected = arrays([0.9, 0.5, 0.7, 0.95, 0.6])
    sizes = [10] * 6

    def size(a: int, b: int) -> int:
        return sum(sizes[a:b])

    assert list(iter_bounded(iter([(0, 6)]), sims, protected, size, 30)) == [
        (0, 2),
        (2, 5),
        (5, 6),
    ]
    # -- a protected boundary is cut last --
    _, protected = arrays([0.0] * 5, [False, True, False, False, False])
    assert list(iter_bounded(iter([(0, 6)]), sims, protected, size, 40)) == [(0, 3), (3, 5), (5, 6)]


def test_protected_boundaries_are_cut_greedily_when_nothing_else_is_left() -> None:
    sims = np.zeros(5)
    protected = np.ones(5, dtype=np.bool_)

    def size(a: int, b: int) -> int:
        return 10 * (b - a)

    assert list(iter_bounded(iter([(0, 6)]), sims, protected, size, 40)) == [(0, 4), (4, 6)]


def test_min_size_joins_the_more_similar_neighbour_within_the_limit() -> None:
    sims, protected = arrays([0.1, 0.2, 0.8, 0.3])
    lengths = [50, 50, 5, 50, 50]

    def size(a: int, b: int) -> int:
        return sum(lengths[a:b])

    segments = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]
    # -- the 5-long unit joins its right neighbour (0.8 > 0.2) --
    assert merged_small(segments, sims, protected, size, 100, 10) == [
        (0, 1),
        (1, 2),
        (2, 4),
        (4, 5),
    ]
    # -- unless that would pass the limit: then its left one --
    lengths[3] = 96
    assert merged_small(segments, sims, protected, size, 100, 10) == [
        (0, 1),
        (1, 3),
        (3, 4),
        (4, 5),
    ]
    assert merged_small(segments, sims, protected, size, 100, 0) == segments


@settings(max_examples=200, deadline=None)
@given(
    lengths=st.lists(st.integers(1, 40), min_size=1, max_size=60),
    data=st.data(),
    limit=st.integers(40, 150),
    min_size=st.integers(0, 80),
    decay=st.booleans(),
)
def test_segments_cover_every_unit_in_order_and_fit(
    lengths: list[int], data: st.DataObject, limit: int, min_size: int, decay: bool
) -> None:
    n = len(lengths)
    sims = np.asarray(data.draw(st.lists(st.floats(-1, 1), min_size=n - 1, max_size=n - 1)))
    breaks = np.asarray(
        data.draw(st.lists(st.booleans(), min_size=n - 1, max_size=n - 1)), dtype=np.bool_
    )
    protected = np.asarray(
        data.draw(st.lists(st.booleans(), min_size=n - 1, max_size=n - 1)), dtype=np.bool_
    )

    def size(a: int, b: int) -> int:
        return sum(lengths[a:b]) + 2 * (b - a - 1)

    cuts = iter_semantic_cuts(sims, breaks, protected, exp_decay if decay else None)
    bounded = list(iter_bounded(cuts, sims, protected, size, limit))
    segments = merged_small(bounded, sims, protected, size, limit, min_size)
    assert segments[0][0] == 0
    assert segments[-1][1] == n
    assert all(a < b for a, b in segments)
    assert all(segments[i][1] == segments[i + 1][0] for i in range(len(segments) - 1))
    assert all(size(a, b) <= limit for a, b in segments)
    # -- a segment under min_size could join no neighbour within the limit --
    for i, (a, b) in enumerate(segments):
        if size(a, b) < min_size:
            if i:
                assert size(segments[i - 1][0], b) > limit
            if i + 1 < len(segments):
                assert size(a, segments[i + 1][1]) > limit
