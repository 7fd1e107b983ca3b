"""One worker process: how it starts, lives under its limits, and what its death means.

See the package's PRINCIPLES. A `Worker` is started by multiprocessing ("forkserver") or as a new
interpreter ("subprocess", `serve`); it answers (index, item, label) messages in order with
(index, ok, value or error), and `Worker.outcome` turns what the parent sees (an answer, or the
process gone) into a `BatchResult`.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import os
import resource
import signal
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from typing import IO, Any, Generic, Protocol, TypeVar

from partita.errors import (
    DocumentMemoryError,
    DocumentTimeoutError,
    InternalError,
    PartitaError,
    WorkerCrashError,
)

__all__ = [
    "POLL_SECONDS",
    "STARTS",
    "BatchResult",
    "Job",
    "Worker",
    "WorkerSpec",
    "check_limits",
    "is_reusable",
    "item_name",
    "run_task",
    "serve",
]

T = TypeVar("T")
"""A task's result type (the workers' type variables, shared by the pool, the pipe and
`partita.batch`)."""
I = TypeVar("I")  # noqa: E741 -- the item type

STARTS = ("forkserver", "subprocess")
"""How a pool's workers start (see the PRINCIPLES)."""

POLL_SECONDS = 1.0
"""How long the parent waits at most between looks at the workers when no deadline is near."""

_STDERR_TAIL = 400
"""Characters of a dead subprocess worker's last standard error output quoted in its error."""


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


def check_limits(
    *,
    jobs: int | None = None,
    timeout: float | None = None,
    max_cpu: float | None = None,
    start: str = "forkserver",
) -> None:
    """Raise `ValueError` for a `jobs` below 1, a `timeout` or `max_cpu` not above 0, or a
    `start` not among `STARTS`."""
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if timeout is not None and timeout <= 0:
        raise ValueError(f"timeout must be positive, got {timeout}")
    if max_cpu is not None and max_cpu <= 0:
        raise ValueError(f"max_cpu must be positive, got {max_cpu}")
    if start not in STARTS:
        raise ValueError(f"unknown worker start {start!r}: choose one of {', '.join(STARTS)}")


def run_task(
    task: Callable[[I], T], item: I, label: str, max_memory: int | None
) -> tuple[bool, Any]:
    """Return (True, `task(item)`) or (False, a PartitaError naming `label`): never raise but
    for BaseException."""
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


def _worker_main(
    conn: Connection, task: Callable[[Any], Any], max_memory: int | None, max_cpu: float | None
) -> None:
    """A worker's life: set the limits, then answer (index, item, label) messages."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # -- the parent decides when workers stop --
    _, core_hard = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (0, core_hard))  # -- an abort writes no core --
    if max_memory is not None:
        resource.setrlimit(resource.RLIMIT_AS, (max_memory, max_memory))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, item, label = message
        if max_cpu is not None:
            _limit_cpu(max_cpu)
        ok, payload = run_task(task, item, label, max_memory)
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


def _limit_cpu(seconds: float) -> None:
    """Let this process use `seconds` more of CPU: the kernel sends SIGXCPU (which ends it)
    once it has used more than it has so far plus `seconds`, rounded up to a whole second."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    soft = math.ceil(usage.ru_utime + usage.ru_stime + seconds)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def is_reusable(result: BatchResult[Any]) -> bool:
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
class Job:
    index: int
    label: str
    started: float


class _Process(Protocol):
    """What the pool needs of a worker process (multiprocessing's or `_Subprocess`)."""

    @property
    def sentinel(self) -> int: ...

    @property
    def exitcode(self) -> int | None: ...

    def kill(self) -> None: ...

    def join(self, timeout: float | None = None) -> None: ...

    def is_alive(self) -> bool: ...


class _Subprocess:
    """A worker run as a new interpreter: `python -c` serving the pool over an inherited
    socket, with its standard error kept in a temporary file (for the reason of a crash)."""

    def __init__(self, child_end: Connection) -> None:
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 -- lives with the process
        fd = child_end.fileno()
        try:
            self._popen = subprocess.Popen(
                [sys.executable, "-c", "from partita._workers import serve; serve()", str(fd)],
                pass_fds=(fd,),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self._stderr,
                env=_subprocess_environment(),
            )
        except BaseException:
            self._stderr.close()
            raise
        self._pidfd = os.pidfd_open(self._popen.pid) if hasattr(os, "pidfd_open") else -1

    @property
    def sentinel(self) -> int:
        """A descriptor that becomes readable when the process ends (Linux: a pidfd)."""
        return self._pidfd

    @property
    def exitcode(self) -> int | None:
        return self._popen.poll()

    def kill(self) -> None:
        if self._popen.poll() is None:
            self._popen.kill()

    def join(self, timeout: float | None = None) -> None:
        try:
            self._popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return

    def is_alive(self) -> bool:
        return self._popen.poll() is None

    def stderr_tail(self) -> str:
        """The end of what the process wrote to its standard error."""
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - 4 * _STDERR_TAIL))
            text = self._stderr.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        return " ".join(text.split())[-_STDERR_TAIL:]

    def release(self) -> None:
        """Close the process's descriptor and standard error file (once it has ended)."""
        if self._pidfd >= 0:
            os.close(self._pidfd)
            self._pidfd = -1
        self._stderr.close()


def _subprocess_environment() -> dict[str, str]:
    """The caller's environment, with its import path, so the worker imports what it does."""
    env = dict(os.environ)
    paths = [os.path.abspath(p) if p else os.getcwd() for p in sys.path]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    return env


def serve() -> None:
    """A subprocess worker's entry point: `sys.argv[1]` is the socket to the pool; the first
    message is (task, max_memory, max_cpu)."""
    conn = Connection(int(sys.argv[1]))
    try:
        task, max_memory, max_cpu = conn.recv()
    except (EOFError, OSError):
        return
    _worker_main(conn, task, max_memory, max_cpu)


class Worker:
    """One worker process and the item it is working on."""

    def __init__(
        self,
        start: str,
        task: Callable[[Any], Any],
        max_memory: int | None,
        max_cpu: float | None,
    ):
        self.process: _Process
        if start == "subprocess":
            parent_end, child_end = multiprocessing.Pipe()
            try:
                self.process = _Subprocess(child_end)
            except BaseException:
                parent_end.close()
                raise
            finally:
                child_end.close()
            parent_end.send((task, max_memory, max_cpu))
        else:
            context = _context()
            parent_end, child_end = context.Pipe()
            self.process = context.Process(  # type: ignore[attr-defined]
                target=_worker_main, args=(child_end, task, max_memory, max_cpu), daemon=True
            )
            self.process.start()  # type: ignore[attr-defined]
            child_end.close()
        self.conn = parent_end
        self.job: Job | None = None

    def give(self, job: Job, item: object) -> None:
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
        if isinstance(self.process, _Subprocess):
            self.process.release()

    def death_reason(self) -> tuple[str, int | None]:
        """Why the process ended, and the signal that ended it (None for an exit)."""
        self.process.join(1)
        code = self.process.exitcode
        if code is None:
            return "it stopped answering", None
        if code < 0:
            try:
                reason = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                reason = f"killed by signal {-code}"
        else:
            reason = f"exit status {code}"
        if isinstance(self.process, _Subprocess):
            said = self.process.stderr_tail()
            reason += f" ({said})" if said else ""
        return reason, -code if code < 0 else None

    def outcome(
        self, now: float, max_memory: int | None, max_cpu: float | None
    ) -> BatchResult[Any] | None:
        """The result of the job in hand once whole, or the error of the worker's death; None
        while it is still at work."""
        worker = self
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
                limit=float(max_memory or 0),
            )
            return BatchResult(job.label, None, error, seconds)
        if worker.process.is_alive():
            return None  # -- woken, but nothing whole to read yet --
        reason, signal_number = worker.death_reason()
        if signal_number == signal.SIGXCPU and max_cpu is not None:
            cpu_error = DocumentTimeoutError(
                f"used more than {max_cpu:g} s of CPU; its worker was stopped",
                filename=job.label,
                limit=max_cpu,
            )
            return BatchResult(job.label, None, cpu_error, seconds)
        crash = WorkerCrashError(filename=job.label, reason=reason)
        return BatchResult(job.label, None, crash, seconds)


def item_name(item: object) -> str:
    """An item's name in errors: its path, or its `str`."""
    if isinstance(item, str | os.PathLike):
        return str(os.fspath(item))
    return str(item)


@functools.cache
def _context() -> BaseContext:
    """The multiprocessing context workers start in: forkserver where available, else spawn."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


@dataclass(frozen=True, slots=True)
class WorkerSpec:
    """What a worker runs and under which limits: `task`, a job's wall time `timeout` (seconds),
    `max_memory` (bytes), `max_cpu` (seconds of CPU), and how it starts, `start` (one of
    `STARTS`). Raises `ValueError` for a `timeout` or `max_cpu` not above 0 or an unknown
    `start`."""

    task: Callable[[Any], Any]
    timeout: float | None
    max_memory: int | None
    max_cpu: float | None
    start: str

    def __post_init__(self) -> None:
        check_limits(timeout=self.timeout, max_cpu=self.max_cpu, start=self.start)

    def new_worker(self) -> Worker:
        """Start a worker running `task` under these limits."""
        return Worker(self.start, self.task, self.max_memory, self.max_cpu)

    def outcome(self, worker: Worker, now: float) -> BatchResult[Any] | None:
        """`worker.outcome(now)` under these limits: its job's result, or its death's error."""
        return worker.outcome(now, self.max_memory, self.max_cpu)

    def timed_out(self, worker: Worker, now: float) -> BatchResult[Any] | None:
        """The timeout error of `worker`'s job once it has run `timeout` seconds, the worker
        killed; None before, for an idle worker, or without a timeout."""
        job = worker.job
        if self.timeout is None or job is None or now - job.started < self.timeout:
            return None
        worker.process.kill()
        error = DocumentTimeoutError(
            f"took longer than {self.timeout:g} s; its worker was stopped",
            filename=job.label,
            limit=self.timeout,
        )
        return BatchResult(job.label, None, error, now - job.started)
