"""JSON text to Python values, every failure a `MalformedJSONError` that names its position.

The standard library's parser raises `JSONDecodeError` for bad syntax, but `RecursionError` for
text nested about a thousand levels deep and a plain `ValueError` for an integer of more than
4300 digits; both are mapped here, with the position found by scanning the text again (only
when it failed). The words `NaN`, `Infinity` and `-Infinity` (which the reference writes, though
they are not JSON) parse here, as do numbers beyond a double's range (as infinities), so that the
element reader can refuse them naming the element and the field (`_validation`); of repeated keys
in an object the last wins, as in the reference.
"""

from __future__ import annotations

import json
import re
from typing import Any

from partita.errors import MalformedJSONError, SerializationError
from partita.serialization._validation import MAX_NESTING_DEPTH

__all__ = ["decode_utf8", "loads", "naming_file"]

# -- a JSON string (escapes included), or a bracket --
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
_LONG_NUMBER = re.compile(r"[0-9]{4301}")
_UTF8_BOM = b"\xef\xbb\xbf"


def loads(
    text: str, *, where: str | None = None, line: int | None = None, outer_levels: int = 3
) -> Any:
    """Return the value JSON `text` holds.

    A leading byte order mark is ignored. Positions are "line L, column C" (with `line`, the text
    is that one line of a longer stream), after `where` when given. `outer_levels` is how many
    arrays or objects surround an element's metadata in this text (a document: 3, a JSON Lines
    line: 2), for the position reported when the text nests too deeply for the parser.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        offset = exc.pos
        message = f"not valid JSON: {exc.msg}"
    except RecursionError:
        levels = MAX_NESTING_DEPTH + outer_levels
        offset = _deep_offset(text, levels)
        message = f"JSON nested more than {levels} arrays or objects deep"
    except ValueError:  # -- int(): "Exceeds the limit (4300 digits) for integer string conversion"
        found = _LONG_NUMBER.search(text)
        offset = found.start() if found else 0
        message = "a number has more than 4300 digits"
    raise MalformedJSONError(message, position=_position(text, offset, where, line))


def decode_utf8(data: bytes) -> str:
    """Return `data` decoded as UTF-8 (a leading byte order mark dropped).

    Raises `MalformedJSONError` naming the offset of the first bad byte; surrogates encoded in
    UTF-8 are bad bytes too.
    """
    skip = len(_UTF8_BOM) if data.startswith(_UTF8_BOM) else 0
    try:
        return data[skip:].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedJSONError("not UTF-8", position=f"byte {exc.start + skip}") from exc


def naming_file(error: SerializationError, filename: str) -> SerializationError:
    """Return `error` with its message prefixed by `filename` ("x.json: not valid JSON ...").

    `SerializationError` names a position, not a file; read from a file, errors name both.
    """
    error.args = (f"{filename}: {error.args[0]}", *error.args[1:])
    return error


def _deep_offset(text: str, levels: int) -> int:
    """The offset of the first bracket nested more than `levels` deep (0 if none is)."""
    depth = 0
    for token in _TOKENS.finditer(text):
        char = token.group()
        if char == "[" or char == "{":
            depth += 1
            if depth > levels:
                return token.start()
        elif char == "]" or char == "}":
            depth -= 1
    return 0


def _position(text: str, offset: int, where: str | None, line: int | None) -> str:
    line_number = text.count("\n", 0, offset) + 1
    column = offset - text.rfind("\n", 0, offset)
    if line is not None:
        line_number += line - 1
    found = f"line {line_number}, column {column}"
    return found if where is None else f"{where}, {found}"
