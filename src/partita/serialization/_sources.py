"""The form of one provenance record of a chunk (`metadata.extra["sources"]`): which range of
which element's text stands where in the chunk's text. The contract the records keep, and the
helpers that build and check them, are in `partita.chunking.provenance`; the record's form lives
here, below chunking, so that the vector-store records (`partita.serialization.records`) read
it without importing chunking.
"""

from __future__ import annotations

from typing import TypedDict

__all__ = ["SourceRecord", "source_record"]


class SourceRecord(TypedDict):
    """One record of `metadata.extra["sources"]`: `chunk.text[offset : offset + end - start]`
    is `source.text[start:end]` for the element whose id is `element_id`."""

    element_id: str
    start: int
    end: int
    offset: int


def source_record(element_id: str, start: int, end: int, offset: int) -> SourceRecord:
    """Return the record of `source.text[start:end]` found at `offset` in a chunk's text."""
    return {"element_id": element_id, "start": start, "end": end, "offset": offset}
