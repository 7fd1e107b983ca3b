"""Finding the NaN or infinity that keeps elements from being written as JSON.

JSON (RFC 8259) has no NaN or Infinity, and the standard library writes them as bare words
(`NaN`, `Infinity`) that other readers refuse, as partita's own reader does. partita's writers
therefore encode with `allow_nan=False` (orjson, which would write `null`, is not trusted with
them: see `partita._json_writer`), and when the encoder refuses a value, `non_finite_error` walks
the elements to name it: "element 3, metadata.coordinates.points[0][1]", the position the reader
names for the same value. Nothing is searched while all is well: the writers' speed is unchanged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from partita.elements import Element
from partita.errors import SerializationError
from partita.serialization._validation import float_name

__all__ = ["non_finite_error", "non_finite_path"]

_MAX_DEPTH = 200
"""Containers followed into a value: the encoders give up on deeper ones (RecursionError)."""


def non_finite_error(
    elements: Sequence[Element], *, first_index: int = 0
) -> SerializationError | None:
    """Return the error naming the first NaN or infinity in `elements`, or None if there is none.

    Positions count from `first_index` ("element 5, embeddings[2]").
    """
    for offset, element in enumerate(elements):
        found = non_finite_path(element)
        if found is not None:
            path, value = found
            return SerializationError(
                f"cannot write {float_name(value)} as JSON (RFC 8259 numbers are finite)",
                position=f"element {first_index + offset}, {path}",
            )
    return None


def non_finite_path(element: Element, depth: int = 0) -> tuple[str, float] | None:
    """Return the path in `element` (as the reader names it) of its first NaN or infinity and
    the value, or None. `orig_elements` are searched too: "metadata.orig_elements[2], text"."""
    if element.embeddings:
        for index, number in enumerate(element.embeddings):
            if isinstance(number, float) and number - number != 0.0:
                return f"embeddings[{index}]", number
    meta = element.metadata
    for name, value in meta.__dict__.items():
        if name == "orig_elements" and value:
            if depth >= _MAX_DEPTH:
                continue
            for index, orig in enumerate(value):
                found = non_finite_path(orig, depth + 1)
                if found is not None:
                    return f"metadata.orig_elements[{index}], {found[0]}", found[1]
        elif name == "extra" and value:
            for key, item in value.items():
                step = _search(item, 0)
                if step is not None:
                    return f"metadata.{key}{step[0]}", step[1]
        elif value is not None:
            step = _search(value, 0)
            if step is not None:
                return f"metadata.{name}{step[0]}", step[1]
    return None


def _search(value: Any, depth: int) -> tuple[str, float] | None:
    """The path suffix (".points[0][1]") to the first NaN or infinity in `value`, and the value."""
    if isinstance(value, float):
        return ("", value) if value - value != 0.0 else None
    if isinstance(value, (str, int)) or value is None or depth > _MAX_DEPTH:
        return None
    if isinstance(value, Mapping):
        items: Any = ((f".{key}", item) for key, item in value.items())
    elif isinstance(value, (list, tuple)):
        items = ((f"[{index}]", item) for index, item in enumerate(value))
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        items = ((f".{f.name}", getattr(value, f.name)) for f in dataclasses.fields(value))
    else:
        return None
    for step, item in items:
        found = _search(item, depth + 1)
        if found is not None:
            return step + found[0], found[1]
    return None
