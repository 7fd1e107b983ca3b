"""An embedder from the name a command line gives it: `minilm`, `none` or `module:function`."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from partita.embeddings._cache import CachedEmbedder
from partita.embeddings._models import default_embedder
from partita.embeddings._specs import check_embedder_spec

__all__ = ["embedder_named", "model_named"]


def model_named(spec: str) -> Any:
    """The model `spec` names, uncached: `"minilm"` is `default_embedder()` and
    `"module:function"` is what `function()` from `module` returns (any callable from texts to
    vectors). Raise `ValueError` for a `spec` of another form, `ImportError` when its module (or
    the `embed` extra, for `minilm`) is missing and `AttributeError` when the function is."""
    if spec == "minilm":
        return default_embedder()
    check_embedder_spec(spec)
    module_name, _, function_name = spec.partition(":")
    return getattr(importlib.import_module(module_name), function_name)()


def embedder_named(spec: str, cache_dir: str | Path | None = None) -> CachedEmbedder | None:
    """The embedder `spec` names (`model_named`), or None for `"none"`, its vectors cached on
    disk under `cache_dir` (default `default_cache_directory()`), keyed by the model's
    `model_id` when it has one, else by `spec`."""
    if spec == "none":
        return None
    model = model_named(spec)
    return CachedEmbedder(model, getattr(model, "model_id", spec), cache_dir)
