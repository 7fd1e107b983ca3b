"""A source file's outline: its definitions (classes, functions, ...) as line ranges, nested.

The outline is what the code chunker cuts along. Each `Definition` spans whole lines, 0-based:

- `first`: its first line, with the decorators, annotations and the comment lines right above it
  (doc comments, `#[derive]` attributes), never reaching into the definition before it;
- `lead`: the line its own syntax starts on, its decorators and annotations (and Rust
  attributes) included, the comment lines above it not;
- `start`: the line its name is declared on (after decorators, in Python);
- `body`: the line its body starts on, after the signature: the lines `[start, body)` are the
  signature, repeated as context above the later chunks of a definition cut in parts;
- `header_end`: for a container (a class, interface, impl, module), the end of the lines
  `[first, header_end)` that describe it (signature, and a Python docstring), repeated as context
  above the chunks of its members when it is cut; `body` otherwise;
- `last`: its last line (inclusive);
- `children`: the definitions of its body, in order: a container's methods and nested classes,
  the functions a function defines directly in its body.

`outline_of(text, language)` reads Python with `ast`, every other language with its tree-sitter
grammar. Code that does not parse raises `InvalidCodeError` (with the line of the first error);
a grammar that is not installed raises `GrammarMissingError`. The depth of nesting outlined is
bounded (`MAX_DEPTH`): deeper definitions are code inside their container.
"""

from __future__ import annotations

import importlib

from partita.text.code._definitions import (
    MAX_DEPTH,
    Definition,
    GrammarMissingError,
    InvalidCodeError,
)
from partita.text.code._languages import Language, is_comment_line

_ATTRIBUTES = ("#[", "#![")

__all__ = [
    "MAX_DEPTH",
    "Definition",
    "GrammarMissingError",
    "InvalidCodeError",
    "outline_of",
    "with_leading_comments",
]


def outline_of(text: str, language: Language) -> tuple[Definition, ...]:
    """The top-level definitions of `text` in `language`, in order, each with its children."""
    lines = text.split("\n")
    if language.grammar is None:
        from partita.text.code._python_outline import python_outline

        definitions = python_outline(text)
    else:
        from partita.text.code._tree_outline import tree_outline

        module_name, function_name = language.grammar.split(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise GrammarMissingError(
                f"the {language.name} grammar ({module_name}) is not installed:"
                " pip install 'partita[code]'"
            ) from exc
        definitions = tree_outline(text, getattr(module, function_name)(), language.name)
    return with_leading_comments(definitions, lines, language, 0)


def with_leading_comments(
    definitions: tuple[Definition, ...], lines: list[str], language: Language, floor: int
) -> tuple[Definition, ...]:
    """`definitions` (siblings, in order, none above line `floor`) with each `first` moved up
    over the comment lines right above it, never onto a line of the sibling before it."""
    result: list[Definition] = []
    for definition in definitions:
        first = lead = definition.first
        while first > floor and is_comment_line(lines[first - 1], language):
            first -= 1
            if first + 1 == lead and lines[first].lstrip().startswith(_ATTRIBUTES):
                lead = first  # -- a Rust attribute belongs to the item below it --
        header_end = definition.header_end
        children = with_leading_comments(definition.children, lines, language, header_end)
        result.append(
            Definition(
                definition.code_type,
                definition.name,
                first,
                definition.start,
                definition.body,
                header_end,
                definition.last,
                children,
                lead if lead > first else -1,
            )
        )
        floor = definition.last + 1
    return tuple(result)
