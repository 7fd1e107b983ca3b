"""The embedder contract: texts in, float32 rows of unit L2 norm out (see `partita.embeddings`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt

__all__ = ["Embedder", "NamedEmbedder", "RawEmbedder", "Vectors", "embed", "normalize"]

Vectors = npt.NDArray[np.float32]
"""Embeddings, one row per text: float32, shape `(len(texts), dim)`, rows of unit L2 norm."""

RawEmbedder = Callable[[Sequence[str]], npt.ArrayLike]
"""A model as given: texts in, an array-like of shape `(len(texts), dim)` out, any dtype or norm."""


class Embedder(Protocol):
    """Texts in, `Vectors` out: float32, one unit-norm row per text."""

    def __call__(self, texts: Sequence[str], /) -> Vectors: ...


def normalize(vectors: npt.ArrayLike, rows: int | None = None) -> Vectors:
    """Return `vectors` as a new float32 array whose rows have unit L2 norm (zero rows stay zero).

    Raise `ValueError` when `vectors` is not 2-D, has not `rows` rows (when given), or holds a NaN
    or an infinity.
    """
    array = np.asarray(vectors, dtype=np.float64)
    if array.ndim != 2:
        raise ValueError(f"embeddings must be a 2-D array (texts x dimensions), not {array.shape}")
    if rows is not None and array.shape[0] != rows:
        raise ValueError(f"{array.shape[0]} embeddings for {rows} texts")
    if not np.isfinite(array).all():
        raise ValueError("embeddings hold a NaN or an infinity")
    # -- each row scaled by its largest magnitude first, so that squaring cannot overflow --
    largest = np.abs(array).max(axis=1, initial=0.0, keepdims=True)
    scaled = np.zeros_like(array)
    np.divide(array, largest, out=scaled, where=largest > 0)
    norms = np.linalg.norm(scaled, axis=1, keepdims=True)
    np.divide(scaled, norms, out=scaled, where=norms > 0)
    return scaled.astype(np.float32)


def embed(model: RawEmbedder, texts: Sequence[str], dimensions: int | None = None) -> Vectors:
    """Return `model`'s embeddings of `texts`, checked and normalized (see `normalize`).

    `model` receives `texts` as a list; with no texts it is not called and the result has
    `dimensions` (or 0) columns. Raise `ValueError` when `dimensions` is given and differs from
    the model's.
    """
    check_texts(texts)
    if not texts:
        return np.zeros((0, dimensions or 0), dtype=np.float32)
    vectors = normalize(model(list(texts)), rows=len(texts))
    if dimensions is not None and vectors.shape[1] != dimensions:
        raise ValueError(f"the model gave {vectors.shape[1]} dimensions, not {dimensions}")
    return vectors


def check_texts(texts: Sequence[str]) -> None:
    if isinstance(texts, str):
        raise TypeError("texts must be a sequence of strings, not one string")


@dataclass(frozen=True, slots=True)
class NamedEmbedder:
    """A model with its name and size: an `Embedder` whose results are checked and normalized.

    `max_tokens` is the longest input the model reads whole and `count_tokens(text)` the length
    of its input for `text`, special tokens included (`None` when unknown).
    """

    model: RawEmbedder = field(repr=False)
    model_id: str
    dimensions: int
    max_tokens: int | None = None
    count_tokens: Callable[[str], int] | None = field(default=None, repr=False)

    def __call__(self, texts: Sequence[str], /) -> Vectors:
        """Return the embeddings of `texts` (see `embed`)."""
        return embed(self.model, texts, self.dimensions)
