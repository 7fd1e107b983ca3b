"""What a configuration's chunks are like on their own: sizes, boundaries, coherence.

Metrics (the usual intrinsic ones, and the defects found in real chunks):

- **Sizes** in characters and in tokens (cl100k_base): mean, median, p95, max; the share of
  chunks above the embedding model's window, counted by the model's own tokenizer (what it
  silently truncates); a histogram of token sizes for the report.
- **Mid-sentence ends**: the share of chunks whose text ends neither at the end of an element
  (a paragraph, heading, list item, cell) nor after sentence-ending punctuation (`. ! ? 。！？…`,
  closing quotes and brackets after it allowed).
- **Orphaned headings**: chunks that end with a `Title` whose body starts the next chunk (a
  chunk's last provenance record is a whole title, and a chunk follows).
- **Semantic coherence**: per chunk, the mean pairwise cosine similarity of its
  sentences (a one-sentence chunk scores 1), averaged over chunks (a deterministic sample of at
  most `COHERENCE_SAMPLE` chunks: it embeds every sentence of every sampled chunk).
- **Boundary quality**: the mean of 1 − cosine similarity of adjacent chunks of the
  same document: higher means cuts fall where the topic changes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from partita._charts import histogram_bins
from partita.elements import Element, Title
from partita.text.sentences import split_sentences

__all__ = [
    "COHERENCE_SAMPLE",
    "boundary_quality",
    "distribution",
    "histogram",
    "is_mid_sentence",
    "orphaned_headings",
    "semantic_coherence",
]

COHERENCE_SAMPLE = 200
"""The most chunks whose sentences are embedded for semantic coherence."""

_ENDS = frozenset(".!?。！？…")
_CLOSERS = "\"'”’)]}」』》）"

Vectors = Callable[[Sequence[str]], Any]
"""Texts to an L2-normalized float matrix (the embedding layer)."""


def distribution(values: Sequence[int]) -> dict[str, float]:
    """Mean, median, p95 (nearest rank) and max of `values` (zeros when empty)."""
    if not values:
        return {"mean": 0.0, "median": 0.0, "p95": 0.0, "max": 0}
    ordered = sorted(values)
    n = len(ordered)
    middle = n // 2
    median = ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    p95 = ordered[max(0, math.ceil(0.95 * n) - 1)]
    return {
        "mean": sum(ordered) / n,
        "median": float(median),
        "p95": float(p95),
        "max": ordered[-1],
    }


def histogram(values: Sequence[int], bins: int = 20) -> dict[str, Any]:
    """`bins` equal-width bins from 0 to the largest value (`_charts.histogram_bins`):
    `{"unit", "edges", "counts"}`."""
    edges, counts = histogram_bins(values, bins)
    return {"unit": "tokens", "edges": edges, "counts": counts}


def is_mid_sentence(chunk: Element, elements: Mapping[str, Element]) -> bool:
    """Whether `chunk` ends inside a sentence (see the module docstring)."""
    records = (chunk.metadata.extra or {}).get("sources") or ()
    if records:
        last = records[-1]
        element = elements.get(last["element_id"])
        if element is not None and not element.text[last["end"] :].strip():
            return False
    text = chunk.text.rstrip().rstrip(_CLOSERS)
    return not text or text[-1] not in _ENDS


def orphaned_headings(chunks: Sequence[Element], elements: Mapping[str, Element]) -> int:
    """The chunks (all but the last) that end with a whole `Title`."""
    count = 0
    for chunk in chunks[:-1]:
        records = (chunk.metadata.extra or {}).get("sources") or ()
        if not records:
            continue
        last = records[-1]
        element = elements.get(last["element_id"])
        if isinstance(element, Title) and len(records) > 1 and last["start"] == 0:
            count += 1
    return count


def semantic_coherence(chunks: Sequence[Element], vectors: Vectors) -> float | None:
    """The mean over (sampled) chunks of the mean pairwise similarity of their sentences."""
    if not chunks:
        return None
    step = max(1, math.ceil(len(chunks) / COHERENCE_SAMPLE))
    sample = chunks[::step]
    sentences = [split_sentences(c.text) for c in sample]
    flat = [s for group in sentences for s in group if len(group) > 1]
    matrix = vectors(flat) if flat else None
    scores: list[float] = []
    row = 0
    for group in sentences:
        n = len(group)
        if n < 2:
            scores.append(1.0)
            continue
        assert matrix is not None
        block = matrix[row : row + n]
        row += n
        similarity = block @ block.T
        total = (float(similarity.sum()) - float(similarity.trace())) / 2
        scores.append(total / (n * (n - 1) / 2))
    return sum(scores) / len(scores)


def boundary_quality(documents: Sequence[Any]) -> float | None:
    """The mean of 1 − similarity of adjacent chunk vectors, per document (`documents`: one
    normalized matrix per document, its chunks in order)."""
    differences: list[float] = []
    for matrix in documents:
        for i in range(len(matrix) - 1):
            differences.append(1.0 - float(matrix[i] @ matrix[i + 1]))
    return sum(differences) / len(differences) if differences else None
