"""The collector pause of `partita._gc` and where partita uses it."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

import partita
from partita._gc import collector_paused


def _paragraphs(n: int) -> list[partita.Element]:
    out: list[partita.Element] = []
    for i in range(n):
        out.append(partita.Title(f"Section {i}"))
        out.append(partita.NarrativeText(f"Paragraph {i} " + "word " * (i % 150)))
    return out


class _Collections:
    """Counts the collections the cyclic collector runs while active."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.count += 1

    def __enter__(self) -> _Collections:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def test_pause_switches_the_collector_off_and_back_on() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_pause_restores_the_collector_after_an_exception() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_pause_leaves_a_disabled_collector_disabled() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_pause_is_a_no_op_when_not_asked() -> None:
    with collector_paused(when=False):
        assert gc.isenabled()


def test_chunking_a_list_runs_no_collection_until_it_returns() -> None:
    """At most the one collection that the first allocation after the pause starts."""
    elements = _paragraphs(3000)
    gc.collect()
    with _Collections() as paused:
        chunks = partita.chunk_by_title(elements, max_characters=200)
    gc.collect()
    with _Collections() as unpaused:
        same = partita.chunk_by_title(iter(elements), max_characters=200)
    assert len(chunks) == len(same) > 3000
    assert paused.count <= 1
    assert unpaused.count > 5
    assert gc.isenabled()


def test_chunking_a_generator_keeps_the_collector_on() -> None:
    seen: list[bool] = []

    def stream() -> Iterator[partita.Element]:
        for element in _paragraphs(200):
            seen.append(gc.isenabled())
            yield element

    partita.chunk_elements(stream())
    assert seen
    assert all(seen)


def test_chunking_with_a_callable_tokenizer_keeps_the_collector_on() -> None:
    seen: list[bool] = []

    def count(text: str) -> int:
        seen.append(gc.isenabled())
        return len(text.split())

    partita.chunk_by_title(_paragraphs(50), max_tokens=20, tokenizer=count)
    assert seen
    assert all(seen)


def test_json_export_runs_no_collection_until_it_returns() -> None:
    chunks = partita.chunk_by_title(_paragraphs(1500))
    gc.collect()
    with _Collections() as collections:
        text = partita.elements_to_json(chunks)
    assert text.startswith("[")
    assert collections.count <= 1
    assert gc.isenabled()
