"""How chunking one oversized element grows with its size, in partita and in the reference.

One element of n characters is chunked (`chunk_elements`, 500 characters, or 256 cl100k_base
tokens) at n, 2n, 4n and 8n; the exponent of the least-squares fit of log(time) on log(n) says
how the time grows (1: linear, 2: quadratic). Texts: Latin words (spaces), Latin letters without
a space, Chinese without punctuation, Chinese phrases between spaces; seeded. The reference runs
at two small sizes r and 2r only (its splitter is quadratic, in token mode worse: n = 32,000
characters of words take it minutes), and the ratio is taken at 2r, both libraries chunking the
same text in this process. partita's time is the best of three runs, the reference's one run,
after an untimed warm-up run of each.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from _timing import best_time  # benchmarks/ is on sys.path

__all__ = [
    "OVERSIZED_HEADERS",
    "OVERSIZED_WORKLOADS",
    "OversizedRow",
    "Workload",
    "measure_oversized",
    "oversized_cells",
]

_TOKENS = {"max_tokens": 256, "tokenizer": "cl100k_base"}
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def latin_words(rng: random.Random, n: int) -> str:
    words = (rng.choices(_LETTERS, k=rng.randint(1, 9)) for _ in range(n // 5 + 1))
    return " ".join("".join(word) for word in words)[:n]


def latin_letters(rng: random.Random, n: int) -> str:
    return "".join(rng.choices(_LETTERS, k=n))


_HAN = [chr(code) for code in range(0x4E00, 0x9FA6)]


def chinese(rng: random.Random, n: int) -> str:
    return "".join(rng.choices(_HAN, k=n))


def chinese_phrases(rng: random.Random, n: int) -> str:
    phrases = (rng.choices(_HAN, k=rng.randint(2, 12)) for _ in range(n // 6 + 1))
    return " ".join("".join(phrase) for phrase in phrases)[:n]


@dataclass(frozen=True)
class Workload:
    """One text kind in one mode: partita at n..8n, the reference at r and 2r."""

    name: str
    make: Callable[[random.Random, int], str]
    options: dict[str, Any]
    n: int
    r: int


OVERSIZED_WORKLOADS: tuple[Workload, ...] = (
    Workload("characters, Latin words", latin_words, {}, 2_000_000, 1_000_000),
    Workload("characters, Latin without spaces", latin_letters, {}, 2_000_000, 1_000_000),
    Workload("characters, Chinese without punctuation", chinese, {}, 2_000_000, 1_000_000),
    Workload("characters, Chinese phrases and spaces", chinese_phrases, {}, 2_000_000, 1_000_000),
    Workload("tokens, Latin words", latin_words, _TOKENS, 250_000, 4_000),
    Workload("tokens, Latin without spaces", latin_letters, _TOKENS, 125_000, 16_000),
    Workload("tokens, Chinese without punctuation", chinese, _TOKENS, 25_000, 8_000),
    Workload("tokens, Chinese phrases and spaces", chinese_phrases, _TOKENS, 50_000, 4_000),
)


@dataclass
class OversizedRow:
    workload: Workload
    seconds: list[float]
    """partita at n, 2n, 4n, 8n."""
    ref_seconds: list[float]
    """The reference at r, 2r."""
    our_at_2r: float
    identical: bool
    """Whether both libraries' chunk texts at 2r are the same."""

    @property
    def exponent(self) -> float:
        return fitted_exponent([self.workload.n * 2**i for i in range(4)], self.seconds)

    @property
    def ref_exponent(self) -> float:
        return fitted_exponent([self.workload.r, 2 * self.workload.r], self.ref_seconds)

    @property
    def ratio(self) -> float:
        return self.ref_seconds[-1] / self.our_at_2r


def fitted_exponent(sizes: Sequence[int], seconds: Sequence[float]) -> float:
    """The slope of the least-squares line through (log size, log seconds)."""
    xs = [math.log(size) for size in sizes]
    ys = [math.log(max(s, 1e-6)) for s in seconds]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    covariance = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    return covariance / sum((x - mean_x) ** 2 for x in xs)


def _timed(
    chunk: Callable[..., Any],
    element: Callable[[str], Any],
    workload: Workload,
    n: int,
    seed: int,
    repeat: int = 1,
) -> tuple[float, list[str]]:
    """Chunking `n` characters of `workload`'s text: the best of `repeat` runs' seconds, and the
    chunk texts."""
    elements = [element(workload.make(random.Random(seed + n), n))]
    options = {**workload.options, "include_orig_elements": False}
    seconds, chunks = best_time(lambda: chunk(elements, **options), repeat)
    return seconds, [c.text for c in chunks]


def measure_oversized(
    ours: Callable[..., Any],
    ours_element: Callable[[str], Any],
    ref: Callable[..., Any],
    ref_element: Callable[[str], Any],
    seed: int,
) -> list[OversizedRow]:
    """Time every workload: `ours`/`ref` are the libraries' `chunk_elements`, `*_element`
    build one NarrativeText of each library from a text."""
    rows = []
    for w in OVERSIZED_WORKLOADS:
        # -- warm up (tokenizer loading, vocabulary tables) at the small size, untimed --
        _timed(ours, ours_element, w, w.r, seed)
        _timed(ref, ref_element, w, w.r // 4, seed)
        seconds = [_timed(ours, ours_element, w, w.n * 2**i, seed, 3)[0] for i in range(4)]
        ref_runs = [_timed(ref, ref_element, w, w.r * 2**i, seed) for i in range(2)]
        our_seconds, our_texts = _timed(ours, ours_element, w, 2 * w.r, seed, 3)
        ref_seconds = [run[0] for run in ref_runs]
        identical = our_texts == ref_runs[-1][1]
        rows.append(OversizedRow(w, seconds, ref_seconds, our_seconds, identical))
        print(f"  measured: oversized element, {w.name}", flush=True)
    return rows


def oversized_cells(row: OversizedRow) -> list[str]:
    """A table row: the workload, partita's times and exponent, the reference's, the ratio."""
    w = row.workload
    return [
        w.name,
        f"{w.n:,}",
        *(f"{s:.3f} s" for s in row.seconds),
        f"{row.exponent:.2f}",
        f"{w.r:,}: " + " / ".join(f"{s:.2f} s" for s in row.ref_seconds),
        f"{row.ref_exponent:.2f}",
        f"{row.ratio:,.1f}x",
        "yes" if row.identical else "NO",
    ]


OVERSIZED_HEADERS = [
    "oversized element (partita)",
    "n chars",
    "n",
    "2n",
    "4n",
    "8n",
    "exponent",
    "reference at r: r / 2r",
    "ref. exponent",
    "ratio at 2r",
    "identical",
]
