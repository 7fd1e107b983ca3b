"""The Ray engine on a local cluster of 2 CPUs: the corpus's records equal the single-process
CLI's, a corrupt file is one failure row, and `--incremental` re-runs skip unchanged files."""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from partita.cli import main
from partita.serialization import elements_from_json
from partita.serialization.records import iter_records
from tests.shared import require_module, shared_corpus

ray = require_module("ray", extra="distributed")
pq = require_module("pyarrow.parquet", extra="distributed")

# -- these modules import Ray and pyarrow: the test skips (above) without them --
from partita.distributed import chunk_dataset, run_chunk_job  # noqa: E402
from partita.distributed._ray_engine import ensure_ray  # noqa: E402
from partita.distributed._tables import columns_of, iter_table_rows  # noqa: E402

Record = tuple[str, str, str, str]
"""(path, id, text, metadata as JSON text)"""


@pytest.fixture(scope="module", autouse=True)
def local_cluster() -> Iterator[None]:
    ensure_ray(num_cpus=2)
    yield
    ray.shutdown()


def table_rows(directory: Path, name: str) -> list[dict[str, Any]]:
    return [r for t in iter_table_rows(directory / name) for r in columns_of(t, name).to_pylist()]


def chunk_records(directory: Path) -> set[Record]:
    rows = table_rows(directory, "chunks")
    found = {(r["path"], r["id"], r["text"], r["metadata"]) for r in rows}
    assert len(found) == len(rows)  # -- no record twice --
    return found


def cli_records(output_dir: Path, corpus: Path) -> set[Record]:
    """The records of the single-process CLI's output files (`a/b.pdf.json` per input)."""
    found: set[Record] = set()
    for file in sorted(output_dir.rglob("*.json")):
        source = corpus / file.relative_to(output_dir).with_suffix("")
        for record in iter_records(elements_from_json(filename=str(file))):
            metadata = orjson.dumps(record["metadata"]).decode()
            found.add((str(source), record["id"], record["text"], metadata))
    return found


def test_the_corpus_gives_the_records_of_the_single_process_cli(tmp_path: Path) -> None:
    corpus = shared_corpus()
    on_ray, local = tmp_path / "ray", tmp_path / "local"
    assert main(["chunk", "--engine", "ray", str(corpus), "--output-dir", str(on_ray), "-q"]) == 0
    assert main(["chunk", str(corpus), "--output-dir", str(local), "-j", "2", "-q"]) == 0
    expected = cli_records(local, corpus)
    assert len(expected) > 1000
    assert chunk_records(on_ray) == expected  # -- order aside --
    documents = table_rows(on_ray, "documents")
    assert len(documents) == len(list(local.rglob("*.json")))
    for row in documents:
        assert row["status"] == "ok"
        digest = hashlib.sha256(Path(row["path"]).read_bytes()).hexdigest()
        assert row["content_hash"] == digest
    assert table_rows(on_ray, "failures") == []


@pytest.fixture
def small_tree(tmp_path: Path) -> Path:
    """Three corpus documents (Markdown, HTML, Word) and a corrupt PDF."""
    corpus = shared_corpus()
    docs = tmp_path / "docs"
    docs.mkdir()
    for pattern in ("*.md", "*.html", "*.docx"):
        source = sorted(corpus.rglob(pattern), key=lambda p: (p.stat().st_size, str(p)))[0]
        shutil.copy(source, docs / source.name)
    (docs / "corrupt.pdf").write_bytes(b"%PDF-1.4\n1 0 obj\n<< /Pages 2 0 R >>\nstream\x00\xff")
    return docs


def test_a_corrupt_file_is_one_failure_and_the_rest_complete(small_tree: Path) -> None:
    out = small_tree.parent / "out"
    summary = run_chunk_job(small_tree, out)
    assert (summary.documents, summary.failed, summary.unchanged) == (4, 1, 0)
    failures = table_rows(out, "failures")
    assert [Path(f["path"]).name for f in failures] == ["corrupt.pdf"]
    assert failures[0]["error_type"]
    assert "corrupt.pdf" in failures[0]["message"]
    chunked = {Path(path).name for path, _, _, _ in chunk_records(out)}
    assert chunked == {p.name for p in small_tree.iterdir()} - {"corrupt.pdf"}
    assert summary.chunks == len(chunk_records(out))
    assert [e for e in os.listdir(out) if e.startswith(".")] == []  # -- no staging left --


def test_incremental_runs_skip_unchanged_files(small_tree: Path) -> None:
    out = small_tree.parent / "out"
    first = run_chunk_job(small_tree, out, incremental=True)
    records = chunk_records(out)
    assert first.unchanged == 0

    again = run_chunk_job(small_tree, out, incremental=True)
    # -- the three good documents are skipped; the failed one is tried again --
    assert (again.unchanged, again.documents, again.failed, again.chunks) == (3, 1, 1, 0)
    assert chunk_records(out) == records
    assert len(table_rows(out, "documents")) == 4

    markdown = next(small_tree.glob("*.md"))
    markdown.write_text(markdown.read_text() + "\n\nA paragraph added since the first run.\n")
    html = next(small_tree.glob("*.html"))
    html.unlink()
    third = run_chunk_job(small_tree, out, incremental=True)
    assert (third.unchanged, third.documents) == (1, 2)
    now = chunk_records(out)
    assert {Path(p).name for p, _, _, _ in now} == {
        markdown.name,
        next(small_tree.glob("*.docx")).name,
    }
    assert any("added since the first run" in text for _, _, text, _ in now)
    docx_path = str(next(small_tree.glob("*.docx")))
    assert {r for r in now if r[0] == docx_path} == {r for r in records if r[0] == docx_path}
    paths = {r["path"] for r in table_rows(out, "documents")}
    assert str(html) not in paths
    assert len(paths) == 3


def test_jsonl_output_holds_the_same_records(small_tree: Path) -> None:
    as_parquet, as_jsonl = small_tree.parent / "pq", small_tree.parent / "jl"
    args = ["chunk", "--engine", "ray", str(small_tree), "-q", "--max-characters", "300"]
    assert main([*args, "--output-dir", str(as_parquet)]) == 1  # -- one document failed --
    assert main([*args, "--output-dir", str(as_jsonl), "--format", "jsonl"]) == 1
    assert sorted(p.suffix for p in (as_jsonl / "chunks").iterdir()) != []
    assert {p.suffix for p in (as_jsonl / "chunks").iterdir()} == {".jsonl"}
    assert chunk_records(as_jsonl) == chunk_records(as_parquet)
    for row in table_rows(as_parquet, "chunks"):
        assert len(row["text"]) <= 300


def test_chunk_dataset_is_a_dataset_of_rows(small_tree: Path) -> None:
    dataset = chunk_dataset(
        str(small_tree), strategy="basic", max_characters=200, task_resources={"num_cpus": 0.5}
    )
    assert isinstance(dataset, ray.data.Dataset)
    rows = dataset.take_all()
    documents = [r for r in rows if r["kind"] == "document"]
    assert sorted(r["status"] for r in documents) == ["failed", "ok", "ok", "ok"]
    chunks = [r for r in rows if r["kind"] == "chunk"]
    assert sum(r["chunks"] or 0 for r in documents) == len(chunks)
    assert all(len(r["text"]) <= 200 for r in chunks)
    assert all(orjson.loads(r["metadata"])["element_type"] for r in chunks)
    assert pq is not None
