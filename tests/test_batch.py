"""Batches in worker processes: limits per document, typed failures, results in input order."""

from __future__ import annotations

import ctypes
import os
import signal
import time
from pathlib import Path

import pytest

import partita
from partita.batch import (
    BatchResult,
    WorkerPool,
    iter_partition_results,
    iter_task_results,
    parse_memory_size,
)
from partita.errors import (
    DocumentError,
    DocumentMemoryError,
    DocumentTimeoutError,
    FileReadError,
    InternalError,
    WorkerCrashError,
)

# -- tasks run in the workers: module-level, so they pickle by reference --


def misbehave(item: str) -> str:
    """Do what `item` says: a small result, or one of the ways a document goes wrong."""
    kind, _, arg = item.partition(":")
    if kind == "sleep":
        time.sleep(float(arg))
    elif kind == "hog":
        chunks = []
        while True:  # -- grows until the memory limit refuses an allocation --
            chunks.append(bytearray(64 * 1024 * 1024))
    elif kind == "segfault":
        ctypes.string_at(0)
    elif kind == "exit":
        os._exit(int(arg))
    elif kind == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif kind == "bug":
        raise KeyError(arg)
    elif kind == "typed":
        raise DocumentError("it is broken", filename=arg)
    elif kind == "pid":
        return str(os.getpid())
    return item.upper()


LIMITS = {"jobs": 2, "timeout": 5.0, "max_memory": 512 * 1024**2}


def _errors(results: list[BatchResult[str]]) -> list[type | None]:
    return [None if r.error is None else type(r.error) for r in results]


def test_every_failure_is_typed_and_the_batch_goes_on() -> None:
    items = [
        "a",
        "bug:x",
        "b",
        "typed:doc.pdf",
        "hog:",
        "c",
        "segfault:",
        "exit:3",
        "kill:",
        "sleep:60",
        "d",
    ]
    results = list(iter_task_results(misbehave, items, **LIMITS))  # type: ignore[arg-type]
    assert [r.name for r in results] == items
    assert _errors(results) == [
        None,
        InternalError,
        None,
        DocumentError,
        DocumentMemoryError,
        None,
        WorkerCrashError,
        WorkerCrashError,
        WorkerCrashError,
        DocumentTimeoutError,
        None,
    ]
    assert [r.value for r in results if r.ok] == ["A", "B", "C", "D"]
    bug = results[1].error
    assert isinstance(bug, InternalError)
    assert bug.type_name == "KeyError"
    assert "misbehave" in bug.traceback
    assert str(results[3].error) == "doc.pdf: it is broken"
    assert "512.0 MiB" in str(results[4].error)
    assert "killed by SIGSEGV" in str(results[6].error)
    assert "exit status 3" in str(results[7].error)
    assert "killed by SIGKILL" in str(results[8].error)
    timeout = results[9].error
    assert isinstance(timeout, DocumentTimeoutError)
    assert timeout.limit == 5.0
    assert timeout.filename == "sleep:60"
    assert 5.0 <= results[9].seconds < 30


def test_results_come_in_input_order_and_workers_are_reused() -> None:
    items = ["sleep:1.5", *(f"pid:{i}" for i in range(8))]
    results = list(iter_task_results(misbehave, items, jobs=2, timeout=30))
    assert [r.name for r in results] == items
    pids = {r.value for r in results[1:]}
    assert all(r.ok for r in results)
    assert len(pids) <= 2  # -- two workers served nine documents --
    assert str(os.getpid()) not in pids


def test_one_job_without_limits_runs_in_this_process() -> None:
    results = list(iter_task_results(misbehave, ["pid:", "bug:y", "typed:t.docx"], jobs=1))
    assert results[0].value == str(os.getpid())
    assert _errors(results) == [None, InternalError, DocumentError]


def test_items_are_read_only_as_workers_free_up() -> None:
    taken: list[str] = []

    def items() -> object:
        for name in ("a", "b", "c", "d"):
            taken.append(name)
            yield name

    results = iter_task_results(misbehave, items(), jobs=1, timeout=30)  # type: ignore[arg-type]
    first = next(results)
    assert first.value == "A"
    assert len(taken) <= 2
    results.close()  # -- stops the workers --


def test_partition_results(fixtures_dir: Path, tmp_path: Path) -> None:
    missing = tmp_path / "missing.docx"
    paths = [fixtures_dir / "sample.txt", missing, fixtures_dir / "sample.docx"]
    results = list(iter_partition_results(paths, jobs=2, timeout=60))
    assert [r.name for r in results] == [str(p) for p in paths]
    assert results[0].value == partita.partition(fixtures_dir / "sample.txt")
    assert isinstance(results[1].error, FileReadError)
    assert results[2].value == partita.partition(fixtures_dir / "sample.docx")


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("3G", 3 * 1024**3),
        ("512MiB", 512 * 1024**2),
        ("1.5gb", 3 * 1024**3 // 2),
        ("100000000", 10**8),
    ],
)
def test_parse_memory_size(text: str, size: int) -> None:
    assert parse_memory_size(text) == size


@pytest.mark.parametrize("text", ["lots", "1M", "-3G", ""])
def test_parse_memory_size_refuses(text: str) -> None:
    with pytest.raises(ValueError, match="memory size"):
        parse_memory_size(text)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="jobs"):
        iter_task_results(misbehave, ["a"], jobs=0)
    with pytest.raises(ValueError, match="timeout"):
        iter_task_results(misbehave, ["a"], timeout=0)
    with pytest.raises(ValueError, match="max_cpu"):
        iter_task_results(misbehave, ["a"], max_cpu=-1)


def test_a_cpu_limit_alone_runs_in_workers() -> None:
    results = list(iter_task_results(misbehave, ["pid"], jobs=1, max_cpu=5.0))
    assert results[0].value != str(os.getpid())


def test_a_pool_reuses_its_workers_from_batch_to_batch() -> None:
    with WorkerPool(misbehave, jobs=1, timeout=5.0) as pool:
        first = [r.value for r in pool.iter_results(["pid", "pid"])]
        second = [r.value for r in pool.iter_results(["pid"])]
        assert len(set(first + second)) == 1  # -- one worker for both batches --
        worker = int(second[0] or 0)
        # -- a limit replaces the worker; the next batch gets a fresh one --
        results = list(pool.iter_results(["sleep:30", "pid"]))
        assert _errors(results) == [DocumentTimeoutError, None]
        assert int(results[1].value or 0) != worker
    with pytest.raises(ProcessLookupError):  # -- close() stopped (and reaped) the idle worker --
        os.kill(int(results[1].value or 0), 0)


def test_a_pool_validates_its_limits() -> None:
    with pytest.raises(ValueError, match="jobs"):
        WorkerPool(misbehave, jobs=0)
    with pytest.raises(ValueError, match="timeout"):
        WorkerPool(misbehave, timeout=0)
