"""Many documents in worker processes, each under a time and a memory limit.

PRINCIPLES

- **One document never ends the batch.** Each document is processed in a worker process; a
  document that raises, takes longer than `timeout` seconds, needs more than `max_memory` bytes,
  or kills its worker (a signal, an exit) becomes a failed `BatchResult` whose `error` says why,
  and the batch goes on with a fresh worker where one was lost.
- **Errors are typed.** A `PartitaError` raised by the task comes back as it was raised (errors
  pickle whole); a timeout is a `DocumentTimeoutError`, a `MemoryError` or an exhausted limit a
  `DocumentMemoryError`, a dead worker a `WorkerCrashError`, and an exception partita did not
  foresee an `InternalError` carrying its type and traceback.
- **Results come in input order**, whatever order the workers finish in, so a batch's output is
  deterministic. Items are read from the iterable only as workers become free.
- **Limits are per document.** The time limit runs from the moment a worker receives the
  document; the parent stops the worker (SIGKILL) when it is exceeded. The memory limit caps the
  worker's address space (`RLIMIT_AS`), so the operating system refuses the allocation that
  would exceed it instead of letting the machine swap; a worker that hit it is replaced.
- **Workers are reused** for document after document (imports and tokenizer tables are paid
  once per worker), and started with the `forkserver` method where the platform has it, so a
  caller's threads are never forked.
- **No workers when none are needed**: with `jobs=1` and neither limit, documents are processed
  in the calling process, with the same typed results.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any, Generic, TypeVar

from partita.elements import Element
from partita.errors import (
    DocumentMemoryError,
    DocumentTimeoutError,
    InternalError,
    PartitaError,
    WorkerCrashError,
)

__all__ = [
    "BatchResult",
    "WorkerPool",
    "default_jobs",
    "iter_partition_results",
    "iter_task_results",
    "parse_memory_size",
]

T = TypeVar("T")
I = TypeVar("I")  # noqa: E741 -- the item type

_POLL_SECONDS = 1.0
"""How long the parent waits at most between looks at the workers when no deadline is near."""


@dataclass(frozen=True, slots=True)
class BatchResult(Generic[T]):
    """The outcome of one document: a value, or the error that stopped it."""

    name: str
    """The document's name (its path, for paths)."""
    value: T | None
    """What the task returned, or None when it failed."""
    error: PartitaError | None
    """Why the document failed, or None when it succeeded."""
    seconds: float
    """Wall time from the document's start to its result."""

    @property
    def ok(self) -> bool:
        """True when the document succeeded."""
        return self.error is None


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
    **options: Any,
) -> Iterator[BatchResult[list[Element]]]:
    """Partition each path (`partita.partition(path, **options)`), yielding results in order.

    `jobs` worker processes (default: the cores available) each take one document at a time;
    `timeout` (seconds) and `max_memory` (bytes) limit each document. See `iter_task_results`.
    """
    from partita.partitioners import partition

    task: Callable[[str | os.PathLike[str]], list[Element]] = functools.partial(
        partition, **options
    )
    return iter_task_results(task, paths, jobs=jobs, timeout=timeout, max_memory=max_memory)


def iter_task_results(
    task: Callable[[I], T],
    items: Iterable[I],
    *,
    jobs: int | None = None,
    timeout: float | None = None,
    max_memory: int | None = None,
    name: Callable[[I], str] | None = None,
) -> Iterator[BatchResult[T]]:
    """Yield `task(item)` for every item as a `BatchResult`, in the items' order.

    `task` and the items must pickle (a module-level function, or a `functools.partial` of one);
    `name(item)` names an item in errors (default: its path or `str`). With `jobs=1` and neither
    limit the items are processed in this process; otherwise in `jobs` worker processes, each
    document under `timeout` seconds and `max_memory` bytes. Raises `ValueError` for a `jobs`
    or `timeout` below 1 or 0.
    """
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if timeout is not None and timeout <= 0:
        raise ValueError(f"timeout must be positive, got {timeout}")
    namer = name or _item_name
    count = jobs or default_jobs()
    if count == 1 and timeout is None and max_memory is None:
        return _iter_in_process(task, items, namer)
    return _iter_and_close(
        WorkerPool(task, jobs=count, timeout=timeout, max_memory=max_memory), items, namer
    )


def _iter_and_close(
    pool: WorkerPool[I, T], items: Iterable[I], namer: Callable[[I], str]
) -> Iterator[BatchResult[T]]:
    try:
        yield from pool.iter_results(items, name=namer)
    finally:
        pool.close()


def _item_name(item: object) -> str:
    if isinstance(item, str | os.PathLike):
        return str(os.fspath(item))
    return str(item)


def _iter_in_process(
    task: Callable[[I], T], items: Iterable[I], namer: Callable[[I], str]
) -> Iterator[BatchResult[T]]:
    for item in items:
        label = namer(item)
        start = time.perf_counter()
        ok, payload = _run_task(task, item, label, None)
        seconds = time.perf_counter() - start
        if ok:
            yield BatchResult(label, payload, None, seconds)
        else:
            yield BatchResult(label, None, payload, seconds)


def _run_task(
    task: Callable[[I], T], item: I, label: str, max_memory: int | None
) -> tuple[bool, Any]:
    """Return (True, value) or (False, a PartitaError): never raise but for BaseException."""
    try:
        return True, task(item)
    except PartitaError as exc:
        return False, exc
    except MemoryError:
        what = (
            "more memory than it could get"
            if max_memory is None
            else (f"more than {_format_bytes(max_memory)}")
        )
        return False, DocumentMemoryError(
            f"needed {what}", filename=label, limit=float(max_memory or 0)
        )
    except Exception as exc:
        return False, InternalError(
            filename=label,
            type_name=type(exc).__name__,
            message=str(exc)[:1000],
            traceback=traceback.format_exc(limit=-20)[-20000:],
        )


def _format_bytes(size: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")  # pragma: no cover


def _worker_main(conn: Connection, task: Callable[[Any], Any], max_memory: int | None) -> None:
    """A worker's life: set the memory limit, then answer (index, item, label) messages."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # -- the parent decides when workers stop --
    if max_memory is not None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (max_memory, max_memory))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, item, label = message
        ok, payload = _run_task(task, item, label, max_memory)
        try:
            conn.send((index, ok, payload))
        except MemoryError:
            payload = DocumentMemoryError(
                "its result did not fit in the memory limit",
                filename=label,
                limit=float(max_memory or 0),
            )
            conn.send((index, False, payload))
            return
        except Exception as exc:  # -- a value that does not pickle: the task's bug --
            conn.send((index, False, _unpicklable(label, exc)))
        if not ok and isinstance(payload, DocumentMemoryError):
            return  # -- a fresh worker for the next document: the heap may be fragmented --


def _is_reusable(result: BatchResult[Any]) -> bool:
    """A worker goes on after a result or an ordinary error; not after a limit or a crash."""
    return not isinstance(
        result.error, DocumentMemoryError | DocumentTimeoutError | WorkerCrashError
    )


def _unpicklable(label: str, exc: Exception) -> InternalError:
    return InternalError(
        filename=label,
        type_name=type(exc).__name__,
        message=f"the result could not be sent back: {exc}"[:1000],
        traceback="",
    )


@dataclass
class _Job:
    index: int
    label: str
    started: float


class _Worker:
    """One worker process and the document it is working on."""

    def __init__(self, context: BaseContext, task: Callable[[Any], Any], max_memory: int | None):
        parent_end, child_end = context.Pipe()
        self.conn = parent_end
        self.process: BaseProcess = context.Process(  # type: ignore[attr-defined]
            target=_worker_main, args=(child_end, task, max_memory), daemon=True
        )
        self.process.start()
        child_end.close()
        self.job: _Job | None = None

    def give(self, job: _Job, item: object) -> None:
        self.job = job
        self.conn.send((job.index, item, job.label))

    def stop(self, *, kill: bool) -> None:
        if kill:
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                self.process.kill()
        self.process.join(5)
        if self.process.is_alive():  # pragma: no cover -- a worker ignoring its stop message
            self.process.kill()
            self.process.join()
        self.conn.close()

    def death_reason(self) -> str:
        self.process.join(1)
        code = self.process.exitcode
        if code is None:
            return "it stopped answering"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit status {code}"


class WorkerPool(Generic[I, T]):
    """Worker processes running `task`, handing items out one at a time and results back in
    input order, under the per-document limits (see `iter_task_results`).

    Unlike `iter_task_results`, a pool outlives one batch: `iter_results` may be called again
    and again (one call at a time) and reuses the workers left idle, so a long-lived process
    (a distributed engine's worker) pays the workers' start and imports once, not per batch.
    `close()` (or leaving a `with` block) stops them. Raises `ValueError` for a `jobs` or
    `timeout` below 1 or 0.
    """

    def __init__(
        self,
        task: Callable[[I], T],
        *,
        jobs: int = 1,
        timeout: float | None = None,
        max_memory: int | None = None,
    ) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {jobs}")
        if timeout is not None and timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout}")
        self._task = task
        self._jobs = jobs
        self._timeout = timeout
        self._max_memory = max_memory
        self._context = _context()
        self._idle: deque[_Worker] = deque()

    def __enter__(self) -> WorkerPool[I, T]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the idle workers (the pool can still be used: it starts new ones)."""
        while self._idle:
            self._idle.popleft().stop(kill=False)

    def iter_results(
        self, items: Iterable[I], *, name: Callable[[I], str] | None = None
    ) -> Iterator[BatchResult[T]]:
        """Yield `task(item)` for every item as a `BatchResult`, in the items' order;
        `name(item)` names an item in errors (default: its path or `str`). Workers left idle
        at the end stay for the next call; a call abandoned midway stops its busy ones."""
        namer = name or _item_name
        source = iter(enumerate(items))
        done: dict[int, BatchResult[Any]] = {}
        idle = self._idle
        busy: list[_Worker] = []
        next_index = 0
        exhausted = False
        try:
            while True:
                # -- hand out documents while there are free (or startable) workers --
                while not exhausted and len(busy) < self._jobs:
                    entry = next(source, None)
                    if entry is None:
                        exhausted = True
                        break
                    index, item = entry
                    busy.append(self._give(idle, _Job(index, namer(item), time.monotonic()), item))
                if not busy:
                    break
                for worker, result in self._collect(busy):
                    busy.remove(worker)
                    assert worker.job is not None
                    done[worker.job.index] = result
                    worker.job = None
                    if _is_reusable(result):
                        idle.append(worker)
                    else:
                        worker.stop(kill=True)
                while next_index in done:
                    yield done.pop(next_index)
                    next_index += 1
            while next_index in done:  # pragma: no cover -- every result is yielded above
                yield done.pop(next_index)
                next_index += 1
        finally:
            for worker in busy:
                worker.stop(kill=True)

    def _give(self, idle: deque[_Worker], job: _Job, item: object) -> _Worker:
        """Hand `item` to an idle worker (one that died idle is replaced) or a new one."""
        while idle:
            worker = idle.popleft()
            try:
                worker.give(job, item)
                return worker
            except OSError:
                worker.stop(kill=True)
        worker = _Worker(self._context, self._task, self._max_memory)
        worker.give(job, item)
        return worker

    def _collect(self, busy: list[_Worker]) -> list[tuple[_Worker, BatchResult[Any]]]:
        """Wait until some worker answers, dies or runs out of time; return those outcomes."""
        now = time.monotonic()
        wait_for = _POLL_SECONDS
        if self._timeout is not None:
            deadlines = [w.job.started + self._timeout for w in busy if w.job is not None]
            wait_for = max(0.0, min([*deadlines, now + _POLL_SECONDS]) - now)
        by_handle: dict[Any, _Worker] = {}
        for worker in busy:
            by_handle[worker.conn] = worker
            by_handle[worker.process.sentinel] = worker
        ready = wait(list(by_handle), timeout=wait_for)
        outcomes: dict[_Worker, BatchResult[Any]] = {}
        now = time.monotonic()
        for handle in ready:
            worker = by_handle[handle]
            if worker in outcomes:
                continue
            outcome = self._answer(worker, now)
            if outcome is not None:
                outcomes[worker] = outcome
        if self._timeout is not None:
            for worker in busy:
                job = worker.job
                if worker in outcomes or job is None:
                    continue
                if now - job.started >= self._timeout:
                    worker.process.kill()
                    error = DocumentTimeoutError(
                        f"took longer than {self._timeout:g} s; its worker was stopped",
                        filename=job.label,
                        limit=self._timeout,
                    )
                    outcomes[worker] = BatchResult(job.label, None, error, now - job.started)
        return list(outcomes.items())

    def _answer(self, worker: _Worker, now: float) -> BatchResult[Any] | None:
        job = worker.job
        assert job is not None
        seconds = now - job.started
        try:
            if worker.conn.poll():
                index, ok, payload = worker.conn.recv()
                assert index == job.index
                if ok:
                    return BatchResult(job.label, payload, None, seconds)
                return BatchResult(job.label, None, payload, seconds)
        except (EOFError, OSError):
            pass
        except MemoryError:
            # -- the result is larger than this process can hold: the worker cannot go on --
            worker.process.kill()
            error = DocumentMemoryError(
                "its result did not fit in the parent's memory",
                filename=job.label,
                limit=float(self._max_memory or 0),
            )
            return BatchResult(job.label, None, error, seconds)
        if worker.process.is_alive():
            return None  # -- woken, but nothing whole to read yet --
        reason = worker.death_reason()
        crash = WorkerCrashError(filename=job.label, reason=reason)
        return BatchResult(job.label, None, crash, seconds)


@functools.cache
def _context() -> BaseContext:
    """The multiprocessing context workers start in: forkserver where available, else spawn."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
