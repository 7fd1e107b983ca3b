"""Elements to and from JSON Lines: one element per line, streamed in both directions."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from typing import IO

from partita.elements import Element
from partita.errors import FileReadError, MalformedJSONError
from partita.serialization.dicts import element_to_dict
from partita.serialization.from_dicts import element_from_dict

__all__ = ["elements_to_jsonl", "iter_elements_from_jsonl"]


def elements_to_jsonl(elements: Iterable[Element], file: str | os.PathLike[str] | IO[str]) -> int:
    """Write one element per line to `file` (a path or a text stream) as elements arrive.

    Return the number of elements written. Lines are what the reference's `elements_to_ndjson`
    writes for each element.
    """
    if isinstance(file, (str, os.PathLike)):
        with open(file, "w", encoding="utf-8") as f:
            return elements_to_jsonl(elements, f)
    count = 0
    encoded: dict[int, tuple[tuple[Element, ...], str]] = {}
    for element in elements:
        if len(encoded) > 64:  # -- split pieces are adjacent: a small memo suffices --
            encoded.clear()
        item = element_to_dict(element, round_floats=True, encoded=encoded)
        file.write(json.dumps(item, sort_keys=True))
        file.write("\n")
        count += 1
    return count


def iter_elements_from_jsonl(
    source: str | os.PathLike[str] | IO[str],
) -> Iterator[Element]:
    """Generate the elements of a JSON Lines file or stream, one line at a time.

    Blank lines are skipped. A bad line raises `MalformedJSONError` or `UnknownElementTypeError`
    naming its line number.
    """
    if isinstance(source, (str, os.PathLike)):
        try:
            stream: IO[str] = open(source, encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            raise FileReadError(f"cannot read {os.fspath(source)}: {exc.strerror}") from exc
        with stream:
            yield from iter_elements_from_jsonl(stream)
        return
    for lineno, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise MalformedJSONError(
                f"not valid JSON: {exc.msg}", position=f"line {lineno}, column {exc.colno}"
            ) from exc
        yield element_from_dict(item, position=f"line {lineno}")
