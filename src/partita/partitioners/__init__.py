"""Partitioners: documents to elements, one module per format, and the dispatcher.

`partition` detects a document's format (`partitioners.detect`) and calls that format's
partitioner, importing it only then, so `import partita` stays light.
"""

from __future__ import annotations

import importlib
import io
import os
from collections.abc import Callable
from typing import IO, Any

from partita.elements import Element
from partita.errors import FileReadError, UnsupportedFormatError
from partita.partitioners._source import read_source
from partita.partitioners.detect import (
    detect_file_format,
    detect_format,
    format_for_content_type,
)
from partita.text.code.languages import language_for_mime_type

__all__ = ["PARTITIONERS", "partition"]

PARTITIONERS: dict[str, str] = {
    "code": "partita.partitioners.code:partition_code",
    "docx": "partita.partitioners.docx:partition_docx",
    "html": "partita.partitioners.html:partition_html",
    "md": "partita.partitioners.markdown:partition_md",
    "pdf": "partita.partitioners.pdf:partition_pdf",
    "text": "partita.partitioners.text:partition_text",
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
    `FileReadError` for an unreadable file.
    """
    if filename is not None and file is None and text is None:
        path = os.fspath(filename)
        try:
            detected = detect_file_format(path)
        except OSError as exc:
            raise FileReadError(f"cannot read {path}: {exc.strerror or exc}") from exc
        fmt = _format(content_type, path) or detected
        return _partitioner_for(fmt, path)(path, **options)

    source = read_source(filename, file, text)
    name = options.get("metadata_filename") or source.path
    fmt = _format(content_type, source.display_name) or detect_format(source.data, name)
    partitioner = _partitioner_for(fmt, source.display_name)
    options = _with_name(options, name)
    if fmt == "code" and "language" not in options:
        language = language_for_mime_type(content_type)
        options = {**options, "language": language.name} if language else options
    if isinstance(source.data, str):
        return partitioner(text=source.data, **options)
    return partitioner(file=io.BytesIO(source.data), **options)


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
    target = PARTITIONERS.get(fmt)
    if target is None:
        raise UnsupportedFormatError(
            f"{name}: partitioning {fmt} documents is not supported", format=fmt
        )
    module_name, function_name = target.split(":")
    partitioner: Callable[..., list[Element]] = getattr(
        importlib.import_module(module_name), function_name
    )
    return partitioner


def _with_name(options: dict[str, Any], name: str | None) -> dict[str, Any]:
    if name and "metadata_filename" not in options:
        return {**options, "metadata_filename": name}
    return options
