"""Where the shared material lives: `../shared` next to the repository root.

The corpus (`../shared/corpus`) is part of the test suite's input, not an optional extra: a test
that needs it fails when it is missing (`shared_corpus()` raises), so a clone placed elsewhere
cannot pass by skipping. `PARTITA_SHARED` overrides the location.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["REPO", "SHARED", "shared_corpus"]

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PARTITA_SHARED") or REPO.parent / "shared").resolve()


def shared_corpus() -> Path:
    """Return `../shared/corpus`; raise `FileNotFoundError` saying where it was looked for."""
    corpus = SHARED / "corpus"
    if not (corpus / "manifest.tsv").is_file():
        raise FileNotFoundError(
            f"the shared corpus is missing: no {corpus / 'manifest.tsv'} (the tests expect"
            " ../shared next to the repository root; set PARTITA_SHARED to point elsewhere)"
        )
    return corpus
