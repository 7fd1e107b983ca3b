"""Type checks of element fields read from JSON, against the reference's `ElementMetadata` types.

The reference (`unstructured`) stores whatever JSON gives, and fails later, in chunking or
export, on a value of the wrong type. partita checks each declared field when it reads it and
raises `MalformedJSONError` naming the element and the field, by the field's JSON form (declared
on `ElementMetadata`, `partita.elements.METADATA_FIELDS`):

- strings: `filename`, `parent_id`, `text_as_html`, ... (every `Optional[str]` field);
- integers (`page_number`, `category_depth`, `chunk_index`, `num_carried_over_header_rows`):
  JSON integers within 64 bits, not booleans, not floats;
- numbers (`detection_class_prob`, `routing_score`, `segment_*_seconds`): integers within 64 bits
  or finite floats;
- `is_continuation`: a boolean; the list fields: arrays of strings (`link_start_indexes`: of
  integers);
- `enrichment_origins`: an object of arrays of objects whose values are strings or other scalars
  (chunking merges them as sets); `key_value_pairs`: an array of objects; `table_as_cells`: an
  object or an array (the reference's own tables write an array of cells);
- undeclared ("ad-hoc") fields: any JSON value, kept as it is.

Values that hold arrays or objects may nest at most `MAX_NESTING_DEPTH` of them, so that no
recursive code downstream (partita's, the standard library's, the reference's) runs out of stack.

Every number is finite, wherever it stands (a field, a coordinate, an embedding, inside an ad-hoc
value): JSON (RFC 8259) has no NaN or Infinity. The reference writes them as the bare words `NaN`
and `Infinity`, which other JSON readers refuse, and Python reads a number beyond a double's range
(`1e400`) as an infinity; partita refuses both when reading, naming the element and the field,
so that it never holds a value it could not write back as JSON (`_finite`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from partita._metadata_fields import JsonForm
from partita.elements import METADATA_FIELDS
from partita.errors import MalformedJSONError

__all__ = [
    "MAX_INTEGER",
    "MAX_NESTING_DEPTH",
    "check_integer",
    "check_json_value",
    "check_number",
    "field_value",
    "float_name",
    "json_type_name",
    "non_finite_message",
]

MAX_NESTING_DEPTH = 32
"""The most arrays and objects a metadata value may nest (`{"a": [1]}` nests 2). The reference's
own values nest at most 6 (a `key_value_pairs` entry with its element); 32 leaves room for
user-defined fields and stays far below Python's recursion limit."""

MAX_INTEGER = 2**63 - 1
"""Integer fields (and integers in number fields) lie within signed 64 bits, what JSON readers in
other languages, orjson included, represent."""

# -- Python cannot write an integer of more digits as text (sys.get_int_max_str_digits) --
_MAX_JSON_INTEGER = 10**4300

_TYPE_NAMES = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
    list: "an array",
    tuple: "an array",
    dict: "an object",
}


def json_type_name(value: Any) -> str:
    """Return what `value` is, in JSON's words ("a string", "an array", ...), for messages."""
    name = _TYPE_NAMES.get(type(value))
    if name is not None:
        return name
    if isinstance(value, Mapping):
        return "an object"
    return f"a Python {type(value).__name__}"


def _fail(where: str, expected: str, value: Any) -> MalformedJSONError:
    return MalformedJSONError(f"must be {expected}, got {json_type_name(value)}", position=where)


def _is_integer(value: Any) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and -MAX_INTEGER - 1 <= value <= MAX_INTEGER
    )


def check_number(value: Any, where: str) -> int | float:
    """Return `value` if it is a JSON number (an integer within 64 bits, or a finite float)."""
    if isinstance(value, float):
        if value - value == 0.0:  # -- False for NaN and the infinities, at no call's cost --
            return value
        raise MalformedJSONError(non_finite_message(value), position=where)
    return _checked_integer(value, where, "a number")


def _string(value: Any, where: str) -> str:
    if isinstance(value, str):
        return value
    raise _fail(where, "a string", value)


def check_integer(value: Any, where: str) -> int:
    """Return `value` if it is a JSON integer within 64 bits (not a boolean)."""
    return _checked_integer(value, where, "an integer")


def _checked_integer(value: Any, where: str, expected: str) -> int:
    """Return `value` if it is an integer within 64 bits (not a boolean); raise
    `MalformedJSONError` at `where` saying so for a larger integer, else that it must be
    `expected`."""
    if _is_integer(value):
        return value  # type: ignore[no-any-return]
    if isinstance(value, int) and not isinstance(value, bool):
        raise MalformedJSONError("is an integer beyond 64 bits", position=where)
    raise _fail(where, expected, value)


def _boolean(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    raise _fail(where, "a boolean", value)


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise _fail(where, "an array of strings", value)
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise _fail(f"{where}[{index}]", "a string", item)
    return tuple(value)


def _integers(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)):
        raise _fail(where, "an array of integers", value)
    for index, item in enumerate(value):
        check_integer(item, f"{where}[{index}]")
    return tuple(value)


def _objects(value: Any, where: str) -> Any:
    """An array of JSON objects, kept as it is (`key_value_pairs`)."""
    if not isinstance(value, (list, tuple)):
        raise _fail(where, "an array of objects", value)
    for index, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise _fail(f"{where}[{index}]", "an object", item)
    return check_json_value(value, where)


def _cells(value: Any, where: str) -> Any:
    """An object or an array, kept as it is (`table_as_cells`)."""
    if not isinstance(value, (Mapping, list, tuple)):
        raise _fail(where, "an object or an array", value)
    return check_json_value(value, where)


def _enrichment_origins(value: Any, where: str) -> Any:
    """An object of arrays of records (objects of scalars): chunking merges records as sets."""
    if not isinstance(value, Mapping):
        raise _fail(where, "an object of arrays of records", value)
    for key, records in value.items():
        at = f"{where}.{key}"
        if not isinstance(records, (list, tuple)):
            raise _fail(at, "an array of records", records)
        for index, record in enumerate(records):
            if not isinstance(record, Mapping):
                raise _fail(f"{at}[{index}]", "an object", record)
            for name, item in record.items():
                if isinstance(item, (Mapping, list, tuple)):
                    raise _fail(f"{at}[{index}].{name}", "a string", item)
    return check_json_value(value, where)


_CHECKS: dict[JsonForm, Callable[[Any, str], Any]] = {
    "str": _string,
    "int": check_integer,
    "number": check_number,
    "bool": _boolean,
    "strs": _strings,
    "ints": _integers,
    "objects": _objects,
    "cells": _cells,
    "origins": _enrichment_origins,
}
"""The check of each JSON form a field read by `field_value` may have."""

_FIELD_CHECKS: dict[str, Callable[[Any, str], Any]] = {
    name: _CHECKS[field.json] for name, field in METADATA_FIELDS.items() if field.json in _CHECKS
}


def field_value(name: str, value: Any, where: str) -> Any:
    """Return the stored form of declared metadata field `name` read as `value` (not None).

    Lists become tuples for the list fields; other values are returned as they are. Raises
    `MalformedJSONError` at `where` for a value of the wrong type. `coordinates`, `data_source`,
    `links` and `orig_elements` are read by `from_dicts`, not here.
    """
    return _FIELD_CHECKS[name](value, where)


def check_json_value(value: Any, where: str) -> Any:
    """Return `value` if it is a JSON value nesting at most `MAX_NESTING_DEPTH` arrays/objects.

    A JSON value is a string, a number (an integer of at most 4300 digits, what Python writes as
    text, or a finite float), a boolean, null, a list or tuple of JSON values, or a mapping from
    strings to JSON values. Raises `MalformedJSONError` at `where` extended with the path to the
    bad part.
    """
    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, float):
        return check_number(value, where)
    try:
        _check_nested(value, 0)
    except _BadValue as bad:
        path = "".join(
            f"[{step}]" if isinstance(step, int) else f".{step}" for step in reversed(bad.path)
        )
        raise MalformedJSONError(bad.message, position=where + path) from None
    return value


class _BadValue(Exception):
    """A part of a value that is not JSON; `path` is filled in, innermost step first, as the
    recursion unwinds (so that no path is formatted while all is well)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.path: list[str | int] = []


def non_finite_message(value: float) -> str:
    """Return the message for a NaN or infinite `value` read where a JSON number belongs."""
    name = float_name(value)
    if name == "NaN":
        return "is NaN, which JSON cannot hold (RFC 8259 has no NaN or Infinity)"
    return (
        f"is {name}, which JSON cannot hold (RFC 8259 has no NaN or Infinity; a number beyond a"
        " double's range, such as 1e400, reads as one)"
    )


def float_name(value: float) -> str:
    """Return "NaN", "Infinity" or "-Infinity" for a non-finite `value` (else its repr)."""
    if value != value:
        return "NaN"
    if value in (_INFINITY, -_INFINITY):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)


_INFINITY = float("inf")


def _check_nested(value: Any, depth: int) -> None:
    if isinstance(value, float):
        if value - value != 0.0:
            raise _BadValue(non_finite_message(value))
    elif isinstance(value, int) and not isinstance(value, bool):
        if not -_MAX_JSON_INTEGER < value < _MAX_JSON_INTEGER:
            raise _BadValue("is an integer of more than 4300 digits")
    elif isinstance(value, (list, tuple)):
        if depth >= MAX_NESTING_DEPTH:
            raise _BadValue(f"nests more than {MAX_NESTING_DEPTH} arrays or objects")
        for index, item in enumerate(value):
            if not (isinstance(item, (str, bool)) or item is None):
                _check_member(item, index, depth)
    elif isinstance(value, Mapping):
        if depth >= MAX_NESTING_DEPTH:
            raise _BadValue(f"nests more than {MAX_NESTING_DEPTH} arrays or objects")
        for key, item in value.items():
            if not isinstance(key, str):
                raise _BadValue(f"has a key that is not a string ({key!r})")
            if not (isinstance(item, (str, bool)) or item is None):
                _check_member(item, key, depth)
    elif not (isinstance(value, (str, bool)) or value is None):
        raise _BadValue(f"is not a JSON value ({json_type_name(value)})")


def _check_member(item: Any, step: str | int, depth: int) -> None:
    """`_check_nested` of `item`, the member at `step` of an array or object `depth` levels
    down, adding `step` to the path of what it finds."""
    try:
        _check_nested(item, depth + 1)
    except _BadValue as bad:
        bad.path.append(step)
        raise
