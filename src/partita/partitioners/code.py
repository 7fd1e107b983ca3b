"""Source code to elements: one `CodeSnippet` per file, its text verbatim.

PRINCIPLES

- **A file is one element.** Source code has no paragraphs to find: the whole file is one
  `CodeSnippet`, its text the file's, verbatim (line ends normalized to "\\n", leading blank lines
  and trailing whitespace left out), so the "code" chunking strategy can cut it along its
  classes and functions and every chunk's lines point into the file.
- **The language** comes from `language` when given, else from the file name's extension
  (`.py`, `.java`, `.kt`, `.js`, `.ts`, `.tsx`, `.go`, `.rs`, ...; `partita.text.code`). It is
  `metadata.extra["code_language"]` (as for a Markdown fence); `filetype` is the language's MIME
  type (`text/x-python`, ...). `extra["start_line"]` is the file line the text starts on
  (after leading blank lines).
- **Bytes and bounds** as for plain text: UTF-8 (a BOM honoured), UTF-16 with a BOM, else
  Windows-1252, or `encoding`; a file over 48 MiB raises `DocumentLimitError`. A file of
  whitespace gives no element. Nothing is parsed here: code that does not parse is still read.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import IO

from partita.elements import CodeSnippet, Element
from partita.errors import UnsupportedFormatError
from partita.partitioners._build import Draft, iter_finished_elements
from partita.partitioners._html_limits import MAX_TEXT_BYTES
from partita.partitioners._source import decode_text, read_source
from partita.text.code._languages import LANGUAGES, language_for_filename, language_named

__all__ = ["FILETYPE", "iter_code_elements", "partition_code"]

FILETYPE = "text/plain"
"""The `filetype` of code in a language partita does not know."""


def partition_code(
    filename: str | os.PathLike[str] | None = None,
    *,
    file: IO[bytes] | IO[str] | None = None,
    text: str | None = None,
    language: str | None = None,
    encoding: str | None = None,
    metadata_filename: str | None = None,
) -> list[Element]:
    """Return the elements of a source file: one `CodeSnippet` (see the module's PRINCIPLES).

    Give exactly one of `filename`, `file` and `text`. `language` names the language ("python",
    "go", an alias such as "ts") when the file name does not tell it; an unknown name raises
    `UnsupportedFormatError`. `encoding` overrides decoding; `metadata_filename` names the file
    in metadata (and tells its language when `filename` does not).
    """
    return list(
        iter_code_elements(
            filename,
            file=file,
            text=text,
            language=language,
            encoding=encoding,
            metadata_filename=metadata_filename,
        )
    )


def iter_code_elements(
    filename: str | os.PathLike[str] | None = None,
    *,
    file: IO[bytes] | IO[str] | None = None,
    text: str | None = None,
    language: str | None = None,
    encoding: str | None = None,
    metadata_filename: str | None = None,
) -> Iterator[Element]:
    """Generate the elements of a source file; see `partition_code`."""
    source = read_source(filename, file, text, max_bytes=MAX_TEXT_BYTES, name=metadata_filename)
    display_name = metadata_filename or source.display_name
    known = language_named(language)
    if language is not None and known is None:
        raise UnsupportedFormatError(
            f"{display_name}: unknown language {language!r} (known: {', '.join(LANGUAGES)})",
            format=language,
        )
    if known is None:
        known = language_for_filename(metadata_filename or source.path)
    content = decode_text(source.data, encoding, display_name)
    content = content.replace("\r\n", "\n").replace("\r", "\n").rstrip()
    stripped = content.lstrip("\n\t \f\v")
    if not stripped:
        return
    start = len(content) - len(stripped)
    start = content.rfind("\n", 0, start) + 1  # -- the first line keeps its indentation --
    extra: dict[str, object] = {"start_line": content.count("\n", 0, start) + 1}
    if known is not None:
        extra["code_language"] = known.name
    yield from iter_finished_elements(
        [Draft(CodeSnippet, content[start:], {"extra": extra})],
        path=metadata_filename or source.path,
        filetype=known.mime_type if known is not None else FILETYPE,
        last_modified=source.last_modified,
        content=source.data,
    )
