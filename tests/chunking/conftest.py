"""Chunking test setup: the count of differential cases the reference left unchecked."""

from __future__ import annotations

import pytest

from tests.chunking.reference import UNCHECKED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for line in UNCHECKED.summary():
        terminalreporter.write_line(line)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if UNCHECKED.over_ceiling():
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
