"""LangChain: a document loader that partitions and chunks files, and chunks as `Document`s.

Needs the "langchain" extra (`pip install "partita[langchain]"`, langchain-core), imported when
this module is.

Principles:

- **A Document is a chunk's record.** `page_content` is the chunk's text, `metadata` its flat
  record metadata (`partita.integrations.records`: heading path, pages, file name, element type,
  sources, ...; never `orig_elements`) and `id` the chunk's deterministic `element_id`. So the
  Documents go into any LangChain vector store as they are (`Chroma.from_documents`, ...),
  without `filter_complex_metadata`.
- **Any strategy, any options.** `PartitaLoader` runs `partita.chunk` with the strategy and
  options given (`profile="retrieval"`, `max_tokens=...`), which validates them when the loader
  is made: a misspelt option fails there, not at the first file.
- **Lazy per file.** `lazy_load` partitions and chunks one file at a time, in the order given;
  each file is its own chunking run (its `chunk_index` starts at 0).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document

from partita.chunking.registry import chunk
from partita.elements import Element
from partita.integrations._options import validate_chunking
from partita.integrations.records import TABLE_HTML_MAX_CHARS, VectorRecord, iter_records
from partita.partitioners import partition

__all__ = ["PartitaLoader", "chunks_to_documents", "record_to_document"]

PathArg = str | os.PathLike[str]


class PartitaLoader(BaseLoader):
    """Loads files as LangChain `Document`s: each file partitioned by partita, then chunked.

    `paths` is one path or an iterable of them. `strategy` names any registered chunking
    strategy ("by_title" by default; `None` gives one Document per element, unchunked), and
    `options` are its options, as `partita.chunk` takes them. `partition_options` go to
    `partita.partition` (`languages`, `include_page_breaks`, ...). `table_html_max_chars` bounds
    the table HTML a Document's metadata carries (see `partita.integrations.records`).

    Raises `ValueError` or `TypeError` at construction for an unknown strategy or option.
    """

    def __init__(
        self,
        paths: PathArg | Iterable[PathArg],
        *,
        strategy: str | None = "by_title",
        partition_options: Mapping[str, Any] | None = None,
        table_html_max_chars: int = TABLE_HTML_MAX_CHARS,
        **options: Any,
    ) -> None:
        self.paths: tuple[PathArg, ...] = (
            (paths,) if isinstance(paths, (str, os.PathLike)) else tuple(paths)
        )
        self.strategy = strategy
        self.options = options
        self.partition_options = dict(partition_options or {})
        self.table_html_max_chars = table_html_max_chars
        if strategy is None:
            if options:
                raise TypeError(f"chunking options {sorted(options)} given with strategy=None")
        else:
            validate_chunking(strategy, options)

    def lazy_load(self) -> Iterator[Document]:
        """Generate the Documents of every file, file by file, chunk by chunk."""
        for path in self.paths:
            yield from chunks_to_documents(
                self._chunks_of(path), table_html_max_chars=self.table_html_max_chars
            )

    def _chunks_of(self, path: PathArg) -> list[Element]:
        elements = partition(path, **self.partition_options)
        if self.strategy is None:
            return elements
        return chunk(elements, self.strategy, **self.options)


def chunks_to_documents(
    chunks: Iterable[Element], *, table_html_max_chars: int = TABLE_HTML_MAX_CHARS
) -> list[Document]:
    """Return `chunks` (one chunking run, in order) as LangChain Documents: `page_content` the
    chunk's text, `metadata` its flat record metadata, `id` its `element_id`."""
    return [
        record_to_document(record)
        for record in iter_records(chunks, table_html_max_chars=table_html_max_chars)
    ]


def record_to_document(record: VectorRecord) -> Document:
    """Return the LangChain Document of a vector-store `record`."""
    return Document(page_content=record["text"], metadata=dict(record["metadata"]), id=record["id"])
