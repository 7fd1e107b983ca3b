"""The LangChain loader and converter, with langchain-core itself."""

from __future__ import annotations

import math
import os
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import InMemoryVectorStore
from unstructured.staging.base import elements_from_dicts

import partita
from partita.cli._inputs import find_inputs
from partita.embeddings._models import hashing_embedder
from partita.integrations.langchain import (
    PartitaLoader,
    SkippedFileWarning,
    chunks_to_documents,
)
from partita.serialization import elements_to_dicts
from partita.serialization.records import iter_records
from tests.integrations.conftest import write_docx


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
    return chunks_to_documents(chunks, source=str(path))


def sources(documents: Sequence[Document]) -> list[str]:
    """The `source` of each file's documents, once per file, in order."""
    return list(dict.fromkeys(str(d.metadata["source"]) for d in documents))


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
    sentences = [d for d in documents if d.metadata["category"] == "CompositeElement"]
    assert all(d.page_content == d.metadata["original_text"] for d in sentences)
    assert all(d.page_content in str(d.metadata["window"]) for d in sentences)
    assert any(d.metadata["category"] == "Table" for d in documents)  # -- no window --


def test_strategy_none_loads_the_elements(sample_docx: Path) -> None:
    documents = PartitaLoader(str(sample_docx), strategy=None).load()
    elements = partita.partition(sample_docx)
    assert [d.page_content for d in documents] == [e.text for e in elements]
    assert [d.metadata["category"] for d in documents] == [e.category for e in elements]


# -- LangChain's keys: `source`, and unstructured's loader's `category` ---------------------------


def test_documents_carry_the_keys_of_unstructured_langchain_loader(sample_docx: Path) -> None:
    given = os.path.relpath(sample_docx)
    documents = PartitaLoader(given, strategy=None).load()
    # -- what langchain-unstructured's UnstructuredLoader (and langchain-community's
    # -- UnstructuredFileLoader, mode="elements") make of the same elements: {"source": path,
    # -- **element.metadata.to_dict(), "category": element.category, "element_id": element.id} --
    reference = elements_from_dicts(elements_to_dicts(partita.partition(given)))
    expected = [
        {"source": given, **e.metadata.to_dict(), "category": e.category, "element_id": e.id}
        for e in reference
    ]
    assert len(documents) == len(expected)
    shared = ("source", "category", "filename", "file_directory", "filetype", "last_modified")
    for document, theirs in zip(documents, expected, strict=True):
        assert {k: document.metadata.get(k) for k in shared} == {k: theirs.get(k) for k in shared}
        assert document.id == theirs["element_id"]
        assert "element_type" not in document.metadata  # -- one key per fact --
    assert next(iter(documents[0].metadata)) == "source"


def test_source_is_the_path_as_given(sample_docx: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(sample_docx.parent)
    for given in ("sample.docx", "./sample.docx", Path("sample.docx"), str(sample_docx)):
        documents = PartitaLoader(given).load()
        assert {d.metadata["source"] for d in documents} == {os.fspath(given)}


def test_chunks_to_documents_takes_the_source_from_the_chunks_or_the_caller(
    sample_docx: Path,
) -> None:
    chunks = partita.chunk(partita.partition(sample_docx), "by_title")
    assert {d.metadata["source"] for d in chunks_to_documents(chunks)} == {str(sample_docx)}
    assert {d.metadata["source"] for d in chunks_to_documents(chunks, source="s3://b/k")} == {
        "s3://b/k"
    }
    text_chunks = partita.chunk(partita.partition(text="Ducks swim. Geese honk."), "by_title")
    assert all("source" not in d.metadata for d in chunks_to_documents(text_chunks))


# -- directories and globs: the files the CLI reads -----------------------------------------------


@pytest.fixture
def tree(tmp_path: Path, sample_docx: Path) -> Path:
    """A folder of documents: nested, hidden, unreadable-by-extension and elements files."""
    root = tmp_path / "docs"
    (root / "b" / "deep").mkdir(parents=True)
    (root / ".hidden").mkdir()
    shutil.copy(sample_docx, root / "a.docx")
    write_docx(root / "b" / "rivers.docx", "Rivers", ["Rivers carry silt to the sea."])
    (root / "b" / "deep" / "notes.md").write_text("# Notes\n\nHerons wade.\n", encoding="utf-8")
    (root / "b" / "notes.txt").write_text("Otters fish at dusk.\n", encoding="utf-8")
    (root / "b" / "elements.json").write_text("[]", encoding="utf-8")
    (root / "b" / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / ".hidden" / "secret.md").write_text("# Secret\n", encoding="utf-8")
    (root / ".dotfile.md").write_text("# Dot\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("globs", [None, ["*.md"], ["b/*.docx", "**/*.txt"], ["*.json", "*.md"]])
def test_a_directory_is_read_as_the_cli_reads_it(tree: Path, globs: list[str] | None) -> None:
    cli = [item.path for item in find_inputs([str(tree)], globs=globs)]
    assert sources(PartitaLoader(tree, glob=globs, strategy=None).load()) == cli
    assert cli  # -- the comparison is not between two empty lists --


def test_files_and_directories_mix_in_the_order_given(tree: Path, sample_docx: Path) -> None:
    documents = PartitaLoader([tree / "b", sample_docx], glob="*.docx").load()
    # -- a file given is read whatever the glob says; a directory's files follow the glob --
    assert sources(documents) == [str(tree / "b" / "rivers.docx"), str(sample_docx)]
    assert sources(PartitaLoader(str(tree / "b"), glob="rivers.docx").load()) == [
        str(tree / "b" / "rivers.docx")
    ]


# -- a bad file is skipped with a warning, or raises ---------------------------------------------


def test_a_bad_file_is_skipped_with_a_warning_naming_it(sample_docx: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 not a zip archive")
    missing = tmp_path / "missing.docx"
    loader = PartitaLoader([missing, sample_docx, broken, sample_docx])
    with pytest.warns(SkippedFileWarning) as caught:
        documents = loader.load()
    assert sources(documents) == [str(sample_docx)]
    assert len(documents) == 2 * len(expected_documents(sample_docx, "by_title"))
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2
    assert messages[0].startswith(f"{missing}: skipped: FileReadError: ")
    assert messages[1].startswith(f"{broken}: skipped: ")


def test_on_error_raise_raises_after_the_files_before(sample_docx: Path, tmp_path: Path) -> None:
    documents = PartitaLoader(
        [sample_docx, tmp_path / "missing.docx", sample_docx], on_error="raise"
    ).lazy_load()
    first = next(documents)
    assert first.metadata["filename"] == "sample.docx"
    with pytest.raises(partita.errors.FileReadError, match=r"missing\.docx"):
        list(documents)


def test_a_directory_with_nothing_to_read_is_skipped_or_raises(tmp_path: Path) -> None:
    (tmp_path / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    with pytest.warns(SkippedFileWarning, match="no files matching a format partita reads"):
        assert PartitaLoader(tmp_path).load() == []
    with pytest.raises(partita.errors.FileReadError, match=r"no files matching \*\.pdf"):
        PartitaLoader(tmp_path, glob="*.pdf", on_error="raise").load()


def test_on_error_is_checked_when_the_loader_is_made(sample_docx: Path) -> None:
    with pytest.raises(ValueError, match="on_error"):
        PartitaLoader(sample_docx, on_error="ignore")  # type: ignore[arg-type]


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
    assert [d.metadata for d in documents] == [
        {
            "source": str(sample_docx),
            **{("category" if k == "element_type" else k): v for k, v in r["metadata"].items()},
        }
        for r in records
    ]
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
        "strategy boundary size", k=10, filter=lambda d: d.metadata["category"] == "Table"
    )
    assert tables
    assert all(d.metadata["category"] == "Table" for d in tables)
