"""Deterministic ids for chunks and split tables.

The reference gives chunks random UUIDs. partita hashes, once per chunking run, the id of the
first chunk's first source element into a run key (20 hex digits), and gives the chunk numbered
`n` in the run (from 1) the id `key + f"{n:012x}"`: 32 hex digits. So the same input and
options give the same ids on every run, and no two chunks of a run share one, whatever documents
its elements come from. Split tables get a `table_id` from one hash each (they are few).

Chunk ids are as distinct across documents as element ids: a partitioned document's element ids
carry its identity (its path, or its content's hash: `partitioners._build`), so the chunks of two
documents are keyed apart, even when both open with the same heading. A chunk id names a place
in a document's chunking: chunking a document again after it was edited in place (same path,
same first element) gives chunk `n` the id it had, so a vector store that upserts by id replaces
the old version's chunks (and keeps any beyond the new version's last). Elements read back from
JSON keep the ids they were written with; chunking elements of several documents in one run
keys them all by the first: chunk each document on its own for ids that are its own.
"""

from __future__ import annotations

from hashlib import sha256

__all__ = ["ChunkIds"]

# -- the last two hex digits of a chunk number, so that most ids are one concatenation --
_LOW_DIGITS = tuple(f"{i:02x}" for i in range(256))


class ChunkIds:
    """Issues the ids of one chunking run, in chunk order."""

    __slots__ = ("_key", "_prefix", "_seq", "_tables")

    def __init__(self) -> None:
        self._key = ""
        self._prefix = ""  # -- the key and all but the last two digits of the current number --
        self._seq = 0
        self._tables = 0

    def next_id(self, anchor_id: str) -> str:
        """Return the id of the next chunk, given the id of its first source element.

        That is `f"{key}{n:012x}"` for the chunk numbered `n`.
        """
        self._seq = seq = self._seq + 1
        low = seq & 0xFF
        if not low or not self._prefix:
            key = self._key
            if not key:
                key = self._key = sha256(
                    f"chunks:{anchor_id}".encode("utf-8", "surrogatepass")
                ).hexdigest()[:20]
            self._prefix = f"{key}{seq >> 8:010x}"
        return self._prefix + _LOW_DIGITS[low]

    def next_table_id(self, table_element_id: str) -> str:
        """Return the `table_id` shared by the chunks of the next split table."""
        self._tables += 1
        key = f"table:{self._tables}:{table_element_id}".encode("utf-8", "surrogatepass")
        return sha256(key).hexdigest()[:32]
