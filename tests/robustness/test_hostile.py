"""Every hostile case ends in a result or a typed error, within 20 s and 3 GiB.

The cases (`tests/robustness/hostile_*.py`) run once, together, in worker processes under the
contract's limits; each case is then its own test. The formats' own tests check what exactly
each case gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.robustness.cases import HostileCase, all_cases
from tests.robustness.runner import run_hostile

CASES = all_cases()


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    workdir: Path = tmp_path_factory.mktemp("hostile")
    return {case.name: (outcome, message) for case, outcome, message in run_hostile(CASES, workdir)}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_hostile_case_keeps_the_contract(
    case: HostileCase, outcomes: dict[str, tuple[str, str]]
) -> None:
    outcome, message = outcomes[case.name]
    assert outcome in ("ok", "typed error"), f"{outcome}: {message}"


def test_every_format_has_hostile_cases() -> None:
    formats = {case.name.split("/")[0] for case in CASES}
    assert {"pdf", "docx", "html", "json", "chunking"} <= formats
