"""`import partita` stays light: heavy libraries load only in the code that needs them.

The import time itself is measured by `benchmarks/bench_import.py`, not here.
"""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("docx", "pdfplumber", "pdfminer", "lxml", "bs4", "tiktoken", "markdown_it", "zipfile")


def test_import_loads_no_heavy_library() -> None:
    code = f"import sys, partita\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"
