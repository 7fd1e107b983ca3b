"""One worker answering requests in order, several of them sent ahead (see the package's
PRINCIPLES).

A `WorkerPool` hands a worker one item and waits for its answer; a caller reading a document
page by page would then leave the worker idle while it works on each page itself. A
`WorkerPipe` lets it send the next request before it reads the answer to the last one, so the
worker reads page n + 1 while the caller assembles page n. Each request gets a ticket;
`result(ticket)` reads answers in order until that ticket's, keeping the others for their
callers (several threads may share a pipe). When the worker dies, the oldest unanswered request
is the one it died on: it gets the error (as in a pool), and the requests sent after it go to a
fresh worker, in order, as if nothing had happened.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable
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
    is_reusable,
)

__all__ = ["WorkerPipe"]


class WorkerPipe(Generic[I, T]):
    """One worker running `task` on requests in the order they are sent, under the per-request
    limits of a `WorkerPool` (`timeout` counts from when the request before it was answered).
    Thread-safe. Raises `ValueError` for a `timeout` or `max_cpu` not above 0 or an unknown
    `start`."""

    def __init__(
        self,
        task: Callable[[I], T],
        *,
        timeout: float | None = None,
        max_memory: int | None = None,
        max_cpu: float | None = None,
        start: str = "forkserver",
    ) -> None:
        self._spec = WorkerSpec(task, timeout, max_memory, max_cpu, start)
        self._lock = threading.RLock()
        self._worker: Worker | None = None
        self._sent: deque[tuple[Job, Any]] = deque()
        """Requests sent to the worker and not yet answered, oldest first, with their items."""
        self._answered: dict[int, BatchResult[T]] = {}
        self._dropped: set[int] = set()
        self._tickets = 0

    def send(self, item: I, name: str) -> int:
        """Send `item` (named `name` in errors) to the worker; return its ticket."""
        with self._lock:
            self._tickets += 1
            job = Job(self._tickets, name, time.monotonic())
            self._sent.append((job, item))
            if self._worker is None:
                self._deliver_pending()
            else:
                self._give(job, item)
            return job.index

    def result(self, ticket: int) -> BatchResult[T]:
        """The result of the request `ticket` (waiting for it: the requests sent before it are
        answered first)."""
        with self._lock:
            while ticket not in self._answered:
                self._next_answer()
            return self._answered.pop(ticket)

    def run(self, item: I, name: str) -> BatchResult[T]:
        """`task(item)` in the worker: `result(send(item, name))`."""
        return self.result(self.send(item, name))

    def drop(self, ticket: int) -> None:
        """Forget request `ticket`: its answer, when it comes, is thrown away."""
        with self._lock:
            if self._answered.pop(ticket, None) is None:
                self._dropped.add(ticket)

    def __enter__(self) -> WorkerPipe[I, T]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the worker (answering what was sent first); the pipe starts a new one if used."""
        with self._lock:
            while self._sent:
                self._next_answer()
            self._answered.clear()
            self._dropped.clear()
            if self._worker is not None:
                self._worker.stop(kill=False)
                self._worker = None

    def abandon(self) -> None:
        """Forget the worker without stopping it (for a forked child: see `WorkerPool`)."""
        with self._lock:
            self._worker = None
            self._sent.clear()
            self._answered.clear()

    def _give(self, job: Job, item: Any) -> None:
        assert self._worker is not None
        # -- a worker gone already: `_next_answer` sees it and sends the request again --
        with contextlib.suppress(OSError):
            self._worker.conn.send((job.index, item, job.label))

    def _deliver_pending(self) -> None:
        """Start a worker, and send it every unanswered request, oldest first."""
        self._worker = self._spec.new_worker()
        for job, item in self._sent:
            self._give(job, item)

    def _next_answer(self) -> None:
        """Wait for the oldest request's answer (or its worker's death) and record it."""
        job, _ = self._sent[0]
        if self._worker is None:
            self._deliver_pending()
        worker = self._worker
        assert worker is not None
        worker.job = job
        while True:
            now = time.monotonic()
            wait_for = POLL_SECONDS
            if self._spec.timeout is not None:
                wait_for = max(0.0, min(job.started + self._spec.timeout - now, POLL_SECONDS))
            handles: list[Any] = [worker.conn]
            if worker.process.sentinel >= 0:
                handles.append(worker.process.sentinel)
            wait(handles, timeout=wait_for)
            now = time.monotonic()
            outcome = self._spec.outcome(worker, now) or self._spec.timed_out(worker, now)
            if outcome is not None:
                break
        worker.job = None
        self._sent.popleft()
        if job.index in self._dropped:
            self._dropped.discard(job.index)
        else:
            self._answered[job.index] = outcome
        if self._sent:
            following, _ = self._sent[0]
            self._sent[0] = (Job(following.index, following.label, now), self._sent[0][1])
        if not is_reusable(outcome):
            worker.stop(kill=True)
            self._worker = None
            if self._sent:
                self._deliver_pending()
