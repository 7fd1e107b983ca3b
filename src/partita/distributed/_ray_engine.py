"""Chunking a document collection on Ray Data: a dataset of rows, and a sink for its tables.

PRINCIPLES

- **Ray Data does the scheduling.** The documents' locations are a dataset; each map task
  takes `files_per_task` of them and runs the per-file work of `_documents.iter_document_rows`
  (the batch function, with its time and memory limits, in a worker process of its own), and
  the rows stream to the sink as tasks finish. Nothing is collected on the driver but the
  locations and each write task's counts.
- **One pass, three tables.** `RecordsDatasink` writes each block's rows to `chunks/`,
  `documents/` and `failures/` (`_tables`); a part is written under a temporary name and
  renamed, so a reader never sees half of one.
- **The same code on a laptop and a cluster.** Without a running Ray, `ray.init()` starts a
  local one (or joins `RAY_ADDRESS`); on a cluster, call `ray.init(address=...)` first.
"""

from __future__ import annotations

import functools
import os
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import ray
import ray.data
from ray.data import Datasink
from ray.data.block import Block, BlockAccessor
from ray.data.datasource.datasink import WriteResult

from partita.distributed._documents import (
    ChunkJob,
    group_for_tasks,
    iter_document_rows,
    list_document_sizes,
)
from partita.distributed._tables import FORMATS, TABLES, rows_to_table, split_rows, write_part

__all__ = ["RecordsDatasink", "WriteCounts", "chunk_dataset", "ensure_ray", "rows_of_batch"]

FILES_PER_TASK = 4
"""Documents per map task at most, by default: a task's start-up is shared by a few small
documents, and a small collection still spreads over the workers."""

BYTES_PER_TASK = 4 * 1024**2
"""The bytes of documents one map task takes at most (a larger document is a task alone)."""


def ensure_ray(address: str | None = None, *, num_cpus: int | None = None) -> None:
    """Start or join Ray unless it is running: `address` names a cluster ("auto", or
    "ray://host:10001"); without one a local Ray starts with `num_cpus` CPUs (default: all)."""
    if ray.is_initialized():
        return
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if address is not None:
        options["address"] = address
    elif num_cpus is not None:
        options["num_cpus"] = num_cpus
    ray.init(**options)
    ray.data.DataContext.get_current().enable_progress_bars = False


def chunk_dataset(
    paths_or_uri: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    strategy: str = "by_title",
    timeout: float | None = 600.0,
    max_memory: int | None = 4 * 1024**3,
    skip: Mapping[str, str] | None = None,
    files_per_task: int = FILES_PER_TASK,
    bytes_per_task: int = BYTES_PER_TASK,
    task_resources: Mapping[str, Any] | None = None,
    **options: Any,
) -> ray.data.Dataset:
    """Return the rows of the documents `paths_or_uri` names, as a lazy Ray dataset.

    `paths_or_uri` is a file, a directory or a URI prefix (`s3://bucket/docs`), or a list of
    them (`_documents.list_documents`). Each map task takes up to `files_per_task` documents and
    `bytes_per_task` bytes of them, largest documents first (`_documents.group_for_tasks`).
    Each document is chunked by `strategy` with `options` (validated here, before any document
    is read) under `timeout` seconds and `max_memory` bytes.

    A row (`_documents.Row`) is a chunk record (`kind` "chunk": `id`, `text`, `metadata` as
    JSON text, `path`, `content_hash`) or a document's outcome (`kind` "document": `status`
    "ok", "failed" with `error_type` and `message`, or "unchanged" when its hash equals
    `skip[path]`). `task_resources` are Ray's resource arguments of each map task
    (`{"num_cpus": 1, "memory": 4 * 2**30}`: what the scheduler reserves for it; default one
    CPU). Starts a local Ray when none is running.
    """
    if files_per_task < 1:
        raise ValueError(f"files_per_task must be at least 1, got {files_per_task}")
    if bytes_per_task < 1:
        raise ValueError(f"bytes_per_task must be at least 1, got {bytes_per_task}")
    job = ChunkJob(strategy, dict(options), timeout, max_memory)
    groups = group_for_tasks(
        list_document_sizes(paths_or_uri),
        files_per_task=files_per_task,
        bytes_per_task=bytes_per_task,
    )
    ensure_ray()
    items = ray.data.from_items(
        [{"paths": group} for group in groups], override_num_blocks=max(1, len(groups))
    )
    task = functools.partial(rows_of_batch, job=job, skip=ray.put(dict(skip or {})))
    return items.map_batches(
        task,
        batch_size=1,
        batch_format="pyarrow",
        zero_copy_batch=True,
        **dict(task_resources or {}),
    )


def rows_of_batch(batch: pa.Table, *, job: ChunkJob, skip: ray.ObjectRef[Any]) -> pa.Table:
    """The map task: the rows of a group of locations (`_documents.iter_document_rows`);
    `skip` is the object holding {path: content hash} of the unchanged documents."""
    locations = [str(path) for group in batch.column("paths").to_pylist() for path in group]
    rows = iter_document_rows(job, locations, skip=_skip_map(skip) or None, reuse_workers=True)
    return rows_to_table(rows)


_SKIP_MAPS: dict[str, Mapping[str, str]] = {}
"""The skip maps this worker process has fetched, by object id: one fetch per job, not per task."""


def _skip_map(ref: ray.ObjectRef[Any]) -> Mapping[str, str]:
    key = ref.hex()
    found = _SKIP_MAPS.get(key)
    if found is None:
        _SKIP_MAPS.clear()
        found = _SKIP_MAPS[key] = ray.get(ref)
    return found


@dataclass(frozen=True, slots=True)
class WriteCounts:
    """What one write task wrote, or a whole job's sum."""

    documents: int = 0
    failed: int = 0
    chunks: int = 0
    unchanged: tuple[str, ...] = ()
    """The paths of the documents found unchanged (not written: the job carries them over)."""


class RecordsDatasink(Datasink[WriteCounts]):
    """Writes rows to the `chunks/`, `documents/` and `failures/` tables under `directory`."""

    def __init__(self, directory: str | os.PathLike[str], fmt: str = "parquet") -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown output format {fmt!r}; known: {', '.join(FORMATS)}")
        self.directory = str(directory)
        self.fmt = fmt
        self.counts = WriteCounts()
        self._run = uuid.uuid4().hex[:12]

    def on_write_start(self, schema: pa.Schema | None = None) -> None:
        for name in TABLES:
            Path(self.directory, name).mkdir(parents=True, exist_ok=True)

    def write(self, blocks: Iterable[Block], ctx: Any) -> WriteCounts:
        tables = [BlockAccessor.for_block(block).to_arrow() for block in blocks]
        tables = [table for table in tables if table.num_rows]
        if not tables:
            return WriteCounts()
        rows = pa.concat_tables(tables)
        unchanged = rows.filter(
            pa.compute.and_(
                pa.compute.equal(rows.column("kind"), "document"),
                pa.compute.equal(rows.column("status"), "unchanged"),
            )
        )
        parts = split_rows(rows)
        stem = f"part-{self._run}-{getattr(ctx, 'task_idx', 0):06d}"
        for name, part in parts.items():
            Path(self.directory, name).mkdir(parents=True, exist_ok=True)
            if part.num_rows:
                write_part(part, Path(self.directory, name), self.fmt, stem)
        return WriteCounts(
            parts["documents"].num_rows,
            parts["failures"].num_rows,
            parts["chunks"].num_rows,
            tuple(unchanged.column("path").to_pylist()),
        )

    def on_write_complete(self, write_result: WriteResult[WriteCounts]) -> None:
        returns = write_result.write_returns
        self.counts = WriteCounts(
            sum(counts.documents for counts in returns),
            sum(counts.failed for counts in returns),
            sum(counts.chunks for counts in returns),
            tuple(path for counts in returns for path in counts.unchanged),
        )
