"""The outline's types: a `Definition` (a class, function, ... as nested line ranges), the
bound on nesting, and the errors outlining raises. The line fields are described in
`partita.text.code._outline`, which builds definitions from source; the language readers
(`_python_outline`, `_tree_outline`) produce them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MAX_DEPTH", "Definition", "GrammarMissingError", "InvalidCodeError"]

MAX_DEPTH = 8
"""Definitions nested deeper than this are outlined as code of their container."""


class InvalidCodeError(ValueError):
    """The code does not parse in its language; `line` is the 1-based line of the first error."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class GrammarMissingError(ImportError):
    """The tree-sitter grammar of a language is not installed (`pip install partita[code]`)."""


@dataclass(frozen=True, slots=True)
class Definition:
    """A definition of the outline (see the module docstring for the line fields)."""

    code_type: str
    name: str
    first: int
    start: int
    body: int
    header_end: int
    last: int
    children: tuple[Definition, ...] = ()
    lead: int = -1
    """`first` when -1 (no comment lines above it)."""

    @property
    def own_first(self) -> int:
        """The first line of the definition without the comment lines above it."""
        return self.first if self.lead < 0 else self.lead
