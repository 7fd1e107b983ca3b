"""Elements to and from a JSON document: an array of elements, as the reference writes it.

`elements_to_json` writes byte-for-byte what the reference's `elements_to_json` writes for the
same elements (4-space indent, sorted keys, coordinates rounded to 1 decimal in PixelSpace and
2 otherwise).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from partita import _json_writer
from partita._gc import collector_paused
from partita.elements import Element
from partita.errors import FileReadError, MalformedJSONError, SerializationError
from partita.serialization._dicts import element_to_dict
from partita.serialization._fast_json import fast_elements_to_json
from partita.serialization._finite import non_finite_error
from partita.serialization._from_dicts import ElementReader
from partita.serialization._indented_json import dumps_indented
from partita.serialization._json_parsing import decode_utf8, loads, naming_file

__all__ = ["elements_from_json", "elements_to_json"]


def elements_to_json(
    elements: Iterable[Element],
    filename: str | os.PathLike[str] | None = None,
    indent: int = 4,
) -> str:
    """Return the elements as a JSON array, and write it to `filename` when one is given.

    The text is what the reference's `elements_to_json` produces for the same elements, and is
    always JSON (RFC 8259): an element holding a NaN or an infinity (a coordinate, an embedding,
    a metadata value, in `orig_elements` too), which the reference writes as a bare `NaN` or
    `Infinity`, raises `SerializationError` naming the element and the field, and nothing is
    written.
    """
    elements = list(elements)
    try:
        with collector_paused():  # -- creates no cycles: see `partita._gc` --
            text = fast_elements_to_json(elements, indent) if _json_writer.AVAILABLE else None
            if text is None:
                encoded: dict[int, tuple[tuple[Element, ...], str]] = {}
                dicts = [element_to_dict(e, round_floats=True, encoded=encoded) for e in elements]
                text = dumps_indented(dicts, indent)
    except ValueError as exc:  # -- the encoders refuse NaN and infinities: name where it is --
        raise non_finite_error(elements) or exc from None
    if filename is not None:
        with open(filename, "w", encoding="utf-8") as f:
            f.write(text)
    return text


def elements_from_json(
    filename: str | os.PathLike[str] | None = None, text: str | None = None
) -> list[Element]:
    """Return the elements of a JSON array read from `filename` or given as `text` (one of them).

    The file is UTF-8, with or without a byte order mark. Raises `FileReadError` for an
    unreadable file, `MalformedJSONError` (with line and column, or the element and field) for
    text that is not a JSON array of elements (a NaN or an infinity included: see `validation`),
    and `DocumentLimitError` past a bound of `orig_elements`. Memory is linear in the text's
    length.
    """
    if (filename is None) == (text is None):
        raise ValueError("give exactly one of `filename` and `text`")
    if filename is None:
        assert text is not None
        return _elements_from_data(loads(text), None)
    name = os.fspath(filename)
    try:
        # -- the bytes and the text are freed once parsed: only the values stay --
        return _elements_from_data(loads(decode_utf8(_read_bytes(name))), name)
    except SerializationError as exc:
        raise naming_file(exc, name) from None


def _elements_from_data(data: Any, filename: str | None) -> list[Element]:
    if not isinstance(data, list):
        raise MalformedJSONError("expected a JSON array of elements", position="top level")
    reader = ElementReader(filename=filename)
    return [reader.element(item, f"element {i}") for i, item in enumerate(data)]


def _read_bytes(filename: str) -> bytes:
    try:
        with open(filename, "rb") as f:
            return f.read()
    except OSError as exc:
        raise FileReadError(f"cannot read {filename}: {exc.strerror}") from exc
