"""A whole job: documents in, the three tables out, re-runs skipping what did not change.

PRINCIPLES

- **The output directory is replaced whole, at the end.** A job writes its tables into a
  staging directory inside the output directory and swaps each table in only once every
  document is done: an interrupted job leaves the previous output as it was.
- **`incremental` re-runs skip unchanged documents.** A document whose content hash equals the
  one the previous output's `documents/` table recorded for its path (and that succeeded then)
  is hashed, not chunked; its previous chunk and document rows are carried over. A document
  that failed before is tried again; one no longer among the inputs drops out.
- **A bad document never fails the job**: it is a row in `failures/` (and `documents/`).
"""

from __future__ import annotations

import os
import shutil
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from partita.distributed._tables import (
    TABLES,
    columns_of,
    iter_table_rows,
    read_documents,
    write_part,
)

__all__ = ["JobSummary", "run_chunk_job"]


@dataclass(frozen=True, slots=True)
class JobSummary:
    """What a job did."""

    documents: int
    """Documents chunked in this run (ok or failed)."""
    failed: int
    chunks: int
    """Chunk records written in this run (carried-over ones not counted)."""
    unchanged: int
    """Documents skipped as unchanged (their rows carried over)."""
    seconds: float

    def summary(self) -> str:
        """One line for people."""
        return (
            f"partita chunk (ray): {self.documents} documents, {self.chunks} chunks,"
            f" {self.failed} failed, {self.unchanged} unchanged, {self.seconds:.1f} s"
        )


def run_chunk_job(
    paths_or_uri: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    output_dir: str | os.PathLike[str],
    *,
    fmt: str = "parquet",
    incremental: bool = False,
    **dataset_options: Any,
) -> JobSummary:
    """Chunk the documents `paths_or_uri` names on Ray and write the tables (`tables`) under
    `output_dir`, in `fmt` ("parquet" or "jsonl"). `dataset_options` go to
    `_ray_engine.chunk_dataset` (strategy, chunking options, limits, `files_per_task`).
    With `incremental`, documents unchanged since the output's previous job are carried over."""
    from partita.distributed._ray_engine import RecordsDatasink, chunk_dataset

    start = time.perf_counter()
    output = Path(output_dir)
    output.mkdir(parents=True, exist_ok=True)
    previous = read_documents(output) if incremental else {}
    staging = output / f".partita-staging-{uuid.uuid4().hex[:12]}"
    try:
        dataset = chunk_dataset(paths_or_uri, skip=previous, **dataset_options)
        sink = RecordsDatasink(staging, fmt)
        dataset.write_datasink(sink)
        counts = sink.counts
        for name in TABLES:
            (staging / name).mkdir(parents=True, exist_ok=True)
        if counts.unchanged:
            _carry_over(output, staging, frozenset(counts.unchanged), fmt)
        _swap_in(staging, output)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return JobSummary(
        counts.documents,
        counts.failed,
        counts.chunks,
        len(counts.unchanged),
        time.perf_counter() - start,
    )


def _carry_over(output: Path, staging: Path, paths: frozenset[str], fmt: str) -> None:
    """Copy the previous chunk and document rows of `paths` into the staging tables."""
    for name in ("chunks", "documents"):
        for index, table in enumerate(iter_table_rows(output / name, paths=paths)):
            if table.num_rows:
                write_part(columns_of(table, name), staging / name, fmt, f"carried-{index:06d}")


def _swap_in(staging: Path, output: Path) -> None:
    """Replace each table of `output` by the staging one."""
    retired = staging / ".retired"
    retired.mkdir()
    for name in TABLES:
        current = output / name
        if current.exists():
            os.replace(current, retired / name)
        os.replace(staging / name, current)
