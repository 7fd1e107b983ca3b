"""LangChain: a document loader that partitions and chunks files, and chunks as `Document`s.

Needs the "langchain" extra (`pip install 'partita[langchain]'`, langchain-core), imported when
this module is; without it, importing this module raises `ImportError` saying so.

Principles:

- **A Document is a chunk's record, in LangChain's words.** `page_content` is the chunk's text,
  `id` the chunk's deterministic id, and `metadata` its flat record metadata
  (`partita.serialization.records`: heading path, pages, file name, sources, ...; never
  `orig_elements`) with the keys LangChain's loaders use: `source` (the path as given to the
  loader; first, as every LangChain loader sets it) and `category` (the chunk's or element's
  type: "CompositeElement", "Table", "Title", ...), the key of unstructured's loaders
  (langchain-unstructured's `UnstructuredLoader`, langchain-community's
  `UnstructuredFileLoader`), whose other keys partita's records already share: `filename`,
  `file_directory`, `filetype`, `last_modified`, `page_number`, `languages` (one string,
  "eng,zho", not a list). One key per fact: no `element_type`. So the Documents go into any
  LangChain vector store as they are (`Chroma.from_documents`, ...), without
  `filter_complex_metadata`.
- **Files, directories, globs: what the CLI reads.** A file given is always read; a directory
  is searched recursively, in sorted order, for the formats partita reads, or for the files
  `glob` patterns match (`partita.partitioners._files`, as `partita partition DIR --glob`).
- **One bad file does not end the load.** A file that fails (unreadable, corrupt, unsupported,
  or any other exception) is skipped with a `SkippedFileWarning` naming it and the error, and
  the next file is read; `on_error="raise"` raises the error instead. A directory with no file
  to read is skipped (or raises `FileReadError`) the same way.
- **Any strategy, any options.** `PartitaLoader` runs `partita.chunk` with the strategy and
  options given (`profile="retrieval"`, `max_tokens=...`), which validates them when the loader
  is made: a misspelt option fails there, not at the first file.
- **Lazy per file.** `lazy_load` partitions and chunks one file at a time, in the order given
  (a directory's files in sorted order); each file is its own chunking run (its `chunk_index`
  starts at 0), and a file's Documents come only once the whole file has been read.
- **Small-to-big and budgets wrap any retriever.** `SmallToBigRetriever` asks the retriever it
  wraps, maps each result to its parent (`partita.chunking.parents.with_parents`: the child's
  `parent_id` metadata, looked up in `parent_documents(parents)`), drops repeats and keeps rank
  order; it returns the first `k` parents, or those that fit a `token_budget`
  (`partita.chunking.parents.take_ranked`). Without parents it budgets the results themselves.

Metadata of one chunk of `PartitaLoader("docs")`::

    {"source": "docs/report.docx", "category": "CompositeElement", "chunk_index": 1,
     "heading_path": "Results > Costs", "page_number": 2, "last_page_number": 2,
     "filename": "report.docx", "file_directory": "docs", "filetype": "application/vnd...",
     "last_modified": "2026-01-05T10:00:00", "languages": "eng"}
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

from partita.chunking._registry import chunk
from partita.chunking.parents import PARENT_ID_KEY, take_ranked
from partita.elements import Element
from partita.errors import FileReadError, PartitaWarning
from partita.integrations._extras import missing_extra
from partita.integrations._options import validate_chunking
from partita.partitioners import partition
from partita.partitioners._files import iter_directory_files
from partita.serialization.records import TABLE_HTML_MAX_CHARS, VectorRecord, iter_records

try:
    from langchain_core.callbacks import (
        AsyncCallbackManagerForRetrieverRun,
        CallbackManagerForRetrieverRun,
    )
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from pydantic import Field
except ImportError as error:
    raise missing_extra(__name__, "langchain", "langchain-core", error) from error

__all__ = [
    "PartitaLoader",
    "SkippedFileWarning",
    "SmallToBigRetriever",
    "chunks_to_documents",
    "parent_documents",
    "record_to_document",
]

PathArg = str | os.PathLike[str]

OnError = Literal["warn", "raise"]
"""What `PartitaLoader` does with a file that fails: skip it with a warning, or raise."""


class SkippedFileWarning(PartitaWarning):
    """`PartitaLoader` skipped a file that failed (or a directory with no file to read); the
    message names it and says why."""


class PartitaLoader(BaseLoader):
    """Loads files as LangChain `Document`s: each file partitioned by partita, then chunked.

    `paths` is one path or an iterable of them: files (always read, whatever their name) and
    directories (searched recursively for the formats partita reads, or for the files the `glob`
    patterns match: "*.pdf", "reports/**/*.md", ...). `on_error` says what a failing file does:
    "warn" (the default) skips it with a `SkippedFileWarning`, "raise" raises its error.
    `strategy` names any registered chunking strategy ("by_title" by default; `None` gives one
    Document per element, unchunked), and `options` are its options, as `partita.chunk` takes
    them. `partition_options` go to `partita.partition` (`languages`, `include_page_breaks`,
    ...). `table_html_max_chars` bounds the table HTML a Document's metadata carries (see
    `partita.serialization.records`).

    Raises `ValueError` or `TypeError` at construction for an unknown strategy or option, or an
    `on_error` other than "warn" and "raise".
    """

    def __init__(
        self,
        paths: PathArg | Iterable[PathArg],
        *,
        glob: str | Sequence[str] | None = None,
        on_error: OnError = "warn",
        strategy: str | None = "by_title",
        partition_options: Mapping[str, Any] | None = None,
        table_html_max_chars: int = TABLE_HTML_MAX_CHARS,
        **options: Any,
    ) -> None:
        self.paths: tuple[PathArg, ...] = (
            (paths,) if isinstance(paths, (str, os.PathLike)) else tuple(paths)
        )
        self.globs: tuple[str, ...] = (glob,) if isinstance(glob, str) else tuple(glob or ())
        if on_error not in ("warn", "raise"):
            raise ValueError(f"on_error must be 'warn' or 'raise', not {on_error!r}")
        self.on_error: OnError = on_error
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
        """Generate the Documents of every file, file by file, chunk by chunk, skipping (or
        raising for) the files that fail, per `on_error`."""
        for path in self.paths:
            for source in self._iter_sources(os.fspath(path)):
                try:
                    documents = chunks_to_documents(
                        self._chunks_of(source),
                        source=source,
                        table_html_max_chars=self.table_html_max_chars,
                    )
                except Exception as exc:
                    self._fail(source, exc)
                    continue
                yield from documents

    def _iter_sources(self, path: str) -> Iterator[str]:
        """Generate the files `path` names: itself, or the files found in it (a directory)."""
        if not os.path.isdir(path):
            yield path
            return
        found = [str(file) for file, _ in iter_directory_files(path, self.globs or None)]
        if not found:
            wanted = " or ".join(self.globs) if self.globs else "a format partita reads"
            self._fail(path, FileReadError(f"{path}: no files matching {wanted}"))
        yield from found

    def _fail(self, source: str, error: Exception) -> None:
        """Raise `error` (`on_error="raise"`), or warn that `source` is skipped because of it."""
        if self.on_error == "raise":
            raise error
        warnings.warn(
            SkippedFileWarning(f"{source}: skipped: {type(error).__name__}: {error}"),
            stacklevel=3,
        )

    def _chunks_of(self, path: str) -> list[Element]:
        elements = partition(path, **self.partition_options)
        if self.strategy is None:
            return elements
        return chunk(elements, self.strategy, **self.options)


def chunks_to_documents(
    chunks: Iterable[Element],
    *,
    source: str | None = None,
    table_html_max_chars: int = TABLE_HTML_MAX_CHARS,
) -> list[Document]:
    """Return `chunks` (one chunking run, in order) as LangChain Documents: `page_content` the
    chunk's text, `id` its id, `metadata` its flat record metadata in LangChain's words (see
    `record_to_document`); `source`, when given, is every Document's `source`."""
    return [
        record_to_document(record, source=source)
        for record in iter_records(chunks, table_html_max_chars=table_html_max_chars)
    ]


def record_to_document(record: VectorRecord, *, source: str | None = None) -> Document:
    """Return the LangChain Document of a vector-store `record`: its `text` as `page_content`,
    its `id`, and its metadata with `source` first and `element_type` renamed `category`.

    `source` is the path of the record's document: `source` when given, else the record's
    `file_directory` and `filename` joined (its `filename` alone without a directory); absent
    when the record has no `filename` (a text partitioned from a string).
    """
    metadata = record["metadata"]
    path = source if source is not None else _path_of(metadata)
    converted: dict[str, Any] = {"source": path} if path else {}
    for key, value in metadata.items():
        converted["category" if key == "element_type" else key] = value
    return Document(page_content=record["text"], metadata=converted, id=record["id"])


def _path_of(metadata: Mapping[str, Any]) -> str | None:
    filename = metadata.get("filename")
    if not isinstance(filename, str) or not filename:
        return None
    directory = metadata.get("file_directory")
    return os.path.join(directory, filename) if isinstance(directory, str) else filename


def parent_documents(
    parents: Iterable[Element], *, source: str | None = None
) -> dict[str, Document]:
    """Return `parents` (`with_parents(...).parents`) as LangChain Documents keyed by id: the
    mapping `SmallToBigRetriever` looks a child's `parent_id` up in."""
    return {document.id: document for document in chunks_to_documents(parents, source=source)
            if document.id is not None}  # fmt: skip


class SmallToBigRetriever(BaseRetriever):
    """Wraps any retriever: returns the parents of its results, or its results within a budget.

    The wrapped `retriever` is asked as it is (its own k: ask it for enough small chunks, say
    `vector_store.as_retriever(search_kwargs={"k": 20})`). Each result whose `parent_id`
    metadata names a Document of `parents` (`parent_documents`) stands for that parent; any
    other result (no `parent_id`, or `parents` empty) stands for itself. Repeats are dropped,
    rank order kept. Then `k` keeps the first k, and `token_budget` keeps results, in rank order,
    while their `page_content` totals at most that many tokens (`count_tokens`, cl100k_base by
    default); the first is always kept, and taking stops at the first that does not fit. With
    neither, every distinct result is returned.
    """

    retriever: BaseRetriever
    parents: Mapping[str, Document] = {}
    k: int | None = Field(default=None, ge=0)
    token_budget: int | None = Field(default=None, ge=0)
    count_tokens: Callable[[str], int] | None = None

    def _select(self, results: Sequence[Document]) -> list[Document]:
        count = self.count_tokens
        if self.token_budget is not None and count is None:
            from partita.text.sizing._tokenizers import token_counter

            count = token_counter("cl100k_base")
        return take_ranked(
            (self._parent_of(document) for document in results),
            key=_document_key,
            k=self.k,
            budget=self.token_budget,
            size=(lambda d: count(d.page_content)) if count is not None else None,
        )

    def _parent_of(self, document: Document) -> Document:
        parent_id = document.metadata.get(PARENT_ID_KEY)
        if isinstance(parent_id, str):
            return self.parents.get(parent_id, document)
        return document

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        results = self.retriever.invoke(query, config={"callbacks": run_manager.get_child()})
        return self._select(results)

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        results = await self.retriever.ainvoke(query, config={"callbacks": run_manager.get_child()})
        return self._select(results)


def _document_key(document: Document) -> str:
    return document.id if document.id is not None else f"content:{document.page_content}"
