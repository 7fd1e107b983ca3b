"""The per-file work of a distributed job, without an engine: listing, hashing, rows."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from partita.chunking import chunk
from partita.distributed._documents import (
    ROW_FIELDS,
    ChunkJob,
    Row,
    content_hash,
    group_for_tasks,
    is_uri,
    iter_document_rows,
    list_document_sizes,
    list_documents,
    shared_pool,
)
from partita.errors import FileReadError
from partita.partitioners import partition
from partita.serialization.records import iter_records
from tests.shared import require_module

NOTES = "# Notes\n\nThe first paragraph of the notes.\n\n## Details\n\n- one item\n- two items\n"
GUIDE = "Guide\n\nA plain text guide with a paragraph that is long enough to be narrative text.\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """docs/: two documents, one in a subdirectory, plus files a search leaves out."""
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    (root / "notes.md").write_text(NOTES)
    (root / "sub" / "guide.txt").write_text(GUIDE)
    (root / "data.json").write_text("[]")  # -- an elements file: not a document --
    (root / ".hidden.md").write_text("# hidden\n")
    (root / ".cache").mkdir()
    (root / ".cache" / "old.md").write_text("# old\n")
    return root


def test_list_documents_searches_directories_in_sorted_order(tree: Path) -> None:
    assert list_documents(tree) == [str(tree / "notes.md"), str(tree / "sub" / "guide.txt")]
    # -- a file named directly is taken whatever its name --
    assert list_documents([str(tree / "data.json")]) == [str(tree / "data.json")]


def test_list_documents_reads_a_uri_prefix(tree: Path) -> None:
    require_module("pyarrow.fs", extra="distributed")  # -- URIs are read through pyarrow --
    uri = tree.as_uri()
    assert list_documents(uri) == [uri + "/notes.md", uri + "/sub/guide.txt"]
    assert is_uri(uri)
    assert is_uri("s3://bucket/docs")
    assert not is_uri(str(tree))
    assert not is_uri("C://docs")  # -- a drive letter is no scheme --


def test_a_missing_location_is_a_file_read_error(tmp_path: Path) -> None:
    require_module("pyarrow.fs", extra="distributed")  # -- URIs are read through pyarrow --
    with pytest.raises(FileReadError, match="missing"):
        list_documents(tmp_path / "missing")
    with pytest.raises(FileReadError, match="missing"):
        list_documents((tmp_path / "missing").as_uri())


def test_content_hash_is_the_sha256_of_the_bytes(tree: Path) -> None:
    require_module("pyarrow.fs", extra="distributed")  # -- URIs are read through pyarrow --
    path = tree / "notes.md"
    expected = hashlib.sha256(path.read_bytes()).hexdigest()
    assert content_hash(str(path)) == expected
    assert content_hash(path.as_uri()) == expected


def test_rows_are_the_records_of_the_chunks_then_the_document_row(tree: Path) -> None:
    job = ChunkJob("by_title", {"max_characters": 60}, timeout=None, max_memory=None)
    path = str(tree / "notes.md")
    rows = list(iter_document_rows(job, [path]))
    expected = list(iter_records(chunk(partition(path), "by_title", max_characters=60)))
    assert [r["kind"] for r in rows] == ["chunk"] * len(expected) + ["document"]
    assert len(expected) > 1
    for row, record in zip(rows, expected, strict=False):
        assert set(row) == set(ROW_FIELDS)
        assert (row["id"], row["text"]) == (record["id"], record["text"])
        assert json.loads(row["metadata"] or "") == record["metadata"]
        assert row["path"] == path
        assert row["content_hash"] == content_hash(path)
    document = rows[-1]
    assert document["status"] == "ok"
    assert document["chunks"] == len(expected)
    assert document["elements"] == len(partition(path))
    assert document["error_type"] is None


def test_a_uri_is_chunked_from_its_bytes_and_named_by_it(tree: Path) -> None:
    require_module("pyarrow.fs", extra="distributed")  # -- URIs are read through pyarrow --
    job = ChunkJob(timeout=None, max_memory=None)
    uri = (tree / "notes.md").as_uri()
    rows = list(iter_document_rows(job, [uri]))
    assert rows[-1]["status"] == "ok"
    texts = [r["text"] for r in rows if r["kind"] == "chunk"]
    local = [r["text"] for r in iter_document_rows(job, [str(tree / "notes.md")])][:-1]
    assert texts == local
    metadata = json.loads(rows[0]["metadata"] or "")
    assert metadata["filename"] == "notes.md"


def test_a_bad_document_is_a_failed_row_and_the_others_go_on(tree: Path) -> None:
    broken = tree / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\ntruncated")
    missing = str(tree / "gone.md")
    job = ChunkJob(timeout=60, max_memory=None)
    paths = [str(broken), missing, str(tree / "notes.md")]
    rows = list(iter_document_rows(job, paths))
    documents = {r["path"]: r for r in rows if r["kind"] == "document"}
    assert documents[str(broken)]["status"] == "failed"
    assert documents[str(broken)]["error_type"]
    assert documents[str(broken)]["message"]
    assert "broken.pdf" in (documents[str(broken)]["message"] or "")
    assert documents[missing]["status"] == "failed"
    assert documents[missing]["error_type"] == "FileReadError"
    assert documents[missing]["content_hash"] is None
    assert documents[str(tree / "notes.md")]["status"] == "ok"
    assert {r["path"] for r in rows if r["kind"] == "chunk"} == {str(tree / "notes.md")}


def test_a_document_over_its_time_limit_fails_as_a_timeout(tree: Path) -> None:
    # -- 34 MB of paragraphs: about 3 s of work, against a 1.5 s limit --
    slow = tree / "slow.txt"
    slow.write_text(("A paragraph of plain words that goes on for a while. " * 8 + "\n\n") * 80000)
    job = ChunkJob(timeout=1.5, max_memory=None)
    rows = list(iter_document_rows(job, [str(tree / "notes.md"), str(slow)]))
    documents = {r["path"]: r for r in rows if r["kind"] == "document"}
    assert documents[str(slow)]["error_type"] == "DocumentTimeoutError"
    assert documents[str(tree / "notes.md")]["status"] == "ok"


def test_an_unchanged_document_is_hashed_not_chunked(tree: Path) -> None:
    path = str(tree / "notes.md")
    job = ChunkJob(timeout=None, max_memory=None)
    rows = list(iter_document_rows(job, [path], skip={path: content_hash(path)}))
    assert [(r["kind"], r["status"]) for r in rows] == [("document", "unchanged")]
    rows = list(iter_document_rows(job, [path], skip={path: "0" * 64}))
    assert rows[-1]["status"] == "ok"
    assert len(rows) > 1


def test_a_job_validates_its_options_before_any_document() -> None:
    with pytest.raises(ValueError):
        ChunkJob("by_title", {"max_characters": -1})
    with pytest.raises(TypeError):
        ChunkJob("by_title", {"no_such_option": 1})
    with pytest.raises(ValueError, match="unrecognized chunking strategy"):
        ChunkJob("no_such_strategy")
    with pytest.raises(ValueError, match="timeout"):
        ChunkJob(timeout=0)


def test_a_limited_job_keeps_one_worker_pool_per_process(tree: Path) -> None:
    limited = ChunkJob(timeout=60, max_memory=None)
    pool = shared_pool(limited)
    assert pool is not None
    assert shared_pool(ChunkJob(timeout=60, max_memory=None)) is pool  # -- an equal job --
    paths = [str(tree / "notes.md"), str(tree / "sub" / "guide.txt")]
    reused = list(iter_document_rows(limited, paths, reuse_workers=True))
    again = list(iter_document_rows(limited, paths, reuse_workers=True))
    fresh = list(iter_document_rows(limited, paths))

    def comparable(rows: list[Row]) -> list[tuple[object, ...]]:
        return [(r["kind"], r["id"], r["text"], r["metadata"], r["status"]) for r in rows]

    assert comparable(reused) == comparable(again) == comparable(fresh)
    other = shared_pool(ChunkJob("basic", timeout=60, max_memory=None))
    assert other is not None
    assert other is not pool
    assert shared_pool(ChunkJob(timeout=None, max_memory=None)) is None  # -- in this process --
    other.close()


@given(
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=60),
    st.integers(min_value=1, max_value=6),
    st.integers(min_value=1, max_value=20_000),
)
def test_tasks_take_every_document_once_within_their_bounds(
    sizes: list[int], files_per_task: int, bytes_per_task: int
) -> None:
    documents = [(f"doc-{i:03d}", size) for i, size in enumerate(sizes)]
    size_of = dict(documents)
    groups = group_for_tasks(
        documents, files_per_task=files_per_task, bytes_per_task=bytes_per_task
    )
    assert sorted(name for group in groups for name in group) == sorted(size_of)
    for group in groups:
        assert 1 <= len(group) <= files_per_task
        assert len(group) == 1 or sum(size_of[name] for name in group) <= bytes_per_task
    firsts = [size_of[group[0]] for group in groups]
    assert firsts == sorted(firsts, reverse=True)  # -- the largest documents start first --


def test_listing_gives_the_sizes(tree: Path) -> None:
    require_module("pyarrow.fs", extra="distributed")  # -- URIs are read through pyarrow --
    assert list_document_sizes(tree) == [
        (str(tree / "notes.md"), len(NOTES)),
        (str(tree / "sub" / "guide.txt"), len(GUIDE)),
    ]
    assert list_document_sizes(tree.as_uri())[0] == ((tree / "notes.md").as_uri(), len(NOTES))
