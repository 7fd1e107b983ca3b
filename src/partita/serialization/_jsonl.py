"""Elements to and from JSON Lines: one element per line, streamed in both directions."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from typing import IO

from partita.elements import Element
from partita.errors import (
    DocumentLimitError,
    FileReadError,
    MalformedJSONError,
    SerializationError,
)
from partita.serialization._dicts import element_to_dict
from partita.serialization._finite import non_finite_error
from partita.serialization._from_dicts import ElementReader
from partita.serialization._json_parsing import loads, naming_file

__all__ = ["MAX_LINE_LENGTH", "elements_to_jsonl", "iter_elements_from_jsonl"]


def elements_to_jsonl(elements: Iterable[Element], file: str | os.PathLike[str] | IO[str]) -> int:
    """Write one element per line to `file` (a path or a text stream) as elements arrive.

    Return the number of elements written. Lines are what the reference's `elements_to_ndjson`
    writes for each element, and always JSON: an element holding a NaN or an infinity raises
    `SerializationError` naming it ("element 3, embeddings[0]"), the lines before it written.
    """
    if isinstance(file, (str, os.PathLike)):
        with open(file, "w", encoding="utf-8") as f:
            return elements_to_jsonl(elements, f)
    count = 0
    encoded: dict[int, tuple[tuple[Element, ...], str]] = {}
    for element in elements:
        if len(encoded) > 64:  # -- split pieces are adjacent: a small memo suffices --
            encoded.clear()
        try:
            item = element_to_dict(element, round_floats=True, encoded=encoded)
            line = json.dumps(item, sort_keys=True, allow_nan=False)
        except ValueError as exc:  # -- a NaN or an infinity: name where it is --
            raise non_finite_error([element], first_index=count) or exc from None
        file.write(line)
        file.write("\n")
        count += 1
    return count


def iter_elements_from_jsonl(
    source: str | os.PathLike[str] | IO[str],
) -> Iterator[Element]:
    """Generate the elements of a JSON Lines file or stream, one line at a time.

    A file is UTF-8, with or without a byte order mark. Blank lines are skipped. Memory is
    bounded by the longest line, itself bounded: a line longer than `MAX_LINE_LENGTH`
    characters raises `DocumentLimitError`. A bad line raises `MalformedJSONError` or
    `UnknownElementTypeError` naming its line number (and column, or element field; a NaN or an
    infinity is malformed, see `validation`). The lines are one document: their `orig_elements`
    share one decompression budget.
    """
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        try:
            # -- bad bytes become lone surrogates, which no valid UTF-8 gives: see _checked --
            stream: IO[str] = open(name, encoding="utf-8-sig", errors="surrogateescape")  # noqa: SIM115
        except OSError as exc:
            raise FileReadError(f"cannot read {name}: {exc.strerror}") from exc
        with stream:
            try:
                yield from _iter_elements(stream, name, strict_utf8=True)
            except SerializationError as exc:
                raise naming_file(exc, name) from None
        return
    yield from _iter_elements(source, None, strict_utf8=False)


MAX_LINE_LENGTH = 256 * 1024 * 1024
"""The most characters one JSON Lines line may hold (its newline aside). A line is one element;
the largest elements of real documents (an image in base64, a chunk's `orig_elements`) are a few
megabytes. The bound keeps a stream's memory bounded: a line is read whole before it is parsed."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def _iter_elements(
    source: IO[str], filename: str | None, *, strict_utf8: bool
) -> Iterator[Element]:
    reader = ElementReader(filename=filename, cache_size=64)
    readline = getattr(source, "readline", None)
    lines: Iterator[str] = (
        iter(lambda: readline(MAX_LINE_LENGTH + 1), "") if readline is not None else iter(source)
    )
    lineno = 0
    while True:
        lineno += 1
        try:
            line = next(lines, None)
        except UnicodeDecodeError as exc:
            raise MalformedJSONError(f"not UTF-8: {exc.reason}", position=f"line {lineno}") from exc
        if line is None:
            return
        if len(line) > MAX_LINE_LENGTH and not line.endswith("\n"):
            raise DocumentLimitError(
                f"a JSON Lines line is longer than {MAX_LINE_LENGTH} characters (at line {lineno})",
                filename=filename,
                limit="JSON Lines line length",
            )
        if not line or line.isspace():
            continue
        if strict_utf8 and not line.isascii():
            bad = _SURROGATE.search(line)
            if bad is not None:
                raise MalformedJSONError(
                    "not UTF-8", position=f"line {lineno}, column {bad.start() + 1}"
                )
        item = loads(line, line=lineno, outer_levels=2)
        del line
        yield reader.element(item, f"line {lineno}")
