"""LlamaIndex: a reader of files, and a node parser that runs partita's chunking strategies.

Needs the "llamaindex" extra (`pip install "partita[llamaindex]"`, llama-index-core), imported
when this module is.

Principles:

- **A node is a chunk's record.** A `TextNode`'s text is the chunk's text and its metadata the
  chunk's flat record metadata (`partita.integrations.records`), so nodes go into any LlamaIndex
  vector store as they are.
- **Embeddings see the chunk's text only.** partita sizes a chunk to the embedder's window;
  LlamaIndex would embed the node's metadata with it and push it past. So every metadata key
  partita adds is in `excluded_embed_metadata_keys`, and all but `heading_path`, `filename`,
  `page_number` and `last_page_number` (what an answer cites) in
  `excluded_llm_metadata_keys`.
- **Relationships.** Each node's SOURCE and PARENT are the document (or node) it was parsed
  from, and PREVIOUS / NEXT its neighbours from the same document, which LlamaIndex's own
  `NodeParser` sets (`include_prev_next_rel`).
- **Sentence windows.** With the "sentence_window" strategy every node carries `window` (the
  sentence with its neighbours) and `original_text` (the sentence), the metadata keys
  LlamaIndex's `SentenceWindowNodeParser` writes: `MetadataReplacementPostProcessor(
  target_metadata_key="window")` swaps each retrieved node's text for its window.
- **Text or file.** The node parser partitions a document's text (as Markdown by default, which
  `PartitaReader` writes: headings, lists and tables come back as elements). With
  `read_files=True` it partitions the file the document's `file_path` metadata names instead,
  keeping what Markdown loses (pages, Word styles): only for documents that stand for a whole
  file, as `PartitaReader`'s do (a reader that splits a file into pages would have it read
  once per page).
- **Deterministic ids.** A document `PartitaReader` reads has its path as id; a node's id is a
  hash of its document's id and its chunk's id (unless `id_func` is given).
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from llama_index.core.bridge.pydantic import Field
from llama_index.core.node_parser import NodeParser
from llama_index.core.node_parser.node_utils import default_id_func
from llama_index.core.readers.base import BaseReader
from llama_index.core.schema import (
    BaseNode,
    Document,
    MetadataMode,
    NodeRelationship,
    RelatedNodeInfo,
    TextNode,
)
from llama_index.core.utils import get_tqdm_iterable

from partita.chunking.registry import chunk
from partita.elements import Element
from partita.integrations._options import validate_chunking
from partita.integrations.records import TABLE_HTML_MAX_CHARS, iter_records
from partita.partitioners import partition

__all__ = [
    "LLM_METADATA_KEYS",
    "PartitaNodeParser",
    "PartitaReader",
    "chunks_to_nodes",
    "elements_to_markdown",
]

LLM_METADATA_KEYS = frozenset({"heading_path", "filename", "page_number", "last_page_number"})
"""The metadata keys partita leaves visible to the LLM (for citing); it hides the others."""


class PartitaReader(BaseReader):
    """Reads a file with partita into one LlamaIndex `Document`: its elements as Markdown.

    Usable alone (`PartitaReader().load_data("report.docx")`) or as a file extractor of
    `SimpleDirectoryReader` (`file_extractor={".docx": PartitaReader()}`). `partition_options`
    go to `partita.partition`. A document's id is the file's path, its metadata `file_path`,
    `file_name` and `filetype` (hidden from embeddings), updated by `extra_info`.
    """

    def __init__(self, *, partition_options: Mapping[str, Any] | None = None) -> None:
        self.partition_options = dict(partition_options or {})

    def lazy_load_data(
        self,
        file: str | os.PathLike[str],
        extra_info: Mapping[str, Any] | None = None,
        fs: Any = None,
    ) -> Iterator[Document]:
        """Generate the one Document of `file` (read through the fsspec filesystem `fs`, when
        given, as `SimpleDirectoryReader` passes it)."""
        path = os.fspath(file)
        if fs is None:
            elements = partition(path, **self.partition_options)
        else:
            with fs.open(path, "rb") as stream:
                elements = partition(file=stream, metadata_filename=path, **self.partition_options)
        filetype = next((e.metadata.filetype for e in elements if e.metadata.filetype), None)
        metadata: dict[str, Any] = {"file_path": path, "file_name": Path(path).name}
        if filetype:
            metadata["filetype"] = filetype
        metadata.update(extra_info or {})
        yield Document(
            id_=path,
            text=elements_to_markdown(elements),
            metadata=metadata,
            excluded_embed_metadata_keys=list(metadata),
            excluded_llm_metadata_keys=["file_path"],
        )

    def load_data(
        self,
        file: str | os.PathLike[str],
        extra_info: Mapping[str, Any] | None = None,
        fs: Any = None,
    ) -> list[Document]:
        """Return the one Document of `file` in a list (see `lazy_load_data`)."""
        return list(self.lazy_load_data(file, extra_info, fs))


class PartitaNodeParser(NodeParser):
    """Parses LlamaIndex documents into `TextNode`s with any partita chunking strategy.

    `PartitaNodeParser(strategy="sentence_window", window_size=2)`: `strategy` names a
    registered strategy ("by_title" by default) and the other keyword arguments are its options
    as `partita.chunk` takes them (`profile="retrieval"`, `max_tokens=...`), besides
    LlamaIndex's own `NodeParser` fields (`include_metadata`, `include_prev_next_rel`,
    `callback_manager`, `id_func`) and this parser's fields below. A bad strategy or option
    raises `ValueError` or `TypeError` here, as `partita.chunk` would.
    """

    strategy: str = Field(default="by_title", description="the partita chunking strategy")
    chunking_options: dict[str, Any] = Field(
        default_factory=dict, description="the strategy's options, as partita.chunk takes them"
    )
    content_type: str = Field(
        default="text/markdown",
        description="the MIME type a document's text is partitioned as",
    )
    read_files: bool = Field(
        default=False,
        description="partition the file named by a document's file_path metadata, not its text",
    )
    partition_options: dict[str, Any] = Field(
        default_factory=dict, description="options of partita.partition"
    )
    table_html_max_chars: int = Field(
        default=TABLE_HTML_MAX_CHARS, description="the largest table HTML put in metadata"
    )

    def __init__(self, strategy: str = "by_title", **kwargs: Any) -> None:
        own = set(type(self).model_fields)
        options = {k: v for k, v in kwargs.items() if k not in own}
        fields = {k: v for k, v in kwargs.items() if k in own}
        options = {**fields.pop("chunking_options", {}), **options}
        validate_chunking(strategy, options)
        # -- through a dict: the base's typed signature does not know this class's fields --
        values: dict[str, Any] = {"strategy": strategy, "chunking_options": options, **fields}
        super().__init__(**values)

    @classmethod
    def class_name(cls) -> str:
        return "PartitaNodeParser"

    def _parse_nodes(
        self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        parsed: list[BaseNode] = []
        for node in get_tqdm_iterable(nodes, show_progress, "Parsing nodes"):
            elements, from_file = self._elements_of(node)
            chunks = chunk(elements, self.strategy, **self.chunking_options)
            custom_id = None if self.id_func is default_id_func else self.id_func
            for parsed_node in chunks_to_nodes(
                chunks,
                source=node,
                prev_next=False,  # -- NodeParser sets them, per `include_prev_next_rel` --
                id_func=custom_id,
                table_html_max_chars=self.table_html_max_chars,
            ):
                if not from_file:
                    # -- the type of the text partita read, not of the document's file --
                    parsed_node.metadata.pop("filetype", None)
                parsed.append(parsed_node)
        return parsed

    def _elements_of(self, node: BaseNode) -> tuple[list[Element], bool]:
        """Return the elements of `node`, and whether they were read from its file."""
        file_path = node.metadata.get("file_path")
        if self.read_files and isinstance(file_path, str) and os.path.isfile(file_path):
            return partition(file_path, **self.partition_options), True
        text = node.get_content(metadata_mode=MetadataMode.NONE)
        if not text.strip():
            return [], False
        elements = partition(text=text, content_type=self.content_type, **self.partition_options)
        return elements, False


def chunks_to_nodes(
    chunks: Iterable[Element],
    *,
    source: BaseNode | None = None,
    prev_next: bool = True,
    id_func: Any = None,
    table_html_max_chars: int = TABLE_HTML_MAX_CHARS,
) -> list[TextNode]:
    """Return `chunks` (one chunking run, in order) as LlamaIndex `TextNode`s.

    Each node's text is its chunk's text and its metadata the chunk's flat record metadata,
    partita's keys hidden from embeddings and all but `LLM_METADATA_KEYS` from the LLM. With
    `source` (the document they came from), each node's SOURCE and PARENT are `source`, the
    node inherits its excluded metadata keys, and its id is a hash of `source`'s id and the
    chunk's id (else the chunk's id); `id_func(i, source)`, when given, makes the ids instead.
    With `prev_next`, PREVIOUS and NEXT link the nodes in order.
    """
    related = source.as_related_node_info() if source is not None else None
    nodes: list[TextNode] = []
    for index, record in enumerate(iter_records(chunks, table_html_max_chars=table_html_max_chars)):
        metadata: dict[str, Any] = dict(record["metadata"])
        embed_hidden = list(metadata)
        llm_hidden = [k for k in metadata if k not in LLM_METADATA_KEYS]
        relationships: dict[NodeRelationship, RelatedNodeInfo | list[RelatedNodeInfo]] = {}
        if source is not None and related is not None:
            embed_hidden += [k for k in source.excluded_embed_metadata_keys if k not in metadata]
            llm_hidden += [k for k in source.excluded_llm_metadata_keys if k not in metadata]
            relationships[NodeRelationship.SOURCE] = related
            relationships[NodeRelationship.PARENT] = related
        nodes.append(
            TextNode(
                id_=_node_id(index, record["id"], source, id_func),
                text=record["text"],
                metadata=metadata,
                excluded_embed_metadata_keys=embed_hidden,
                excluded_llm_metadata_keys=llm_hidden,
                relationships=relationships,
            )
        )
    if prev_next:
        for before, after in itertools.pairwise(nodes):
            before.relationships[NodeRelationship.NEXT] = after.as_related_node_info()
            after.relationships[NodeRelationship.PREVIOUS] = before.as_related_node_info()
    return nodes


def _node_id(index: int, chunk_id: str, source: BaseNode | None, id_func: Any) -> str:
    if id_func is not None and source is not None:
        return str(id_func(index, source))
    if source is None:
        return chunk_id
    return hashlib.sha256(f"{source.node_id}\n{chunk_id}".encode()).hexdigest()[:32]


def elements_to_markdown(elements: Iterable[Element]) -> str:
    """Return `elements` as one Markdown text that partita's Markdown partitioner reads back
    into the same elements (kinds, texts, heading paths): a `Title` as a heading of its level
    ("#" for depth 0), a `ListItem` as a "- " item, a table as its `text_as_html` (else its
    text), a `CodeSnippet` fenced, any other element as its text; blocks separated by a blank
    line, empty texts left out. Markdown syntax in a text is escaped (`*`, `_`, `<`, a leading
    "#", "- " or "1." ...), so it reads back as text; line breaks inside a text read back as
    spaces.
    """
    blocks: list[str] = []
    for element in elements:
        text = element.text.strip()
        html = element.metadata.text_as_html
        if element.category in ("Table", "TableChunk") and html:
            blocks.append(html)
        elif not text:
            continue
        elif element.category == "CodeSnippet":
            fence = "`" * max(3, 1 + max((len(r) for r in _BACKTICKS.findall(text)), default=0))
            blocks.append(f"{fence}\n{element.text}\n{fence}")
        elif element.category == "Title":
            depth = min(element.metadata.category_depth or 0, 5)
            blocks.append(f"{'#' * (depth + 1)} {_escaped(' '.join(text.split()))}")
        elif element.category == "ListItem":
            blocks.append(f"- {_escaped(text)}")
        else:
            blocks.append(_escaped(text))
    return "\n\n".join(blocks)


_BACKTICKS = re.compile(r"`+")
_INLINE_SYNTAX = re.compile(r"([\\`*_\[\]<>&~|])")
_LEADING_MARKER = re.compile(r"^([-+=#])", re.MULTILINE)
_ORDERED_MARKER = re.compile(r"^(\d{1,9})([.)])", re.MULTILINE)


def _escaped(text: str) -> str:
    """Return `text` with what Markdown would read as syntax backslash-escaped, each line's
    indentation dropped (four spaces would start a code block)."""
    text = "\n".join(line.strip() for line in text.splitlines())
    text = _INLINE_SYNTAX.sub(r"\\\1", text)
    text = _ORDERED_MARKER.sub(r"\1\\\2", text)
    return _LEADING_MARKER.sub(r"\\\1", text)
