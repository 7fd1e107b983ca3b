"""Sentence vectors for the "semantic" strategy: the embedder an option names, each distinct
sentence embedded once per run, in batches, cached on disk when the model has a name.

- `embedder` is None or `"minilm"` (all-MiniLM-L6-v2, the `embed` extra), `"module:function"`
  (`partita.embeddings.model_named`), or any callable from texts to vectors, normalized by
  `partita.embeddings.embed` (a `CachedEmbedder` is used as given).
- The disk cache (`partita.embeddings.CachedEmbedder`) wraps models with a `model_id` (those
  `partita.embeddings` makes, and those named on the command line) unless `embedding_cache` is
  off; a path (or a string) puts it there, else it is `default_cache_directory()`. An anonymous
  callable has no id to key vectors by: it is not cached on disk.
- Within a run the texts are deduplicated: a sentence repeated in a document is embedded once.
  The distinct texts go to the embedder `BATCH` at a time, in document order.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from partita.embeddings import CachedEmbedder, Embedder, Vectors, embed, model_named

__all__ = ["BATCH", "embed_distinct", "embedder_of"]

BATCH = 2048
"""Distinct texts per call of the embedder (which batches further inside, e.g. 32 for MiniLM)."""

_OFF = frozenset({"off", "none", "false", "0"})


def embedder_of(embedder: Any, cache: Any) -> Embedder:
    """The embedder the `embedder` and `embedding_cache` options name (module docstring)."""
    if isinstance(embedder, CachedEmbedder):
        return embedder
    spec = "minilm" if embedder is None else embedder
    model = model_named(spec) if isinstance(spec, str) else spec
    model_id = getattr(model, "model_id", spec if isinstance(spec, str) else None)
    if cache is False or (isinstance(cache, str) and cache.lower() in _OFF) or model_id is None:
        return _Normalized(model)
    directory = None if cache is None or cache is True else os.fspath(cache)
    return CachedEmbedder(model, model_id, directory)


class _Normalized:
    """A model whose results are checked and normalized (`partita.embeddings.embed`)."""

    __slots__ = ("_model",)

    def __init__(self, model: Any) -> None:
        self._model = model

    def __call__(self, texts: Sequence[str], /) -> Vectors:
        return embed(self._model, texts)


def embed_distinct(texts: Sequence[str], embedder: Embedder) -> Vectors:
    """The vectors of `texts`, one row each; each distinct text is embedded once."""
    rows: dict[str, int] = {}
    order = [rows.setdefault(text, len(rows)) for text in texts]
    distinct = list(rows)
    parts = [embedder(distinct[i : i + BATCH]) for i in range(0, len(distinct), BATCH)]
    if not parts:
        return np.zeros((0, 0), dtype=np.float32)
    vectors = np.concatenate(parts) if len(parts) > 1 else parts[0]
    return vectors[np.asarray(order, dtype=np.intp)]
