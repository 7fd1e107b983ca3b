"""The LlamaIndex reader and node parser, with llama-index-core itself."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path
from typing import Any

import pytest
from llama_index.core import SimpleDirectoryReader, VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.node_parser import NodeParser
from llama_index.core.postprocessor import MetadataReplacementPostProcessor
from llama_index.core.readers.base import BaseReader
from llama_index.core.schema import (
    BaseNode,
    Document,
    MetadataMode,
    NodeRelationship,
    NodeWithScore,
    TextNode,
)

import partita
from partita.embeddings.models import hashing_embedder
from partita.integrations.llamaindex import (
    PartitaNodeParser,
    PartitaReader,
    chunks_to_nodes,
    elements_to_markdown,
)
from partita.integrations.records import iter_records
from tests.integrations.conftest import write_docx
from tests.shared import shared_corpus

RECORD_FILE_FIELDS = frozenset({"filename", "file_directory", "filetype", "last_modified"})
"""The records' names of the file's facts, which nodes carry under LlamaIndex's names."""


class HashingEmbedding(BaseEmbedding):
    """partita's deterministic bag-of-words embedder as a LlamaIndex embedding model."""

    def _vector(self, text: str) -> list[float]:
        return [float(x) for x in hashing_embedder(512)([text])[0]]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._vector(text)


def relation_id(node: BaseNode, relation: NodeRelationship) -> str | None:
    related = node.relationships.get(relation)
    assert not isinstance(related, list)
    return None if related is None else related.node_id


# -- the reader ------------------------------------------------------------------------------------


def test_the_reader_reads_a_file_into_one_markdown_document(sample_docx: Path) -> None:
    reader = PartitaReader()
    assert isinstance(reader, BaseReader)
    [document] = reader.load_data(sample_docx)
    assert document.id_ == str(sample_docx)
    assert document.metadata["file_name"] == "sample.docx"
    assert document.metadata["file_type"].endswith("wordprocessingml.document")
    assert set(document.metadata) == {"file_path", "file_name", "file_type", "last_modified_date"}
    assert document.text.startswith("# Chunking Documents for Retrieval\n\n")  # -- no pages --
    assert "\n\n## Signals a document gives\n\n- heading styles" in document.text
    assert "<table>" in document.text
    # -- file metadata stays out of what is embedded; the LLM sees the file's name --
    assert document.get_content(metadata_mode=MetadataMode.EMBED) == document.text
    assert document.get_content(metadata_mode=MetadataMode.LLM).startswith(
        "file_name: sample.docx\n\n# Chunking"
    )


def test_the_markdown_reads_back_into_the_same_elements(sample_docx: Path) -> None:
    elements = partita.partition(sample_docx)
    again = partita.partition(text=elements_to_markdown(elements), content_type="text/markdown")
    assert [(e.category, e.text) for e in again] == [(e.category, e.text) for e in elements]
    assert [e.metadata.section_path for e in again] == [e.metadata.section_path for e in elements]


def test_the_reader_is_a_file_extractor_of_simple_directory_reader(
    sample_docx: Path, rivers_docx: Path
) -> None:
    folder = rivers_docx.parent
    shutil.copy(sample_docx, folder / "sample.docx")
    documents = SimpleDirectoryReader(
        str(folder), file_extractor={".docx": PartitaReader()}
    ).load_data()
    assert sorted(d.metadata["file_name"] for d in documents) == ["rivers.docx", "sample.docx"]
    rivers = next(d for d in documents if d.metadata["file_name"] == "rivers.docx")
    assert rivers.text.startswith("# Rivers\n\n## Details\n\nRivers carry silt")
    assert "file_size" in rivers.metadata  # -- SimpleDirectoryReader's own metadata, kept --


# -- the node parser -------------------------------------------------------------------------------


def test_nodes_are_partita_chunks_of_the_documents_text(sample_docx: Path) -> None:
    [document] = PartitaReader().load_data(sample_docx)
    parser = PartitaNodeParser(profile="retrieval")
    assert isinstance(parser, NodeParser)
    nodes = parser.get_nodes_from_documents([document])
    elements = partita.partition(text=document.text, content_type="text/markdown")
    chunks = partita.chunk(elements, "by_title", profile="retrieval")
    assert [n.get_content() for n in nodes] == [c.text for c in chunks]
    records = [r["metadata"] for r in iter_records(chunks)]
    for node, record in zip(nodes, records, strict=True):
        assert isinstance(node, TextNode)
        # -- the Markdown text's file facts are not the document's: those come from it --
        expected = {k: v for k, v in record.items() if k not in RECORD_FILE_FIELDS}
        assert {k: node.metadata[k] for k in expected} == expected
        assert {k: node.metadata[k] for k in document.metadata} == document.metadata
        # -- the embedder sees the chunk, sized for it; the LLM sees where it comes from --
        assert node.get_content(metadata_mode=MetadataMode.EMBED) == node.get_content()
        llm = node.get_content(metadata_mode=MetadataMode.LLM)
        assert "sources" not in llm
        assert "chunk_index" not in llm
    assert "heading_path: Why structure matters" in nodes[1].get_content(
        metadata_mode=MetadataMode.LLM
    )


def test_nodes_link_to_their_document_and_their_neighbours(
    sample_docx: Path, rivers_docx: Path
) -> None:
    documents = [*PartitaReader().load_data(sample_docx), *PartitaReader().load_data(rivers_docx)]
    nodes = PartitaNodeParser(max_characters=200).get_nodes_from_documents(documents)
    for document in documents:
        mine = [n for n in nodes if n.ref_doc_id == document.id_]
        assert len(mine) >= 2
        for node in mine:
            assert relation_id(node, NodeRelationship.SOURCE) == document.id_
            assert relation_id(node, NodeRelationship.PARENT) == document.id_
            assert node.parent_node is not None
        assert relation_id(mine[0], NodeRelationship.PREVIOUS) is None
        assert relation_id(mine[-1], NodeRelationship.NEXT) is None
        for before, after in itertools.pairwise(mine):
            assert relation_id(before, NodeRelationship.NEXT) == after.node_id
            assert relation_id(after, NodeRelationship.PREVIOUS) == before.node_id
    assert len({n.node_id for n in nodes}) == len(nodes)
    # -- deterministic: the same documents give the same ids --
    again = PartitaNodeParser(max_characters=200).get_nodes_from_documents(documents)
    assert [n.node_id for n in again] == [n.node_id for n in nodes]


def test_llamaindex_own_options_are_kept(sample_docx: Path) -> None:
    documents = PartitaReader().load_data(sample_docx)
    parser = PartitaNodeParser(
        "sentence", max_characters=150, include_prev_next_rel=False, id_func=lambda i, d: f"n{i}"
    )
    assert parser.chunking_options == {"max_characters": 150}
    nodes = parser.get_nodes_from_documents(documents)
    assert [n.node_id for n in nodes] == [f"n{i}" for i in range(len(nodes))]
    assert all(NodeRelationship.NEXT not in n.relationships for n in nodes)


def test_text_nodes_parse_too() -> None:
    source = TextNode(id_="src", text="# Ducks\n\nDucks swim. Ducks fly.\n\n# Geese\n\nGeese honk.")
    parser = PartitaNodeParser(combine_text_under_n_chars=0)
    nodes = parser.get_nodes_from_documents([source])  # type: ignore[list-item]
    assert [n.get_content() for n in nodes] == [
        "Ducks\n\nDucks swim. Ducks fly.",
        "Geese\n\nGeese honk.",
    ]
    assert [n.metadata["heading_path"] for n in nodes] == ["Ducks", "Geese"]
    assert all(relation_id(n, NodeRelationship.SOURCE) == "src" for n in nodes)


def test_read_files_partitions_the_file_itself(tmp_path: Path) -> None:
    pdf = shared_corpus() / "docling" / "normal_4pages.pdf"
    documents = PartitaReader().load_data(pdf)
    from_file = PartitaNodeParser(max_characters=1000, read_files=True).get_nodes_from_documents(
        documents
    )
    pages = [n.metadata["page_number"] for n in from_file]
    assert pages == sorted(pages)
    assert pages[-1] == 4
    assert all(n.metadata["file_type"] == "application/pdf" for n in from_file)
    # -- the file is what is read: a document's text that is not the file's is not --
    stale = [Document(id_=d.id_, text="Nothing.", metadata=d.metadata) for d in documents]
    again = PartitaNodeParser(max_characters=1000, read_files=True).get_nodes_from_documents(stale)
    assert [n.get_content() for n in again] == [n.get_content() for n in from_file]


def test_pages_are_known_from_the_text_as_from_the_file() -> None:
    pdf = shared_corpus() / "docling" / "normal_4pages.pdf"
    [document] = PartitaReader().load_data(pdf)
    assert document.text.startswith("<!-- page 1 -->\n\n")
    assert "\n\n<!-- page 4 -->\n\n" in document.text
    for options in ({"max_characters": 1000}, {"strategy": "sentence", "max_characters": 300}):
        from_text = PartitaNodeParser(**options).get_nodes_from_documents([document])
        from_file = PartitaNodeParser(**options, read_files=True).get_nodes_from_documents(
            [document]
        )
        paged = [(n.metadata["page_number"], n.metadata["last_page_number"]) for n in from_text]
        assert paged == [
            (n.metadata["page_number"], n.metadata["last_page_number"]) for n in from_file
        ]
        assert {page for page, _ in paged} == {1, 2, 3, 4}


# -- one key per fact, and what the embedder and the LLM see ---------------------------------------


@pytest.mark.parametrize("read_files", [False, True])
def test_nodes_carry_one_key_per_fact_in_llamaindex_words(
    sample_docx: Path, tmp_path: Path, read_files: bool
) -> None:
    pdf = shared_corpus() / "docling" / "normal_4pages.pdf"
    shutil.copy(sample_docx, tmp_path / "sample.docx")
    shutil.copy(pdf, tmp_path / "paper.pdf")
    documents = SimpleDirectoryReader(
        str(tmp_path), file_extractor={".docx": PartitaReader(), ".pdf": PartitaReader()}
    ).load_data()
    nodes = PartitaNodeParser(read_files=read_files).get_nodes_from_documents(documents)
    for node in nodes:
        document = next(d for d in documents if d.id_ == node.ref_doc_id)
        metadata = node.metadata
        assert not set(metadata) & RECORD_FILE_FIELDS
        # -- the file's facts as the document states them (SimpleDirectoryReader's) --
        assert {k: metadata[k] for k in document.metadata} == document.metadata
        assert metadata["file_name"] in ("sample.docx", "paper.pdf")
        assert metadata["file_path"] == str(tmp_path / metadata["file_name"])
        excluded = (node.excluded_embed_metadata_keys, node.excluded_llm_metadata_keys)
        assert all(len(keys) == len(set(keys)) for keys in excluded)
        # -- the embedder sees the chunk, sized for it; the LLM where it comes from --
        assert node.get_content(metadata_mode=MetadataMode.EMBED) == node.get_content()
        llm = node.get_content(metadata_mode=MetadataMode.LLM)
        shown = dict(line.split(": ", 1) for line in llm.split("\n\n", 1)[0].splitlines())
        assert shown["file_name"] == metadata["file_name"]
        assert set(shown) <= {"file_name", "heading_path", "page_number", "last_page_number"}
        if "heading_path" in metadata:
            assert shown["heading_path"] == metadata["heading_path"]
        if metadata["file_name"] == "paper.pdf":
            assert shown["page_number"] == str(metadata["page_number"])
            spans = metadata["last_page_number"] != metadata["page_number"]
            assert ("last_page_number" in shown) == spans
        else:
            assert "page_number" not in metadata  # -- a Word file without rendered pages --


def test_the_document_own_keys_stay_visible_to_the_llm(sample_docx: Path) -> None:
    [document] = PartitaReader().load_data(sample_docx, extra_info={"author": "Ada"})
    [node, *_] = PartitaNodeParser().get_nodes_from_documents([document])
    assert "author: Ada" in node.get_content(metadata_mode=MetadataMode.LLM)
    assert "Ada" not in node.get_content(metadata_mode=MetadataMode.EMBED)


@pytest.mark.parametrize(
    ("options", "error"),
    [({"strategy": "nope"}, ValueError), ({"max_charactrs": 3}, TypeError)],
)
def test_a_bad_strategy_or_option_fails_when_the_parser_is_made(
    options: dict[str, Any], error: type[Exception]
) -> None:
    with pytest.raises(error):
        PartitaNodeParser(**options)


# -- sentence windows, read by LlamaIndex's own postprocessor --------------------------------------


def test_sentence_windows_feed_metadata_replacement(tmp_path: Path) -> None:
    path = write_docx(
        tmp_path / "birds.docx",
        "Birds",
        [
            "Herons wade in the shallows. Otters fish at dusk. Beavers build dams.",
            "Kingfishers dive for minnows. Swans nest on the banks.",
        ],
    )
    documents = PartitaReader().load_data(path)
    nodes = PartitaNodeParser("sentence_window", window_size=1).get_nodes_from_documents(documents)
    otters = next(n for n in nodes if n.get_content() == "Otters fish at dusk.")
    assert otters.metadata["original_text"] == "Otters fish at dusk."
    assert otters.metadata["window"] == (
        "Herons wade in the shallows. Otters fish at dusk. Beavers build dams."
    )
    # -- the window is for the LLM only: neither embedded nor shown twice --
    assert otters.get_content(metadata_mode=MetadataMode.EMBED) == "Otters fish at dusk."

    index = VectorStoreIndex(nodes, embed_model=HashingEmbedding())
    retrieved = index.as_retriever(similarity_top_k=1).retrieve("otters fish dusk")
    [hit] = MetadataReplacementPostProcessor(target_metadata_key="window").postprocess_nodes(
        retrieved
    )
    assert hit.node.get_content() == otters.metadata["window"]

    # -- and directly, on every node: a table, which has no window, keeps its text --
    replaced = MetadataReplacementPostProcessor(target_metadata_key="window").postprocess_nodes(
        [NodeWithScore(node=n.model_copy(deep=True), score=1.0) for n in nodes]
    )
    for node, out in zip(nodes, replaced, strict=True):
        assert out.node.get_content() == node.metadata.get("window", node.get_content())


# -- chunks to nodes, without the parser -----------------------------------------------------------


def test_chunks_become_linked_nodes(sample_docx: Path) -> None:
    chunks = partita.chunk(partita.partition(sample_docx), "headings", max_characters=300)
    nodes = chunks_to_nodes(chunks)
    assert [n.node_id for n in nodes] == [c.element_id for c in chunks]
    assert [n.get_content() for n in nodes] == [c.text for c in chunks]
    first = nodes[0].metadata
    assert first["file_path"] == str(sample_docx)
    assert first["file_name"] == "sample.docx"
    assert first["file_type"] == chunks[0].metadata.filetype
    assert first["last_modified_date"] == str(chunks[0].metadata.last_modified)[:10]
    assert not set(first) & RECORD_FILE_FIELDS
    assert relation_id(nodes[0], NodeRelationship.NEXT) == nodes[1].node_id
    assert relation_id(nodes[1], NodeRelationship.PREVIOUS) == nodes[0].node_id
    assert NodeRelationship.SOURCE not in nodes[0].relationships
    source = Document(id_="doc", text="unused")
    linked = chunks_to_nodes(chunks, source=source)
    assert all(n.ref_doc_id == "doc" for n in linked)
    assert len({n.node_id for n in linked}) == len(linked)
