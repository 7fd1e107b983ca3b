"""The LlamaIndex reader and node parser, with llama-index-core itself."""

from __future__ import annotations

import asyncio
import itertools
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from llama_index.core import SimpleDirectoryReader, VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.node_parser import NodeParser, SentenceSplitter
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
from partita.embeddings._models import hashing_embedder
from partita.integrations.llamaindex import (
    PAGE_STARTS_KEY,
    PartitaNodeParser,
    PartitaReader,
    chunks_to_nodes,
    elements_to_markdown,
)
from partita.serialization.records import iter_records
from tests.integrations.conftest import write_docx
from tests.shared import shared_corpus

RECORD_FILE_FIELDS = frozenset({"filename", "file_directory", "filetype", "last_modified"})
"""The records' names of the file's facts, which nodes carry under LlamaIndex's names."""

FOUR_PAGES_PDF = shared_corpus() / "docling" / "normal_4pages.pdf"


def page_starts(document: Document) -> list[tuple[int, int]]:
    """Return a reader's document's page map as (page, offset) pairs."""
    value = document.metadata[PAGE_STARTS_KEY]
    assert re.fullmatch(r"\d+:\d+(,\d+:\d+)*", value)
    return [(int(page), int(offset)) for page, offset in (p.split(":") for p in value.split(","))]


def without_page_map(metadata: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in metadata.items() if k != PAGE_STARTS_KEY}


def assert_no_page_map(node: BaseNode) -> None:
    """Assert that `node` carries the page map nowhere, not even as a key it hides."""
    assert PAGE_STARTS_KEY not in node.metadata
    assert PAGE_STARTS_KEY not in node.excluded_embed_metadata_keys
    assert PAGE_STARTS_KEY not in node.excluded_llm_metadata_keys


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


def test_the_reader_text_is_clean_and_its_pages_are_in_hidden_metadata() -> None:
    [document] = PartitaReader().load_data(FOUR_PAGES_PDF, extra_info={PAGE_STARTS_KEY: "9:0"})
    elements = partita.partition(FOUR_PAGES_PDF)
    assert document.text == elements_to_markdown(elements)
    assert "<!--" not in document.text
    # -- each page's text starts at its offset: the Markdown of that page's elements --
    starts = page_starts(document)  # -- the reader's own, not extra_info's --
    assert [page for page, _ in starts] == [1, 2, 3, 4]
    ends = [offset for _, offset in starts[1:]] + [len(document.text)]
    for (page, start), end in zip(starts, ends, strict=True):
        on_page = [e for e in elements if e.metadata.page_number == page]
        assert document.text[start:end].rstrip() == elements_to_markdown(on_page)
    # -- neither the embedder nor the LLM sees the page map --
    assert PAGE_STARTS_KEY in document.excluded_embed_metadata_keys
    assert PAGE_STARTS_KEY in document.excluded_llm_metadata_keys
    assert document.get_content(metadata_mode=MetadataMode.EMBED) == document.text
    llm = document.get_content(metadata_mode=MetadataMode.LLM)
    assert llm == f"file_name: normal_4pages.pdf\n\n{document.text}"


def test_llamaindex_own_splitter_embeds_no_page_marks_nor_page_map(
    sample_docx: Path, tmp_path: Path
) -> None:
    shutil.copy(FOUR_PAGES_PDF, tmp_path / "paper.pdf")
    shutil.copy(sample_docx, tmp_path / "sample.docx")
    documents = SimpleDirectoryReader(
        str(tmp_path), file_extractor={".pdf": PartitaReader(), ".docx": PartitaReader()}
    ).load_data()
    paper = next(d for d in documents if d.metadata["file_name"] == "paper.pdf")
    page_map = paper.metadata[PAGE_STARTS_KEY]
    nodes = SentenceSplitter(chunk_size=256, chunk_overlap=20).get_nodes_from_documents(documents)
    assert len(nodes) > 20
    for node in nodes:
        for mode in (MetadataMode.NONE, MetadataMode.EMBED, MetadataMode.LLM):
            content = node.get_content(metadata_mode=mode)
            assert "<!--" not in content
            assert PAGE_STARTS_KEY not in content
            assert page_map not in content
    # -- the splitter copies the map onto its nodes, hidden as on the document; with a node's
    # -- start_char_idx it tells the node's page --
    paper_nodes = [n for n in nodes if n.ref_doc_id == paper.id_]
    assert all(n.metadata[PAGE_STARTS_KEY] == page_map for n in paper_nodes)
    starts = page_starts(paper)
    pages = []
    for node in paper_nodes:
        assert isinstance(node, TextNode)
        assert node.start_char_idx is not None
        pages.append(max(page for page, offset in starts if offset <= node.start_char_idx))
    assert pages == sorted(pages)
    assert set(pages) == {1, 2, 3, 4}


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
    documents = PartitaReader().load_data(FOUR_PAGES_PDF)
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
    [document] = PartitaReader().load_data(FOUR_PAGES_PDF)
    assert "<!--" not in document.text
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
        for node in [*from_text, *from_file]:
            assert_no_page_map(node)


def test_the_async_parser_gives_the_same_pages_without_the_page_map() -> None:
    documents = PartitaReader().load_data(FOUR_PAGES_PDF)
    parser = PartitaNodeParser(max_characters=1000)
    nodes = asyncio.run(parser.acall(documents))
    assert [n.metadata for n in nodes] == [
        n.metadata for n in parser.get_nodes_from_documents(documents)
    ]
    assert {n.metadata["page_number"] for n in nodes} == {1, 2, 3, 4}
    for node in nodes:
        assert_no_page_map(node)


@pytest.mark.parametrize(
    "page_map",
    [
        "1:0,2:5",  # -- inside a block --
        "1:0,2:999999",  # -- past the text --
        "2:40,1:0",  # -- not in order --
        "page one",  # -- not a page map --
    ],
)
def test_a_page_map_that_does_not_fit_the_text_gives_no_pages(page_map: str) -> None:
    text = "# Ducks\n\nDucks swim.\n\n# Geese\n\nGeese honk."
    document = Document(id_="birds", text=text, metadata={PAGE_STARTS_KEY: page_map})
    nodes = PartitaNodeParser(combine_text_under_n_chars=0).get_nodes_from_documents([document])
    assert [n.get_content() for n in nodes] == ["Ducks\n\nDucks swim.", "Geese\n\nGeese honk."]
    for node in nodes:
        assert "page_number" not in node.metadata
        assert_no_page_map(node)


def test_a_page_map_gives_pages_to_a_document_only() -> None:
    text = "# Ducks\n\nDucks swim.\n\n# Geese\n\nGeese honk."
    page_map = f"1:0,2:{text.index('# Geese')}"
    document = Document(id_="birds", text=text, metadata={PAGE_STARTS_KEY: page_map})
    parser = PartitaNodeParser(combine_text_under_n_chars=0)
    nodes = parser.get_nodes_from_documents([document])
    assert [n.metadata["page_number"] for n in nodes] == [1, 2]
    # -- a node split from a document inherits its map, but not its text: the map is ignored --
    split = TextNode(id_="geese", text="# Geese\n\nGeese honk.", metadata={PAGE_STARTS_KEY: "7:0"})
    [node] = parser.get_nodes_from_documents([split])  # type: ignore[list-item]
    assert "page_number" not in node.metadata
    assert_no_page_map(node)


# -- one key per fact, and what the embedder and the LLM see ---------------------------------------


@pytest.mark.parametrize("read_files", [False, True])
def test_nodes_carry_one_key_per_fact_in_llamaindex_words(
    sample_docx: Path, tmp_path: Path, read_files: bool
) -> None:
    shutil.copy(sample_docx, tmp_path / "sample.docx")
    shutil.copy(FOUR_PAGES_PDF, tmp_path / "paper.pdf")
    documents = SimpleDirectoryReader(
        str(tmp_path), file_extractor={".docx": PartitaReader(), ".pdf": PartitaReader()}
    ).load_data()
    nodes = PartitaNodeParser(read_files=read_files).get_nodes_from_documents(documents)
    for node in nodes:
        document = next(d for d in documents if d.id_ == node.ref_doc_id)
        metadata = node.metadata
        assert not set(metadata) & RECORD_FILE_FIELDS
        # -- the file's facts as the document states them (SimpleDirectoryReader's) --
        stated = without_page_map(document.metadata)
        assert {k: metadata[k] for k in stated} == stated
        assert_no_page_map(node)
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
