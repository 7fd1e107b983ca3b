"""Page hit and evidence recall: retrieval scored against evidence pages (FinanceBench's form).

A question of this form names its evidence by page and text (`_questions.Evidence`); the text is
the dataset's own extraction of the PDF, so it is not searched for character by character in the
partitioned text. Instead:

- **Page hit** (per question, 0 or 1): some retrieved chunk lies on an evidence page, that is,
  its span in the document shares a character with the page's region (`page_regions`). A chunk
  running over two pages lies on both.
- **Evidence recall** (per question, 0 to 1): the share of the evidence text's words found in
  the retrieved text of its page. The words are `\\w+` runs, lowercased, counted with
  multiplicity (a word the evidence has three times is found three times only if the retrieved
  part of the page has it three times); the retrieved text of a page is the document's text
  where the retrieved chunks' spans cover the page's region, each character once however many
  chunks hold it. So text retrieved from other pages counts for nothing, reading order does not
  matter (a table read row by row or column by column has the same words), and a heading prefix a
  chunking adds is not evidence. Passages are pooled: Σ found / Σ words over the question's
  evidence. A partitioner that loses words of the page lowers the ceiling for every chunking
  alike.
- **Evidence recall on any page** (per question, 0 to 1): the share of the evidence text covered
  by all of the question's retrieved text, whatever page it is on (`evidence_text_recall`). The
  words here are whitespace-separated and case-folded, and an evidence word is covered when it
  lies in a run of `MATCH_WORDS` consecutive evidence words that one retrieved text holds
  consecutively: scattered common words cover nothing, a sentence or a table row the document
  repeats elsewhere (a statement's total quoted in the discussion of results) does. Each word
  weighs its characters, as span recall counts characters. The retrieved text is the document's
  text under the union of the retrieved spans, one text per unbroken range.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from partita.evaluation._questions import Evidence
from partita.evaluation._spans import Span

__all__ = [
    "MATCH_WORDS",
    "evidence_recall",
    "evidence_recall_any_page",
    "evidence_text_recall",
    "page_hit",
    "words",
]

_WORD = re.compile(r"\w+")

MATCH_WORDS = 3
"""Consecutive evidence words a retrieved text must hold, in order, to cover them."""


def words(text: str) -> Counter[str]:
    """The words of `text` (lowercased `\\w+` runs) and how often each occurs."""
    return Counter(match.group().lower() for match in _WORD.finditer(text))


def _shares_a_character(a: Span, b: Span) -> bool:
    return a.corpus == b.corpus and max(a.start, b.start) < min(a.end, b.end)


def page_hit(evidence: Sequence[Evidence], retrieved: Iterable[Span]) -> bool:
    """Whether a retrieved span lies on one of the evidence pages (see the module docstring)."""
    regions = [e.region for e in evidence]
    return any(_shares_a_character(span, region) for span in retrieved for region in regions)


def _covered(region: Span, retrieved: Sequence[Span]) -> list[tuple[int, int]]:
    """The union of `retrieved` within `region`, as sorted disjoint ranges."""
    pieces = sorted(
        (max(s.start, region.start), min(s.end, region.end))
        for s in retrieved
        if _shares_a_character(s, region)
    )
    merged: list[tuple[int, int]] = []
    for low, high in pieces:
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def evidence_recall(
    evidence: Sequence[Evidence], retrieved: Sequence[Span], texts: Mapping[str, str]
) -> float:
    """The share of the evidence's words in the retrieved text of its pages (see the module
    docstring); `texts` maps a document key to its text. 0 for evidence without words."""
    wanted = found = 0
    for passage in evidence:
        expected = words(passage.text)
        total = sum(expected.values())
        if not total:
            continue
        text = texts.get(passage.region.corpus, "")
        got = words(" ".join(text[a:b] for a, b in _covered(passage.region, retrieved)))
        wanted += total
        found += sum(min(count, got[word]) for word, count in expected.items())
    return found / wanted if wanted else 0.0


def evidence_text_recall(evidence: Iterable[str], retrieved: Iterable[str]) -> float:
    """The share of the evidence texts' characters covered by the `retrieved` texts: each
    evidence word (whitespace-separated, case-folded) is covered when it lies in a run of
    `MATCH_WORDS` consecutive evidence words that one retrieved text holds consecutively, and
    weighs its length; pooled over the evidence texts, 0 for evidence without words."""
    runs: set[tuple[str, ...]] = set()
    for text in retrieved:
        held = text.casefold().split()
        runs.update(zip(*(held[i:] for i in range(MATCH_WORDS)), strict=False))
    covered = total = 0
    for text in evidence:
        wanted = text.casefold().split()
        hit = [False] * len(wanted)
        for i in range(len(wanted) - MATCH_WORDS + 1):
            if tuple(wanted[i : i + MATCH_WORDS]) in runs:
                hit[i : i + MATCH_WORDS] = [True] * MATCH_WORDS
        covered += sum(len(word) for word, is_hit in zip(wanted, hit, strict=True) if is_hit)
        total += sum(len(word) for word in wanted)
    return covered / total if total else 0.0


def evidence_recall_any_page(
    evidence: Sequence[Evidence], retrieved: Sequence[Span], texts: Mapping[str, str]
) -> float:
    """The share of the evidence text covered by the retrieved text of its documents, on any
    page (`evidence_text_recall`; see the module docstring); `texts` maps a document key to its
    text. 0 for evidence without words."""
    documents = {passage.region.corpus for passage in evidence}
    held = [
        texts.get(corpus, "")[a:b]
        for corpus in sorted(documents)
        for a, b in _covered(Span(corpus, 0, len(texts.get(corpus, ""))), retrieved)
    ]
    return evidence_text_recall((passage.text for passage in evidence), held)
