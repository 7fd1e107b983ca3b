"""One robustness trial, and how its outcome is classified.

A trial is what a user's pipeline does with a file: read it (partition a document, or read an
elements JSON / JSON Lines file back), write the elements as JSON and read them again, chunk
them, and write the chunks as JSON. It runs in a worker process of `partita.batch` under a CPU-time
limit (`MAX_CPU`, so a trial is not failed because another job shares the cores), a memory
limit, and a generous wall-clock backstop (`TIMEOUT`, for a trial that waits rather than
computes). The contract it checks: every trial ends in a result or a typed error
(`partita.errors`); a crash (an untyped exception, a dead worker), a timeout (CPU or wall) or an
exhausted memory limit is a failure.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from partita.batch import BatchResult, iter_task_results
from partita.errors import (
    DocumentMemoryError,
    DocumentTimeoutError,
    InternalError,
    WorkerCrashError,
)

__all__ = [
    "MAX_CPU",
    "MAX_MEMORY",
    "OUTCOMES",
    "TIMEOUT",
    "Trial",
    "TrialSummary",
    "classify",
    "iter_trial_results",
    "run_trial",
]

MAX_CPU = 20.0
"""CPU seconds a trial's worker may use: the contract's bound (RLIMIT_CPU in the worker)."""
TIMEOUT = 120.0
"""Wall-clock seconds after which a trial is stopped anyway: a backstop, not the contract's
bound (a trial computing under `MAX_CPU` finishes well before it, even on shared cores)."""
MAX_MEMORY = 3 * 1024**3
"""Bytes of address space a trial's worker may use: the contract's bound."""

OUTCOMES = ("ok", "typed error", "crash", "timeout", "memory")
"""The ways a trial can end; only the first two keep the contract."""


@dataclass(frozen=True)
class Trial:
    """A file to try and how to chunk what it gives; pickles to the worker."""

    path: str
    format: str
    """The format the file was made as ("pdf", "docx", "html", "md", "text", "json")."""
    chunking: Mapping[str, Any]
    """Options for `partita.chunking.chunk`, with "chunking_strategy" (default by_title)."""


@dataclass(frozen=True)
class TrialSummary:
    """What a successful trial produced (kept small: it travels back from the worker)."""

    elements: int
    chunks: int
    json_chars: int
    chunks_json_chars: int


def run_trial(trial: Trial) -> TrialSummary:
    """Read, export, re-read, chunk and export `trial.path`; raise whatever partita raises.

    JSON that reads back as different JSON is a bug (an `AssertionError`, so a crash).
    """
    import partita
    from partita.chunking import chunk

    warnings.simplefilter("ignore")  # -- warnings are results, not failures --
    logging.disable(logging.WARNING)  # -- pdfminer logs what it repairs --
    path = trial.path
    if path.endswith(".jsonl"):
        elements = list(partita.iter_elements_from_jsonl(path))
    elif path.endswith(".json"):
        elements = partita.elements_from_json(filename=path)
    else:
        elements = partita.partition(path)
    json_text = partita.elements_to_json(elements)
    if partita.elements_to_json(partita.elements_from_json(text=json_text)) != json_text:
        raise AssertionError("the elements' JSON changed in a round trip")
    options = dict(trial.chunking)
    strategy = options.pop("chunking_strategy", "by_title")
    chunks = chunk(elements, strategy, **options)
    chunks_json = partita.elements_to_json(chunks)
    return TrialSummary(len(elements), len(chunks), len(json_text), len(chunks_json))


def classify(result: BatchResult[Any]) -> str:
    """Return which of `OUTCOMES` a trial's result is."""
    error = result.error
    if error is None:
        return "ok"
    if isinstance(error, DocumentTimeoutError):
        return "timeout"  # -- over the CPU limit or the wall-clock backstop --
    if isinstance(error, DocumentMemoryError):
        return "memory"
    if isinstance(error, InternalError | WorkerCrashError):
        return "crash"
    return "typed error"


def iter_trial_results(
    trials: Iterable[Trial],
    *,
    jobs: int | None = None,
    timeout: float = TIMEOUT,
    max_cpu: float = MAX_CPU,
    max_memory: int = MAX_MEMORY,
) -> Iterator[tuple[Trial, BatchResult[TrialSummary]]]:
    """Run every trial in worker processes under the limits (`timeout` wall seconds, `max_cpu`
    CPU seconds, `max_memory` bytes); yield each with its result, in the trials' order."""
    pending: list[Trial] = []

    def recorded() -> Iterator[Trial]:
        for trial in trials:
            pending.append(trial)
            yield trial

    results = iter_task_results(
        run_trial,
        recorded(),
        jobs=jobs,
        timeout=timeout,
        max_cpu=max_cpu,
        max_memory=max_memory,
        name=lambda trial: trial.path,
    )
    for result in results:
        yield pending.pop(0), result
