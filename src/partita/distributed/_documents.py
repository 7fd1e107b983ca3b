"""One document to rows: the per-file work of a distributed job, without the engine.

A distributed job hands each worker a few document locations; this module turns them into
rows, the same way whatever engine runs it (`_ray_engine` is the one built). Nothing here
imports an engine, so it is tested on its own.

PRINCIPLES

- **The per-file work is the batch function's.** Documents are chunked by
  `partita.batch.iter_task_results` with its time and memory limits: a document that raises,
  hangs, needs too much memory or kills its worker becomes a failed `document` row (its path,
  the error's type and message), never a failed job.
- **Records are the vector-store form** (`partita.serialization.records`): `id`, `text` and the
  flat scalar metadata (as a JSON object, one schema for every strategy), plus the document's
  `path` and `content_hash`. A local document is chunked from its path, as the single-process
  CLI does, so both give the same records.
- **Every document gets one `document` row**: `ok` (with its element and chunk counts),
  `failed` (with the error), or `unchanged` when its content hash equals the one a previous run
  recorded (`skip`): an unchanged document is hashed, never partitioned.
- **Workers are started once per engine process.** A limited job's worker process is kept
  from batch to batch (`shared_pool`), so a document costs its own work, not a process start
  and partita's imports.
- **Bounded.** A document is hashed in 1 MiB reads (a huge file never sits in the engine's
  worker); only the limited batch worker reads it whole.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypedDict

import orjson

from partita.batch import BatchResult, WorkerPool, iter_task_results
from partita.errors import FileReadError
from partita.partitioners._detect import READABLE_EXTENSIONS
from partita.partitioners._files import iter_directory_files
from partita.serialization.records import VectorRecord, iter_records

__all__ = [
    "ROW_FIELDS",
    "ChunkJob",
    "ChunkedDocument",
    "Row",
    "chunk_document",
    "content_hash",
    "group_for_tasks",
    "is_uri",
    "iter_document_rows",
    "list_document_sizes",
    "list_documents",
    "open_document",
    "shared_pool",
]

_READ_BYTES = 1024**2
"""How much of a document one read takes while hashing."""


class Row(TypedDict):
    """One output row: a chunk record (`kind` "chunk") or a document's outcome ("document")."""

    kind: str
    path: str
    content_hash: str | None
    id: str | None
    text: str | None
    metadata: str | None
    status: str | None
    elements: int | None
    chunks: int | None
    seconds: float | None
    error_type: str | None
    message: str | None


ROW_FIELDS: tuple[str, ...] = tuple(Row.__annotations__)
"""The columns of a row, in order."""


@dataclass(frozen=True, slots=True)
class ChunkJob:
    """What every document of a job is given: the chunking and the per-document limits.

    Construction validates the options against the strategy (a `TypeError` or `ValueError`
    before any document is read).
    """

    strategy: str = "by_title"
    """The chunking strategy's registered name."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The strategy's options, as `partita.chunking.chunk` takes them."""
    timeout: float | None = 600.0
    """Seconds one document may take (None: no limit)."""
    max_memory: int | None = 4 * 1024**3
    """Bytes one document's worker may use (None: no limit)."""

    def __post_init__(self) -> None:
        from partita.chunking._registry import strategy_named

        strategy_named(self.strategy).validated(**self.options)
        if self.timeout is not None and self.timeout <= 0:
            raise ValueError(f"timeout must be positive, got {self.timeout}")


@dataclass(frozen=True, slots=True)
class ChunkedDocument:
    """What the limited worker sends back for one document."""

    records: list[VectorRecord]
    element_count: int


def is_uri(location: str) -> bool:
    """True when `location` names a file system by a scheme (`s3://...`, `file:///...`)."""
    scheme, sep, _ = location.partition("://")
    return bool(sep) and scheme.isalnum() and len(scheme) > 1


def list_documents(
    paths_or_uri: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
) -> list[str]:
    """Return the documents named: files as they are, directories (local or under a URI, such
    as `s3://bucket/prefix`) searched recursively in sorted order for the files whose format
    partita reads (`READABLE_EXTENSIONS`), hidden files and directories left out: a local
    directory as every partita command searches it (`partitioners._files`).

    Raises `FileReadError` for a location that does not exist.
    """
    return [location for location, _ in list_document_sizes(paths_or_uri)]


def list_document_sizes(
    paths_or_uri: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
) -> list[tuple[str, int]]:
    """`list_documents` with each document's size in bytes (from the listing itself for a URI
    prefix: no request per document)."""
    given = [paths_or_uri] if isinstance(paths_or_uri, str | os.PathLike) else paths_or_uri
    found: list[tuple[str, int]] = []
    for item in given:
        location = os.fspath(item)
        if is_uri(location):
            found.extend(_list_uri(location))
        elif os.path.isdir(location):
            found.extend(_list_directory(Path(location)))
        elif os.path.exists(location):
            found.append((location, os.path.getsize(location)))
        else:
            raise FileReadError(f"cannot read {location}: no such file or directory")
    return found


def group_for_tasks(
    documents: Iterable[tuple[str, int]], *, files_per_task: int, bytes_per_task: int
) -> list[list[str]]:
    """Return the documents' locations grouped into tasks, largest documents first: a group
    closes at `files_per_task` documents or before its bytes pass `bytes_per_task`, so a large
    document is a task of its own and starts first (the longest tasks do not end the job on
    one worker), and small ones share a task's start-up."""
    groups: list[list[str]] = []
    current: list[str] = []
    size_of_current = 0
    for location, size in sorted(documents, key=lambda item: (-item[1], item[0])):
        if current and (len(current) >= files_per_task or size_of_current + size > bytes_per_task):
            groups.append(current)
            current, size_of_current = [], 0
        current.append(location)
        size_of_current += size
    if current:
        groups.append(current)
    return groups


def _list_directory(root: Path) -> Iterator[tuple[str, int]]:
    for path, _ in iter_directory_files(root):
        yield str(path), os.path.getsize(path)


def _list_uri(uri: str) -> list[tuple[str, int]]:
    from pyarrow import fs

    filesystem, root = fs.FileSystem.from_uri(uri)
    scheme = uri.partition("://")[0]
    info = filesystem.get_file_info(root)
    if info.type == fs.FileType.NotFound:
        raise FileReadError(f"cannot read {uri}: no such file or directory")
    if info.type == fs.FileType.File:
        return [(uri, int(info.size))]
    selector = fs.FileSelector(root, recursive=True)
    entries = sorted(
        (entry.path, int(entry.size))
        for entry in filesystem.get_file_info(selector)
        if entry.type == fs.FileType.File
        and _is_readable(entry.base_name)
        and not any(part.startswith(".") for part in entry.path[len(root) :].split("/"))
    )
    prefix = "file://" if scheme == "file" else f"{scheme}://"
    return [(prefix + name, size) for name, size in entries]


def _is_readable(name: str) -> bool:
    return os.path.splitext(name)[1].lower() in READABLE_EXTENSIONS


def open_document(location: str) -> IO[bytes]:
    """Open a document (a local path or a URI) for reading bytes. Raises `FileReadError`."""
    try:
        if is_uri(location):
            from pyarrow import fs

            filesystem, path = fs.FileSystem.from_uri(location)
            stream: IO[bytes] = filesystem.open_input_stream(path)
            return stream
        return open(location, "rb")
    except (OSError, ValueError) as exc:
        raise FileReadError(f"cannot read {location}: {exc}") from exc


def content_hash(location: str) -> str:
    """Return the SHA-256 of a document's bytes, in hex, read 1 MiB at a time.
    Raises `FileReadError`."""
    digest = hashlib.sha256()
    with open_document(location) as stream:
        try:
            while chunk := stream.read(_READ_BYTES):
                digest.update(chunk)
        except OSError as exc:
            raise FileReadError(f"cannot read {location}: {exc}") from exc
    return digest.hexdigest()


def chunk_document(job: ChunkJob, location: str) -> ChunkedDocument:
    """Partition and chunk one document into its records: a local path as the CLI does (from
    the path, so `filename`, `file_directory` and `last_modified` are the file's), a URI from
    its bytes, named by the URI."""
    from partita.chunking import chunk
    from partita.partitioners import partition

    if is_uri(location):
        with open_document(location) as stream:
            data = stream.read()
        elements = partition(file=io.BytesIO(data), metadata_filename=location)
    else:
        elements = partition(location)
    chunks = chunk(elements, job.strategy, **job.options)
    return ChunkedDocument(list(iter_records(chunks)), len(elements))


def iter_document_rows(
    job: ChunkJob,
    locations: Iterable[str],
    *,
    skip: Mapping[str, str] | None = None,
    reuse_workers: bool = False,
) -> Iterator[Row]:
    """Generate the rows of `locations`, in order: each document's chunk records, then its
    `document` row. A document whose content hash equals `skip[location]` is `unchanged` and
    not chunked. Never raises for a document: its failure is its `document` row.

    With `reuse_workers`, a limited job's worker process outlives the call (`shared_pool`):
    what a long-lived engine worker wants, batch after batch."""
    todo: list[tuple[str, str]] = []
    for location in locations:
        try:
            digest = content_hash(location)
        except FileReadError as exc:
            yield _document_row(location, None, "failed", error=exc)
            continue
        if skip is not None and skip.get(location) == digest:
            yield _document_row(location, digest, "unchanged")
        else:
            todo.append((location, digest))
    paths = [location for location, _ in todo]
    pool = shared_pool(job) if reuse_workers else None
    if pool is None:
        task = functools.partial(chunk_document, job)
        results = iter_task_results(
            task, paths, jobs=1, timeout=job.timeout, max_memory=job.max_memory
        )
    else:
        results = pool.iter_results(paths)
    for (location, digest), result in zip(todo, results, strict=True):
        yield from _rows_of(location, digest, result)


_SHARED: list[tuple[ChunkJob, WorkerPool[str, ChunkedDocument]]] = []
"""This process's pool and the job it runs (one at a time)."""


def shared_pool(job: ChunkJob) -> WorkerPool[str, ChunkedDocument] | None:
    """This process's worker pool for `job` (one worker, the job's limits), kept from call to
    call so its worker starts and imports once; None for a job without limits (documents are
    then chunked in this process). A pool for another job is closed first."""
    if job.timeout is None and job.max_memory is None:
        return None
    if _SHARED and _SHARED[0][0] == job:
        return _SHARED[0][1]
    while _SHARED:
        _SHARED.pop()[1].close()
    task = functools.partial(chunk_document, job)
    pool = WorkerPool(task, jobs=1, timeout=job.timeout, max_memory=job.max_memory)
    _SHARED.append((job, pool))
    return pool


def _rows_of(location: str, digest: str, result: BatchResult[ChunkedDocument]) -> Iterator[Row]:
    done = result.value
    if done is None:
        yield _document_row(location, digest, "failed", error=result.error, seconds=result.seconds)
        return
    for record in done.records:
        yield {
            **_EMPTY_ROW,
            "kind": "chunk",
            "path": location,
            "content_hash": digest,
            "id": record["id"],
            "text": record["text"],
            "metadata": orjson.dumps(record["metadata"]).decode(),
        }
    yield _document_row(
        location,
        digest,
        "ok",
        elements=done.element_count,
        chunks=len(done.records),
        seconds=result.seconds,
    )


_EMPTY_ROW: Row = dict.fromkeys(ROW_FIELDS)  # type: ignore[assignment]


def _document_row(
    location: str,
    digest: str | None,
    status: str,
    *,
    error: Exception | None = None,
    elements: int | None = None,
    chunks: int | None = None,
    seconds: float | None = None,
) -> Row:
    return {
        **_EMPTY_ROW,
        "kind": "document",
        "path": location,
        "content_hash": digest,
        "status": status,
        "elements": elements,
        "chunks": chunks,
        "seconds": seconds,
        "error_type": None if error is None else type(error).__name__,
        "message": None if error is None else str(error),
    }
