"""What a chunking strategy is: its options, written once, and the functions that run it.

A strategy module (`partita.chunking.strategies.*`) declares

- its options as a `TypedDict` (`total=False`), each option `Annotated` with its `Help`: the one
  place an option's name, type and help are written. The public functions take
  `**options: Unpack[ThatTypedDict]`, so type checkers and IDEs see every keyword; the command
  line's flags and the option table (docs/options.md) are generated from it;
- its validated options value type (a subclass of `SharedChunkingOptions`: "basic"'s
  `ChunkingOptions`, or one adding the strategy's options), whose constructor takes exactly the
  `TypedDict`'s keys (the other fields are derived values);
- its lazy function (a generator of chunks) and its eager one (a list, made by `eager`), taking
  the options;
- `run`, the pipeline that chunks elements under an options value;
- `PARTS`, a `StrategyParts` naming the options, the value type and `run` for the registry.

`ChunkingStrategy` is a registry entry (`partita.chunking._registry`), made of a module's parts
and the name and summary the registry gives it. A strategy
registered the old way, as a bare function, has no options `TypedDict`: its options are the
keyword parameters of its signature.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, ParamSpec

from partita._gc import collector_paused
from partita.chunking._options import Help, SharedChunkingOptions
from partita.elements import Element

__all__ = [
    "ChunkingStrategy",
    "OptionField",
    "StrategyParts",
    "eager",
    "option_fields",
]

P = ParamSpec("P")


@dataclass(frozen=True, slots=True)
class OptionField:
    """One option of a strategy: its `name`, its value `kind` (the annotation without `None`:
    `int`, `bool`, `str`, `Sequence[str]`, or `Any` for a tokenizer) and its `help`."""

    name: str
    kind: Any
    help: str


def option_fields(options_type: type) -> tuple[OptionField, ...]:
    """The options an options `TypedDict` declares, in declaration order (inherited ones first)."""
    hints = typing.get_type_hints(options_type, include_extras=True)
    fields = []
    for name, hint in hints.items():
        help_text = ""
        if typing.get_origin(hint) is typing.Annotated:
            base, *extras = typing.get_args(hint)
            help_text = next((extra.text for extra in extras if isinstance(extra, Help)), "")
        else:
            base = hint
        kinds = [arg for arg in typing.get_args(base) if arg is not type(None)]
        kind = kinds[0] if len(kinds) == 1 else base
        fields.append(OptionField(name, kind, help_text))
    return tuple(fields)


@dataclass(frozen=True, slots=True)
class ChunkingStrategy:
    """A registered chunking strategy: its `name`, its eager function `chunk(elements,
    **options) -> list`, and, for a strategy declared with its options, its lazy function
    `iter_chunks(elements, **options)`, its options `TypedDict` (`options`), its options value
    type (`options_value`), `run(elements, value)`, the pipeline under a validated value, and
    a one-line `summary`."""

    name: str
    chunk: Callable[..., list[Element]]
    iter_chunks: Callable[..., Iterator[Element]] | None = None
    options: type | None = None
    options_value: type[SharedChunkingOptions] | None = None
    run: Callable[[Iterable[Element], Any], Iterator[Element]] | None = None
    summary: str = ""
    """What the strategy does, in a few words (for `--help` and docs/options.md)."""
    option_names: tuple[str, ...] = dataclasses.field(init=False)
    """The names of the options this strategy takes: its options `TypedDict`'s keys, or the
    keyword parameters of `chunk` for a strategy registered without one."""

    def __post_init__(self) -> None:
        if self.options is not None:
            names = tuple(field.name for field in option_fields(self.options))
        else:
            parameters = list(inspect.signature(self.chunk).parameters.values())[1:]
            keyword = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            names = tuple(p.name for p in parameters if p.kind in keyword)
        object.__setattr__(self, "option_names", names)
        if self.options is not None and self.options_value is not None:
            given = {field.name for field in dataclasses.fields(self.options_value) if field.init}
            if given != set(names):
                raise TypeError(
                    f"strategy {self.name!r}: the options value type takes"
                    f" {sorted(given)}, its options declare {sorted(names)}"
                )

    def validated(self, **options: Any) -> SharedChunkingOptions | None:
        """Return the options value of `options` (None for a strategy without a value type).

        Raises `TypeError` for an option the strategy does not take and `ValueError` for an
        invalid value, as the strategy's functions do.
        """
        if self.options_value is None:
            return None
        return self.options_value(**options)


@dataclass(frozen=True, slots=True)
class StrategyParts:
    """What a strategy module declares for the registry (`partita.chunking._registry`), as
    `PARTS`: its options `TypedDict`, its options value type, `run(elements, value)`, and its
    public lazy and eager functions."""

    options: type
    value: type[SharedChunkingOptions]
    run: Callable[[Iterable[Element], Any], Iterator[Element]]
    iter_chunks: Callable[..., Iterator[Element]]
    chunk: Callable[..., list[Element]]

    def entry(self, name: str, summary: str) -> ChunkingStrategy:
        """The registry entry of the strategy `name` made of these parts."""
        return ChunkingStrategy(
            name, self.chunk, self.iter_chunks, self.options, self.value, self.run, summary
        )


def eager(
    iter_chunks: Callable[P, Iterator[Element]], name: str, *, pauses_collector: bool = True
) -> Callable[P, list[Element]]:
    """The eager form of a strategy's lazy function `iter_chunks`, named `name`: it returns
    `list(iter_chunks(elements, **options))`, with Python's cyclic collector paused when only
    partita's and tiktoken's code runs meanwhile: `elements` a list or tuple and the `tokenizer`
    option None or a tiktoken name (see `partita._gc`); never when not `pauses_collector` (a
    strategy that calls the caller's code, such as an embedder)."""

    @functools.wraps(iter_chunks)
    def chunk(*args: P.args, **options: P.kwargs) -> list[Element]:
        tokenizer = options.get("tokenizer")
        runs_no_caller_code = (
            pauses_collector
            and isinstance(args[0] if args else None, (list, tuple))
            and (tokenizer is None or isinstance(tokenizer, str))
        )
        with collector_paused(runs_no_caller_code):
            return list(iter_chunks(*args, **options))

    chunk.__name__ = chunk.__qualname__ = name
    chunk.__doc__ = f"Return the chunks `{iter_chunks.__name__}` generates, as a list."
    return chunk
