"""Typed errors raised by partita.

Every failure partita can foresee is raised as a subclass of `PartitaError`, so callers can catch
one type. Errors about a file name the file; errors about serialized data name the position (the
element index in a JSON array, the line of a JSON Lines stream, the line and column of a syntax
error).

Hostile input meets bounds, not exhaustion: a document that exceeds one of partita's documented
bounds (decompressed size, object count, nesting, work per page) raises `DocumentLimitError`.
Documents processed in worker processes (`partita.batch`) can also fail with
`DocumentTimeoutError`, `DocumentMemoryError` or `WorkerCrashError`, and an exception partita
did not foresee reaches the caller there as `InternalError` (a bug to report) instead of ending
the batch. Warnings partita emits derive from `PartitaWarning`.
"""

from __future__ import annotations

import reprlib
from typing import Any

__all__ = [
    "CodeParseWarning",
    "DocumentError",
    "DocumentLimitError",
    "DocumentMemoryError",
    "DocumentTimeoutError",
    "FileReadError",
    "InternalError",
    "LimitExceededError",
    "MalformedJSONError",
    "PartitaError",
    "PartitaWarning",
    "SerializationError",
    "UnknownElementTypeError",
    "UnsupportedFormatError",
    "WorkerCrashError",
    "one_line",
]


class PartitaError(Exception):
    """Base class of every error partita raises on purpose.

    Every subclass pickles with its attributes (`filename`, `limit`, ...), so an error raised in a
    worker process reaches the parent whole.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_error, (type(self), self.args, self.__dict__))


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


class DocumentLimitError(DocumentError):
    """A document exceeds one of partita's bounds on the work or memory it may cost.

    `limit` names the bound (e.g. "decompressed size"); docs/untrusted-documents.md lists every
    bound and its value. Raised instead of letting a small hostile file take unbounded time or
    memory.
    """

    def __init__(self, message: str, *, filename: str | None = None, limit: str) -> None:
        super().__init__(message, filename=filename)
        self.limit = limit


class LimitExceededError(PartitaError):
    """A document processed in a worker process exceeded its per-document limit.

    `filename` names the document, `limit` the limit's value (seconds or bytes).
    """

    def __init__(self, message: str, *, filename: str, limit: float) -> None:
        super().__init__(f"{filename}: {message}")
        self.filename = filename
        self.limit = limit


class DocumentTimeoutError(LimitExceededError):
    """A document took longer than its time limit; its worker was stopped."""


class DocumentMemoryError(LimitExceededError):
    """A document needed more memory than its memory limit."""


class WorkerCrashError(PartitaError):
    """The worker process handling a document died (a signal, or an exit) before answering.

    `filename` names the document; `reason` says how the worker ended ("killed by SIGSEGV").
    """

    def __init__(self, *, filename: str, reason: str) -> None:
        super().__init__(f"{filename}: the worker process died ({reason})")
        self.filename = filename
        self.reason = reason


class InternalError(PartitaError):
    """An exception partita did not foresee, raised while processing `filename`: a bug.

    Batches report it instead of stopping; `type_name` and `traceback` describe the original.
    """

    def __init__(self, *, filename: str, type_name: str, message: str, traceback: str) -> None:
        super().__init__(f"{filename}: unexpected {type_name}: {message}")
        self.filename = filename
        self.type_name = type_name
        self.traceback = traceback


class PartitaWarning(UserWarning):
    """Base class of the warnings partita emits (e.g. about content it could not read)."""


class CodeParseWarning(PartitaWarning):
    """Source code that did not parse in its language (or whose grammar is not installed) was
    chunked as text (the "code" strategy's fallback); the message names the file and line."""


class SerializationError(PartitaError, ValueError):
    """Serialized elements could not be read back; `position` says where."""

    def __init__(self, message: str, *, position: str | None = None) -> None:
        super().__init__(message if position is None else f"{message} (at {position})")
        self.position = position


class MalformedJSONError(SerializationError):
    """The input is not valid JSON, or not shaped like serialized elements."""


class UnknownElementTypeError(SerializationError):
    """An element's `type` is not a type partita (or unstructured) knows.

    `type_name` is the type as read when it is a string of at most `MAX_SHOWN` characters, else
    a shortened `repr` of it (a hostile file's type can be a megabyte, or a list nested a
    thousand deep, which neither a message nor a pickle should carry).
    """

    MAX_SHOWN = 200

    def __init__(self, type_name: object, *, position: str | None = None) -> None:
        if isinstance(type_name, str) and len(type_name) <= self.MAX_SHOWN:
            shown: str = type_name
            quoted = repr(type_name)
        else:
            shown = quoted = _SHORT_REPR.repr(type_name)
        super().__init__(f"unknown element type {quoted}", position=position)
        self.type_name = shown


def _short_repr() -> reprlib.Repr:
    """A `repr` for hostile values in messages: a few items, a few levels, 120 characters."""
    short = reprlib.Repr()  # -- keyword arguments need Python 3.12 --
    short.maxlevel, short.maxlist, short.maxdict, short.maxtuple = 3, 6, 6, 6
    short.maxstring = short.maxother = 120
    return short


_SHORT_REPR = _short_repr()


def _rebuild_error(
    cls: type[PartitaError], args: tuple[Any, ...], state: dict[str, Any]
) -> PartitaError:
    """Unpickle a `PartitaError` without calling its keyword-only constructor."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


def one_line(message: object) -> str:
    """Return the last non-blank line of `message` (an error, or its text): partita's own, when
    an error wraps another library's message (an unknown tokenizer name is tiktoken's "Unknown
    encoding ...", its plugin list and version, then partita's line naming the encodings
    available offline), so that a command line can report it as one line."""
    lines = [line.strip() for line in str(message).splitlines() if line.strip()]
    return lines[-1] if lines else str(message).strip()
