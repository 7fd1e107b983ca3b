"""Chunk ids of `partita.chunking._ids`: deterministic, unique within a run, 32 hex digits, and
never shared by two documents."""

from __future__ import annotations

from hashlib import sha256
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import partita
from partita.chunking._ids import ChunkIds
from partita.elements import Element
from partita.partitioners.text import partition_text


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


# -- chunk ids across documents: keyed by the first element's id, which carries the document ------

_names = st.builds("{}.{}".format, st.text(alphabet="ab", min_size=1, max_size=3), st.just("txt"))
_paths = st.one_of(
    st.builds("{}/{}".format, st.sampled_from(["a", "b", "/srv/a", "a/b"]), _names),
    _names,  # -- a bare name: the reference's element ids --
    st.just(None),  # -- text without a name: keyed by its content --
)
_paragraphs = st.lists(
    st.sampled_from(["Rivers run to the sea.", "Lakes are still.", "Same text.", "x " * 15]),
    min_size=0,
    max_size=6,
)
# -- every document opens with the same heading, as in the issue --
_documents = st.tuples(_paths, _paragraphs.map(lambda ps: "\n\n".join(["Overview", *ps])))


def _chunk_ids(elements: list[Element], strategy: str) -> list[str]:
    return [c.element_id for c in partita.chunk(elements, strategy, max_characters=24)]


@settings(max_examples=60, deadline=None)
@given(_documents, _documents, st.sampled_from(["basic", "by_title"]))
def test_different_documents_never_share_a_chunk_id(
    one: tuple[str | None, str], other: tuple[str | None, str], strategy: str
) -> None:
    elements = partition_text(text=one[1], metadata_filename=one[0])
    other_elements = partition_text(text=other[1], metadata_filename=other[0])
    ids = _chunk_ids(elements, strategy)
    other_ids = _chunk_ids(other_elements, strategy)
    assert len(set(ids)) == len(ids)
    # -- the same document, the same ids, every run --
    assert _chunk_ids(partition_text(text=one[1], metadata_filename=one[0]), strategy) == ids
    # -- one run over both documents' elements: unique ids --
    both = _chunk_ids(elements + other_elements, strategy)
    assert len(set(both)) == len(both)
    same_document = one[0] == other[0] and (one[0] is not None or one[1] == other[1])
    if not same_document:
        assert not set(ids) & set(other_ids)
        assert not {e.element_id for e in elements} & {e.element_id for e in other_elements}


def test_same_named_files_in_two_folders_get_their_own_chunk_ids(tmp_path: Path) -> None:
    texts = {"a": "Overview\n\nAlpha text about rivers.", "b": "Overview\n\nBeta text, mountains."}
    ids: dict[str, list[str]] = {}
    for folder, text in texts.items():
        (tmp_path / folder).mkdir()
        path = tmp_path / folder / "notes.md"
        path.write_text(text, encoding="utf-8")
        ids[folder] = _chunk_ids(partita.partition(path), "by_title")
    assert ids["a"]
    assert ids["b"]
    assert not set(ids["a"]) & set(ids["b"])


def test_an_edited_document_keeps_its_chunk_ids_by_position(tmp_path: Path) -> None:
    # -- same path, same first element: chunk n keeps its id, so an upsert replaces it --
    path = tmp_path / "notes.txt"
    path.write_text("Overview\n\nFirst version of the text.", encoding="utf-8")
    before = _chunk_ids(partita.partition(path), "by_title")
    path.write_text("Overview\n\nSecond version, longer than the first one was.", encoding="utf-8")
    after = _chunk_ids(partita.partition(path), "by_title")
    assert after[: len(before)] == before
