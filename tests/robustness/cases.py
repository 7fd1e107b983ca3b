"""Hostile inputs: the registry of files built to attack partita, one module per format.

Each `hostile_<format>.py` module lists `CASES`, files built in code (never stored) that once
crashed, hung or exhausted partita, or that attack a bound: bombs, cycles, huge numbers, bad
encodings, malformed JSON. `all_cases()` gathers them. The robustness suite runs each case in a
child process with a time and memory limit and accepts only a result or a typed error; the
formats' own tests use the same builders for regression tests of the exact behaviour.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FORMAT_MODULES", "HostileCase", "all_cases"]

FORMAT_MODULES = (
    "hostile_pdf",
    "hostile_pdfium",
    "hostile_docx",
    "hostile_html",
    "hostile_json",
    "hostile_chunking",
)
"""The modules under `tests/robustness/` whose `CASES` make up the registry."""


@dataclass(frozen=True)
class HostileCase:
    """One hostile input: a file's bytes, and how the trial chunks what it reads."""

    name: str
    """Unique, `<format>/<what it attacks>`, e.g. "pdf/self-referencing-page-tree"."""
    filename: str
    """The file name the bytes are written under; its suffix picks the format (".json" and
    ".jsonl" files are read as elements)."""
    build: Callable[[], bytes]
    """Builds the file's bytes (deterministically)."""
    chunking: Mapping[str, Any] = field(default_factory=dict)
    """Options for the trial's chunking step (`partita.chunking.chunk`); default by_title."""


def all_cases() -> list[HostileCase]:
    """Return every registered case, in module order; names are unique."""
    cases: list[HostileCase] = []
    for module_name in FORMAT_MODULES:
        try:
            module = importlib.import_module(f"tests.robustness.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"tests.robustness.{module_name}":
                raise
            continue
        cases.extend(module.CASES)
    names = [case.name for case in cases]
    duplicated = {name for name in names if names.count(name) > 1}
    assert not duplicated, f"hostile case names repeat: {sorted(duplicated)}"
    return cases
