"""The output tables: rows split into chunks, documents and failures; parts written and read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.shared import require_module

pq = require_module("pyarrow.parquet", extra="distributed")

# -- partita.distributed._tables imports pyarrow: the test skips (above) without it --
from partita.distributed._documents import ChunkJob, iter_document_rows  # noqa: E402
from partita.distributed._tables import (  # noqa: E402
    TABLES,
    columns_of,
    iter_table_rows,
    read_documents,
    rows_to_table,
    split_rows,
    write_part,
)


@pytest.fixture
def rows_table(tmp_path: Path) -> object:
    good = tmp_path / "good.md"
    good.write_text("# Title\n\nA paragraph under the title.\n\n## Next\n\nAnother paragraph.\n")
    bad = tmp_path / "bad.docx"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    job = ChunkJob(timeout=None, max_memory=None)
    return rows_to_table(iter_document_rows(job, [str(good), str(bad)]))


def test_rows_split_into_the_three_tables(rows_table: object) -> None:
    parts = split_rows(rows_table)  # type: ignore[arg-type]
    assert {name: tuple(part.column_names) for name, part in parts.items()} == dict(TABLES)
    assert parts["chunks"].num_rows >= 1
    assert parts["documents"].column("status").to_pylist() == ["ok", "failed"]
    failures = parts["failures"].to_pylist()
    assert len(failures) == 1
    assert failures[0]["path"].endswith("bad.docx")
    assert failures[0]["error_type"]
    assert failures[0]["message"]


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_a_part_reads_back_as_written(rows_table: object, tmp_path: Path, fmt: str) -> None:
    parts = split_rows(rows_table)  # type: ignore[arg-type]
    for name, part in parts.items():
        directory = tmp_path / fmt / name
        directory.mkdir(parents=True)
        written = write_part(part, directory, fmt, "part-0")
        assert written.endswith("." + fmt)
        assert [p.name for p in directory.iterdir()] == [Path(written).name]  # -- no temporary --
        back = [columns_of(t, name) for t in iter_table_rows(directory)]
        assert sum(t.num_rows for t in back) == part.num_rows
        assert [r for t in back for r in t.to_pylist()] == part.to_pylist()
    if fmt == "jsonl":
        line = (tmp_path / fmt / "chunks" / "part-0.jsonl").read_text().splitlines()[0]
        assert isinstance(json.loads(line)["metadata"], dict)  # -- an object, not its text --
    else:
        schema = pq.read_schema(tmp_path / fmt / "chunks" / "part-0.parquet")
        assert schema.names == list(TABLES["chunks"])
    assert set(read_documents(tmp_path / fmt)) == {
        r["path"] for r in parts["documents"].to_pylist() if r["status"] == "ok"
    }


def test_rows_are_kept_by_path(rows_table: object, tmp_path: Path) -> None:
    parts = split_rows(rows_table)  # type: ignore[arg-type]
    write_part(parts["chunks"], tmp_path, "parquet", "part-0")
    good = parts["chunks"].column("path")[0].as_py()
    kept = [r for t in iter_table_rows(tmp_path, paths=frozenset({good})) for r in t.to_pylist()]
    assert len(kept) == parts["chunks"].num_rows
    none = [r for t in iter_table_rows(tmp_path, paths=frozenset({"other"})) for r in t.to_pylist()]
    assert none == []
    assert read_documents(tmp_path / "missing") == {}
