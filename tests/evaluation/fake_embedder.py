"""A deterministic embedder for fast tests: words hashed into 256 buckets, L2-normalized.

Texts sharing words are close, which is enough for retrieval over a tiny corpus to find the
passage that repeats a question's words. `make` is what
`--embedder tests.evaluation.fake_embedder:make`
loads.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

DIMENSIONS = 256


class HashEmbedder:
    """Bag of lower-cased words, hashed (crc32) into `DIMENSIONS` buckets."""

    model_id = "test/hash-256"
    dimensions = DIMENSIONS
    max_tokens = 128

    def __init__(self) -> None:
        self.calls = 0
        self.texts = 0

    def count_tokens(self, text: str) -> int:
        return len(re.findall(r"\w+|[^\w\s]", text))

    def __call__(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls += 1
        self.texts += len(texts)
        matrix = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                matrix[row, zlib.crc32(word.encode()) % DIMENSIONS] += 1.0
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return matrix / norms


def make() -> HashEmbedder:
    """A fresh `HashEmbedder` (the CLI's `--embedder module:function` hook)."""
    return HashEmbedder()
