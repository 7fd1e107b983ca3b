from __future__ import annotations

import numpy as np
import pytest

from partita.chunking.strategies.semantic._similarity import window_similarities


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_three_sentence_windows_are_seed_003s() -> None:
    rng = np.random.default_rng(0)
    v = rng.normal(size=(7, 5))
    sims = window_similarities(v, 1)
    assert sims.shape == (6,)
    # -- the boundary before s(i) compares [s(i-2), s(i-1), s(i)] with [s(i-1), s(i), s(i+1)] --
    for i in range(2, 6):
        left = v[i - 2 : i + 1].mean(axis=0)
        right = v[i - 1 : i + 2].mean(axis=0)
        assert sims[i - 1] == pytest.approx(cosine(left, right))
    # -- clipped at the group's edges --
    assert sims[0] == pytest.approx(cosine(v[0:2].mean(axis=0), v[0:3].mean(axis=0)))
    assert sims[5] == pytest.approx(cosine(v[4:7].mean(axis=0), v[5:7].mean(axis=0)))


def test_window_zero_compares_adjacent_sentences() -> None:
    v = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    assert window_similarities(v, 0) == pytest.approx([2**-0.5, 2**-0.5])


def test_edge_cases() -> None:
    assert window_similarities(np.zeros((1, 3)), 1).shape == (0,)
    assert window_similarities(np.zeros((0, 3)), 1).shape == (0,)
    assert list(window_similarities(np.zeros((3, 2)), 0)) == [0.0, 0.0]
    with pytest.raises(ValueError, match="window"):
        window_similarities(np.zeros((3, 2)), -1)


def test_sides_compare_the_blocks_either_side_of_the_boundary() -> None:
    rng = np.random.default_rng(1)
    v = rng.normal(size=(6, 4))
    sims = window_similarities(v, 2, sides=True)
    # -- boundary k (between units k and k + 1): v[k-1..k] against v[k+1..k+2], clipped --
    assert sims[2] == pytest.approx(cosine(v[1:3].sum(axis=0), v[3:5].sum(axis=0)))
    assert sims[0] == pytest.approx(cosine(v[0], v[1:3].sum(axis=0)))
    assert sims[4] == pytest.approx(cosine(v[3:5].sum(axis=0), v[5]))
    # -- one sentence a side is the adjacent pair, as window 0 --
    assert window_similarities(v, 1, sides=True) == pytest.approx(window_similarities(v, 0))
