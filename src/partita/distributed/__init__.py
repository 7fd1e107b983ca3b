"""Partition and chunk a document collection on a distributed engine: Ray Data.

    >>> from partita.distributed import chunk_dataset, run_chunk_job
    >>> rows = chunk_dataset("s3://bucket/docs", strategy="by_title", max_characters=1000)
    >>> run_chunk_job("docs/", "out/", incremental=True)  # out/chunks, out/documents, out/failures

PRINCIPLES

- **An existing engine, not a home-made pool.** Ray Data schedules the documents over a local
  Ray or a cluster with the same code; the `distributed` extra installs it
  (`pip install "partita[distributed]"`), and nothing else in partita imports it.
- **The per-file work is the batch function** (`partita.batch`) with its time and memory
  limits: a bad document becomes a failure row (path, error type, message) in its own table,
  never a failed job.
- **Records are the vector-store form** plus the document's path and content hash, in Parquet
  (or JSON Lines): the same records the single-process CLI's chunks give.
- **Re-runs skip unchanged documents** by content hash (`incremental`).

Modules: `_documents` (one document to rows, engine-free), `_tables` (the output tables),
`_ray_engine` (the dataset and its sink), `_jobs` (a whole job, incremental re-runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from partita._lazy import lazy_exports
from partita.distributed._documents import (
    ChunkJob,
    Row,
    content_hash,
    iter_document_rows,
    list_documents,
)

if TYPE_CHECKING:
    from partita.distributed._jobs import JobSummary, run_chunk_job
    from partita.distributed._ray_engine import RecordsDatasink, chunk_dataset

__all__ = [
    "ChunkJob",
    "JobSummary",
    "RecordsDatasink",
    "Row",
    "chunk_dataset",
    "content_hash",
    "iter_document_rows",
    "list_documents",
    "run_chunk_job",
]

_LAZY = {
    "JobSummary": "partita.distributed._jobs",
    "run_chunk_job": "partita.distributed._jobs",
    "RecordsDatasink": "partita.distributed._ray_engine",
    "chunk_dataset": "partita.distributed._ray_engine",
}
"""Names whose modules import Ray (or pyarrow): imported on first use."""

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
