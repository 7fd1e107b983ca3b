"""`partita.distributed`'s public names, and that importing it does not import Ray."""

from __future__ import annotations

import subprocess
import sys

import partita.distributed
from tests.shared import require_module


def test_all_pins_the_api() -> None:
    assert partita.distributed.__all__ == [
        "ChunkJob",
        "JobSummary",
        "RecordsDatasink",
        "Row",
        "chunk_dataset",
        "content_hash",
        "iter_document_rows",
        "list_documents",
        "run_chunk_job",
    ]


def test_every_public_name_resolves() -> None:
    require_module("ray", extra="distributed")  # -- some names live in the Ray engine's module --
    for name in partita.distributed.__all__:
        assert getattr(partita.distributed, name) is not None


def test_importing_it_imports_no_engine() -> None:
    code = (
        "import sys, partita, partita.distributed, partita.cli;"
        "print(sorted(m for m in ('ray', 'pyarrow', 'pandas') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
