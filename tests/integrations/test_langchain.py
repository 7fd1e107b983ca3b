"""The LangChain loader and converter, with langchain-core itself."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import pytest
from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import InMemoryVectorStore

import partita
from partita.embeddings.models import hashing_embedder
from partita.integrations.langchain import PartitaLoader, chunks_to_documents
from partita.integrations.records import iter_records


class HashingEmbeddings(Embeddings):
    """partita's deterministic bag-of-words embedder as LangChain `Embeddings`."""

    def __init__(self) -> None:
        self._embedder = hashing_embedder(512)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[float(x) for x in row] for row in self._embedder(texts)]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def is_flat(metadata: dict[str, object]) -> bool:
    return all(
        isinstance(v, (str, int, float, bool)) and not (isinstance(v, float) and math.isnan(v))
        for v in metadata.values()
    )


def expected_documents(path: Path, strategy: str, **options: object) -> Sequence[Document]:
    chunks = partita.chunk(partita.partition(path), strategy, **options)
    return chunks_to_documents(chunks)


def test_the_loader_is_a_langchain_loader_of_every_file_in_order(
    sample_docx: Path, rivers_docx: Path
) -> None:
    loader = PartitaLoader([sample_docx, rivers_docx], profile="retrieval")
    assert isinstance(loader, BaseLoader)
    documents = loader.load()
    expected = [
        *expected_documents(sample_docx, "by_title", profile="retrieval"),
        *expected_documents(rivers_docx, "by_title", profile="retrieval"),
    ]
    assert documents == expected
    names = [d.metadata["filename"] for d in documents]
    assert set(names) == {"sample.docx", "rivers.docx"}
    assert names == sorted(names, key=lambda name: name == "rivers.docx")  # -- file by file --
    rivers = [d for d in documents if d.metadata["filename"] == "rivers.docx"]
    assert [d.metadata["chunk_index"] for d in rivers] == list(range(len(rivers)))
    assert all(is_flat(d.metadata) for d in documents)
    assert len({d.id for d in documents}) == len(documents)
    assert any("Rivers > Details" in str(d.metadata.get("heading_path")) for d in rivers)


def test_any_strategy_and_its_options(sample_docx: Path) -> None:
    documents = list(
        PartitaLoader(sample_docx, strategy="sentence_window", window_size=1).lazy_load()
    )
    assert documents == list(expected_documents(sample_docx, "sentence_window", window_size=1))
    sentences = [d for d in documents if d.metadata["element_type"] == "CompositeElement"]
    assert all(d.page_content == d.metadata["original_text"] for d in sentences)
    assert all(d.page_content in str(d.metadata["window"]) for d in sentences)
    assert any(d.metadata["element_type"] == "Table" for d in documents)  # -- no window --


def test_strategy_none_loads_the_elements(sample_docx: Path) -> None:
    documents = PartitaLoader(str(sample_docx), strategy=None).load()
    elements = partita.partition(sample_docx)
    assert [d.page_content for d in documents] == [e.text for e in elements]
    assert [d.metadata["element_type"] for d in documents] == [e.category for e in elements]


def test_lazy_load_yields_a_file_before_reading_the_next(sample_docx: Path, tmp_path: Path) -> None:
    documents = PartitaLoader([sample_docx, tmp_path / "missing.docx"]).lazy_load()
    first = next(documents)
    assert first.metadata["filename"] == "sample.docx"
    with pytest.raises(partita.errors.FileReadError):
        list(documents)


@pytest.mark.parametrize(
    ("strategy", "options", "error"),
    [
        ("by_tittle", {}, ValueError),
        ("by_title", {"max_charactrs": 100}, TypeError),
        ("by_title", {"max_characters": -1}, ValueError),
        (None, {"max_characters": 100}, TypeError),
    ],
)
def test_a_bad_strategy_or_option_fails_when_the_loader_is_made(
    sample_docx: Path, strategy: str | None, options: dict[str, object], error: type[Exception]
) -> None:
    with pytest.raises(error):
        PartitaLoader(sample_docx, strategy=strategy, **options)


def test_chunks_round_trip_through_documents(sample_docx: Path) -> None:
    chunks = partita.chunk(partita.partition(sample_docx), "by_title", provenance=True)
    documents = chunks_to_documents(chunks)
    records = list(iter_records(chunks))
    assert [d.id for d in documents] == [c.element_id for c in chunks]
    assert [d.page_content for d in documents] == [c.text for c in chunks]
    assert [d.metadata for d in documents] == [r["metadata"] for r in records]
    # -- through JSON and back, as a document store keeps them --
    assert [Document.model_validate_json(d.model_dump_json()) for d in documents] == documents


def test_documents_go_into_a_langchain_vector_store_as_they_are(sample_docx: Path) -> None:
    documents = PartitaLoader(sample_docx, max_characters=300).load()
    store = InMemoryVectorStore(HashingEmbeddings())
    ids = store.add_documents(documents)
    assert ids == [d.id for d in documents]
    for document in documents:
        [found] = store.similarity_search(document.page_content, k=1)
        assert found.id == document.id
        assert found.metadata == document.metadata
    tables = store.similarity_search(
        "strategy boundary size", k=10, filter=lambda d: d.metadata["element_type"] == "Table"
    )
    assert tables
    assert all(d.metadata["element_type"] == "Table" for d in tables)
