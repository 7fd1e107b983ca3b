"""Reading a document from a path, a file object or a string, with typed errors."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import IO

from partita.errors import FileReadError

__all__ = ["Source", "decode_text", "read_source"]


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
) -> Source:
    """Return the document given by exactly one of `filename`, `file` and `text`.

    Raises `FileReadError` naming the file when it cannot be opened or read, and `ValueError`
    unless exactly one source is given.
    """
    given = sum(x is not None for x in (filename, file, text))
    if given != 1:
        raise ValueError("give exactly one of `filename`, `file` and `text`")
    if text is not None:
        return Source(text, None, None)
    if file is not None:
        name = getattr(file, "name", None)
        try:
            data = file.read()
        except OSError as exc:
            raise FileReadError(f"cannot read {name or '<stream>'}: {exc}") from exc
        return Source(data, name if isinstance(name, str) else None, None)
    assert filename is not None
    path = os.fspath(filename)
    try:
        with open(path, "rb") as f:
            data = f.read()
        mtime = os.stat(path).st_mtime
    except OSError as exc:
        raise FileReadError(f"cannot read {path}: {exc.strerror or exc}") from exc
    import datetime

    stamp = datetime.datetime.fromtimestamp(mtime).strftime("%Y-%m-%dT%H:%M:%S")
    return Source(data, path, stamp)


def decode_text(data: bytes | str, encoding: str | None = None) -> str:
    """Return `data` as text: `encoding` if given, else UTF-8 (BOM honoured), UTF-16 with a BOM,
    and Windows-1252 as the last resort (every byte decodes, so no text is lost)."""
    if isinstance(data, str):
        return data
    if encoding:
        return data.decode(encoding)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")
