"""Small-to-big and budgeted retrieval in LangChain and LlamaIndex, with the libraries' own
retrievers over real vector stores (a bag-of-words embedding: the ranking is not under test)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever
from langchain_core.vectorstores import InMemoryVectorStore
from llama_index.core import VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import NodeWithScore, TextNode

import partita
from partita.chunking.parents import PARENT_ID_KEY, with_parents
from partita.elements import Element
from partita.embeddings._models import hashing_embedder
from partita.integrations.langchain import (
    SmallToBigRetriever,
    chunks_to_documents,
    parent_documents,
)
from partita.integrations.llamaindex import chunks_to_nodes
from partita.integrations.llamaindex_parents import SmallToBigPostprocessor, parent_nodes
from partita.text.sizing._tokenizers import token_counter

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "evaluation"
count = token_counter("cl100k_base")


def _vector(text: str) -> list[float]:
    return [float(x) for x in hashing_embedder(512)([text])[0]]


class HashingEmbeddings(Embeddings):
    """partita's deterministic bag-of-words embedder as LangChain `Embeddings`."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [_vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return _vector(text)


class HashingEmbedding(BaseEmbedding):
    """The same as a LlamaIndex embedding model."""

    def _get_query_embedding(self, query: str) -> list[float]:
        return _vector(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return _vector(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return _vector(text)


@pytest.fixture(scope="module")
def parented() -> tuple[list[Element], list[Element]]:
    """Small chunks (24 tokens) of three documents and their parents (about 80 tokens)."""
    chunks: list[Element] = []
    for name in ("tea.md", "volcanoes.md", "bicycles.md"):
        elements = partita.partition(FIXTURES / name)
        chunks += partita.chunk(elements, "by_title", profile="retrieval", max_tokens=24)
    children, parents = with_parents(chunks, 80)
    assert len(parents) < len(children)
    return children, parents


def _expected(children_ids: list[str], parent_of: dict[str, str]) -> list[str]:
    return list(dict.fromkeys(parent_of[c] for c in children_ids))


def test_langchain_retriever_returns_the_parents_of_the_top_children_in_rank_order(
    parented: tuple[list[Element], list[Element]],
) -> None:
    children, parents = parented
    store = InMemoryVectorStore(HashingEmbeddings())
    store.add_documents(chunks_to_documents(children))
    inner = store.as_retriever(search_kwargs={"k": 6})
    retriever = SmallToBigRetriever(retriever=inner, parents=parent_documents(parents))
    assert isinstance(retriever, BaseRetriever)

    query = "At what temperature should green tea be brewed?"
    small = inner.invoke(query)
    got = retriever.invoke(query)
    parent_of = {c.element_id: c.metadata.extra[PARENT_ID_KEY] for c in children}
    assert [d.id for d in got] == _expected([d.id for d in small if d.id], parent_of)
    by_id = {p.element_id: p for p in parents}
    assert all(d.page_content == by_id[d.id].text for d in got if d.id)
    assert "80 degrees Celsius" in got[0].page_content
    # -- async too, and k caps the parents --
    assert [d.id for d in asyncio.run(retriever.ainvoke(query))] == [d.id for d in got]
    capped = SmallToBigRetriever(retriever=inner, parents=parent_documents(parents), k=1)
    assert [d.id for d in capped.invoke(query)] == [got[0].id]


def test_langchain_retriever_keeps_results_while_they_fit_a_token_budget(
    parented: tuple[list[Element], list[Element]],
) -> None:
    children, parents = parented
    store = InMemoryVectorStore(HashingEmbeddings())
    store.add_documents(chunks_to_documents(children))
    inner = store.as_retriever(search_kwargs={"k": 10})
    query = "How do volcanoes erupt?"
    for mapping in ({}, parent_documents(parents)):
        unbounded = SmallToBigRetriever(retriever=inner, parents=mapping).invoke(query)
        budget = sum(count(d.page_content) for d in unbounded[:2])
        got = SmallToBigRetriever(retriever=inner, parents=mapping, token_budget=budget)
        assert [d.id for d in got.invoke(query)] == [d.id for d in unbounded[:2]]
        # -- the first result always comes back, even over the budget --
        tiny = SmallToBigRetriever(retriever=inner, parents=mapping, token_budget=1)
        assert [d.id for d in tiny.invoke(query)] == [unbounded[0].id]


def test_langchain_retriever_passes_results_without_a_parent_through() -> None:
    class Fixed(BaseRetriever):
        def _get_relevant_documents(self, query: str, *, run_manager: object) -> list[Document]:
            return [
                Document("orphan", id="x"),
                Document("child", id="c", metadata={PARENT_ID_KEY: "p"}),
                Document("child 2", id="d", metadata={PARENT_ID_KEY: "p"}),
            ]

    parent = Document("the parent", id="p")
    got = SmallToBigRetriever(retriever=Fixed(), parents={"p": parent}).invoke("q")
    assert [d.id for d in got] == ["x", "p"]
    with pytest.raises(ValueError):
        SmallToBigRetriever(retriever=Fixed(), k=-1)


def test_llamaindex_postprocessor_returns_parents_of_retrieved_nodes(
    parented: tuple[list[Element], list[Element]],
) -> None:
    children, parents = parented
    nodes = chunks_to_nodes(children)
    assert all(n.metadata[PARENT_ID_KEY] for n in nodes)
    index = VectorStoreIndex(nodes, embed_model=HashingEmbedding())
    retrieved = index.as_retriever(similarity_top_k=6).retrieve("How much caffeine is in tea?")
    postprocessor = SmallToBigPostprocessor(parents=parent_nodes(parents))
    assert isinstance(postprocessor, BaseNodePostprocessor)
    got = postprocessor.postprocess_nodes(retrieved)
    parent_of = {c.element_id: c.metadata.extra[PARENT_ID_KEY] for c in children}
    assert [n.node.node_id for n in got] == _expected(
        [n.node.node_id for n in retrieved], parent_of
    )
    assert got[0].score == retrieved[0].score
    assert "caffeine" in got[0].node.get_content()
    # -- top_n and a budget --
    assert len(SmallToBigPostprocessor(parents=parent_nodes(parents), top_n=1)
               .postprocess_nodes(retrieved)) == 1  # fmt: skip
    budget = sum(count(n.node.get_content()) for n in got[:2])
    budgeted = SmallToBigPostprocessor(parents=parent_nodes(parents), token_budget=budget)
    assert [n.node.node_id for n in budgeted.postprocess_nodes(retrieved)] == [
        n.node.node_id for n in got[:2]
    ]


def test_llamaindex_postprocessor_alone_budgets_the_nodes() -> None:
    nodes = [NodeWithScore(node=TextNode(text="word " * 10, id_=f"n{i}"), score=1.0 - i / 10)
             for i in range(4)]  # fmt: skip
    size = count(nodes[0].node.get_content())
    got = SmallToBigPostprocessor(token_budget=2 * size + 1).postprocess_nodes(nodes)
    assert [n.node.node_id for n in got] == ["n0", "n1"]
