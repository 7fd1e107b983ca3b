"""Chunking configurations to compare: a strategy and its options, named.

A configuration is written `strategy:option=value,option=value` on the command line
(`by_title:max_characters=1000`, `token:max_tokens=250,overlap=125,tokenizer=cl100k_base`), or
given in a TOML or JSON file as a list of tables `{name?, strategy, options}` (TOML:
`[[configuration]]` tables with `strategy = "..."` and the options beside it). Values read from
the command line are integers, floats, `true`/`false`, `none`, or strings; a list is written with
`|` between its items (`text_splitting_separators=\\n\\n| `, escapes `\\n` and `\\t` understood).
Every configuration is validated against its strategy's options when it is read, so a misspelt
option fails before any document is chunked.

Two options say how to retrieve rather than how to chunk (`RETRIEVAL_OPTIONS`), for any strategy:

- `parent_tokens=N`: small-to-big. The chunks are grouped into parents of about N tokens
  (`partita.chunking.parents.with_parents`); questions are matched against the chunks, and the
  parents of the best ones are retrieved, each once, in rank order. `parent_scope=document`
  lets a parent run on into the next sections (default `section`: one section's chunks).
- `budget_tokens=N`: budgeted retrieval. Instead of the top k, results are retrieved in rank
  order while their tokens total at most N (the first always).

A strategy may also name a peer's baseline (`partita.evaluation._baselines`: `text_windows`,
`pages`), which evaluation runs instead of a chunking strategy.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from partita.chunking._registry import strategy_named
from partita.chunking.parents import PARENT_SCOPES
from partita.evaluation._baselines import BASELINE_OPTIONS, is_baseline

__all__ = [
    "DEFAULT_CONFIGURATIONS",
    "RETRIEVAL_OPTIONS",
    "Configuration",
    "parse_configuration",
    "read_configurations",
]


RETRIEVAL_OPTIONS = frozenset({"parent_tokens", "parent_scope", "budget_tokens"})
"""The options of how to retrieve (see the module docstring), taken by every configuration."""


@dataclass(frozen=True, slots=True)
class Configuration:
    """A named chunking configuration: `strategy` run with `options`, retrieved by small-to-big
    (`parent_tokens`) and within a token budget (`budget_tokens`) when they are set."""

    name: str
    strategy: str
    options: Mapping[str, Any] = field(default_factory=dict)
    parent_tokens: int | None = None
    budget_tokens: int | None = None
    parent_scope: str = "section"

    def __post_init__(self) -> None:
        if self.parent_scope not in PARENT_SCOPES:
            raise ValueError(f"{self.name}: parent_scope is one of {', '.join(PARENT_SCOPES)}")
        for option in ("parent_tokens", "budget_tokens"):
            value = getattr(self, option)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValueError(f"{self.name}: {option} must be a whole number >= 1")
        if is_baseline(self.strategy):
            unknown = sorted(set(self.options) - BASELINE_OPTIONS[self.strategy])
            if unknown:
                raise ValueError(
                    f"{self.name}: the {self.strategy!r} baseline takes no option "
                    + ", ".join(repr(u) for u in unknown)
                )
            return
        strategy = strategy_named(self.strategy)  # -- raises ValueError naming the known ones --
        taken = set(strategy.option_names)
        unknown = sorted(set(self.options) - taken)
        if unknown:
            raise ValueError(
                f"{self.name}: the {self.strategy!r} strategy takes no option "
                + ", ".join(repr(u) for u in unknown)
            )
        try:
            strategy.validated(**dict(self.options))
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{self.name}: {exc}") from None


def _value(text: str) -> Any:
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    unescaped = text.replace("\\n", "\n").replace("\\t", "\t")
    return unescaped.split("|") if "|" in unescaped else unescaped


def parse_configuration(spec: str) -> Configuration:
    """The configuration `strategy:option=value,...` (see the module docstring)."""
    strategy, _, rest = spec.partition(":")
    options: dict[str, Any] = {}
    for item in rest.split(","):
        if not item.strip():
            continue
        name, equals, value = item.partition("=")
        if not equals:
            raise ValueError(f"{spec!r}: an option is written name=value, got {item.strip()!r}")
        options[name.strip()] = _value(value)
    return Configuration(spec, strategy.strip(), *_split_retrieval(options))


def _split_retrieval(options: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any, Any]:
    """The chunking options, `parent_tokens`, `budget_tokens` and `parent_scope` of a
    configuration's options."""
    chunking = {k: v for k, v in options.items() if k not in RETRIEVAL_OPTIONS}
    return (
        chunking,
        options.get("parent_tokens"),
        options.get("budget_tokens"),
        options.get("parent_scope", "section"),
    )


def read_configurations(path: str | os.PathLike[str]) -> list[Configuration]:
    """The configurations of a TOML or JSON file (see the module docstring)."""
    name = os.fspath(path)
    with open(name, "rb") as f:
        data = f.read()
    if name.lower().endswith(".toml"):
        entries: Any = tomllib.loads(data.decode("utf-8")).get("configuration", [])
    else:
        entries = json.loads(data)
        if isinstance(entries, Mapping):
            entries = entries.get("configurations", [])
    if not isinstance(entries, Sequence) or not entries:
        raise ValueError(f"{name}: no configurations (a list of {{strategy, options}} tables)")
    found: list[Configuration] = []
    for index, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or "strategy" not in entry:
            raise ValueError(f"{name}: configuration {index + 1} names no strategy")
        options = dict(entry.get("options", {}))
        options.update({k: v for k, v in entry.items() if k not in ("name", "strategy", "options")})
        label = entry.get("name") or _label(entry["strategy"], options)
        found.append(Configuration(str(label), str(entry["strategy"]), *_split_retrieval(options)))
    return found


def _label(strategy: str, options: Mapping[str, Any]) -> str:
    return strategy + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")


DEFAULT_CONFIGURATIONS: tuple[str, ...] = (
    "token:max_tokens=250,overlap=125,tokenizer=cl100k_base",
    "recursive:max_tokens=200,tokenizer=cl100k_base",
    "sentence:max_tokens=200,overlap=32,tokenizer=cl100k_base",
    "by_title:max_characters=1000",
    "headings:max_tokens=200,tokenizer=cl100k_base",
)
"""What `partita evaluate` compares when given no configuration: Chroma's best fixed window
(250 tokens, 125 overlap), the recursive, sentence and heading splitters at 200 cl100k tokens,
and the reference's by_title at 1,000 characters. 200 cl100k tokens fit all-MiniLM-L6-v2's
window of 256 wordpieces (no chunk over it on Chroma's state_of_the_union, pubmed and chatlogs
corpora, where 256 cl100k tokens put 14-24 % of sentence and heading chunks over it); Chroma's
250-token windows (52-57 % over) and by_title's 1,000 characters (up to 13 %) are kept as the
references they are, and flagged when they exceed the window."""
