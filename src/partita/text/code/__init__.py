"""Source code: its language (`languages`), its outline of definitions (`outline`, read by
`ast` for Python and tree-sitter for the others) and its lines cut into blocks (`blocks`)."""

from partita.text.code.languages import (
    LANGUAGES,
    Language,
    is_comment_line,
    language_for_filename,
    language_named,
)
from partita.text.code.outline import (
    Definition,
    GrammarMissingError,
    InvalidCodeError,
    outline_of,
)

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
