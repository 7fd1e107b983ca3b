"""The programming languages partita reads: names, file extensions, MIME types, comment marks.

A language is known by its canonical name ("python", "java", "kotlin", "javascript",
"typescript", "go", "rust"); `language_named` also accepts the usual aliases ("py", "kt", "js",
"ts", "golang", "rs", ...) and Markdown fence tags. `language_for_filename` tells a source file's
language from its extension. Python is outlined with the standard library's `ast`; the others
with a tree-sitter grammar from its offline wheel (the `code` extra), loaded on first use.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = [
    "LANGUAGES",
    "Language",
    "is_comment_line",
    "language_for_filename",
    "language_for_mime_type",
    "language_named",
]


@dataclass(frozen=True, slots=True)
class Language:
    """A programming language: its canonical `name`, file `extensions`, the `mime_type` partita
    records in `filetype`, the marks that start a comment line, and the tree-sitter grammar
    (`grammar`: "module:function" returning the language pointer; None for Python, read by
    `ast`)."""

    name: str
    extensions: tuple[str, ...]
    mime_type: str
    comment_marks: tuple[str, ...]
    grammar: str | None
    aliases: tuple[str, ...] = ()


_C_COMMENTS = ("//", "/*", "*", "*/")

LANGUAGES: dict[str, Language] = {
    language.name: language
    for language in (
        Language(
            "python", (".py", ".pyi", ".pyw"), "text/x-python", ("#",), None, ("py", "python3")
        ),
        Language(
            "java", (".java",), "text/x-java-source", _C_COMMENTS, "tree_sitter_java:language"
        ),
        Language(
            "kotlin",
            (".kt", ".kts"),
            "text/x-kotlin",
            _C_COMMENTS,
            "tree_sitter_kotlin:language",
            ("kt", "kts"),
        ),
        Language(
            "javascript",
            (".js", ".mjs", ".cjs", ".jsx"),
            "text/javascript",
            _C_COMMENTS,
            "tree_sitter_javascript:language",
            ("js", "jsx", "node", "mjs", "cjs"),
        ),
        Language(
            "typescript",
            (".ts", ".mts", ".cts"),
            "application/typescript",
            _C_COMMENTS,
            "tree_sitter_typescript:language_typescript",
            ("ts",),
        ),
        Language("tsx", (".tsx",), "text/tsx", _C_COMMENTS, "tree_sitter_typescript:language_tsx"),
        Language("go", (".go",), "text/x-go", _C_COMMENTS, "tree_sitter_go:language", ("golang",)),
        Language(
            "rust",
            (".rs",),
            "text/x-rust",
            (*_C_COMMENTS, "#[", "#!["),
            "tree_sitter_rust:language",
            ("rs",),
        ),
    )
}
"""The languages partita outlines, by canonical name."""

_BY_NAME = {
    alias: language
    for language in LANGUAGES.values()
    for alias in (language.name, *language.aliases)
}
_BY_EXTENSION = {ext: language for language in LANGUAGES.values() for ext in language.extensions}


def language_named(name: str | None) -> Language | None:
    """The language a name or alias (any case, "py", "golang", a fence tag like "python3") or
    None when partita does not know it."""
    if not name:
        return None
    return _BY_NAME.get(name.strip().lower())


def language_for_mime_type(mime_type: str | None) -> Language | None:
    """The language whose MIME type is `mime_type` (parameters ignored), or None."""
    if not mime_type:
        return None
    wanted = mime_type.split(";")[0].strip().lower()
    return next((lang for lang in LANGUAGES.values() if lang.mime_type == wanted), None)


def language_for_filename(filename: str | os.PathLike[str] | None) -> Language | None:
    """The language a file's extension names, or None."""
    if filename is None:
        return None
    return _BY_EXTENSION.get(os.path.splitext(os.fspath(filename))[1].lower())


def is_comment_line(line: str, language: Language) -> bool:
    """Whether `line` holds only a comment (or, in Rust, an attribute) in `language`."""
    stripped = line.lstrip()
    return bool(stripped) and stripped.startswith(language.comment_marks)
