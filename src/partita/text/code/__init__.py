"""Source code: its language (`languages`), its outline of definitions (`definitions`, built by
`outline` from `python_outline` (`ast`) or `tree_outline` (tree-sitter)) and its lines cut into
blocks (`blocks`)."""

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
