"""Typed errors raised by partita.

Every failure partita can foresee is raised as a subclass of `PartitaError`, so callers can catch
one type. Errors about a file name the file; errors about serialized data name the position (the
element index in a JSON array, the line of a JSON Lines stream, the line and column of a syntax
error).
"""

from __future__ import annotations

__all__ = [
    "DocumentError",
    "FileReadError",
    "MalformedJSONError",
    "PartitaError",
    "SerializationError",
    "UnknownElementTypeError",
    "UnsupportedFormatError",
]


class PartitaError(Exception):
    """Base class of every error partita raises on purpose."""


class FileReadError(PartitaError, OSError):
    """A file could not be opened or read."""


class UnsupportedFormatError(PartitaError, ValueError):
    """The document's format is not one partita can partition.

    `format` names the detected format (e.g. "zip", "docx") or "unknown".
    """

    def __init__(self, message: str, *, format: str) -> None:  # noqa: A002
        super().__init__(message)
        self.format = format


class DocumentError(PartitaError, ValueError):
    """A document is corrupt, truncated, or not what its format claims; `filename` names it."""

    def __init__(self, message: str, *, filename: str | None = None) -> None:
        super().__init__(message if filename is None else f"{filename}: {message}")
        self.filename = filename


class SerializationError(PartitaError, ValueError):
    """Serialized elements could not be read back; `position` says where."""

    def __init__(self, message: str, *, position: str | None = None) -> None:
        super().__init__(message if position is None else f"{message} (at {position})")
        self.position = position


class MalformedJSONError(SerializationError):
    """The input is not valid JSON, or not shaped like serialized elements."""


class UnknownElementTypeError(SerializationError):
    """An element's `type` is not a type partita (or unstructured) knows."""

    def __init__(self, type_name: object, *, position: str | None = None) -> None:
        super().__init__(f"unknown element type {type_name!r}", position=position)
        self.type_name = type_name
