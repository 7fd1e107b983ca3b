"""The registry of chunking strategies, and `chunk`, which runs one by name.

One registry serves `chunk`, `iter_chunks`, the command line (its `--strategy` choices and its
option flags) and the option table (docs/options.md): each reads the registered `ChunkingStrategy`
entries. "basic", "by_title", the text strategies ("sentence", "sentence_window",
"recursive", "token"), "headings", "code" and "semantic" are built in: the registry names them,
and imports a strategy's module when the strategy is first used;
`register_chunking_strategy` adds more.

The rule for options given to `chunk` (as in the reference, where one set of options serves
several strategies): an option the chosen strategy takes is used; an option that only other
registered strategies take is ignored; an option no registered strategy takes is a `TypeError`
naming it (a misspelling, such as `max_charactrs`, is never silently ignored).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

from partita.chunking._options import SharedChunkingOptions
from partita.chunking._strategy import ChunkingStrategy, StrategyParts
from partita.elements import Element

__all__ = [
    "Chunker",
    "chunk",
    "chunking_strategies",
    "iter_chunks",
    "known_option_names",
    "options_for",
    "register_chunking_strategy",
    "strategy_named",
]

Chunker = Callable[..., list[Element]]
"""An eager chunking function: elements plus keyword options, returning chunks."""

_BUILT_IN: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "basic": ("_basic", "chunks filled to the window in order, ignoring titles and pages"),
        "by_title": ("_by_title", "a chunk starts at every title; small sections are combined"),
        "sentence": (
            "_sentence",
            "paragraphs and sentences packed to the window (llama_index SentenceSplitter)",
        ),
        "sentence_window": (
            "_sentence_window",
            "one chunk per sentence, with its neighbours as a window (llama_index)",
        ),
        "recursive": (
            "_recursive",
            "texts cut at the coarsest separator that fits, packed with whole-split overlap",
        ),
        "token": (
            "_token",
            "fixed windows of max_tokens tokens (default 1024 cl100k_base) per section"
            " (Chroma FixedTokenChunker)",
        ),
        "headings": (
            "_headings",
            'sections cut at headings, each chunk prefixed with its heading path "H1 > H2"',
        ),
        "code": (
            "code",
            "source code cut along its classes and functions, members under their class",
        ),
        "semantic": ("semantic", "sections cut where sentence embeddings say the topic changes"),
    }
)
"""The built-in strategies, in order: name to (module under `partita.chunking.strategies`,
summary). A module is imported when its strategy is first used."""

_PACKAGE = "partita.chunking.strategies"

_STRATEGIES: dict[str, ChunkingStrategy] = {}
"""The strategies made or registered so far (a registered one replaces a built-in one)."""


def _strategy(name: str) -> ChunkingStrategy | None:
    """The strategy `name`, a built-in one made from its module's `PARTS` on first use."""
    strategy = _STRATEGIES.get(name)
    if strategy is None and name in _BUILT_IN:
        module, summary = _BUILT_IN[name]
        parts: StrategyParts = importlib.import_module(f"{_PACKAGE}.{module}").PARTS
        strategy = _STRATEGIES[name] = parts.entry(name, summary)
    return strategy


def register_chunking_strategy(
    name: str,
    chunker: Chunker,
    *,
    iter_chunker: Callable[..., Iterator[Element]] | None = None,
    options: type | None = None,
    options_value: type[SharedChunkingOptions] | None = None,
    run: Callable[[Iterable[Element], Any], Iterator[Element]] | None = None,
    summary: str = "",
) -> None:
    """Make the strategy `name` available to `chunk`, the command line and `iter_chunks`.

    `chunker` takes elements plus keyword options and returns chunks. Declare the strategy's
    options with `options`, a `TypedDict` whose options carry their `Help` (see
    `partita.chunking._strategy`); without it, the strategy's options are the keyword parameters
    of `chunker`. `iter_chunker` is its lazy form, `options_value` its validated options type
    and `run(elements, value)` its pipeline under a value (what `iter_chunks` calls); `summary`
    says what it does in a few words.
    """
    _STRATEGIES[name] = ChunkingStrategy(
        name, chunker, iter_chunker, options, options_value, run, summary
    )


def chunking_strategies() -> tuple[ChunkingStrategy, ...]:
    """The registered strategies: the built-in ones, then the others in registration order."""
    names = dict.fromkeys([*_BUILT_IN, *_STRATEGIES])
    return tuple(strategy for name in names if (strategy := _strategy(name)) is not None)


def strategy_named(name: str) -> ChunkingStrategy:
    """The strategy registered as `name`; a `ValueError` naming the known ones otherwise."""
    strategy = _strategy(name)
    if strategy is None:
        known = ", ".join(sorted({*_BUILT_IN, *_STRATEGIES}))
        raise ValueError(f"unrecognized chunking strategy {name!r}; known strategies: {known}")
    return strategy


def known_option_names() -> frozenset[str]:
    """The options at least one registered strategy takes."""
    return frozenset(name for s in chunking_strategies() for name in s.option_names)


def chunk(elements: Iterable[Element], chunking_strategy: str, **options: Any) -> list[Element]:
    """Return the chunks of `elements` by the strategy named `chunking_strategy`.

    As in the reference, one set of options can serve several strategies: `options` that only
    other registered strategies take are ignored. An option that no registered strategy takes
    raises `TypeError` naming it; an unregistered strategy raises `ValueError` listing the known
    ones; invalid option values raise `ValueError` as the strategy's own functions do.
    """
    strategy, accepted = options_for(chunking_strategy, options)
    return strategy.chunk(elements, **accepted)


def options_for(
    chunking_strategy: str, options: Mapping[str, Any]
) -> tuple[ChunkingStrategy, dict[str, Any]]:
    """The strategy named `chunking_strategy` and the `options` it takes, by `chunk`'s rule:
    options only other registered strategies take are left out; an option no registered
    strategy takes is a `TypeError` naming it, an unregistered strategy a `ValueError`."""
    strategy = strategy_named(chunking_strategy)
    unknown = sorted(set(options) - known_option_names())
    if unknown:
        raise TypeError(
            f"chunk() got unknown chunking option(s) {', '.join(map(repr, unknown))}:"
            " no registered strategy takes them"
        )
    accepted = set(strategy.option_names)
    return strategy, {k: v for k, v in options.items() if k in accepted}


def iter_chunks(elements: Iterable[Element], opts: SharedChunkingOptions) -> Iterator[Element]:
    """Generate the chunks of `elements` under validated options `opts`, by the strategy whose
    options value type `opts` is (a `ChunkingOptions` is "basic"'s)."""
    for strategy in chunking_strategies():
        if strategy.run is not None and type(opts) is strategy.options_value:
            return strategy.run(elements, opts)
    raise TypeError(f"no registered chunking strategy takes {type(opts).__name__} options")
