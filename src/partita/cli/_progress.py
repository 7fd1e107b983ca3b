"""What a run tells a person on standard error: a progress bar, failures, a summary line."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

__all__ = ["Progress", "RunStats"]


@dataclass(slots=True)
class RunStats:
    """The counts of a run, for its summary line."""

    command: str
    """"partition" or "chunk": whether chunks are counted."""
    files: int = 0
    """Inputs processed (failed ones included, skipped ones not)."""
    failed: int = 0
    skipped: int = 0
    """Inputs left alone because their output in `--output-dir` was up to date."""
    elements: int = 0
    chunks: int = 0
    pages: int = 0
    started: float = field(default_factory=time.perf_counter)

    @property
    def seconds(self) -> float:
        """Wall time since the run started."""
        return time.perf_counter() - self.started

    def summary(self) -> str:
        """Return the one-line summary: "partita chunk: 3 files, 120 elements, 41 chunks,
        0 failed in 1.20 s" (skipped inputs and pages only when there are some)."""
        parts = [_count(self.files, "file"), _count(self.elements, "element")]
        if self.command == "chunk":
            parts.append(_count(self.chunks, "chunk"))
        if self.pages:
            parts.append(_count(self.pages, "page"))
        parts.append(f"{self.failed} failed")
        if self.skipped:
            parts.append(f"{self.skipped} skipped (up to date)")
        return f"partita {self.command}: {', '.join(parts)} in {self.seconds:.2f} s"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class Progress:
    """A one-line progress bar on standard error: files done, files and pages per second.

    Drawn only when `enabled` (the caller decides: a terminal, or `--progress`); `clear()`
    removes it before anything else is written to standard error.
    """

    def __init__(self, total: int, *, enabled: bool) -> None:
        self._total = total
        self._done = 0
        self._pages = 0
        self._enabled = enabled
        self._started = time.perf_counter()

    def step(self, label: str, pages: int) -> None:
        """Count one more file done (`label` the last one, `pages` its pages) and redraw."""
        self._done += 1
        self._pages += pages
        if not self._enabled:
            return
        width = 24
        filled = width * self._done // max(self._total, 1)
        elapsed = max(time.perf_counter() - self._started, 1e-9)
        rates = f"{self._done / elapsed:.1f} files/s, {self._pages / elapsed:.1f} pages/s"
        name = os.path.basename(label)[:40]
        sys.stderr.write(
            f"\r[{'#' * filled}{'-' * (width - filled)}] {self._done}/{self._total}"
            f" {rates} {name}\x1b[K"
        )
        sys.stderr.flush()

    def clear(self) -> None:
        """Erase the bar (a no-op when it is not drawn)."""
        if self._enabled:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
