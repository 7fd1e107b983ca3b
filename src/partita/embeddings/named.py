"""An embedder from the name a command line gives it: `minilm`, `none` or `module:function`."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from partita.embeddings.cache import CachedEmbedder
from partita.embeddings.models import default_embedder

__all__ = ["embedder_named"]


def embedder_named(spec: str, cache_dir: str | Path | None = None) -> CachedEmbedder | None:
    """The embedder `spec` names, its vectors cached on disk under `cache_dir` (default
    `default_cache_directory()`): `"minilm"` is `default_embedder()`, `"none"` is None, and
    `"module:function"` calls `function()` from `module` for any callable from texts to vectors
    (its `model_id`, when it has one, keys the cache; else `spec` does).

    Raise `ValueError` for a `spec` of none of these forms, `ImportError` when its module (or the
    `embed` extra, for `minilm`) is missing and `AttributeError` when the function is.
    """
    if spec == "none":
        return None
    if spec == "minilm":
        model: Any = default_embedder()
    else:
        module_name, _, function_name = spec.partition(":")
        if not module_name or not function_name:
            raise ValueError(f"embedder {spec!r}: expected minilm, none or module:function")
        model = getattr(importlib.import_module(module_name), function_name)()
    return CachedEmbedder(model, getattr(model, "model_id", spec), cache_dir)
