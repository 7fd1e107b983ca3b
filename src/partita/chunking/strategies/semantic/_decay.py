"""The decay factor: a floor under which a growing chunk's next boundary is cut.

Semantic splitting with a decay: "as a chunk gains sentences, lower the similarity of the sentences
that follow", a function of range (0, 1) on (0, +inf), increasing, `f(j) = e^(-1/j)` for a chunk of
`j` sentences, "the threshold of a chunk of length j is max(threshold, f(j))". The threshold is read
on similarity, where a cut is made below it: a boundary is cut when its similarity is below `f(j)`,
a floor that rises from 0.37 (j = 1) through 0.82 (j = 5) and 0.90 (j = 10) towards 1, so the longer
a chunk, the more easily it breaks (`_segments.iter_semantic_cuts`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

__all__ = ["Decay", "exp_decay"]

Decay = Callable[[int], float]
"""`decay(j)`: the similarity below which a chunk of `j` units is cut after its last unit."""


def exp_decay(units: int) -> float:
    """The decay factor, `e^(-1/j)` for a chunk of `j >= 1` units."""
    return math.exp(-1.0 / units)
