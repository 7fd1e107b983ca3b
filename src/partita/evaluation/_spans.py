"""Character-span metrics of retrieval, exactly as Chroma's chunking evaluation computes them.

The reference is `BaseEvaluation` of brandonstarxel/chunking_evaluation ("Evaluating Chunking
Strategies for Retrieval", Chroma 2024): `src/chunking_evaluation/evaluation_framework/
base_evaluation.py` at 35440b84e4564663157b825faec5968d4375399d (cited below as `base:LINE`) and
its range helpers, `chunking_evaluation/evaluation_framework/evaluation_utils.py` at
65f06cd14575d96353bf7c1e210374435d98138f (`utils:LINE`). A span is a half-open character range
`[start, end)` of one corpus, as theirs are (`end_index = start_index + len(text)`).

Per question, given its reference spans and the retrieved chunks' spans:

- `recall` = covered reference characters / Σ reference lengths.
- `precision` = covered reference characters / Σ retrieved chunk lengths.
- `iou` = covered / (Σ retrieved chunk lengths + Σ uncovered reference pieces).
- `precision_omega` = covered / |union of every chunk of the corpus meeting a reference, and the
  uncovered reference pieces| -- the best a retriever could do with that chunking.

"Covered" is always a union: a reference character under two chunks counts once. Their figure
for a run is the plain mean of the per-question scores (`base:680-687`, `np.mean`), and the
spread the population standard deviation (`np.std`, ddof 0): `summarize_span_scores`.

Their quirks, each followed here on purpose:

1. Touching meets. `intersect_two_ranges` accepts an empty intersection (`utils:39`,
   `if intersect_start <= intersect_end`), so a chunk ending where a reference starts (or
   starting where it ends) meets it. That adds nothing to the covered characters, but for
   precision_Ω the touching chunk is "highlighted": it enters the denominator (`base:153-158`,
   `165`) and `highlighted_chunks` (`base:160-161`). With chunks [0,5) [5,10) [10,15) and the
   reference [5,10), precision_Ω is 5/15, not 1.
2. References are summed, not unioned: the recall denominator is Σ reference lengths
   (`base:232-234`) and the uncovered pieces are kept one list per reference (`base:203`,
   `utils:44-64`), so overlapping or repeated references count their shared characters twice
   in the recall denominator and, while uncovered, in the IoU denominator -- whereas the
   covered numerator is a union (`base:226`, `231`). A reference given twice caps recall at 0.5.
3. Retrieved chunks are summed, not unioned (`base:235-240`): chunks overlapping each other (a
   chunker with overlap), a chunk retrieved twice, and chunks of another corpus all count every
   character in the precision and IoU denominators. The corpus filter (`base:212`) guards only
   the numerator.
4. The IoU denominator is Σ retrieved + Σ uncovered reference pieces (`base:241`); it equals
   retrieved + reference − covered only when the references are disjoint (quirk 2).
5. precision_Ω divides by a union (`base:165`), unlike precision: it is |R ∩ C| / |C ∪ R| over
   the highlighted chunks C (quirk 1), so reference characters no chunk holds (a gap a splitter
   dropped) lower it. It is 0 when no chunk meets a reference (`base:166-172`).
6. A zero denominator gives 0 (`base:243-254`). Their precision_Ω would raise on one
   (`base:168`; possible only when every highlighted chunk and uncovered piece is empty); here
   it is 0 too.
7. Only chunks of the question's corpus are compared (`base:138`, `212`); a Chroma question has
   one corpus. References of several corpora are computed corpus by corpus and summed, which
   for one corpus is theirs exactly.
8. Retrieving with `retrieve=-1` (`base:655-659`) gives each question as many chunks as it has
   highlighted chunks (quirk 1 included), capped at min(20, the largest count):
   `chroma_adaptive_depths`.

Not mirrored, because spans here are given rather than found: their chunk spans come from
searching each chunk's text in the corpus (`base:86`, `rigorous_document_search` of the
package's `utils.py`), which places a repeated text at its first occurrence and drops a trailing
period before searching -- so their chunks ending in "." end a character early, and the gaps
left lower precision_Ω (quirk 5).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "CHROMA_MAX_ADAPTIVE_DEPTH",
    "CorpusChunks",
    "OmegaScore",
    "Span",
    "SpanOverlap",
    "SpanScores",
    "SpanSummary",
    "chroma_adaptive_depths",
    "precision_omega",
    "span_overlap",
    "span_scores",
    "summarize_span_scores",
]

_Range = tuple[int, int]

CHROMA_MAX_ADAPTIVE_DEPTH = 20
"""The cap on `retrieve=-1` depths (`base:656`)."""


@dataclass(frozen=True, slots=True)
class Span:
    """The half-open character range `[start, end)` of one corpus."""

    corpus: str
    start: int
    end: int

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ValueError(f"a span needs 0 <= start <= end, got [{self.start}, {self.end})")

    @property
    def length(self) -> int:
        """Its number of characters."""
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class SpanOverlap:
    """One question's recall, precision and IoU of its retrieved chunks (`base:178-256`)."""

    recall: float
    precision: float
    iou: float


@dataclass(frozen=True, slots=True)
class OmegaScore:
    """One question's precision_Ω and its number of highlighted chunks (`base:106-176`)."""

    precision_omega: float
    highlighted_chunks: int


@dataclass(frozen=True, slots=True)
class SpanScores:
    """One question's four figures, or their mean or spread over questions."""

    recall: float
    precision: float
    iou: float
    precision_omega: float


@dataclass(frozen=True, slots=True)
class SpanSummary:
    """The mean and population standard deviation of each figure over questions."""

    mean: SpanScores
    std: SpanScores
    questions: int


# -- the range helpers, one for one with `utils:3-64` --


def _total(ranges: Iterable[_Range]) -> int:
    """Σ lengths, overlaps counted again (`sum_of_ranges`, `utils:3-7`)."""
    return sum(end - start for start, end in ranges)


def _merged(ranges: Iterable[_Range]) -> list[_Range]:
    """Overlapping and touching ranges merged (`union_ranges`, `utils:9-27`)."""
    merged: list[_Range] = []
    for start, end in sorted(ranges, key=lambda r: r[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _meeting(a: _Range, b: _Range) -> _Range | None:
    """The intersection, empty when they only touch; None when apart (`utils:29-42`)."""
    start, end = max(a[0], b[0]), min(a[1], b[1])
    return (start, end) if start <= end else None


def _without(ranges: Iterable[_Range], cut: _Range) -> list[_Range]:
    """Each range minus `cut`, pieces kept apart (`difference`, `utils:44-64`)."""
    cut_start, cut_end = cut
    kept: list[_Range] = []
    for start, end in ranges:
        if end < cut_start or start > cut_end:
            kept.append((start, end))
            continue
        if start < cut_start:
            kept.append((start, cut_start))
        if end > cut_end:
            kept.append((cut_end, end))
    return kept


def _references_by_corpus(references: Iterable[Span]) -> dict[str, list[_Range]]:
    by_corpus: dict[str, list[_Range]] = {}
    for reference in references:
        by_corpus.setdefault(reference.corpus, []).append((reference.start, reference.end))
    return by_corpus


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else 0.0


def span_overlap(references: Sequence[Span], retrieved: Sequence[Span]) -> SpanOverlap:
    """Recall, precision and IoU of `retrieved` (already cut to the k retrieved) for one question.

    The rank order does not matter. Mirrors `base:195-254`, with quirks 1-4, 6 and 7.
    """
    references_of = _references_by_corpus(references)
    uncovered = {corpus: list(ranges) for corpus, ranges in references_of.items()}
    cuts: dict[str, list[_Range]] = {corpus: [] for corpus in references_of}
    for chunk in retrieved:
        for reference in references_of.get(chunk.corpus, ()):
            cut = _meeting((chunk.start, chunk.end), reference)
            if cut is not None:
                uncovered[chunk.corpus] = _without(uncovered[chunk.corpus], cut)
                cuts[chunk.corpus].append(cut)

    covered = sum(_total(_merged(corpus_cuts)) for corpus_cuts in cuts.values())
    reference_chars = sum(reference.length for reference in references)
    retrieved_chars = sum(chunk.length for chunk in retrieved)
    uncovered_chars = sum(_total(pieces) for pieces in uncovered.values())
    return SpanOverlap(
        recall=_ratio(covered, reference_chars),
        precision=_ratio(covered, retrieved_chars),
        iou=_ratio(covered, retrieved_chars + uncovered_chars),
    )


class CorpusChunks:
    """Every chunk a chunking cut the corpora into, indexed to find those meeting a range.

    Chunks are kept as given, repeats included (a repeated chunk is highlighted once per copy,
    as in `base:131-161`).
    """

    __slots__ = ("_by_corpus", "_count")

    def __init__(self, chunks: Iterable[Span]) -> None:
        grouped: dict[str, list[_Range]] = {}
        count = 0
        for chunk in chunks:
            grouped.setdefault(chunk.corpus, []).append((chunk.start, chunk.end))
            count += 1
        self._count = count
        import numpy as np  # -- on first use: a core install without numpy reads `Span` --

        self._by_corpus: dict[str, tuple[NDArray[np.int64], NDArray[np.int64], int]] = {}
        for corpus, ranges in grouped.items():
            ordered = np.array(sorted(ranges), dtype=np.int64).reshape(-1, 2)
            starts, ends = ordered[:, 0].copy(), ordered[:, 1].copy()
            self._by_corpus[corpus] = (starts, ends, int((ends - starts).max()))

    def __len__(self) -> int:
        return self._count

    def meeting_any(self, corpus: str, ranges: Iterable[_Range]) -> list[_Range]:
        """The chunks of `corpus` meeting any of `ranges`, each chunk once per copy."""
        entry = self._by_corpus.get(corpus)
        if entry is None:
            return []
        import numpy as np

        starts, ends, longest = entry
        hit = np.zeros(len(starts), dtype=np.bool_)
        for start, end in ranges:
            low = int(np.searchsorted(starts, start - longest, side="left"))
            high = int(np.searchsorted(starts, end, side="right"))
            hit[low:high] |= ends[low:high] >= start
        return [(int(starts[i]), int(ends[i])) for i in np.flatnonzero(hit)]


def precision_omega(references: Sequence[Span], chunks: CorpusChunks) -> OmegaScore:
    """precision_Ω of one question over every chunk of its corpus, and the highlighted count.

    Mirrors `base:121-174`, with quirks 1, 2, 5, 6 and 7. Chunks meeting no reference change
    nothing there, so only the chunks meeting one are visited.
    """
    covered = 0
    denominator = 0
    highlighted = 0
    any_cut = False
    for corpus, corpus_references in _references_by_corpus(references).items():
        uncovered = list(corpus_references)
        cuts: list[_Range] = []
        highlighted_ranges: list[_Range] = []
        for chunk in chunks.meeting_any(corpus, corpus_references):
            meets = False
            for reference in corpus_references:
                cut = _meeting(chunk, reference)
                if cut is not None:
                    meets = True
                    uncovered = _without(uncovered, cut)
                    cuts.append(cut)
            if meets:
                highlighted += 1
                highlighted_ranges.append(chunk)
        any_cut = any_cut or bool(cuts)
        covered += _total(_merged(cuts))
        denominator += _total(_merged(highlighted_ranges + uncovered))
    omega = _ratio(covered, denominator) if any_cut else 0.0
    return OmegaScore(precision_omega=omega, highlighted_chunks=highlighted)


def span_scores(
    references: Sequence[Span], retrieved: Sequence[Span], chunks: CorpusChunks
) -> SpanScores:
    """All four figures of one question: `span_overlap` and `precision_omega` together."""
    overlap = span_overlap(references, retrieved)
    omega = precision_omega(references, chunks)
    return SpanScores(
        recall=overlap.recall,
        precision=overlap.precision,
        iou=overlap.iou,
        precision_omega=omega.precision_omega,
    )


def summarize_span_scores(scores: Sequence[SpanScores]) -> SpanSummary:
    """The per-question mean and population spread of each figure (`base:679-688`).

    Questions weigh alike, however long their references: characters are not pooled.
    """
    if not scores:
        raise ValueError("no questions to summarize")
    import numpy as np

    names = [field.name for field in fields(SpanScores)]
    table = np.array([[getattr(s, name) for name in names] for s in scores], dtype=np.float64)
    means, spreads = table.mean(axis=0), table.std(axis=0)
    return SpanSummary(
        mean=SpanScores(*(float(v) for v in means)),
        std=SpanScores(*(float(v) for v in spreads)),
        questions=len(scores),
    )


def chroma_adaptive_depths(highlighted_chunks: Sequence[int]) -> tuple[int, ...]:
    """Each question's k under `retrieve=-1` (`base:655-656`, then `metadatas[:count]`, `205`).

    Their query asks every question for min(20, largest count) chunks and each question keeps
    its own count of them.
    """
    if not highlighted_chunks:
        return ()
    depth = min(CHROMA_MAX_ADAPTIVE_DEPTH, max(highlighted_chunks))
    return tuple(min(count, depth) for count in highlighted_chunks)
