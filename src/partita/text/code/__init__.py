"""Source code: its language (`_languages`), its outline of definitions (`_definitions`, built by
`_outline` from `_python_outline` (`ast`) or `_tree_outline` (tree-sitter)) and its lines cut into
blocks (`_blocks`)."""

from partita.text.code._definitions import Definition, GrammarMissingError, InvalidCodeError
from partita.text.code._languages import (
    LANGUAGES,
    Language,
    is_comment_line,
    language_for_filename,
    language_named,
)
from partita.text.code._outline import outline_of

__all__ = [
    "LANGUAGES",
    "Definition",
    "GrammarMissingError",
    "InvalidCodeError",
    "Language",
    "is_comment_line",
    "language_for_filename",
    "language_named",
    "outline_of",
]
