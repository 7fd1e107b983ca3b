"""How alike two neighbouring stretches of text are: window similarities over sentence vectors.

A group of `n` units (sentences) with unit-norm vectors `v[0..n-1]` has `n - 1` boundaries;
boundary `k` lies between units `k` and `k + 1`. With a window of `w` units on each side, its
similarity is the cosine of

- the left window, the mean of `v[k - w .. k + w]`, and
- the right window, the mean of `v[k + 1 - w .. k + 1 + w]`,

each clipped to the group. With `w = 1` these are the windows `[s(i-2), s(i-1), s(i)]`
and `[s(i-1), s(i), s(i+1)]` for the boundary before `s(i)` (LangChain's `SemanticChunker` with
`buffer_size=1`); with `w = 0` they are the two adjacent sentences (the simple form).

Those windows share all but one sentence each: what differs is `s(k + 1 + w)` entering and
`s(k - w)` leaving, so a low similarity says the topic changed somewhere within `w` sentences of
the boundary, not at it. With `sides=True` the windows are instead the `max(w, 1)` sentences
before the boundary and as many after it, `v[k + 1 - w .. k]` against `v[k + 1 .. k + w]`
(TextTiling's blocks): disjoint, so a low similarity is a change at the boundary itself.

Why the mean of sentence vectors rather than an embedding of the window's text: each sentence
is embedded once, whatever the window, so a window costs an addition instead of a model call
(LangChain embeds every window's text, each sentence three times over); a window of long
sentences can pass the model's input limit (256 wordpieces for all-MiniLM-L6-v2) and would be
truncated silently; and the cached sentence vectors serve every window setting. A window's
vector need not be normalized before the cosine; a zero vector (a model's zero row) has
similarity 0 with anything.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["window_similarities"]

Floats = npt.NDArray[np.float64]


def window_similarities(
    vectors: npt.NDArray[np.floating], window: int, *, sides: bool = False
) -> Floats:
    """The `n - 1` boundary similarities of `n` unit vectors (rows), `window` units on each side,
    of the overlapping windows or (`sides`) of the blocks on either side (see the module
    docstring); empty for fewer than two rows. Raise `ValueError` for a negative `window`."""
    if window < 0:
        raise ValueError(f"window must be >= 0, got {window}")
    count = len(vectors)
    if count < 2:
        return np.zeros(0, dtype=np.float64)
    data = np.asarray(vectors, dtype=np.float64)
    totals = np.zeros((count + 1, data.shape[1]), dtype=np.float64)
    np.cumsum(data, axis=0, out=totals[1:])
    boundaries = np.arange(count - 1)
    if sides:
        width = max(window, 1)
        left = _window_sums(totals, boundaries + 1 - width, boundaries + 1, count)
        right = _window_sums(totals, boundaries + 1, boundaries + 1 + width, count)
    else:
        left = _window_sums(totals, boundaries - window, boundaries + window + 1, count)
        right = _window_sums(totals, boundaries + 1 - window, boundaries + window + 2, count)
    dots = np.einsum("ij,ij->i", left, right)
    norms = np.linalg.norm(left, axis=1) * np.linalg.norm(right, axis=1)
    similarities = np.zeros(count - 1, dtype=np.float64)
    np.divide(dots, norms, out=similarities, where=norms > 0)
    return np.clip(similarities, -1.0, 1.0)


def _window_sums(
    totals: Floats, starts: npt.NDArray[np.intp], ends: npt.NDArray[np.intp], count: int
) -> Floats:
    """The sums of rows `[start, end)` (clipped to `[0, count)`) from the prefix sums `totals`;
    the mean's direction is the sum's, so the sums stand for the means."""
    return totals[np.clip(ends, 0, count)] - totals[np.clip(starts, 0, count)]
