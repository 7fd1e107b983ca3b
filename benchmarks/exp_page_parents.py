"""Experiment: would whole pages, found through the profile's small chunks, beat one chunk per page?

FinanceBench's development set as `bench_financebench.py` reads it (its cached elements and
embeddings). For each question, within its own filing, the pages are ordered two ways and taken
while they fit 4,000 and 10,000 characters (and at top-5):

- `first-hit`: the pages of the best-ranked profile chunks, in the order a chunk first lands on
  them (small-to-big with page parents);
- `best+page`: each page scored by its own similarity plus that of its best profile chunk;
- `best-3+page`: each page scored by its own similarity plus the mean of its best three profile
  chunks' (of its best one or two when it has fewer).

Scored by `partita.evaluation.evidence` (page hit, evidence recall), for the profile at 64 and at
128 tokens. Run after `bench_financebench.py` (which caches the elements and embeddings):

    python benchmarks/exp_page_parents.py [SPEC...]   # default: the two of `SPECS`

Measured 2026-12-03 (one chunk per page: 43.2 / 36.1 at 4,000 characters, 59.5 / 51.5 at
10,000): `first-hit` 24.3 / 18.1 and 29.7 / 24.6 at 64 tokens, 35.1 / 27.4 and 48.6 / 39.1 at
128; `best+page` 43.2 / 35.7 and 56.8 / 50.4 at 64, 43.2 / 35.8 and 54.1 / 46.6 at 128. The best
small chunk lands on an evidence page less often than the best page does, so page parents do not
lift evidence recall above one chunk per page with this embedder. Measured 2026-12-03 at 128
tokens (the two orderings above re-measured identically): `best-3+page` 48.6 / 41.2 within
4,000 characters (+5.4 / +5.1 over one chunk per page) and 59.5 / 53.1 within 10,000 (+0.0 /
+1.6): the pages' own ranking, nudged by their chunks, gains about 5 points at 4,000 characters,
not the 10 the targets ask. (In another experiment, ranking the profile's chunks by BM25 fused
with MiniLM, or growing each hit to 1,000 to 2,000 characters of its neighbours, lowered
evidence recall at 4,000 characters.)
"""

from __future__ import annotations

import bisect
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_financebench import DATA, load_documents  # benchmarks/ is on sys.path

SPECS = ("by_title:profile=retrieval,max_tokens=64", "by_title:profile=retrieval")
BUDGETS = (4000, 10000, None)


def main() -> None:
    import numpy as np

    from partita.embeddings import embedder_named
    from partita.evaluation._configurations import parse_configuration
    from partita.evaluation._questions import read_questions
    from partita.evaluation._retrieval import token_budget_prefix
    from partita.evaluation._run import _chunk_all, _embedded
    from partita.evaluation.evidence import evidence_recall, page_hit

    temp = Path(tempfile.gettempdir())
    docs = load_documents(temp / "partita-bench-financebench-elements", None)
    texts = {d.name: d.text for d in docs}
    regions = {d.name: d.page_regions() for d in docs}
    questions = read_questions(DATA / "questions.jsonl", texts, regions)
    embed = embedder_named("minilm", os.path.join(temp, "partita-bench-financebench"))

    def normalized(matrix: Any) -> Any:
        return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)

    pages = _chunk_all(parse_configuration("pages"), docs)
    page_vectors = normalized(_embedded(embed, [c.text for c in pages.chunks], None))
    question_vectors = normalized(np.asarray(embed([q.text for q in questions]), dtype=np.float32))
    page_lengths = [len(c.text) for c in pages.chunks]

    def first_page(span: Any, page_ids: list[int]) -> int | None:
        """The first of `page_ids` (pages of one document, in order) that `span` overlaps."""
        starts = [pages.spans[p].start for p in page_ids]
        at = max(bisect.bisect_right(starts, span.start) - 1, 0)
        for p in page_ids[at:]:
            page = pages.spans[p]
            if page.start >= span.end:
                return None
            if page.corpus == span.corpus and max(page.start, span.start) < page.end:
                return p
        return None

    for spec in sys.argv[1:] or SPECS:
        small = _chunk_all(parse_configuration(spec), docs)
        small_vectors = normalized(_embedded(embed, [c.text for c in small.chunks], None))
        results: dict[tuple[str, int | None], list[list[float]]] = {}
        for qi, question in enumerate(questions):
            doc = question.references[0].corpus if question.references else ""
            page_ids = [i for i, d in enumerate(pages.documents) if d == doc]
            chunk_ids = [i for i, d in enumerate(small.documents) if d == doc]
            chunk_sims = small_vectors[chunk_ids] @ question_vectors[qi]
            sims = page_vectors[page_ids] @ question_vectors[qi]
            page_sims = dict(zip(page_ids, sims, strict=True))
            page_of = {c: first_page(small.spans[c], page_ids) for c in chunk_ids}
            first_hit: list[int] = []
            best: dict[int, float] = {}
            best_three: dict[int, list[float]] = {}
            for j in np.argsort(-chunk_sims, kind="stable"):
                page = page_of[chunk_ids[j]]
                if page is None:
                    continue
                if page not in best:
                    first_hit.append(page)
                    best[page] = float(chunk_sims[j])
                if len(best_three.setdefault(page, [])) < 3:
                    best_three[page].append(float(chunk_sims[j]))
            fused = sorted(page_ids, key=lambda p: -(best.get(p, -1.0) + float(page_sims[p])))
            voted = sorted(
                page_ids,
                key=lambda p: -(float(np.mean(best_three.get(p, [-1.0]))) + float(page_sims[p])),
            )
            orders = (("first-hit", first_hit), ("best+page", fused), ("best-3+page", voted))
            for name, order in orders:
                for budget in BUDGETS:
                    chosen = (
                        order[:5]
                        if budget is None
                        else list(token_budget_prefix(order, page_lengths, budget))
                    )
                    spans = [pages.spans[i] for i in chosen]
                    row = results.setdefault((name, budget), [[], [], []])
                    row[0].append(page_hit(question.evidence, spans))
                    row[1].append(evidence_recall(question.evidence, spans, texts))
                    row[2].append(sum(page_lengths[i] for i in chosen))
        for (name, budget), (hits, recalls, chars) in sorted(
            results.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)
        ):
            print(
                f"{spec:45s} {name:10s} {budget or 'top-5'!s:6s}"
                f" page hit {100 * np.mean(hits):5.1f} evidence {100 * np.mean(recalls):5.1f}"
                f" characters {np.mean(chars):7,.0f}"
            )


if __name__ == "__main__":
    main()
