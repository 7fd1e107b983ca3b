"""LlamaIndex small-to-big: a node postprocessor returning the parents of retrieved chunks.

Needs the "llamaindex" extra (`pip install 'partita[llamaindex]'`, llama-index-core), imported
when this module is; without it, importing this module raises `ImportError` saying so.

Principles:

- **A postprocessor, so any retriever or query engine takes it**
  (`index.as_query_engine(similarity_top_k=20, node_postprocessors=[...])`,
  `RetrieverQueryEngine`, or `postprocess_nodes` on a retriever's results).
- **The child names its parent.** `partita.chunking.parents.with_parents` puts `parent_id` in
  each small chunk's metadata, which `chunks_to_nodes` carries to the node; `parent_nodes`
  makes the parents' nodes, keyed by that id. A node whose parent is not known stands for
  itself.
- **Rank order, no repeats, then k or a budget** (`partita.chunking.parents.take_ranked`): a
  parent takes the score of its best-ranked child; `top_n` keeps the first parents, and
  `token_budget` keeps them while their texts total at most that many tokens (the first always
  kept; taking stops at the first that does not fit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from partita.chunking.parents import PARENT_ID_KEY, take_ranked
from partita.elements import Element
from partita.integrations._extras import missing_extra
from partita.integrations.llamaindex import chunks_to_nodes

try:
    from llama_index.core.bridge.pydantic import Field
    from llama_index.core.postprocessor.types import BaseNodePostprocessor
    from llama_index.core.schema import BaseNode, MetadataMode, NodeWithScore, QueryBundle
except ImportError as error:  # pragma: no cover -- llamaindex.py raised first
    raise missing_extra(__name__, "llamaindex", "llama-index-core", error) from error

__all__ = ["SmallToBigPostprocessor", "parent_nodes"]


def parent_nodes(parents: Iterable[Element]) -> dict[str, BaseNode]:
    """Return `parents` (`with_parents(...).parents`) as LlamaIndex nodes keyed by their ids,
    which are the parents' ids: what `SmallToBigPostprocessor` looks a `parent_id` up in."""
    return {node.node_id: node for node in chunks_to_nodes(parents, prev_next=False)}


class SmallToBigPostprocessor(BaseNodePostprocessor):
    """Replaces each retrieved node by its parent, drops repeats, keeps rank order, and keeps
    the first `top_n` or those within `token_budget` tokens (see the module docstring).

    `parents` maps a parent id to its node (`parent_nodes`); without it (or for a node without
    `parent_id` metadata) each node stands for itself, so the postprocessor only budgets.
    `count_tokens` counts a node's text (cl100k_base by default)."""

    parents: dict[str, BaseNode] = Field(default_factory=dict)
    top_n: int | None = Field(default=None, ge=0)
    token_budget: int | None = Field(default=None, ge=0)
    count_tokens: Callable[[str], int] | None = Field(default=None, exclude=True)

    @classmethod
    def class_name(cls) -> str:
        return "PartitaSmallToBigPostprocessor"

    def _postprocess_nodes(
        self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None
    ) -> list[NodeWithScore]:
        count = self.count_tokens
        if self.token_budget is not None and count is None:
            from partita.text.sizing._tokenizers import token_counter

            count = token_counter("cl100k_base")

        def size(item: NodeWithScore) -> int:
            assert count is not None
            return count(item.node.get_content(metadata_mode=MetadataMode.NONE))

        return take_ranked(
            (self._parent_of(item) for item in nodes),
            key=lambda item: item.node.node_id,
            k=self.top_n,
            budget=self.token_budget,
            size=size if count is not None else None,
        )

    def _parent_of(self, item: NodeWithScore) -> NodeWithScore:
        parent_id: Any = item.node.metadata.get(PARENT_ID_KEY)
        parent = self.parents.get(parent_id) if isinstance(parent_id, str) else None
        if parent is None:
            return item
        return NodeWithScore(node=parent, score=item.score)
