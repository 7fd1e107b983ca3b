"""Workers handing items out one at a time and results back in input order (see the package's
PRINCIPLES)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import wait
from typing import Any, Generic

from partita._workers.process import (
    POLL_SECONDS,
    BatchResult,
    I,
    Job,
    T,
    Worker,
    WorkerSpec,
    check_limits,
    is_reusable,
    item_name,
)

__all__ = ["WorkerPool"]


class WorkerPool(Generic[I, T]):
    """Worker processes running `task`, handing items out one at a time and results back in
    input order, under the per-item limits (see the PRINCIPLES).

    A pool outlives one batch: `iter_results` may be called again and again (one call at a
    time) and reuses the workers left idle, so a long-lived process pays the workers' start and
    imports once. `close()` (or leaving a `with` block) stops them. `start` is one of `STARTS`.
    Raises `ValueError` for a `jobs` below 1, a `timeout` or `max_cpu` not above 0, or an
    unknown `start`.
    """

    def __init__(
        self,
        task: Callable[[I], T],
        *,
        jobs: int = 1,
        timeout: float | None = None,
        max_memory: int | None = None,
        max_cpu: float | None = None,
        start: str = "forkserver",
    ) -> None:
        check_limits(jobs=jobs)
        self._spec = WorkerSpec(task, timeout, max_memory, max_cpu, start)
        self._jobs = jobs
        self._idle: deque[Worker] = deque()

    def __enter__(self) -> WorkerPool[I, T]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the idle workers (the pool can still be used: it starts new ones)."""
        while self._idle:
            self._idle.popleft().stop(kill=False)

    def abandon(self) -> None:
        """Forget the workers without stopping them: for a forked child, whose copies of the
        parent's connections must not be used (the parent's workers are the parent's)."""
        self._idle.clear()

    def iter_results(
        self, items: Iterable[I], *, name: Callable[[I], str] | None = None
    ) -> Iterator[BatchResult[T]]:
        """Yield `task(item)` for every item as a `BatchResult`, in the items' order;
        `name(item)` names an item in errors (default: its path or `str`). Workers left idle
        at the end stay for the next call; a call abandoned midway stops its busy ones."""
        namer = name or item_name
        source = iter(enumerate(items))
        done: dict[int, BatchResult[Any]] = {}
        idle = self._idle
        busy: list[Worker] = []
        next_index = 0
        exhausted = False
        try:
            while True:
                # -- hand out items while there are free (or startable) workers --
                while not exhausted and len(busy) < self._jobs:
                    entry = next(source, None)
                    if entry is None:
                        exhausted = True
                        break
                    index, item = entry
                    busy.append(self._give(idle, Job(index, namer(item), time.monotonic()), item))
                if not busy:
                    break
                for worker, result in self._collect(busy):
                    busy.remove(worker)
                    assert worker.job is not None
                    done[worker.job.index] = result
                    worker.job = None
                    if is_reusable(result):
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

    def run(self, item: I, name: str) -> BatchResult[T]:
        """`task(item)` in a worker, as the one result of `iter_results([item])`."""
        return next(iter(self.iter_results([item], name=lambda _: name)))

    def _give(self, idle: deque[Worker], job: Job, item: object) -> Worker:
        """Hand `item` to an idle worker (one that died idle is replaced) or a new one."""
        while idle:
            worker = idle.popleft()
            try:
                worker.give(job, item)
                return worker
            except OSError:
                worker.stop(kill=True)
        worker = self._spec.new_worker()
        worker.give(job, item)
        return worker

    def _collect(self, busy: list[Worker]) -> list[tuple[Worker, BatchResult[Any]]]:
        """Wait until some worker answers, dies or runs out of time; return those outcomes."""
        now = time.monotonic()
        wait_for = POLL_SECONDS
        timeout = self._spec.timeout
        if timeout is not None:
            deadlines = [w.job.started + timeout for w in busy if w.job is not None]
            wait_for = max(0.0, min([*deadlines, now + POLL_SECONDS]) - now)
        by_handle: dict[Any, Worker] = {}
        for worker in busy:
            by_handle[worker.conn] = worker
            if worker.process.sentinel >= 0:
                by_handle[worker.process.sentinel] = worker
        ready = wait(list(by_handle), timeout=wait_for)
        outcomes: dict[Worker, BatchResult[Any]] = {}
        now = time.monotonic()
        for handle in ready:
            worker = by_handle[handle]
            if worker in outcomes:
                continue
            outcome = self._spec.outcome(worker, now)
            if outcome is not None:
                outcomes[worker] = outcome
        for worker in busy:
            if worker not in outcomes:
                timed_out = self._spec.timed_out(worker, now)
                if timed_out is not None:
                    outcomes[worker] = timed_out
        return list(outcomes.items())
