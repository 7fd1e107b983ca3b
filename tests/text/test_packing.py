"""Packing: greedy to the budget, overlap from whole splits, progress, hard maximum."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partita.text._packing import Unit, iter_packed


def sized(*sizes: int, ends: Sequence[bool] = ()) -> list[Unit]:
    units, position = [], 0
    for index, size in enumerate(sizes):
        ending = ends[index] if index < len(ends) else True
        units.append(Unit(0, position, position + size, size, ends_sentence=ending))
        position += size
    return units


def summed(units: Sequence[Unit]) -> int:
    return sum(unit.size for unit in units)


def indexes(chunks: list[tuple[Unit, ...]], units: list[Unit]) -> list[list[int]]:
    return [[units.index(unit) for unit in chunk] for chunk in chunks]


SEED_000 = (21, 7, 20, 6, 19, 28, 18, 34, 41, 1, 1, 47, 1)
"""The split sizes of seed 000's English example (budget 73, overlap 80)."""


def test_seed_000_english_example_keeps_the_hard_maximum() -> None:
    units = sized(*SEED_000)
    chunks = list(iter_packed(units, limit=73, overlap=80, chunk_size=summed))
    assert indexes(chunks, units)[0] == [0, 1, 2, 3, 4]  # -- as llama_index: 73 tokens --
    assert all(summed(chunk) <= 73 for chunk in chunks)  # -- llama_index: 101, 98, 105, ... --
    # -- each chunk takes something new, so none repeats another --
    news = [max(units.index(u) for u in chunk) for chunk in chunks]
    assert news == sorted(set(news))
    assert news[-1] == len(units) - 1


def test_overlap_is_whole_splits_within_the_overlap_budget() -> None:
    units = sized(10, 10, 10, 10, 10)
    chunks = list(iter_packed(units, limit=30, overlap=15, chunk_size=summed))
    assert indexes(chunks, units) == [[0, 1, 2], [2, 3, 4]]


@pytest.mark.parametrize(("limit", "overlap"), [(0, 0), (10, -1)])
def test_invalid_budgets_raise(limit: int, overlap: int) -> None:
    with pytest.raises(ValueError, match=r"budget|overlap"):
        list(iter_packed(sized(1), limit=limit, overlap=overlap, chunk_size=summed))


def test_an_overlap_as_large_as_the_budget_only_shrinks_to_fit() -> None:
    units = sized(10, 10, 10, 10)
    chunks = list(iter_packed(units, limit=30, overlap=30, chunk_size=summed))
    assert indexes(chunks, units) == [[0, 1, 2], [1, 2, 3]]


def test_a_chunk_ends_at_its_last_sentence_end_and_carries_the_rest() -> None:
    # -- a 5-unit sentence, then a sentence of clauses too long for one chunk --
    units = sized(5, 8, 8, 8, 8, 8, ends=(True, False, False, False, False, True))
    chunks = list(iter_packed(units, limit=20, overlap=0, chunk_size=summed))
    assert indexes(chunks, units) == [[0], [1, 2], [3, 4], [5]]
    greedy = list(
        iter_packed(units, limit=20, overlap=0, chunk_size=summed, prefer_sentence_ends=False)
    )
    assert indexes(greedy, units) == [[0, 1], [2, 3], [4, 5]]


def grown_by_sum(units: Sequence[Unit], size: int, unit: Unit) -> int:
    assert size == summed(units)  # -- the packer hands the exact size it kept --
    return size + unit.size


@settings(max_examples=300, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 40), max_size=40),
    ends=st.lists(st.booleans(), max_size=40),
    limit=st.integers(1, 60),
    overlap=st.integers(0, 80),
    incremental=st.booleans(),
)
def test_chunks_fit_take_new_units_in_order_and_cover_all(
    sizes: list[int], ends: list[bool], limit: int, overlap: int, incremental: bool
) -> None:
    units = sized(*(min(size, limit) for size in sizes), ends=ends)
    chunks = list(
        iter_packed(
            units,
            limit=limit,
            overlap=overlap,
            chunk_size=summed,
            grown_size=grown_by_sum if incremental else None,
        )
    )
    seen = -1
    for index, chunk in enumerate(chunks):
        # -- a chunk ends inside a sentence only when no new unit before its last ends one --
        if index < len(chunks) - 1 and not chunk[-1].ends_sentence:
            new = [u for u in chunk[:-1] if units.index(u) > seen]
            assert not any(u.ends_sentence for u in new)
        assert summed(chunk) <= limit
        positions = [units.index(unit) for unit in chunk]
        assert positions == list(range(positions[0], positions[-1] + 1))  # -- contiguous --
        assert positions[-1] > seen  # -- something new --
        repeated = [p for p in positions if p <= seen]
        assert summed([units[p] for p in repeated]) <= overlap
        assert positions[0] <= seen + 1  # -- nothing skipped --
        seen = positions[-1]
    assert seen == len(units) - 1
