"""Cutting one group's units into segments: breakpoints, the decay, the hard maximum, min_size.

A group of `n` units has boundaries `0 .. n - 2` (boundary `k` between units `k` and `k + 1`),
each with a similarity, a breakpoint flag and a protected flag (a boundary inside or right after
a `Title`, which keeps a heading with the text it heads, or inside a sentence cut into pieces).
Segments are half-open unit ranges `(a, b)` covering `0 .. n` in order. `size(a, b)` is the
exact size of the chunk made of units `a .. b - 1` in the window's unit. Three passes, each
linear but the second:

1. **Breakpoints and the decay** (`iter_semantic_cuts`), left to right. A chunk holding `j` units
   is cut after its last unit when that boundary is a breakpoint, or when the decay is on and
   the boundary's similarity is **below** `decay(j)`. The decay `decay(j) = e^(-1/j)` rises
   from 0.37 (j = 1) through 0.82 (j = 5) and 0.90 (j = 10) towards 1: the similarity a
   boundary needs to keep a chunk together rises as the chunk grows, so the longer a chunk, the
   more easily it breaks (the method's "threshold `max(threshold, f(j))`", with the threshold read
   on similarity, where a cut is made below it). Protected boundaries are never cut here.
2. **The hard maximum** (`iter_bounded`): a segment whose size is over `limit` is split at its
   weakest boundary (the lowest similarity, ties to the first), and each part again until every
   part fits or is a single unit (units already fit: the caller cuts over-long sentences into
   clauses and words first). Protected boundaries are cut last, and then greedily: the first
   part is the longest run of units that fits, so the pieces of a long sentence are packed, not
   cut one by one. A segment cut `m` times costs `m` scans of its boundaries.
3. **min_size** (`merged_small`): a segment smaller than `min_size` joins the neighbour across
   its more similar boundary (a protected one counts as most similar), when the two together
   fit the limit; if neither does, it stays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import numpy.typing as npt

from partita.chunking.strategies.semantic._decay import Decay

__all__ = ["iter_bounded", "iter_semantic_cuts", "merged_small"]

Floats = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]
Size = Callable[[int, int], int]

_PROTECTED = 2.0
"""The similarity a protected boundary is given when segments are split or merged: above any."""


def iter_semantic_cuts(
    similarities: Floats, breakpoints: Mask, protected: Mask, decay: Decay | None
) -> Iterator[tuple[int, int]]:
    """The segments of pass 1: cut at breakpoints and where the decay says (module docstring)."""
    count = len(similarities) + 1
    start = 0
    for boundary in range(count - 1):
        if protected[boundary]:
            continue
        held = boundary + 1 - start
        if breakpoints[boundary] or (decay is not None and similarities[boundary] < decay(held)):
            yield start, boundary + 1
            start = boundary + 1
    yield start, count


def iter_bounded(
    segments: Iterator[tuple[int, int]],
    similarities: Floats,
    protected: Mask,
    size: Size,
    limit: int,
) -> Iterator[tuple[int, int]]:
    """The segments of pass 2: each over `limit` split at its weakest boundaries until it fits."""
    ranked = np.where(protected, _PROTECTED, similarities)
    for segment in segments:
        pending = [segment]  # -- a stack, the leftmost part on top --
        while pending:
            a, b = pending.pop()
            if b - a < 2 or size(a, b) <= limit:
                yield a, b
                continue
            cut = a + 1 + int(np.argmin(ranked[a : b - 1]))
            if ranked[cut - 1] >= _PROTECTED:  # -- only protected boundaries left: pack --
                cut = a + 1
                while cut + 1 < b and size(a, cut + 1) <= limit:
                    cut += 1
            pending.append((cut, b))
            pending.append((a, cut))


def merged_small(
    segments: list[tuple[int, int]],
    similarities: Floats,
    protected: Mask,
    size: Size,
    limit: int,
    min_size: int,
) -> list[tuple[int, int]]:
    """The segments of pass 3: each under `min_size` joined to its more similar neighbour."""
    if min_size <= 0 or len(segments) < 2:
        return segments
    ranked = np.where(protected, _PROTECTED, similarities)
    merged: list[tuple[int, int]] = []
    index = 0
    current = segments[0]
    while True:
        following = segments[index + 1] if index + 1 < len(segments) else None
        a, b = current
        if size(a, b) < min_size:
            before = ranked[a - 1] if merged and size(merged[-1][0], b) <= limit else None
            after = ranked[b - 1] if following and size(a, following[1]) <= limit else None
            if after is not None and (before is None or after > before):
                assert following is not None
                current = (a, following[1])
                index += 1
                continue
            if before is not None:
                current = (merged.pop()[0], b)
                continue  # -- still small? its new neighbours are weighed again --
        merged.append(current)
        index += 1
        if following is None:
            return merged
        current = following
