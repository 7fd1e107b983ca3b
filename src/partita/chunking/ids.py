"""Deterministic ids for chunks and split tables.

The reference gives chunks random UUIDs. partita numbers the chunks of a run and hashes that
number with the id of the chunk's first source element and the chunk's length, so the same input
and options give the same ids on every run, and no two chunks of a run share one.
"""

from __future__ import annotations

from hashlib import sha256

__all__ = ["ChunkIds"]


class ChunkIds:
    """Issues the ids of one chunking run, in chunk order."""

    __slots__ = ("_seq", "_tables")

    def __init__(self) -> None:
        self._seq = 0
        self._tables = 0

    def next_id(self, text: str, anchor_id: str) -> str:
        """Return the id of the next chunk: its `text` and its first source element's id."""
        self._seq += 1
        return sha256(f"chunk:{self._seq}:{anchor_id}:{len(text)}".encode()).hexdigest()[:32]

    def next_table_id(self, table_element_id: str) -> str:
        """Return the `table_id` shared by the chunks of the next split table."""
        self._tables += 1
        return sha256(f"table:{self._tables}:{table_element_id}".encode()).hexdigest()[:32]
