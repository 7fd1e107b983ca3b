"""Worker processes that run a task item by item under per-item limits, and survive its failures.

PRINCIPLES

- **One item never takes the caller down.** Each item runs in a worker process; an item that
  raises, takes longer than `timeout` seconds of wall time or `max_cpu` seconds of CPU, needs
  more than `max_memory` bytes, or kills its worker (a signal, an abort inside a C library, an
  exit) becomes a failed `BatchResult` whose `error` says why, and the next item gets a fresh
  worker where one was lost.
- **Errors are typed.** A `PartitaError` raised by the task comes back as it was raised (errors
  pickle whole); a timeout is a `DocumentTimeoutError` (wall or CPU), a `MemoryError` or an
  exhausted limit a `DocumentMemoryError`, a dead worker a `WorkerCrashError`, and an exception
  partita did not foresee an `InternalError` carrying its type and traceback.
- **Limits are per item.** The wall-clock limit runs from the moment a worker receives the item;
  the parent stops the worker (SIGKILL) when it is exceeded. The CPU limit is the kernel's
  (`RLIMIT_CPU`, reset before each item to the CPU used so far plus `max_cpu`): it holds on a
  busy machine, where wall time does not measure the item's work. The memory limit caps the
  worker's address space (`RLIMIT_AS`), so the operating system refuses the allocation that
  would exceed it instead of letting the machine swap. A worker that hit a limit is replaced;
  workers never write core files.
- **Results come in input order**, whatever order the workers finish in. Items are read from the
  iterable only as workers become free.
- **Requests can be sent ahead.** A `WorkerPipe` is one worker answering requests in the order
  they were sent: a caller sends the next before it reads the last answer, so the worker and
  the caller work at the same time (`pipe`).
- **Workers are reused** for item after item (imports are paid once per worker). They start in
  one of two ways (`start`): "forkserver" (the default, where the platform has it; else
  "spawn") forks them from multiprocessing's server, so a caller's threads are never forked;
  "subprocess" runs a new interpreter (`python -c`) that imports only what the task needs, so
  a library can start workers from any caller, even a script without a `__main__` guard,
  which multiprocessing's methods would run again in the worker.
"""

from __future__ import annotations

from partita._workers.pipe import WorkerPipe
from partita._workers.pool import WorkerPool
from partita._workers.process import (
    STARTS,
    BatchResult,
    I,
    T,
    check_limits,
    item_name,
    run_task,
    serve,
)

__all__ = [
    "STARTS",
    "BatchResult",
    "I",
    "T",
    "WorkerPipe",
    "WorkerPool",
    "check_limits",
    "item_name",
    "run_task",
    "serve",
]
