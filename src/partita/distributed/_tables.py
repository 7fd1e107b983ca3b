"""The job's output tables: their columns, and how a part of one is written and read back.

An output directory holds three tables, each a directory of part files (Parquet, or JSON
Lines), one part per write task:

- `chunks/`: one row per chunk record: `path`, `content_hash`, `id`, `text`, `metadata`
  (the record's flat metadata: a JSON object text in Parquet, an object in JSON Lines);
- `documents/`: one row per document: `path`, `content_hash`, `status` ("ok" or "failed"),
  `elements`, `chunks`, `seconds`, `error_type`, `message`;
- `failures/`: the failed documents: `path`, `content_hash`, `error_type`, `message`.

Every Parquet part has the table's full schema (a column is null where a row has no value), so
any Parquet reader (pandas, DuckDB, Spark, `ray.data.read_parquet`) reads the directory as one
table.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from partita.distributed._documents import ROW_FIELDS

__all__ = [
    "FORMATS",
    "ROW_SCHEMA",
    "TABLES",
    "columns_of",
    "iter_table_rows",
    "read_documents",
    "rows_to_table",
    "split_rows",
    "table_files",
    "write_part",
]

FORMATS = ("parquet", "jsonl")
"""The output formats."""

_TYPES: Mapping[str, pa.DataType] = {
    "kind": pa.string(),
    "path": pa.string(),
    "content_hash": pa.string(),
    "id": pa.string(),
    "text": pa.string(),
    "metadata": pa.string(),
    "status": pa.string(),
    "elements": pa.int64(),
    "chunks": pa.int64(),
    "seconds": pa.float64(),
    "error_type": pa.string(),
    "message": pa.string(),
}

ROW_SCHEMA = pa.schema([(name, _TYPES[name]) for name in ROW_FIELDS])
"""The schema of the rows a job's workers produce (`_documents.Row`)."""

TABLES: Mapping[str, tuple[str, ...]] = {
    "chunks": ("path", "content_hash", "id", "text", "metadata"),
    "documents": (
        *("path", "content_hash", "status", "elements", "chunks", "seconds"),
        *("error_type", "message"),
    ),
    "failures": ("path", "content_hash", "error_type", "message"),
}
"""Each output table's columns."""

_EXTENSIONS = {"parquet": ".parquet", "jsonl": ".jsonl"}


def rows_to_table(rows: Iterable[Mapping[str, Any]]) -> pa.Table:
    """Return `rows` (`_documents.Row`s) as an Arrow table of `ROW_SCHEMA`."""
    return pa.Table.from_pylist(list(rows), schema=ROW_SCHEMA)


def split_rows(table: pa.Table) -> dict[str, pa.Table]:
    """Split a table of rows into the output tables' rows (`unchanged` documents are in none:
    a job carries their previous rows over)."""
    kind, status = table.column("kind"), table.column("status")
    chunks = table.filter(pc.equal(kind, "chunk"))
    documents = table.filter(pc.and_(pc.equal(kind, "document"), pc.not_equal(status, "unchanged")))
    failures = documents.filter(pc.equal(documents.column("status"), "failed"))
    parts = {"chunks": chunks, "documents": documents, "failures": failures}
    return {name: parts[name].select(list(columns)) for name, columns in TABLES.items()}


def write_part(table: pa.Table, directory: str | os.PathLike[str], fmt: str, stem: str) -> str:
    """Write `table` as one part file `stem.<ext>` in `directory` (written to a temporary name
    and renamed, so a reader never sees half a part); return its path."""
    target = Path(directory) / f"{stem}{_EXTENSIONS[fmt]}"
    temporary = target.with_name(f".{target.name}.{uuid.uuid4().hex}")
    if fmt == "parquet":
        pq.write_table(table, temporary)
    else:
        with open(temporary, "wb") as out:
            for row in table.to_pylist():
                out.write(_jsonl_line(row))
    os.replace(temporary, target)
    return str(target)


def _jsonl_line(row: dict[str, Any]) -> bytes:
    metadata = row.get("metadata")
    if isinstance(metadata, str):
        row = {**row, "metadata": orjson.Fragment(metadata)}
    return orjson.dumps(row) + b"\n"


def table_files(directory: str | os.PathLike[str]) -> list[str]:
    """The part files of a table directory, sorted (none when it does not exist)."""
    if not os.path.isdir(directory):
        return []
    return sorted(
        str(Path(directory) / name)
        for name in os.listdir(directory)
        if not name.startswith(".") and name.endswith(tuple(_EXTENSIONS.values()))
    )


def iter_table_rows(
    directory: str | os.PathLike[str], *, paths: frozenset[str] | None = None
) -> Iterator[pa.Table]:
    """Generate a table directory's rows as Arrow tables, part by part (Parquet read in
    batches; JSON Lines line by line, `metadata` back to JSON text), only those whose `path` is
    in `paths` when given."""
    wanted = None if paths is None else pa.array(sorted(paths), pa.string())
    for file in table_files(directory):
        if file.endswith(".parquet"):
            for batch in pq.ParquetFile(file).iter_batches(batch_size=4096):
                yield _kept(pa.Table.from_batches([batch]), wanted)
        else:
            yield _kept(_read_jsonl(file), wanted)


def _read_jsonl(file: str) -> pa.Table:
    rows = []
    with open(file, "rb") as lines:
        for line in lines:
            row = orjson.loads(line)
            if isinstance(row.get("metadata"), dict):
                row["metadata"] = orjson.dumps(row["metadata"]).decode()
            rows.append(row)
    return pa.Table.from_pylist(rows)


def _kept(table: pa.Table, wanted: pa.Array | None) -> pa.Table:
    if wanted is None or table.num_rows == 0:
        return table
    return table.filter(pc.is_in(table.column("path"), value_set=wanted))


def read_documents(directory: str | os.PathLike[str]) -> dict[str, str]:
    """Return {path: content_hash} of the documents a previous job chunked successfully (its
    `documents/` table under `directory`); {} when there is none."""
    recorded: dict[str, str] = {}
    for table in iter_table_rows(Path(directory) / "documents"):
        for row in table.select(["path", "content_hash", "status"]).to_pylist():
            if row["status"] == "ok" and row["content_hash"]:
                recorded[row["path"]] = row["content_hash"]
    return recorded


def columns_of(table: pa.Table, name: str) -> pa.Table:
    """`table` (rows of output table `name`, read back) cast to the table's columns and types."""
    columns: Sequence[str] = TABLES[name]
    arrays = [
        table.column(c).cast(_TYPES[c])
        if c in table.column_names
        else pa.nulls(table.num_rows, _TYPES[c])
        for c in columns
    ]
    return pa.Table.from_arrays(arrays, names=list(columns))
