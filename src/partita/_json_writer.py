r"""Fast JSON text identical to the standard library's, for the values `serialization` writes.

`json.dumps(value, indent=N, sort_keys=True)` runs the pure-Python encoder whenever `indent` is
set, and the `orig_elements` payloads are `json.dumps(d, sort_keys=True)` joined with ", ". Here
orjson (C) writes compact text with sorted keys and msgspec's `json.format` (C) lays it out with
the standard library's whitespace: `indent=N` puts each item on its own line indented by N
spaces per level, with ": " after keys, and "[]" and "{}" for empty containers; `indent=0` gives
the default separators ", " and ": " on one line. `format` copies strings and numbers verbatim.

What is left differs from the standard library only in ways fixed or refused here:

- `ensure_ascii`: orjson writes non-ASCII characters as UTF-8; each run of them is replaced by
  `encode_basestring_ascii` of that run (the standard library's own escaping: \uXXXX, surrogate
  pairs above the BMP) through a codecs error handler. DEL (0x7f), which orjson leaves raw,
  becomes \u007f. Other control characters are escaped alike by both.
- floats: orjson writes NaN and the infinities as null, and numbers below 1e-4 without Python's
  two-digit exponent (or without an exponent at all); elsewhere both write the shortest repr.
  A structural null, negative exponent or "0.0000" number in the output refuses the text
  (conservatively: one inside a string may refuse it too).
- orjson refuses non-str keys, subclasses of str, int, dict and list (as passed through),
  dataclasses and datetimes (passed through too), lone surrogates, integers beyond 64 bits and
  nesting deeper than 254 levels.

A refused value returns None and the caller uses the standard library for it instead, so the
text is the same either way. Callers give orjson only values of bounded size: it reserves 8 bytes
per byte of each string and dies of SIGSEGV when that allocation fails (see
`partita.serialization._fast_json`).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence
from json.encoder import encode_basestring_ascii
from typing import Any

try:
    import msgspec
    import orjson
except ImportError:  # pragma: no cover -- both are dependencies; the standard library suffices
    msgspec = None  # type: ignore[assignment]
    orjson = None  # type: ignore[assignment]

__all__ = ["AVAILABLE", "compact", "indented_body"]

AVAILABLE = orjson is not None and msgspec is not None

_ERRORS = "partita.json_ascii"


def _escape_non_ascii(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):  # pragma: no cover -- only registered for encode
        raise exc
    return encode_basestring_ascii(exc.object[exc.start : exc.end])[1:-1], exc.end


codecs.register_error(_ERRORS, _escape_non_ascii)

if orjson is not None:
    _OPTIONS = (
        orjson.OPT_SORT_KEYS
        | orjson.OPT_PASSTHROUGH_SUBCLASS
        | orjson.OPT_PASSTHROUGH_DATACLASS
        | orjson.OPT_PASSTHROUGH_DATETIME
    )

# -- a number or null ending a line is structural: no JSON string holds a raw newline --
_SUSPECT_LINES = re.compile(rb"(?:null|e-[0-9]+|\.0000[0-9]*),?\n")
# -- on one line ("[1, 2]", '{"a": 1}'), a structural value follows "[", ": ", ", " or the start
# -- and is followed by ",", "]", "}" or the end; one inside a string refuses needlessly --
_SUSPECT_LINE = re.compile(rb"(?:^|\[|: |, )(?:null|-?[0-9.]+e-[0-9]+|-?0\.0000[0-9]*)(?:[,\]}]|$)")


def _dump(value: Any, indent: int, no_floats: bool) -> bytes | None:
    """Not-yet-ASCII JSON of `value` laid out as `json.dumps` would, or None if refused.

    With `no_floats` (the caller's promise that `value` holds no float), the text is not searched
    for the numbers orjson writes otherwise than the standard library.
    """
    if not AVAILABLE:  # pragma: no cover
        return None
    try:
        data: bytes = msgspec.json.format(orjson.dumps(value, option=_OPTIONS), indent=indent)
    except TypeError:  # -- orjson.JSONEncodeError is a TypeError --
        return None
    if not no_floats:
        suspect = _SUSPECT_LINES if indent else _SUSPECT_LINE
        if (b"null" in data or b"e-" in data or b".0000" in data) and suspect.search(data):
            return None
    if not data.isascii():
        data = data.decode("utf-8").encode("ascii", _ERRORS)
    if b"\x7f" in data:
        data = data.replace(b"\x7f", b"\\u007f")
    return data


def indented_body(values: Sequence[Any], indent: int, *, no_floats: bool = False) -> str | None:
    """The items of `json.dumps(list(values), indent=indent, sort_keys=True)`, or None.

    The text is everything between the opening "[" and the closing "\\n]": each item preceded
    by a newline and `indent` spaces, items separated by ",". None when `values` is empty or
    the standard library must be used instead. `no_floats` promises that `values` hold no float
    (a float below 1e-4, NaN or an infinity is written otherwise by orjson: without the promise
    the text is searched for them).
    """
    if not values or indent < 1:
        return None
    data = _dump(list(values), indent, no_floats)
    if data is None:
        return None
    return data[1:-2].decode("ascii")


def compact(value: Any, *, no_floats: bool = False) -> bytes | None:
    """`json.dumps(value, sort_keys=True).encode("ascii")`, or None if refused; `no_floats` as
    for `indented_body`."""
    return _dump(value, 0, no_floats)
