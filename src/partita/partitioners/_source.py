"""Reading a document from a path, a file object or a string, with typed errors."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import IO

from partita.errors import DocumentError, DocumentLimitError, FileReadError

__all__ = [
    "FileInfo",
    "Source",
    "decode_explicitly",
    "decode_text",
    "decode_utf8_or_cp1252",
    "describe_file",
    "read_source",
]


@dataclass(frozen=True, slots=True)
class Source:
    """A document's content and what is known of where it came from."""

    data: bytes | str
    """The raw bytes, or the text when the caller gave text."""
    path: str | None
    """The path the document was read from, or the name the caller gave it."""
    last_modified: str | None
    """The file's modification time as `YYYY-MM-DDTHH:MM:SS`, when read from a file."""

    @property
    def display_name(self) -> str:
        """A name for messages: the path, or "<stream>"."""
        return self.path or "<stream>"


def read_source(
    filename: str | os.PathLike[str] | None = None,
    file: IO[bytes] | IO[str] | None = None,
    text: str | None = None,
    *,
    max_bytes: int | None = None,
    name: str | None = None,
) -> Source:
    """Return the document given by exactly one of `filename`, `file` and `text`.

    Raises `FileReadError` naming the file when it cannot be opened or read, and `ValueError`
    unless exactly one source is given. With `max_bytes`, a document of more bytes (or
    characters, for text) raises `DocumentLimitError` ("document size") naming `name` (else the
    file) before it is read whole.
    """
    given = sum(x is not None for x in (filename, file, text))
    if given != 1:
        raise ValueError("give exactly one of `filename`, `file` and `text`")
    if text is not None:
        _check_size(len(text), max_bytes, name or "<text>")
        return Source(text, None, None)
    if file is not None:
        file_name = getattr(file, "name", None)
        display = file_name if isinstance(file_name, str) else None
        try:
            data = file.read() if max_bytes is None else file.read(max_bytes + 1)
        except OSError as exc:
            raise FileReadError(f"cannot read {file_name or '<stream>'}: {exc}") from exc
        _check_size(len(data), max_bytes, name or display or "<stream>")
        return Source(data, display, None)
    assert filename is not None
    path = os.fspath(filename)
    try:
        with open(path, "rb") as f:
            if max_bytes is not None:
                _check_size(os.fstat(f.fileno()).st_size, max_bytes, name or path)
            data = f.read() if max_bytes is None else f.read(max_bytes + 1)
        mtime = os.stat(path).st_mtime
    except OSError as exc:
        raise FileReadError(f"cannot read {path}: {exc.strerror or exc}") from exc
    _check_size(len(data), max_bytes, name or path)
    return Source(data, path, _stamp(mtime))


@dataclass(frozen=True, slots=True)
class FileInfo:
    """A document given as a path or a binary file object, described without reading it."""

    path: str | None
    """The path, or the file object's `name` when it is a string."""
    size: int
    """Its size in bytes (from the current position, for a file object)."""
    last_modified: str | None
    """The file's modification time as `YYYY-MM-DDTHH:MM:SS`, when given as a path."""

    @property
    def display_name(self) -> str:
        """A name for messages: the path, or "<stream>"."""
        return self.path or "<stream>"


def describe_file(
    filename: str | os.PathLike[str] | None = None, file: IO[bytes] | None = None
) -> FileInfo:
    """Describe the document given by exactly one of `filename` and `file` (a seekable binary
    file object, left at its position) without reading its content, for a reader that takes
    paths and file objects itself.

    Raises `FileReadError` naming the file when it cannot be opened or sized, and `ValueError`
    unless exactly one is given.
    """
    if (filename is None) == (file is None):
        raise ValueError("give exactly one of `filename` and `file`")
    if file is not None:
        file_name = getattr(file, "name", None)
        display = file_name if isinstance(file_name, str) else None
        try:
            start = file.tell()
            size = file.seek(0, os.SEEK_END) - start
            file.seek(start)
        except (OSError, ValueError) as exc:
            raise FileReadError(f"cannot read {display or '<stream>'}: {exc}") from exc
        return FileInfo(display, size, None)
    assert filename is not None
    path = os.fspath(filename)
    try:
        stat = os.stat(path)
        with open(path, "rb"):
            pass  # -- readable: the reader's own errors come later, as typed ones --
    except OSError as exc:
        raise FileReadError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return FileInfo(path, stat.st_size, _stamp(stat.st_mtime))


def _stamp(mtime: float) -> str:
    import datetime

    return datetime.datetime.fromtimestamp(mtime).strftime("%Y-%m-%dT%H:%M:%S")


def _check_size(size: int, max_bytes: int | None, name: str | None) -> None:
    if max_bytes is not None and size > max_bytes:
        raise DocumentLimitError(
            f"the document is larger than {max_bytes:,} bytes",
            filename=name,
            limit="document size",
        )


def decode_text(data: bytes | str, encoding: str | None = None, name: str | None = None) -> str:
    """Return `data` as text: `encoding` if given, else UTF-8 (BOM honoured), UTF-16 with a BOM,
    else `decode_utf8_or_cp1252`, so that every byte decodes and no text is lost.

    Raises `DocumentError` naming `name` when `encoding` is unknown, no text encoding, or fails.
    """
    if isinstance(data, str):
        return data
    if encoding:
        return decode_explicitly(data, encoding, name)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return decode_utf8_or_cp1252(data)


def decode_explicitly(data: bytes, encoding: str, name: str | None) -> str:
    """Return `data` decoded with the caller's `encoding` (a Python text encoding).

    Raises `DocumentError` naming `name` when `encoding` is unknown or no text encoding (Python's
    registry also holds `rot13`, `base64`, `zlib`, ...), or when the bytes do not decode.
    """
    try:
        return data.decode(encoding)
    except (LookupError, UnicodeError, ValueError) as exc:
        raise DocumentError(f"cannot decode as {encoding}: {exc}", filename=name) from exc


def decode_utf8_or_cp1252(data: bytes) -> str:
    """Return `data` decoded as UTF-8 when it is UTF-8, else as Windows-1252.

    Bytes that are mostly UTF-8 (more valid multi-byte sequences than invalid bytes) are a
    damaged UTF-8 document: they decode as UTF-8 with U+FFFD for the invalid bytes, instead of
    turning every non-ASCII character into Windows-1252 mojibake. Windows-1252 decodes every byte
    but five, which become U+FFFD.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    text = data.decode("utf-8", errors="replace")
    invalid = text.count("\ufffd")
    non_ascii = len(text) - len(text.encode("ascii", errors="ignore"))
    if non_ascii - invalid > invalid:
        return text
    return data.decode("cp1252", errors="replace")
