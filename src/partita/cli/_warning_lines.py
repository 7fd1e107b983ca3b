"""Where partita's warnings go while a command runs: each `PartitaWarning` to a handler that makes
it one line (printed at once, or collected for the input it concerns), every other warning shown
as Python shows it."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from partita.errors import PartitaWarning

__all__ = ["one_line_warning", "routing_warnings"]


def one_line_warning(warning: PartitaWarning) -> str:
    """`warning`'s message on one line (runs of whitespace, newlines included, made one space)."""
    return " ".join(str(warning).split())


@contextmanager
def routing_warnings(handle: Callable[[PartitaWarning], None]) -> Iterator[None]:
    """In the body, pass each `PartitaWarning` emitted (every time, not once per place) to
    `handle`; show other warnings as Python does. Python's filters are restored on exit."""
    with warnings.catch_warnings():
        warnings.simplefilter("always", PartitaWarning)
        shown = warnings.showwarning

        def route(
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: TextIO | None = None,
            line: str | None = None,
        ) -> None:
            if isinstance(message, PartitaWarning):
                handle(message)
            else:
                shown(message, category, filename, lineno, file, line)

        warnings.showwarning = route
        yield
