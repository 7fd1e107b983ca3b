"""Shared test setup: the reference library runs offline and quietly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("SCARF_NO_ANALYTICS", "true")
os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"


@pytest.fixture
def fixtures_dir() -> Path:
    """The repository's `fixtures/` folder of small sample documents."""
    return FIXTURES
