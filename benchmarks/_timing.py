"""Timing shared by the benchmarks: best-of-N wall time, each library on its own heap."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

__all__ = ["best_time"]


def best_time(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Return the minimum wall time of `repeat` calls of `run`, and the last call's result.

    Each call starts after a full garbage collection, with no earlier result alive, and with the
    objects already alive frozen (`gc.freeze`): the collector then scans only what the call
    itself allocates, so neither library pays for the other's inputs and outputs, which the
    benchmarks keep alive to compare them. The collector stays enabled during the call.
    """
    best, result = float("inf"), None
    for _ in range(repeat):
        result = None  # -- let the previous result go before the next run --
        gc.collect()
        gc.freeze()
        try:
            start = time.perf_counter()
            result = run()
            best = min(best, time.perf_counter() - start)
        finally:
            gc.unfreeze()
    return best, result
