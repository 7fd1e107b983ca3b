"""Running the reference library (`unstructured`) and partita on the same input, comparably."""

from __future__ import annotations

import json
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from unstructured.chunking import base as reference_base
from unstructured.chunking.basic import chunk_elements as reference_chunk_elements
from unstructured.chunking.title import chunk_by_title as reference_chunk_by_title
from unstructured.staging import base as reference_staging

import partita
from partita.chunking import chunk_by_title, chunk_elements
from partita.elements import Element
from partita.serialization import element_to_dict
from tests.payloads import decoded_dict

__all__ = [
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
    """The reference would not finish in time."""


class UncheckedCases:
    """Per mode ("character", "token"): how many differential cases ran, in how many the
    reference would have looped forever and ran with partita's documented loop rule instead
    (`_hang_guard`: they are still compared), and how many went unchecked because the reference
    ran over its time limit. partita's behaviour on inputs the reference cannot run is tested by
    the partita-only properties (`test_properties.py`, `hostile_streams`)."""

    CEILINGS: dict[str, float] = {"character": 0.01, "token": 0.01}  # noqa: RUF012
    """The largest share of a mode's cases that may go unchecked before the session fails (the
    generated cases drifting toward what the reference cannot run in time)."""

    def __init__(self) -> None:
        self.counts: dict[str, list[int]] = {}
        """Per mode: cases run, cases with the loop rule applied, cases timed out."""

    def record(self, mode: str, *, loop_rule: bool, timed_out: bool) -> None:
        counts = self.counts.setdefault(mode, [0, 0, 0])
        counts[0] += 1
        counts[1] += loop_rule
        counts[2] += timed_out

    def summary(self) -> list[str]:
        return [
            f"differential chunking, {mode} mode: {timed_out} of {total} cases unchecked"
            f" ({timed_out / total:.1%}; ceiling {self.CEILINGS[mode]:.0%}: the reference ran"
            f" over its time limit); {loop_rule} checked with partita's loop rule applied to the"
            " reference (it would loop forever)"
            for mode, (total, loop_rule, timed_out) in sorted(self.counts.items())
        ]

    def over_ceiling(self) -> bool:
        """True when a mode with at least 100 cases has more unchecked than its ceiling."""
        return any(
            total >= 100 and timed_out > self.CEILINGS[mode] * total
            for mode, (total, _, timed_out) in self.counts.items()
        )


UNCHECKED = UncheckedCases()
"""The session's count of differential cases, filled in by `run_both`."""


@contextmanager
def _hang_guard(seconds: float, applied: list[int]) -> Iterator[None]:
    """Run the reference with partita's loop rule, and stop it after `seconds`.

    The reference's token-mode overlap can hand back a remainder that splits the same way
    forever: its input itself, or a longer text whose next split is not shorter than its input.
    partita drops the overlap tail exactly there (README, "Differences"); so does the guarded
    splitter, which counts each time in `applied`. Everything else the reference does is its
    own, and the cases stay comparable. The timer is a backstop.
    """
    splitter = reference_base._TextSplitter
    split = splitter.__call__

    def guarded_split(self: Any, s: str) -> tuple[str, str]:
        fragment, remainder = split(self, s)
        overlap = self._opts.overlap
        if (
            self._opts.use_token_counting
            and overlap > 0
            and fragment
            and (
                remainder == s
                or (len(remainder) > len(s) and len(split(self, remainder)[1]) >= len(s))
            )
        ):
            applied[0] += 1
            tail = self._get_token_overlap_tail(fragment, overlap)
            return fragment, remainder[len(tail) + 1 :]
        return fragment, remainder

    def on_alarm(signum: int, frame: object) -> None:
        raise ReferenceHang("timed out")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    splitter.__call__ = guarded_split  # type: ignore[method-assign]
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        splitter.__call__ = split  # type: ignore[method-assign]


def run_both(
    items: list[dict[str, Any]], options: dict[str, Any], *, by_title: bool, limit: float = 5.0
) -> tuple[Any, Any, list[Element]]:
    """Chunk `items` with both libraries; return (reference result, partita result, input).

    A result is the list of chunks or the `ValueError` raised. The reference runs with partita's
    loop rule (see `_hang_guard`); raises `ReferenceHang` when it runs over `limit` seconds.
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
    applied = [0]
    try:
        with _hang_guard(limit, applied):
            reference = reference_fn(reference_input, **options)
    except ValueError as exc:
        reference = exc
    except ReferenceHang:
        UNCHECKED.record(mode, loop_rule=bool(applied[0]), timed_out=True)
        raise
    UNCHECKED.record(mode, loop_rule=bool(applied[0]), timed_out=False)
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
