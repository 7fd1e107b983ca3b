"""Many documents in worker processes, each under a time and a memory limit.

PRINCIPLES

- **One document never ends the batch.** Each document is processed in a worker process
  (`partita._workers`); a document that raises, takes longer than `timeout` seconds (or
  `max_cpu` seconds of CPU), needs more than `max_memory` bytes, or kills its worker (a signal,
  an exit) becomes a failed `BatchResult` whose `error` says why, and the batch goes on with a
  fresh worker where one was lost.
- **Errors are typed.** A `PartitaError` raised by the task comes back as it was raised (errors
  pickle whole); a timeout is a `DocumentTimeoutError`, a `MemoryError` or an exhausted limit a
  `DocumentMemoryError`, a dead worker a `WorkerCrashError`, and an exception partita did not
  foresee an `InternalError` carrying its type and traceback.
- **Results come in input order**, whatever order the workers finish in, so a batch's output is
  deterministic. Items are read from the iterable only as workers become free.
- **Limits are per document.** The time limit runs from the moment a worker receives the
  document; the parent stops the worker (SIGKILL) when it is exceeded. The CPU limit is the
  kernel's (`RLIMIT_CPU`), so it holds on a busy machine. The memory limit caps the worker's
  address space (`RLIMIT_AS`), so the operating system refuses the allocation that would exceed
  it instead of letting the machine swap; a worker that hit a limit is replaced.
- **Workers are reused** for document after document (imports and tokenizer tables are paid
  once per worker), and started with the `forkserver` method where the platform has it, so a
  caller's threads are never forked.
- **No workers when none are needed**: with `jobs=1` and no limit, documents are processed in
  the calling process, with the same typed results.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from partita._workers import BatchResult, I, T, WorkerPool, check_limits, item_name, run_task
from partita.elements import Element

__all__ = [
    "BatchResult",
    "WorkerPool",
    "default_jobs",
    "iter_partition_results",
    "iter_task_results",
    "parse_memory_size",
]


def default_jobs() -> int:
    """Return the number of cores this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover -- platforms without sched_getaffinity
        return max(1, os.cpu_count() or 1)


def parse_memory_size(text: str) -> int:
    """Return a size such as "3G", "512MiB", "1.5GB" or "1000000" in bytes (suffixes binary).

    Raises `ValueError` for anything else, or a size under 64 MiB (no Python process fits).
    """
    cleaned = text.strip().upper().removesuffix("B").removesuffix("I")
    factor = 1
    for suffix, power in (("K", 1), ("M", 2), ("G", 3), ("T", 4)):
        if cleaned.endswith(suffix):
            cleaned, factor = cleaned[:-1], 1024**power
            break
    try:
        size = int(float(cleaned) * factor)
    except ValueError:
        raise ValueError(f"not a memory size: {text!r} (write e.g. 3G or 512M)") from None
    if size < 64 * 1024**2:
        raise ValueError(f"memory size {text!r} is below the 64 MiB a worker needs")
    return size


def iter_partition_results(
    paths: Iterable[str | os.PathLike[str]],
    *,
    jobs: int | None = None,
    timeout: float | None = None,
    max_memory: int | None = None,
    max_cpu: float | None = None,
    **options: Any,
) -> Iterator[BatchResult[list[Element]]]:
    """Partition each path (`partita.partition(path, **options)`), yielding results in order.

    `jobs` worker processes (default: the cores available) each take one document at a time;
    `timeout` (seconds), `max_memory` (bytes) and `max_cpu` (seconds of CPU) limit each
    document. See `iter_task_results`.
    """
    from partita.partitioners import partition

    task: Callable[[str | os.PathLike[str]], list[Element]] = functools.partial(
        partition, **options
    )
    return iter_task_results(
        task, paths, jobs=jobs, timeout=timeout, max_memory=max_memory, max_cpu=max_cpu
    )


def iter_task_results(
    task: Callable[[I], T],
    items: Iterable[I],
    *,
    jobs: int | None = None,
    timeout: float | None = None,
    max_memory: int | None = None,
    max_cpu: float | None = None,
    name: Callable[[I], str] | None = None,
) -> Iterator[BatchResult[T]]:
    """Yield `task(item)` for every item as a `BatchResult`, in the items' order.

    `task` and the items must pickle (a module-level function, or a `functools.partial` of one);
    `name(item)` names an item in errors (default: its path or `str`). With `jobs=1` and no
    limit the items are processed in this process; otherwise in `jobs` worker processes, each
    document under `timeout` seconds (wall time), `max_cpu` seconds of CPU and `max_memory`
    bytes. Raises `ValueError` for a `jobs` below 1, or a `timeout` or `max_cpu` not above 0.
    """
    check_limits(jobs=jobs, timeout=timeout, max_cpu=max_cpu)
    namer = name or item_name
    count = jobs or default_jobs()
    if count == 1 and timeout is None and max_memory is None and max_cpu is None:
        return _iter_in_process(task, items, namer)
    pool = WorkerPool(task, jobs=count, timeout=timeout, max_memory=max_memory, max_cpu=max_cpu)
    return _iter_and_close(pool, items, namer)


def _iter_and_close(
    pool: WorkerPool[I, T], items: Iterable[I], namer: Callable[[I], str]
) -> Iterator[BatchResult[T]]:
    try:
        yield from pool.iter_results(items, name=namer)
    finally:
        pool.close()


def _iter_in_process(
    task: Callable[[I], T], items: Iterable[I], namer: Callable[[I], str]
) -> Iterator[BatchResult[T]]:
    for item in items:
        label = namer(item)
        start = time.perf_counter()
        ok, payload = run_task(task, item, label, None)
        seconds = time.perf_counter() - start
        if ok:
            yield BatchResult(label, payload, None, seconds)
        else:
            yield BatchResult(label, None, payload, seconds)
