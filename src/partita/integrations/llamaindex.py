"""LlamaIndex: a reader of files, and a node parser that runs partita's chunking strategies.

Needs the "llamaindex" extra (`pip install 'partita[llamaindex]'`, llama-index-core), imported
when this module is; without it, importing this module raises `ImportError` saying so.

Principles:

- **A node is a chunk's record, in LlamaIndex's words.** A `TextNode`'s text is the chunk's
  text and its metadata the chunk's flat record metadata (`partita.serialization.records`), so
  nodes go into any LlamaIndex vector store as they are. The file's facts carry the names
  `SimpleDirectoryReader` gives them, one key per fact: `file_path`, `file_name`, `file_type`
  (a MIME type) and `last_modified_date` ("YYYY-MM-DD"), not the records' `filename`,
  `file_directory`, `filetype` and `last_modified`. A fact the node's document states (its
  `file_path`, ...) has the document's value on the node too. Pages are `page_number` and
  `last_page_number` (ints: filterable ranges, not `page_label` strings).
- **Embeddings see the chunk's text only.** partita sizes a chunk to the embedder's window;
  LlamaIndex would embed the node's metadata with it and push it past. So every metadata key of
  the node, its document's included, is in `excluded_embed_metadata_keys`.
- **The LLM sees where a chunk comes from.** `excluded_llm_metadata_keys` leaves visible
  `LLM_METADATA_KEYS`: `file_name`, `heading_path`, `page_number` and `last_page_number`
  (only when the chunk runs over more than one page), what an answer cites, and the document's
  own keys it does not exclude (an `author` given in `extra_info`); it hides partita's other
  keys and the file's other facts (`file_path`, dates, sizes). Neither list repeats a key.
- **Relationships.** Each node's SOURCE and PARENT are the document (or node) it was parsed
  from, and PREVIOUS / NEXT its neighbours from the same document, which LlamaIndex's own
  `NodeParser` sets (`include_prev_next_rel`).
- **Sentence windows.** With the "sentence_window" strategy every node carries `window` (the
  sentence with its neighbours) and `original_text` (the sentence), the metadata keys
  LlamaIndex's `SentenceWindowNodeParser` writes: `MetadataReplacementPostProcessor(
  target_metadata_key="window")` swaps each retrieved node's text for its window.
- **A reader's text is only text.** Any node parser may split a `PartitaReader` document
  (LlamaIndex's `SentenceSplitter` in `VectorStoreIndex.from_documents`), and what the text
  holds is embedded: so it holds the elements as Markdown and nothing else.
- **Text or file; pages either way.** The node parser partitions a document's text (as
  Markdown by default, which `PartitaReader` writes: headings, lists and tables come back as
  elements). Pages come from the document's `PAGE_STARTS_KEY` metadata ("page_starts"), where
  the reader writes the offset in the text at which each page starts ("1:0,2:1834,3:3710"):
  hidden from the embedder and the LLM on the document, and so on the nodes any splitter makes
  of it (they inherit both lists), and dropped from this parser's nodes, which have
  `page_number` instead. With `read_files=True` the parser partitions the file the document's
  `file_path` metadata names instead, keeping what Markdown loses (Word styles, a table's
  cells): only for documents that stand for a whole file, as `PartitaReader`'s do (a reader
  that splits a file into pages would have it read once per page).
- **Deterministic ids.** A document `PartitaReader` reads has its path as id; a node's id is a
  hash of its document's id and its chunk's id (unless `id_func` is given).

Metadata of one node of a PDF read by `SimpleDirectoryReader(file_extractor={".pdf":
PartitaReader()})` and `PartitaNodeParser()`, and what the LLM sees of it::

    {"file_path": "/data/report.pdf", "file_name": "report.pdf", "file_type": "application/pdf",
     "last_modified_date": "2026-01-05", "file_size": 48213, "creation_date": "2026-01-05",
     "element_type": "CompositeElement", "chunk_index": 3, "heading_path": "Results > Costs",
     "page_number": 2, "last_page_number": 3}

    file_name: report.pdf
    heading_path: Results > Costs
    page_number: 2
    last_page_number: 3

    <the chunk's text>
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from partita.chunking._registry import chunk
from partita.elements import Element
from partita.integrations._extras import missing_extra
from partita.integrations._markdown import (
    PageStart,
    elements_to_markdown,
    elements_to_paged_markdown,
    with_pages,
)
from partita.integrations._options import validate_chunking
from partita.partitioners import partition
from partita.serialization.records import TABLE_HTML_MAX_CHARS, iter_records

try:
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
except ImportError as error:
    raise missing_extra(__name__, "llamaindex", "llama-index-core", error) from error

__all__ = [
    "FILE_METADATA_KEYS",
    "LLM_METADATA_KEYS",
    "PAGE_STARTS_KEY",
    "PartitaNodeParser",
    "PartitaReader",
    "chunks_to_nodes",
    "elements_to_markdown",
]

LLM_METADATA_KEYS = frozenset({"file_name", "heading_path", "page_number", "last_page_number"})
"""The metadata keys partita leaves visible to the LLM (for citing); it hides its others."""

FILE_METADATA_KEYS = frozenset(
    {
        "file_path",
        "file_name",
        "file_type",
        "file_size",
        "creation_date",
        "last_modified_date",
        "last_accessed_date",
    }
)
"""The file's facts, named as `SimpleDirectoryReader` names them."""

PAGE_STARTS_KEY = "page_starts"
"""The metadata key of a `PartitaReader` document's page map: where each page starts in its
text, as "page:offset" pairs by increasing offset, joined by commas ("1:0,2:1834,4:3710"; a page
with no text has none). A character at or after a page's offset and before the next one's is on
that page (`start_char_idx` of a node LlamaIndex splits from the document is such an offset).
Hidden from the embedder and the LLM; `PartitaNodeParser` reads it and leaves it off its nodes."""

_PAGE_STARTS = re.compile(r"\d{1,9}:\d{1,12}(?:,\d{1,9}:\d{1,12})*")

_LLAMAINDEX_NAMES = {
    "filename": "file_name",
    "filetype": "file_type",
    "last_modified": "last_modified_date",
}
"""A record's file fields under their LlamaIndex names (`file_directory` becomes `file_path`)."""


class PartitaReader(BaseReader):
    """Reads a file with partita into one LlamaIndex `Document`: its elements as Markdown.

    Usable alone (`PartitaReader().load_data("report.docx")`) or as a file extractor of
    `SimpleDirectoryReader` (`file_extractor={".docx": PartitaReader()}`). `partition_options`
    go to `partita.partition`. A document's id is the file's path, its text the elements as
    Markdown (and nothing else: no page marks), its metadata `file_path`, `file_name`,
    `file_type` and `last_modified_date` (when known), updated by `extra_info`, and
    `PAGE_STARTS_KEY` (when pages are known; the reader's own, whatever `extra_info` says):
    every key hidden from embeddings, the file's facts but `file_name` and the page map from the
    LLM.
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
        metadata: dict[str, Any] = {"file_path": path, "file_name": Path(path).name}
        first = elements[0].metadata if elements else None
        if first is not None and first.filetype:
            metadata["file_type"] = first.filetype
        if first is not None and first.last_modified:
            metadata["last_modified_date"] = first.last_modified[:10]
        metadata.update(extra_info or {})
        llm_hidden = [k for k in metadata if k in FILE_METADATA_KEYS and k not in LLM_METADATA_KEYS]
        markdown = elements_to_paged_markdown(elements)
        metadata.pop(PAGE_STARTS_KEY, None)
        if markdown.page_starts:
            metadata[PAGE_STARTS_KEY] = _page_starts_to_str(markdown.page_starts)
            llm_hidden.append(PAGE_STARTS_KEY)
        yield Document(
            id_=path,
            text=markdown.text,
            metadata=metadata,
            excluded_embed_metadata_keys=list(metadata),
            excluded_llm_metadata_keys=llm_hidden,
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

    A `Document` with `PAGE_STARTS_KEY` metadata (a `PartitaReader`'s) gives its nodes their
    `page_number` and `last_page_number` from it, the pages `read_files=True` gives; no node
    this parser returns carries the key (LlamaIndex copies a document's metadata onto its nodes:
    this parser takes it off again).
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

    def get_nodes_from_documents(
        self, documents: Sequence[Document], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        """Return the nodes of `documents`, as LlamaIndex's `NodeParser` does, without the
        documents' page map (`PAGE_STARTS_KEY`) in their metadata."""
        nodes = super().get_nodes_from_documents(documents, show_progress, **kwargs)
        return _without_page_starts(nodes)

    async def aget_nodes_from_documents(
        self, documents: Sequence[Document], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        """Return the nodes of `documents`, as `get_nodes_from_documents` does."""
        nodes = await super().aget_nodes_from_documents(documents, show_progress, **kwargs)
        return _without_page_starts(nodes)

    def _parse_nodes(
        self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        parsed: list[BaseNode] = []
        custom_id = None if self.id_func is default_id_func else self.id_func
        for node in get_tqdm_iterable(nodes, show_progress, "Parsing nodes"):
            elements, from_file = self._elements_of(node)
            chunks = chunk(elements, self.strategy, **self.chunking_options)
            parsed.extend(
                _chunks_to_nodes(
                    chunks,
                    source=node,
                    prev_next=False,  # -- NodeParser sets them, per `include_prev_next_rel` --
                    id_func=custom_id,
                    table_html_max_chars=self.table_html_max_chars,
                    # -- from the text, the file's facts are the text's, not the document's --
                    file_facts=from_file,
                )
            )
        return parsed

    def _elements_of(self, node: BaseNode) -> tuple[list[Element], bool]:
        """Return the elements of `node`, and whether they were read from its file."""
        file_path = node.metadata.get("file_path")
        if self.read_files and isinstance(file_path, str) and os.path.isfile(file_path):
            return partition(file_path, **self.partition_options), True
        text = node.get_content(metadata_mode=MetadataMode.NONE)
        if not text.strip():
            return [], False
        elements = self._partition_text(text)
        # -- the offsets are into a document's text: a node split from it has other text --
        page_starts = _str_to_page_starts(node.metadata.get(PAGE_STARTS_KEY))
        if isinstance(node, Document) and page_starts:
            elements = with_pages(elements, text, page_starts, self._partition_text)
        return elements, False

    def _partition_text(self, text: str) -> list[Element]:
        return partition(text=text, content_type=self.content_type, **self.partition_options)


def chunks_to_nodes(
    chunks: Iterable[Element],
    *,
    source: BaseNode | None = None,
    prev_next: bool = True,
    id_func: Any = None,
    table_html_max_chars: int = TABLE_HTML_MAX_CHARS,
) -> list[TextNode]:
    """Return `chunks` (one chunking run, in order) as LlamaIndex `TextNode`s.

    Each node's text is its chunk's text and its metadata the chunk's flat record metadata, the
    file's facts under LlamaIndex's names (a fact `source` states with `source`'s value); every
    key hidden from embeddings, all but `LLM_METADATA_KEYS` from the LLM (see the module
    docstring). With `source` (the document they came from), each node's SOURCE and PARENT are
    `source`, and its id is a hash of `source`'s id and the chunk's id (else the chunk's id);
    `id_func(i, source)`, when given, makes the ids instead. With `prev_next`, PREVIOUS and NEXT
    link the nodes in order.
    """
    return _chunks_to_nodes(
        chunks,
        source=source,
        prev_next=prev_next,
        id_func=id_func,
        table_html_max_chars=table_html_max_chars,
        file_facts=True,
    )


def _chunks_to_nodes(
    chunks: Iterable[Element],
    *,
    source: BaseNode | None,
    prev_next: bool,
    id_func: Any,
    table_html_max_chars: int,
    file_facts: bool,
) -> list[TextNode]:
    """`chunks_to_nodes`, leaving out the chunks' file facts unless `file_facts`."""
    related = source.as_related_node_info() if source is not None else None
    nodes: list[TextNode] = []
    for index, record in enumerate(iter_records(chunks, table_html_max_chars=table_html_max_chars)):
        metadata = _node_metadata(record["metadata"], source, file_facts)
        relationships: dict[NodeRelationship, RelatedNodeInfo | list[RelatedNodeInfo]] = {}
        if related is not None:
            relationships[NodeRelationship.SOURCE] = related
            relationships[NodeRelationship.PARENT] = related
        nodes.append(
            TextNode(
                id_=_node_id(index, record["id"], source, id_func),
                text=record["text"],
                metadata=metadata,
                excluded_embed_metadata_keys=_embed_hidden(metadata, source),
                excluded_llm_metadata_keys=_llm_hidden(metadata, source),
                relationships=relationships,
            )
        )
    if prev_next:
        for before, after in itertools.pairwise(nodes):
            before.relationships[NodeRelationship.NEXT] = after.as_related_node_info()
            after.relationships[NodeRelationship.PREVIOUS] = before.as_related_node_info()
    return nodes


def _node_metadata(
    record: Mapping[str, Any], source: BaseNode | None, file_facts: bool
) -> dict[str, Any]:
    """Return a record's metadata with LlamaIndex's names for the file's facts (none of them
    unless `file_facts`), a fact `source` states taking `source`'s value."""
    stated: Mapping[str, Any] = source.metadata if source is not None else {}
    metadata: dict[str, Any] = {}
    for key, value in record.items():
        if key == "file_directory":
            continue
        name = _LLAMAINDEX_NAMES.get(key, key)
        if name not in FILE_METADATA_KEYS:
            metadata[name] = value
        elif file_facts:
            if key == "filename" and isinstance(record.get("file_directory"), str):
                metadata["file_path"] = stated.get(
                    "file_path", os.path.join(record["file_directory"], value)
                )
            metadata[name] = stated.get(name, value[:10] if key == "last_modified" else value)
    return metadata


def _page_starts_to_str(page_starts: Iterable[PageStart]) -> str:
    """Return `page_starts` as the value of `PAGE_STARTS_KEY`."""
    return ",".join(f"{start.page}:{start.offset}" for start in page_starts)


def _str_to_page_starts(value: object) -> tuple[PageStart, ...]:
    """Return the page starts a `PAGE_STARTS_KEY` value states (none, unless it is one)."""
    if not isinstance(value, str) or _PAGE_STARTS.fullmatch(value) is None:
        return ()
    pairs = (pair.split(":") for pair in value.split(","))
    return tuple(PageStart(offset=int(offset), page=int(page)) for page, offset in pairs)


def _without_page_starts(nodes: list[BaseNode]) -> list[BaseNode]:
    """Return `nodes`, each without `PAGE_STARTS_KEY` in its metadata."""
    for node in nodes:
        node.metadata.pop(PAGE_STARTS_KEY, None)
    return nodes


def _embed_hidden(metadata: Mapping[str, Any], source: BaseNode | None) -> list[str]:
    """Return every key of the node, its document's included (but the page map, which the node
    does not carry): the embedder sees the text."""
    if source is None:
        return list(metadata)
    keys = [*metadata, *source.metadata, *source.excluded_embed_metadata_keys]
    return [k for k in _unique(keys) if k != PAGE_STARTS_KEY]


def _llm_hidden(metadata: Mapping[str, Any], source: BaseNode | None) -> list[str]:
    """Return the keys hidden from the LLM: partita's and the file's facts but
    `LLM_METADATA_KEYS` (`last_page_number` too when it is `page_number`), and the keys the
    document hides."""
    document_hides = source.excluded_llm_metadata_keys if source is not None else []
    keys = [*metadata, *(source.metadata if source is not None else ()), *document_hides]
    hidden = [
        k
        for k in _unique(keys)
        if k not in LLM_METADATA_KEYS
        and k != PAGE_STARTS_KEY
        and (k in metadata or k in FILE_METADATA_KEYS or k in document_hides)
    ]
    if "last_page_number" in metadata and metadata["last_page_number"] == metadata.get(
        "page_number"
    ):
        hidden.append("last_page_number")
    return hidden


def _unique(keys: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(keys))


def _node_id(index: int, chunk_id: str, source: BaseNode | None, id_func: Any) -> str:
    if id_func is not None and source is not None:
        return str(id_func(index, source))
    if source is None:
        return chunk_id
    return hashlib.sha256(f"{source.node_id}\n{chunk_id}".encode()).hexdigest()[:32]
