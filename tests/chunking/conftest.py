"""Chunking test setup: the count of differential cases the reference left unchecked, and, with
`PARTITA_TEST_NO_SHRINK` set (benchmarks/check_reference_release.py), hypothesis without its
shrink phase: a failing case is reported as generated, not minimized (which takes minutes when
the reference is slow on it)."""

from __future__ import annotations

import os

import pytest
from hypothesis import Phase, settings

from tests.chunking.reference import UNCHECKED

if os.environ.get("PARTITA_TEST_NO_SHRINK"):
    settings.register_profile(
        "no-shrink", phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target]
    )
    settings.load_profile("no-shrink")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for line in UNCHECKED.summary():
        terminalreporter.write_line(line)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if UNCHECKED.over_ceiling():
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
