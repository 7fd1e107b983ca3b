"""Finding the inputs of a command: files, directories searched recursively, standard input.

PRINCIPLES

- **A file named on the command line is always read**, whatever its name (a missing one fails
  as that file, with `FileReadError`, and the others go on).
- **A directory is searched recursively, in sorted order**, for the files whose format partita
  reads, told by extension (`READABLE_EXTENSIONS`: documents and source code; elements files
  are left out, as a tree of documents often holds unrelated `.json`), or for the files
  `--glob` patterns match. Hidden files and directories (a leading dot) and the output
  directory are never searched. Symbolic links to directories are not followed.
- **`-` is standard input**, read whole (up to `MAX_STDIN_BYTES`) before any work starts; its
  format is `--input-format` or sniffed from the content (`partitioners._detect`, plus Markdown
  headings and fences, and for `chunk` a JSON array or JSON Lines of elements).
- Each input knows where its output goes under `--output-dir`: its path under the directory
  it was found in, or its base name when named directly, or `stdin`.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from partita.partitioners._detect import CONTENT_TYPES, READABLE_EXTENSIONS, detect_format
from partita.partitioners._files import iter_directory_files
from partita.partitioners._reading import ELEMENTS_FORMATS
from partita.text.code._languages import LANGUAGES, language_for_filename, language_named

__all__ = [
    "ELEMENTS_FORMATS",
    "INPUT_FORMATS",
    "MAX_STDIN_BYTES",
    "READABLE_EXTENSIONS",
    "STDIN",
    "Input",
    "UsageError",
    "find_inputs",
    "sniff_stdin_format",
]

STDIN = "-"
"""The name that stands for standard input on the command line."""

INPUT_FORMATS: tuple[str, ...] = (
    *("docx", "pdf", "html", "md", "text"),
    *LANGUAGES,
    *ELEMENTS_FORMATS,
)
"""The values of `--input-format`: document formats, programming languages, elements files."""


MAX_STDIN_BYTES = 1024**3
"""Standard input past this many bytes fails with `DocumentLimitError` instead of filling memory."""

_MARKDOWN_SIGNS = re.compile(rb"^(#{1,6}[ \t]+\S|```|~~~|\|?[ \t]*:?-{3,}:?[ \t]*\|)", re.MULTILINE)
"""An ATX heading, a code fence or a table's delimiter row: text on standard input that has one
of these is read as Markdown (a file is told by its extension instead)."""


class UsageError(Exception):
    """The command line asks for something that cannot be done (exit status 2)."""


@dataclass(frozen=True, slots=True)
class Input:
    """One document to process, as handed to a worker (it pickles)."""

    name: str
    """How errors and the progress bar name it: its path, or "<stdin>"."""
    path: str | None
    """The file to read, or None for standard input."""
    data: bytes | None = None
    """Standard input's bytes (None for a file)."""
    format: str | None = None
    """One of `INPUT_FORMATS`, or None to tell it from the content and the name."""
    relative: str = ""
    """Where its output goes under `--output-dir`, before the output format's extension."""
    truncated: bool = False
    """True when standard input was longer than `MAX_STDIN_BYTES`."""

    @property
    def is_stdin(self) -> bool:
        """True when this input is standard input."""
        return self.path is None

    @property
    def content_type(self) -> str | None:
        """The MIME type `format` names, for `partition(content_type=...)`, or None."""
        if self.format is None or self.format in ELEMENTS_FORMATS:
            return None
        language = language_named(self.format)
        if language is not None:
            return language.mime_type
        return CONTENT_TYPES[self.format]

    @property
    def is_code(self) -> bool:
        """True when the input is source code, by `format` or by its file name."""
        if self.format is not None:
            return language_named(self.format) is not None
        return language_for_filename(self.path) is not None


def find_inputs(
    given: Sequence[str],
    *,
    globs: Sequence[str] | None = None,
    input_format: str | None = None,
    exclude: str | None = None,
) -> list[Input]:
    """Return the inputs `given` names: files as they are, directories searched, `-` read.

    `globs` select the files in directories (default: `READABLE_EXTENSIONS`), `exclude` is a
    directory never searched (the output directory). Raises `UsageError` when standard input is
    named twice, or when nothing is found.
    """
    if sum(1 for name in given if name == STDIN) > 1:
        raise UsageError("standard input (-) can be read only once")
    skipped = Path(exclude).resolve() if exclude else None
    inputs: list[Input] = []
    for name in given:
        if name == STDIN:
            inputs.append(_read_stdin(input_format))
        elif os.path.isdir(name):
            found = [
                Input(str(path), str(path), format=input_format, relative=relative)
                for path, relative in iter_directory_files(name, globs, skipped=skipped)
            ]
            if not found:
                wanted = " or ".join(globs) if globs else "a format partita reads"
                raise UsageError(f"{name}: no files matching {wanted}")
            inputs.extend(found)
        else:
            relative = os.path.basename(os.path.normpath(name))
            inputs.append(Input(name, name, format=input_format, relative=relative))
    return inputs


def _read_stdin(input_format: str | None) -> Input:
    data = sys.stdin.buffer.read(MAX_STDIN_BYTES + 1)
    truncated = len(data) > MAX_STDIN_BYTES
    return Input(
        "<stdin>",
        None,
        data=data[:MAX_STDIN_BYTES],
        format=input_format,
        relative="stdin",
        truncated=truncated,
    )


def sniff_stdin_format(data: bytes, *, reads_elements: bool) -> str | None:
    """Return the format of standard input's `data` where the content tells more than
    `partitioners._detect` can without a name: "json"/"jsonl" for elements (when
    `reads_elements`), "md" for Markdown; None to leave it to the partitioner's detection."""
    start = data.lstrip(b" \t\r\n\xef\xbb\xbf")[:1]
    if reads_elements and start == b"[":
        return "json"
    if reads_elements and start == b"{":
        return "jsonl"
    if detect_format(data[:4096]) == "text" and _MARKDOWN_SIGNS.search(data[:65536]):
        return "md"
    return None
