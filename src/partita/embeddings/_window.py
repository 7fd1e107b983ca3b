"""Sizing chunks to an embedding model: its window and its own token count.

A model reads at most `max_tokens` of its own tokens (special tokens included) and silently
truncates the rest, so a chunk sized in characters, or in another model's tokens, may lose its
end to the embedder. `ModelWindow.chunking_options()` gives the options that size chunks in the
model's tokens, up to its window: `partita.chunk(elements, "by_title", profile="retrieval",
**window.chunking_options())`.

- `sentence_transformers_window(model)` reads a sentence-transformers model, a loaded one (its
  `max_seq_length` and `tokenizer`) or a model directory (`sentence_bert_config.json`'s
  `max_seq_length`, else `config.json`'s `max_position_embeddings`, and `tokenizer.json` read by
  HuggingFace `tokenizers` with truncation and padding off). Nothing is downloaded.
- `embedder_window(embedder)` reads a `NamedEmbedder`'s `max_tokens` and `count_tokens`.
- A window read from a file is bounded (1 to `MAX_WINDOW` tokens): a corrupt config is a
  `ValueError` naming the file, never a loop over billions of tokens.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["MAX_WINDOW", "ModelWindow", "embedder_window", "sentence_transformers_window"]

MAX_WINDOW = 1 << 20
"""The largest window a model file may declare (tokens)."""


@dataclass(frozen=True, slots=True)
class ModelWindow:
    """A model's window: `max_tokens` of its own tokens, counted by `count_tokens(text)` (special
    tokens included)."""

    max_tokens: int
    count_tokens: Callable[[str], int]

    def chunking_options(self, share: float = 1.0) -> dict[str, Any]:
        """`max_tokens` and `tokenizer` sizing chunks to `share` of this window (all of it by
        default; `profile="retrieval"` measured best at half of all-MiniLM-L6-v2's)."""
        if not 0.0 < share <= 1.0:
            raise ValueError(f"share must be in (0, 1], got {share}")
        return {"max_tokens": max(1, int(self.max_tokens * share)), "tokenizer": self.count_tokens}


def embedder_window(embedder: Any) -> ModelWindow | None:
    """The window of an embedder carrying `max_tokens` and `count_tokens` (a `NamedEmbedder`),
    else None."""
    max_tokens = getattr(embedder, "max_tokens", None)
    count = getattr(embedder, "count_tokens", None)
    if isinstance(max_tokens, int) and max_tokens > 0 and callable(count):
        return ModelWindow(max_tokens, count)
    return None


def sentence_transformers_window(model: Any) -> ModelWindow:
    """The window of a sentence-transformers model: a loaded `SentenceTransformer` or the path
    of its directory (see the module docstring)."""
    if isinstance(model, (str, os.PathLike)):
        return _directory_window(Path(model))
    max_tokens = getattr(model, "max_seq_length", None)
    tokenizer = getattr(model, "tokenizer", None)
    if not isinstance(max_tokens, int) or tokenizer is None:
        raise TypeError("expected a SentenceTransformer (max_seq_length, tokenizer) or a path")

    def count_tokens(text: str) -> int:
        return len(tokenizer(text, add_special_tokens=True, truncation=False)["input_ids"])

    return ModelWindow(_bounded(max_tokens, "max_seq_length"), count_tokens)


def _directory_window(directory: Path) -> ModelWindow:
    config = directory / "sentence_bert_config.json"
    key = "max_seq_length"
    if not config.is_file():
        config, key = directory / "config.json", "max_position_embeddings"
    try:
        value = json.loads(config.read_text(encoding="utf-8"))[key]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{config}: no readable {key} ({error})") from error
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{config}: {key} is not an integer: {value!r}")
    max_tokens = _bounded(value, f"{config}: {key}")
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()

    def count_tokens(text: str) -> int:
        return len(tokenizer.encode(text).ids)

    return ModelWindow(max_tokens, count_tokens)


def _bounded(value: int, what: str) -> int:
    if not 1 <= value <= MAX_WINDOW:
        raise ValueError(f"{what}: a window of {value} tokens is outside 1..{MAX_WINDOW}")
    return value
