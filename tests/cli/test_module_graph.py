"""The CLI's modules import one another in one direction: no two import each other, even lazily."""

from __future__ import annotations

import ast
from pathlib import Path

CLI = Path(__file__).resolve().parents[2] / "src" / "partita" / "cli"


def _imported_cli_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("partita.cli."):
            found.add((node.module or "").removeprefix("partita.cli."))
    return found


def test_no_two_cli_modules_import_each_other() -> None:
    graph = {path.stem: _imported_cli_modules(path) for path in CLI.glob("*.py")}
    loops = sorted(
        (a, b) for a, targets in graph.items() for b in targets if a < b and a in graph.get(b, ())
    )
    assert loops == []
