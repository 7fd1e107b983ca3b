"""Running the reference library (`unstructured`) and partita on the same input, comparably."""

from __future__ import annotations

import gc
import json
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from unstructured.chunking.basic import chunk_elements as reference_chunk_elements
from unstructured.chunking.title import chunk_by_title as reference_chunk_by_title
from unstructured.staging import base as reference_staging

import partita
from partita.chunking import chunk_by_title, chunk_elements
from partita.elements import Element
from partita.serialization import element_to_dict
from tests.payloads import decoded_dict

__all__ = [
    "LIMIT_SECONDS",
    "UNCHECKED",
    "ReferenceHang",
    "UncheckedCases",
    "comparable",
    "run_both",
    "table_id_groups",
]

# -- the fields that differ on purpose: partita's ids are deterministic, the reference's random,
# -- and partita adds `section_path` --
_OWN_ID_FIELDS = ("table_id", "section_path")


class ReferenceHang(Exception):
    """The reference did not finish within its CPU-time limit."""


class UncheckedCases:
    """Per mode ("character", "token"): how many differential cases ran, and how many went
    unchecked because the reference ran over its CPU-time limit. None may: the session fails on
    the first (`over_ceiling`); the generated sizes are bounded where the reference is slow.
    partita's behaviour on inputs too large for the reference is tested by the partita-only
    properties (`test_properties.py`, `hostile_streams`) and `test_hostile_chunking.py`."""

    MINIMUM: dict[str, int] = {"character": 1200, "token": 500}  # noqa: RUF012
    """The cases a full run of the differential suite checks per mode, at least."""

    def __init__(self) -> None:
        self.counts: dict[str, list[int]] = {}
        """Per mode: cases run, cases timed out."""

    def record(self, mode: str, *, timed_out: bool) -> None:
        counts = self.counts.setdefault(mode, [0, 0])
        counts[0] += 1
        counts[1] += timed_out

    def summary(self) -> list[str]:
        return [
            f"differential chunking, {mode} mode: {total - timed_out} cases checked,"
            f" {timed_out} unchecked (the reference ran over {LIMIT_SECONDS:g} s of CPU);"
            f" a full run checks at least {self.MINIMUM[mode]}"
            for mode, (total, timed_out) in sorted(self.counts.items())
        ]

    def over_ceiling(self) -> bool:
        """True when any case went unchecked."""
        return any(timed_out for _, timed_out in self.counts.values())


LIMIT_SECONDS = 5.0
"""The CPU time the reference may take on one case before it counts as unchecked."""

UNCHECKED = UncheckedCases()
"""The session's count of differential cases, filled in by `run_both`."""


@contextmanager
def _cpu_limit(seconds: float) -> Iterator[None]:
    """Raise `ReferenceHang` in the block once it has used `seconds` of CPU time (the process's
    user time, so a loaded machine does not cut a case short), and again every 50 ms of CPU
    until it ends.

    The garbage collector is paused meanwhile: an exception raised inside one of its callbacks
    (hypothesis installs one) would be swallowed.
    """

    def on_alarm(signum: int, frame: object) -> None:
        raise ReferenceHang("timed out")

    previous = signal.signal(signal.SIGVTALRM, on_alarm)
    gc_was_enabled = gc.isenabled()
    gc.disable()
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds, 0.05)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)
        if gc_was_enabled:
            gc.enable()


def run_both(
    items: list[dict[str, Any]],
    options: dict[str, Any],
    *,
    by_title: bool,
    limit: float = LIMIT_SECONDS,
) -> tuple[Any, Any, list[Element]]:
    """Chunk `items` with both libraries; return (reference result, partita result, input).

    A result is the list of chunks or the `ValueError` raised. Raises `ReferenceHang` when the
    reference runs over `limit` seconds of CPU time (counted in `UNCHECKED`).
    """
    reference_input = reference_staging.elements_from_dicts(json.loads(json.dumps(items)))
    ours_input = partita.elements_from_dicts(items)
    reference_fn: Callable[..., Any] = (
        reference_chunk_by_title if by_title else reference_chunk_elements
    )
    ours_fn: Callable[..., Any] = chunk_by_title if by_title else chunk_elements
    reference: Any
    ours: Any
    mode = "token" if options.get("max_tokens") is not None else "character"
    try:
        with _cpu_limit(limit):
            reference = reference_fn(reference_input, **options)
    except ValueError as exc:
        reference = exc
    except ReferenceHang:
        UNCHECKED.record(mode, timed_out=True)
        raise
    UNCHECKED.record(mode, timed_out=False)
    try:
        ours = ours_fn(ours_input, **options)
    except ValueError as exc:
        ours = exc
    return reference, ours, ours_input


def comparable(chunks: list[Any], *, reference: bool) -> list[dict[str, Any]]:
    """Return the chunks as dicts without the deliberately different fields.

    `orig_elements` is decoded to the JSON it holds (`tests.payloads`), which must be
    byte-identical: only the compressed bytes may differ.
    """
    out = []
    for chunk in chunks:
        item = chunk.to_dict() if reference else element_to_dict(chunk)
        item.pop("element_id")
        for name in _OWN_ID_FIELDS:
            item["metadata"].pop(name, None)
        out.append(decoded_dict(json.loads(json.dumps(item))))
    return out


def table_id_groups(chunks: list[Any]) -> list[int | None]:
    """Return, per chunk, the index of the first chunk sharing its `table_id` (None if none)."""
    first: dict[str, int] = {}
    groups: list[int | None] = []
    for index, chunk in enumerate(chunks):
        table_id = chunk.metadata.table_id
        groups.append(None if table_id is None else first.setdefault(table_id, index))
    return groups
