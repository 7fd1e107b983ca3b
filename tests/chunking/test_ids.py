"""Chunk ids of `partita.chunking.ids`: deterministic, unique within a run, 32 hex digits."""

from __future__ import annotations

from hashlib import sha256

import pytest

from partita.chunking.ids import ChunkIds


def _key(anchor: str) -> str:
    return sha256(f"chunks:{anchor}".encode()).hexdigest()[:20]


def test_ids_are_the_run_key_and_the_chunk_number() -> None:
    ids = ChunkIds()
    got = [ids.next_id("first" if n == 1 else "later") for n in range(1, 2000)]
    assert got == [f"{_key('first')}{n:012x}" for n in range(1, 2000)]
    assert len(set(got)) == len(got)
    assert all(len(i) == 32 for i in got)


@pytest.mark.parametrize("start", [255, 256, 0xFFFF, 0xFFFFFFFFFF00 - 3, 0xFFFFFFFFFFFF - 2])
def test_ids_across_digit_carries(start: int) -> None:
    ids = ChunkIds()
    ids.next_id("a")
    ids._seq, ids._prefix = start - 1, ""  # -- jump ahead, as if start - 1 ids were issued --
    got = [ids.next_id("a") for _ in range(600)]
    assert got == [f"{_key('a')}{n:012x}" for n in range(start, start + 600)]


def test_runs_are_deterministic_and_keyed_by_their_first_element() -> None:
    a, b, c = ChunkIds(), ChunkIds(), ChunkIds()
    assert [a.next_id("x") for _ in range(3)] == [b.next_id("x") for _ in range(3)]
    assert c.next_id("y") != ChunkIds().next_id("x")


def test_table_ids_are_distinct_per_table() -> None:
    ids = ChunkIds()
    table_ids = [ids.next_table_id("same") for _ in range(100)]
    assert len(set(table_ids)) == 100
    assert all(len(t) == 32 for t in table_ids)
