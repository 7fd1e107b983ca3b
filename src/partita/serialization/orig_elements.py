"""Bounded decoding of `orig_elements` values: base64 of zlib-compressed JSON.

Decompression stops at `MAX_DECOMPRESSED_SIZE` bytes, the reference's limit, so a small value
cannot expand without bound.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from typing import Any

from partita.errors import MalformedJSONError, SerializationError

__all__ = ["MAX_DECOMPRESSED_SIZE", "inflate"]

MAX_DECOMPRESSED_SIZE = 200 * 1024 * 1024
"""The most bytes one `orig_elements` value may decompress to (the reference's limit)."""


def inflate(encoded: Any, position: str) -> bytes:
    """Return the JSON bytes an `orig_elements` value encodes.

    Raises `MalformedJSONError` for a value that is not base64 of zlib data and
    `SerializationError` for one that is truncated or decompresses to more than
    `MAX_DECOMPRESSED_SIZE` bytes; `position` is named in both.
    """
    if not isinstance(encoded, str):
        raise MalformedJSONError("orig_elements must be a base64 string", position=position)
    try:
        compressed = base64.b64decode(encoded, validate=True)
        inflater = zlib.decompressobj()
        raw = inflater.decompress(compressed, MAX_DECOMPRESSED_SIZE)
    except (binascii.Error, zlib.error) as exc:
        raise MalformedJSONError(f"orig_elements is not valid: {exc}", position=position) from exc
    if not inflater.eof:
        if len(raw) >= MAX_DECOMPRESSED_SIZE:
            raise SerializationError(
                f"orig_elements decompresses to more than {MAX_DECOMPRESSED_SIZE} bytes",
                position=position,
            )
        raise SerializationError("orig_elements is truncated", position=position)
    return raw
