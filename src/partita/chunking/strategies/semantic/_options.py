"""The options of the "semantic" strategy, written once, and their validated value."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar

from partita.chunking._options import Help
from partita.chunking._text_chunks import TextChunkingOptions, TextOptions
from partita.chunking.strategies.semantic._decay import Decay, exp_decay
from partita.embeddings._specs import (
    EMBED_EXTRA_HINT,
    MINILM_MODULES,
    check_embedder_spec,
    missing_modules,
)

__all__ = ["BREAKPOINT_DEFAULTS", "WINDOW_DEFAULT", "SemanticChunkingOptions", "SemanticOptions"]

BREAKPOINT_DEFAULTS: dict[str, float] = {
    "percentile": 95.0,
    "std": 3.0,
    "iqr": 1.5,
    "gradient": 95.0,
    "absolute": 0.5,
}
"""Each rule's name and its default amount."""

WINDOW_DEFAULT = 2
"""Two sentences on each side of a boundary, compared as disjoint blocks (`window_sides`): the
setting that retrieved best on Chroma's benchmark (`benchmarks/bench_semantic.py`). The decay's
form is `window=1, window_sides=False, decay="exp"`."""

_OFF = frozenset({"off", "none", "false", "0"})


class SemanticOptions(TextOptions, total=False):
    """The options of the "semantic" strategy."""

    embedder: Annotated[
        Any,
        Help(
            "the sentence embedder: minilm (default; the embed extra), module:function naming"
            " a function that returns one, or (in Python) any callable from texts to vectors"
        ),
    ]
    embedding_cache: Annotated[
        Any,
        Help(
            "where sentence vectors are cached on disk (default ~/.cache/partita/embeddings, for"
            " embedders with a model_id); off for no disk cache"
        ),
    ]
    window: Annotated[
        int | None,
        Help(
            "sentences on each side of a boundary in the windows compared (default 2); with"
            " window_sides off, 1 is three-sentence windows and 0 adjacent sentences"
        ),
    ]
    window_sides: Annotated[
        bool | None,
        Help(
            "compare the window sentences before each boundary with those after it (disjoint,"
            " TextTiling's blocks; default on); off: overlapping windows"
        ),
    ]
    breakpoint: Annotated[
        str | None,
        Help("where topics change: percentile (default), std, iqr, gradient or absolute"),
    ]
    breakpoint_amount: Annotated[
        float | None,
        Help(
            "the rule's amount: percentile 95, std 3, iqr 1.5, gradient 95 (defaults); absolute:"
            " the similarity below which to cut (0.5)"
        ),
    ]
    decay: Annotated[
        Any,
        Help(
            "off (default), exp: the decay e^(-1/j), cut a chunk of j sentences where the"
            " similarity is below e^(-1/j), or (in Python) any function of j"
        ),
    ]
    min_size: Annotated[
        int | None,
        Help("a chunk smaller than this (characters or tokens) joins its more similar neighbour"),
    ]
    overlap_sentences: Annotated[
        int | None,
        Help("whole sentences of the previous chunk repeated at the start of the next (default 0)"),
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class SemanticChunkingOptions(TextChunkingOptions):
    """The validated "semantic" options. Derived: `window_units`, `sides` (`window_sides`, on
    by default), `rule`, `amount` (the rule's default when not given), `decay_function` (None
    when off, the default), `min_units` and `overlap_units` (0 when not given)."""

    MAX_CHARACTERS_DEFAULT: ClassVar[int] = 1000
    """About all-MiniLM-L6-v2's window of 256 wordpieces in English; at 500 characters the
    chunks are too small to retrieve well (recall 65.7 against 74.8 on Chroma's benchmark)."""

    embedder: Any = None
    embedding_cache: Any = None
    window: int | None = None
    window_sides: bool | None = None
    breakpoint: str | None = None
    breakpoint_amount: float | None = None
    decay: Any = None
    min_size: int | None = None
    overlap_sentences: int | None = None
    window_units: int = field(init=False)
    rule: str = field(init=False)
    amount: float = field(init=False)
    decay_function: Decay | None = field(init=False)
    min_units: int = field(init=False)
    overlap_units: int = field(init=False)
    sides: bool = field(init=False)

    def __post_init__(self) -> None:
        TextChunkingOptions.__post_init__(self)
        window = WINDOW_DEFAULT if self.window is None else _integer("window", self.window)
        rule = "percentile" if self.breakpoint is None else str(self.breakpoint)
        if rule not in BREAKPOINT_DEFAULTS:
            known = ", ".join(BREAKPOINT_DEFAULTS)
            raise ValueError(f"'breakpoint' must be one of {known}, got {rule!r}")
        amount = BREAKPOINT_DEFAULTS[rule]
        if self.breakpoint_amount is not None:
            amount = float(self.breakpoint_amount)
        _check_amount(rule, amount)
        min_size = 0 if self.min_size is None else _integer("min_size", self.min_size)
        overlap = 0 if self.overlap_sentences is None else self.overlap_sentences
        for name, value in (
            ("embedder", self.embedder),
            ("embedding_cache", self.embedding_cache),
        ):
            if value is not None and not isinstance(value, str) and not _is_allowed(name, value):
                raise TypeError(f"'{name}' must be a name or a callable, got {value!r}")
        _check_embedder(self.embedder)
        values = {
            "window_units": window,
            "rule": rule,
            "amount": amount,
            "decay_function": _decay_of(self.decay),
            "min_units": min_size,
            "overlap_units": _integer("overlap_sentences", overlap),
            "sides": True if self.window_sides is None else bool(self.window_sides),
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)


def _check_embedder(embedder: Any) -> None:
    """Refuse, before any document is read, an embedder name of the wrong form, and the
    strategy itself where numpy (its vectors' arithmetic) or the default model is missing."""
    what, modules = "the semantic strategy", ("numpy",)
    modules_needed: tuple[str, ...] = modules
    if embedder is None or embedder == "minilm":
        what, modules_needed = f"{what} with all-MiniLM-L6-v2", ("numpy", *MINILM_MODULES)
    elif isinstance(embedder, str):
        check_embedder_spec(embedder)
    missing = missing_modules(modules_needed)
    if missing:
        raise ValueError(
            f"{what} needs the 'embed' extra ({', '.join(missing)} not installed):"
            f" {EMBED_EXTRA_HINT}"
        )


def _integer(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"'{name}' must be an integer >= 0, got {value!r}")
    return value


def _check_amount(rule: str, amount: float) -> None:
    if not math.isfinite(amount):
        raise ValueError(f"'breakpoint_amount' must be finite, got {amount}")
    if rule in ("percentile", "gradient") and not 0 <= amount <= 100:
        raise ValueError(f"a {rule} breakpoint_amount is in [0, 100], got {amount}")
    if rule in ("std", "iqr") and amount < 0:
        raise ValueError(f"a {rule} breakpoint_amount is >= 0, got {amount}")
    if rule == "absolute" and not -1 <= amount <= 1:
        raise ValueError(f"an absolute breakpoint_amount is a similarity in [-1, 1], got {amount}")


def _is_allowed(name: str, value: Any) -> bool:
    if name == "embedder":
        return callable(value)
    return isinstance(value, bool) or hasattr(value, "__fspath__")


def _decay_of(decay: Any) -> Decay | None:
    if decay is None or decay is False or (isinstance(decay, str) and decay.lower() in _OFF):
        return None
    if decay == "exp":
        return exp_decay
    if callable(decay) and not isinstance(decay, str):
        function: Decay = decay
        return function
    raise ValueError(
        f"'decay' must be exp, off or a function of a chunk's sentences, got {decay!r}"
    )
