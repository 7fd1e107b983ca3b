"""The README's integration examples run, offline, on the bundled fixtures.

The examples are the ```python blocks between the `<!-- integrations-examples ...-->` and
`<!-- /integrations-examples -->` markers of README.md; each runs alone, from the repository
root (the paths they name are `fixtures/...`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.shared import require_module

REPO = Path(__file__).resolve().parents[2]


def integration_examples() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    start = readme.index("<!-- integrations-examples")
    end = readme.index("<!-- /integrations-examples -->", start)
    return re.findall(r"```python\n(.*?)```", readme[start:end], flags=re.DOTALL)


EXAMPLES = integration_examples()


def test_there_is_one_example_per_integration() -> None:
    assert len(EXAMPLES) == 3
    assert [
        next(name for name in ("records", "langchain", "llamaindex") if name in example)
        for example in EXAMPLES
    ] == ["records", "langchain", "llamaindex"]


@pytest.mark.parametrize("example", EXAMPLES, ids=["vector-store", "langchain", "llamaindex"])
def test_the_example_runs(
    example: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if re.search(r"^import chromadb$", example, flags=re.MULTILINE):
        require_module("chromadb", extra="test")  # -- the vector store is in the full tier --
    monkeypatch.chdir(REPO)
    exec(compile(example, "README.md", "exec"), {"__name__": "readme_example"})
    printed = capsys.readouterr().out
    assert printed.strip()
    for comment in re.findall(r"print\(.*\)  # (.*)", example):
        # -- a printed value the README states literally is what the example prints --
        if comment.startswith("Why"):
            assert comment in printed
