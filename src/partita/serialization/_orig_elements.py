"""Bounded decompression of `orig_elements` values: base64 of zlib-compressed JSON.

zlib expands up to about 1,000 to 1, and a value may hold elements that hold values in turn, so
a small document could otherwise cost gigabytes and minutes. Three bounds apply:

- one value decompresses to at most `MAX_DECOMPRESSED_SIZE` bytes (the reference's limit);
- all the values of one document together (one call of `elements_from_json`,
  `elements_from_dicts` or `elements_from_base64_json`, one JSON Lines stream), nested ones
  included, decompress to at most `DOCUMENT_ALLOWANCE` bytes plus `MAX_EXPANSION` times the
  characters of its top-level values, each element they hold counting `ELEMENT_COST` bytes
  more (building an element costs far more than its JSON's bytes): reading stays linear in the
  input, at about the cost of reading the same elements uncompressed. A value that repeats (the
  pieces of a split chunk share one) is decoded once, and counted once;
- values nest at most `MAX_ORIG_ELEMENTS_DEPTH` deep.

Past a bound, reading raises `DocumentLimitError` naming the bound (its `limit`) and the position.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from typing import Any

from partita.errors import DocumentLimitError, MalformedJSONError

__all__ = [
    "DOCUMENT_ALLOWANCE",
    "ELEMENT_COST",
    "MAX_DECOMPRESSED_SIZE",
    "MAX_EXPANSION",
    "MAX_ORIG_ELEMENTS_DEPTH",
    "DecompressionBudget",
]

MAX_DECOMPRESSED_SIZE = 200 * 1024 * 1024
"""The most bytes one `orig_elements` value may decompress to (the reference's limit)."""

DOCUMENT_ALLOWANCE = 8 * 1024 * 1024
"""Bytes every document's `orig_elements` values may decompress to whatever their size."""

MAX_EXPANSION = 64
"""Bytes each character of a document's top-level `orig_elements` values adds to what its values
may decompress to. The chunk files of the shared corpus (by_title and basic, 100 to 2,000
characters, chunks of chunks) decompress to at most 6.5 bytes per character of their values,
and 11 with `ELEMENT_COST` counted: under a fifth of the bound. zlib reaches 1,000."""

ELEMENT_COST = 256
"""Bytes of the document's budget each element decoded from `orig_elements` costs beyond its
JSON. Real chunk files have at least 59 characters of `orig_elements` per element they hold
(an element id alone is 32 random hexadecimal digits), which grant 3,776 bytes; a minimal
element (`{"type":"Title"}`, 17 bytes) costs 273, so an attack gets at most one element per 4
characters of input, about what the same elements cost uncompressed."""

MAX_ORIG_ELEMENTS_DEPTH = 8
"""How deep `orig_elements` may nest: a chunk's elements are depth 1. partita's chunks nest one
deep (re-chunking drops the inner level); the reference's nest one level per re-chunking."""


class DecompressionBudget:
    """What the `orig_elements` values of one document may still decompress to."""

    def __init__(self, *, filename: str | None = None) -> None:
        self.remaining = DOCUMENT_ALLOWANCE
        """Bytes left for the document's values; grows with each top-level value read."""
        self.filename = filename
        """The document's file, named in errors."""

    def grant(self, characters: int) -> None:
        """Add `MAX_EXPANSION` bytes per character of a top-level value just read."""
        self.remaining += MAX_EXPANSION * characters

    def inflate(self, encoded: Any, position: str) -> bytes:
        """Return the JSON bytes an `orig_elements` value encodes, and charge them.

        Raises `MalformedJSONError` for a value that is not base64 of complete zlib data, and
        `DocumentLimitError` for one that decompresses past `MAX_DECOMPRESSED_SIZE` or past
        what is left of the document's budget; `position` is named in both.
        """
        if not isinstance(encoded, str):
            raise MalformedJSONError("orig_elements must be a base64 string", position=position)
        per_value = self.remaining >= MAX_DECOMPRESSED_SIZE
        limit = MAX_DECOMPRESSED_SIZE if per_value else max(self.remaining, 0)
        try:
            compressed = base64.b64decode(encoded, validate=True)
            inflater = zlib.decompressobj()
            raw = inflater.decompress(compressed, limit + 1)
        except (binascii.Error, ValueError, zlib.error) as exc:
            # -- ValueError: b64decode refuses non-ASCII text with a plain ValueError --
            raise MalformedJSONError(
                f"orig_elements is not valid: {exc}", position=position
            ) from exc
        if len(raw) > limit:
            if per_value:
                raise DocumentLimitError(
                    f"orig_elements decompresses to more than {MAX_DECOMPRESSED_SIZE} bytes "
                    f"(at {position})",
                    filename=self.filename,
                    limit="orig_elements decompressed size per value",
                )
            raise self._exhausted(position)
        if not inflater.eof:
            raise MalformedJSONError("orig_elements is truncated", position=position)
        self.remaining -= len(raw)
        return raw

    def charge_elements(self, count: int, position: str) -> None:
        """Charge `ELEMENT_COST` bytes for each of `count` elements decoded at `position`."""
        self.remaining -= ELEMENT_COST * count
        if self.remaining < 0:
            raise self._exhausted(position)

    def _exhausted(self, position: str) -> DocumentLimitError:
        return DocumentLimitError(
            f"the document's orig_elements decompress to more than {DOCUMENT_ALLOWANCE} bytes "
            f"plus {MAX_EXPANSION} per character of its orig_elements, each element counting "
            f"{ELEMENT_COST} bytes more (at {position})",
            filename=self.filename,
            limit="orig_elements decompressed size per document",
        )
