"""Where the benchmarks find the shared material: as the tests do (`tests/shared.py`).

`PARTITA_SHARED`, else `../shared` next to the repository root: `corpus/` (the shared corpus,
`corpus/manifest.tsv`), `eval/chroma/` (Chroma's evaluation) and `seeds/`.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.append(_ROOT)  # -- the repository root, for `tests.shared` --

from tests.shared import CORPUS, SHARED  # noqa: E402

__all__ = ["CORPUS", "SHARED"]
