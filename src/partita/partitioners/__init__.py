"""Partitioners: documents to elements, one module per format, and the dispatcher.

`partition` detects a document's format (`partitioners._detect`) and calls that format's
partitioner, importing it only then, so `import partita` stays light.

Nothing it decides about a document goes unsaid:

- **The content wins over the name, with a warning.** A file whose content is another format
  than its extension claims (a text file named `notes.pdf`) is read as what it is, and
  `FormatMismatchWarning` says so ("notes.pdf: the content is plain text, not PDF: read as plain
  text"). Not when `content_type` is given (the caller has said what it is), nor for an empty
  file, nor for a name that claims no format (`.log`, no extension).
- **A document that gives no elements warns** `EmptyDocumentWarning`, naming it and saying why:
  the file is empty (0 bytes), it holds only whitespace, or partita found no text in it (a PDF
  of scanned pages, a Word document without text). The result is still `[]`: a caller that
  wants a failure turns the warning into an error (`warnings.simplefilter("error",
  EmptyDocumentWarning)`, as `partita partition --strict` does).
"""

from __future__ import annotations

import importlib
import io
import os
import warnings
from collections.abc import Callable
from typing import IO, Any

from partita.elements import Element
from partita.errors import FileReadError, PartitaWarning, UnsupportedFormatError
from partita.partitioners._detect import (
    FORMAT_NAMES,
    detect_file_format,
    detect_format,
    format_for_content_type,
    format_for_extension,
)
from partita.partitioners._formats import FORMAT_TABLE
from partita.partitioners._source import read_source
from partita.text.code._languages import language_for_mime_type

__all__ = [
    "PARTITIONERS",
    "DocumentWarning",
    "EmptyDocumentWarning",
    "FormatMismatchWarning",
    "partition",
]


class DocumentWarning(PartitaWarning):
    """A warning about one document: `filename` names it and `reason` says what happened."""

    def __init__(self, filename: str, reason: str) -> None:
        super().__init__(filename, reason)
        self.filename = filename
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.filename}: {self.reason}"


class EmptyDocumentWarning(DocumentWarning):
    """A document gave no elements; `reason` says why ("the file is empty (0 bytes)", "it holds
    only whitespace", "partita found no text in this PDF")."""

    def __str__(self) -> str:
        return f"{self.filename}: no elements: {self.reason}"


class FormatMismatchWarning(DocumentWarning):
    """A document's content is another format than its name claims, and was read as what it
    is; `reason` says what was read ("the content is plain text, not PDF: read as plain
    text")."""


PARTITIONERS: dict[str, str] = {
    key: f"{fmt.module}:{fmt.function}" for key, fmt in FORMAT_TABLE.items()
}
"""Format name to the partitioner that handles it, as "module:function"."""


def partition(
    filename: str | os.PathLike[str] | None = None,
    *,
    file: IO[bytes] | IO[str] | None = None,
    text: str | None = None,
    content_type: str | None = None,
    **options: Any,
) -> list[Element]:
    """Return the elements of a document given by exactly one of `filename`, `file` and `text`.

    The format comes from `content_type` when given (a MIME type such as "text/markdown"), else
    from the content's magic bytes, else from the file name's extension. `options` go to the
    format's partitioner. Raises `UnsupportedFormatError` for a format partita cannot partition,
    `FileReadError` for an unreadable file. Warns `FormatMismatchWarning` when the content is not
    the format the name claims (and no `content_type` is given), `EmptyDocumentWarning` when the
    document gives no elements.
    """
    if filename is not None and file is None and text is None:
        path = os.fspath(filename)
        try:
            detected = detect_file_format(path)
        except OSError as exc:
            raise FileReadError(f"cannot read {path}: {exc.strerror or exc}") from exc
        fmt = _format(content_type, path) or detected
        partitioner = _partitioner_for(fmt, path)
        if content_type is None:
            _warn_if_mismatched(path, detected, lambda: _head_of(path))
        elements = partitioner(path, **options)
        if not elements:
            _warn_empty(path, fmt, lambda: _head_of(path), _size_of(path), "file")
        return elements

    source = read_source(filename, file, text)
    name = options.get("metadata_filename") or source.path
    fmt = _format(content_type, source.display_name) or detect_format(source.data, name)
    partitioner = _partitioner_for(fmt, source.display_name)
    if content_type is None and name:
        _warn_if_mismatched(name, fmt, lambda: source.data[:_BLANK_SCAN])
    options = _with_name(options, name)
    if fmt == "code" and "language" not in options:
        language = language_for_mime_type(content_type)
        options = {**options, "language": language.name} if language else options
    if isinstance(source.data, str):
        elements = partitioner(text=source.data, **options)
    else:
        elements = partitioner(file=io.BytesIO(source.data), **options)
    if not elements:
        kind = "text" if isinstance(source.data, str) else "file" if name else "document"
        shown = name or ("<text>" if kind == "text" else source.display_name)
        _warn_empty(shown, fmt, lambda: source.data[:_BLANK_SCAN], len(source.data), kind)
    return elements


_BLANK_SCAN = 65536
"""A document of at most this many bytes is read whole to tell whether it is only whitespace
(when it gave no elements); a larger one is said to hold no text partita found."""


def _warn_if_mismatched(name: str, detected: str, head: Callable[[], bytes | str | None]) -> None:
    """Warn `FormatMismatchWarning` when `name` claims another format than `detected`, the one
    the content is read as (unless the content is blank: `_warn_empty` will say that)."""
    claimed = format_for_extension(name)
    if claimed is None or claimed == detected or detected not in PARTITIONERS:
        return
    if _is_blank(head()):
        return
    read_as = FORMAT_NAMES[detected]
    reason = f"the content is {read_as}, not {FORMAT_NAMES[claimed]}: read as {read_as}"
    warnings.warn(FormatMismatchWarning(name, reason), stacklevel=3)


def _warn_empty(
    name: str,
    fmt: str,
    head: Callable[[], bytes | str | None],
    size: int | None,
    kind: str,
) -> None:
    """Warn `EmptyDocumentWarning` for the document `name` (of `size` bytes or characters, when
    known; `kind` "file", "document" or "text"), which gave no elements."""
    if size == 0:
        reason = f"the {kind} is empty" + ("" if kind == "text" else " (0 bytes)")
    elif size is not None and size <= _BLANK_SCAN and _is_blank(head()):
        reason = "it holds only whitespace"
    else:
        reason = f"partita found no text in this {FORMAT_NAMES.get(fmt, fmt)} document"
    warnings.warn(EmptyDocumentWarning(name, reason), stacklevel=3)


def _is_blank(head: bytes | str | None) -> bool:
    """True when `head` holds nothing but whitespace (a byte order mark included); False when it
    is None (unknown)."""
    if head is None:
        return False
    text = head if isinstance(head, str) else head.decode("utf-8", "replace")
    return not text.lstrip("\ufeff").strip()


def _head_of(path: str) -> bytes | None:
    """The first `_BLANK_SCAN` bytes of the file at `path` (None when it cannot be read)."""
    try:
        with open(path, "rb") as f:
            return f.read(_BLANK_SCAN)
    except OSError:
        return None


def _size_of(path: str) -> int | None:
    try:
        return os.stat(path).st_size
    except OSError:
        return None


def _format(content_type: str | None, name: str) -> str | None:
    if content_type is None:
        return None
    fmt = format_for_content_type(content_type)
    if fmt is None:
        raise UnsupportedFormatError(
            f"{name}: content type {content_type!r} is not supported", format=content_type
        )
    return fmt


def _partitioner_for(fmt: str, name: str) -> Callable[..., list[Element]]:
    target = FORMAT_TABLE.get(fmt)
    if target is None:
        raise UnsupportedFormatError(
            f"{name}: partitioning {fmt} documents is not supported", format=fmt
        )
    partitioner: Callable[..., list[Element]] = getattr(
        importlib.import_module(target.module), target.function
    )
    return partitioner


def _with_name(options: dict[str, Any], name: str | None) -> dict[str, Any]:
    if name and "metadata_filename" not in options:
        return {**options, "metadata_filename": name}
    return options
