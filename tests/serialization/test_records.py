"""The vector-store record form: flat scalar metadata, field by field; a real Chroma round trip."""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import partita
from partita import CompositeElement, ElementMetadata, NarrativeText, Table, TableChunk, Title
from partita.chunking.provenance import sources_of
from partita.embeddings._models import hashing_embedder
from partita.serialization.records import (
    VectorRecord,
    chunk_to_record,
    iter_records,
    parse_sources,
    sources_to_string,
)
from tests.shared import require_module, shared_corpus


def is_flat(metadata: dict[str, Any]) -> bool:
    return all(
        isinstance(k, str)
        and isinstance(v, (str, int, float, bool))
        and not (isinstance(v, float) and not math.isfinite(v))
        for k, v in metadata.items()
    )


# -- field by field ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        (ElementMetadata(), {}),
        (ElementMetadata(section_path=["Guide", "Rivers"]), {"heading_path": "Guide > Rivers"}),
        (
            ElementMetadata(section_path=["Guide"], extra={"heading_path": "A > B"}),
            {"heading_path": "A > B"},
        ),
        (ElementMetadata(page_number=3), {"page_number": 3, "last_page_number": 3}),
        (
            ElementMetadata(page_number=3, extra={"last_page_number": 5}),
            {"page_number": 3, "last_page_number": 5},
        ),
        (
            ElementMetadata(filename="/data/in/a.pdf", filetype="application/pdf"),
            {"filename": "a.pdf", "file_directory": "/data/in", "filetype": "application/pdf"},
        ),
        (ElementMetadata(languages=["eng", "zho"]), {"languages": "eng,zho"}),
        (
            ElementMetadata(
                extra={"sources": [{"element_id": "e1", "start": 0, "end": 5, "offset": 0}]}
            ),
            {"sources": "e1:0-5@0"},
        ),
        (
            ElementMetadata(extra={"window": "A. B. C.", "original_text": "B.", "n": 2.5}),
            {"window": "A. B. C.", "original_text": "B.", "n": 2.5},
        ),
        # -- not flat, not an identifier, None, not finite, or a record name: left out --
        (
            ElementMetadata(
                extra={
                    "nested": {"a": 1},
                    "lst": [1],
                    "a.b": "x",
                    "none": None,
                    "nan": math.nan,
                    "element_type": "forged",
                }
            ),
            {},
        ),
    ],
)
def test_metadata_is_flattened_field_by_field(
    metadata: ElementMetadata, expected: dict[str, Any]
) -> None:
    record = chunk_to_record(CompositeElement("text", metadata=metadata))
    assert record["metadata"] == {"element_type": "CompositeElement", **expected}


def test_a_table_chunk_carries_its_table_and_small_html_only() -> None:
    metadata = ElementMetadata(
        table_id="t1", chunk_index=2, is_continuation=True, text_as_html="<table></table>"
    )
    record = chunk_to_record(TableChunk("a b", metadata=metadata), chunk_index=7)
    assert record["metadata"] == {
        "element_type": "TableChunk",
        "chunk_index": 7,
        "table_id": "t1",
        "table_chunk_index": 2,
        "is_continuation": True,
        "table_html": "<table></table>",
    }
    big = Table("a b", metadata=ElementMetadata(text_as_html="<table>" + "x" * 3000 + "</table>"))
    assert "table_html" not in chunk_to_record(big)["metadata"]
    assert "table_html" in chunk_to_record(big, table_html_max_chars=4000)["metadata"]
    small = Table("a", metadata=ElementMetadata(text_as_html="<table></table>"))
    assert "table_html" not in chunk_to_record(small, table_html_max_chars=0)["metadata"]


def test_orig_elements_and_coordinates_are_never_inlined() -> None:
    elements = partita.partition(
        text="# T\n\nOne paragraph.\n\nAnother one.", content_type="text/markdown"
    )
    [chunk] = partita.chunk(elements, "by_title")
    assert chunk.metadata.orig_elements
    record = chunk_to_record(chunk)
    assert record["id"] == chunk.element_id
    assert record["text"] == chunk.text
    assert not {"orig_elements", "coordinates", "section_path", "links"} & set(record["metadata"])


def test_iter_records_numbers_the_run() -> None:
    chunks = [Title("A"), NarrativeText("b"), NarrativeText("c")]
    assert [r["metadata"]["chunk_index"] for r in iter_records(chunks)] == [0, 1, 2]


@pytest.mark.parametrize(
    "records",
    [
        [],
        [{"element_id": "e1", "start": 0, "end": 120, "offset": 0}],
        [
            {"element_id": "ab:cd", "start": 3, "end": 9, "offset": 0},
            {"element_id": "e2", "start": 0, "end": 40, "offset": 8},
        ],
    ],
)
def test_sources_round_trip_through_their_string(records: list[Any]) -> None:
    assert parse_sources(sources_to_string(records)) == records


@pytest.mark.parametrize("text", ["e1", "e1:0-5", ":0-5@0", "e1:a-5@0"])
def test_a_malformed_sources_string_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="not a source record"):
        parse_sources(text)


# -- any metadata gives flat scalars ---------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
texts = st.text(max_size=12)
source_records = st.fixed_dictionaries(
    {
        "element_id": texts,
        "start": st.integers(0, 99),
        "end": st.integers(0, 99),
        "offset": st.integers(0, 99),
    }
)
metadatas = st.builds(
    ElementMetadata,
    section_path=st.none() | st.lists(texts, max_size=3),
    page_number=st.none() | st.integers(1, 10**6),
    filename=st.none() | texts,
    filetype=st.none() | texts,
    languages=st.none() | st.lists(texts, max_size=3),
    table_id=st.none() | texts,
    chunk_index=st.none() | st.integers(0, 100),
    is_continuation=st.none() | st.booleans(),
    text_as_html=st.none() | texts,
    url=st.none() | texts,
    extra=st.none()
    | st.dictionaries(
        st.sampled_from(["sources", "heading_path", "last_page_number", "window", "x", "a.b"])
        | texts,
        json_values | st.lists(source_records, max_size=3),
        max_size=5,
    ),
)


@settings(max_examples=300, deadline=None)
@given(metadata=metadatas, text=texts, index=st.none() | st.integers(0, 10**6))
def test_every_record_metadata_is_flat_scalars(
    metadata: ElementMetadata, text: str, index: int | None
) -> None:
    record = chunk_to_record(CompositeElement(text, metadata=metadata), chunk_index=index)
    assert is_flat(record["metadata"])
    assert record["metadata"]["element_type"] == "CompositeElement"
    assert set(record) == {"id", "text", "metadata"}


# -- a real corpus document through a real Chroma collection ---------------------------------------


@functools.cache
def hashing_embeddings() -> type[Any]:
    """Return the Chroma embedding function class of partita's hashing embedder (Chroma is only
    in the full test tier, so the class is made when a test first needs it)."""
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings

    class HashingEmbeddings(EmbeddingFunction[Documents]):
        """partita's deterministic bag-of-words embedder as a Chroma embedding function."""

        def __init__(self) -> None:
            self._embedder = hashing_embedder(512)

        def __call__(self, input: Documents) -> Embeddings:  # noqa: A002 -- Chroma's name
            return list(np.asarray(self._embedder(list(input)), dtype=np.float32))

        @staticmethod
        def name() -> str:
            return "partita-hashing-words-512"

        def get_config(self) -> dict[str, Any]:
            return {}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> HashingEmbeddings:
            return HashingEmbeddings()

    return HashingEmbeddings


def chroma_collection(name: str) -> Any:
    chromadb = require_module("chromadb", extra="test")
    client = chromadb.EphemeralClient()
    return client.create_collection(
        name, embedding_function=hashing_embeddings()(), metadata={"hnsw:space": "cosine"}
    )


def test_real_chunks_go_into_chroma_and_come_back() -> None:
    path = shared_corpus() / "docling" / "wiki_duck.html"
    elements = partita.partition(path)
    chunks = partita.chunk(
        elements, "by_title", profile="retrieval", provenance=True, page_range=True
    )
    records = list(iter_records(chunks))
    assert len(records) > 20
    assert len({r["id"] for r in records}) == len(records)
    assert all(is_flat(r["metadata"]) for r in records)

    collection = chroma_collection("wiki-duck")
    # -- Chroma validates every metadata value: a list, dict or None would raise here --
    collection.add(
        ids=[r["id"] for r in records],
        documents=[r["text"] for r in records],
        metadatas=[r["metadata"] for r in records],
    )
    assert collection.count() == len(records)

    by_id = {r["id"]: r for r in records}
    for record in records[::7]:
        found = collection.query(query_texts=[record["text"]], n_results=1)
        [[found_id]] = found["ids"]
        assert found_id == record["id"]
        [[metadata]] = found["metadatas"]
        assert metadata == by_id[found_id]["metadata"]
        [[document]] = found["documents"]
        assert document == record["text"]

    stored = collection.get(ids=[records[3]["id"]])
    [metadata] = stored["metadatas"]
    assert parse_sources(str(metadata["sources"])) == sources_of(chunks[3])
    assert metadata["heading_path"]


def test_chroma_filters_on_the_flat_fields() -> None:
    path = shared_corpus() / "docling" / "wiki_duck.html"
    chunks = partita.chunk(partita.partition(path), "by_title", max_characters=800)
    records = list(iter_records(chunks))
    collection = chroma_collection("wiki-duck-filters")
    collection.add(
        ids=[r["id"] for r in records],
        documents=[r["text"] for r in records],
        metadatas=[r["metadata"] for r in records],
    )
    tables = collection.get(where={"element_type": {"$in": ["Table", "TableChunk"]}})
    expected = [
        r["id"] for r in records if r["metadata"]["element_type"] in ("Table", "TableChunk")
    ]
    assert sorted(tables["ids"]) == sorted(expected)
    first = collection.get(where={"chunk_index": {"$lt": 3}})
    assert sorted(first["ids"]) == sorted(r["id"] for r in records[:3])


# -- ids that never collide: two documents' records all kept by a store that upserts by id ---------


def _add_all(collection: Any, records: list[VectorRecord]) -> None:
    collection.upsert(
        ids=[r["id"] for r in records],
        documents=[r["text"] for r in records],
        metadatas=[r["metadata"] for r in records],
    )


def _assert_all_kept(collection: Any, records: list[VectorRecord]) -> None:
    assert collection.count() == len(records)
    stored = collection.get(ids=[r["id"] for r in records])
    assert dict(zip(stored["ids"], stored["documents"], strict=True)) == {
        r["id"]: r["text"] for r in records
    }
    for record in records:
        found = collection.query(query_texts=[record["text"]], n_results=1)
        [[document]] = found["documents"]
        assert document == record["text"]


def test_same_named_files_in_two_folders_keep_all_their_records_in_chroma(tmp_path: Any) -> None:
    bodies = {
        "a": "Alpha text about rivers and lakes.\n\nRivers run down to the sea in spring.",
        "b": "Beta text about the high mountains.\n\nGlaciers carve valleys over the ages.",
    }
    per_file: list[list[VectorRecord]] = []
    for folder, body in bodies.items():
        (tmp_path / folder).mkdir()
        path = tmp_path / folder / "notes.md"
        path.write_text(f"# Overview\n\n{body}\n", encoding="utf-8")
        chunks = partita.chunk(partita.partition(path), "by_title", max_characters=40)
        per_file.append(list(iter_records(chunks)))
    assert all(len(records) >= 3 for records in per_file)
    assert per_file[0][0]["text"] == per_file[1][0]["text"] == "Overview"

    collection = chroma_collection("same-named-files")
    for records in per_file:
        _add_all(collection, records)
    _assert_all_kept(collection, per_file[0] + per_file[1])
    folders = collection.get(where={"file_directory": str(tmp_path / "b")})
    assert sorted(folders["ids"]) == sorted(r["id"] for r in per_file[1])


def test_two_texts_with_the_same_first_line_keep_all_their_records_in_chroma() -> None:
    texts = [
        "Overview\n\nThe first text speaks of rivers.\n\nAnd of lakes, at some length.",
        "Overview\n\nThe second text speaks of hills.\n\nAnd of the snow upon them.",
    ]
    per_text = [
        list(iter_records(partita.chunk(partita.partition(text=t), "basic", max_characters=40)))
        for t in texts
    ]
    assert per_text[0][0]["text"] == per_text[1][0]["text"] == "Overview"
    collection = chroma_collection("same-first-line")
    for records in per_text:
        _add_all(collection, records)
    _assert_all_kept(collection, per_text[0] + per_text[1])
