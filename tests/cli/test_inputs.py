"""Finding inputs: directories searched recursively (with --glob), files, standard input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import partita
from partita.cli import main
from partita.cli._inputs import UsageError, find_inputs


def relatives(root: Path, globs: list[str] | None = None) -> list[str]:
    return [item.relative for item in find_inputs([str(root)], globs=globs)]


def test_a_directory_is_searched_recursively_for_what_partita_reads(docs_tree: Path) -> None:
    assert relatives(docs_tree) == ["guide.md", "notes.txt", "api/client.py", "api/reference.md"]


@pytest.mark.parametrize(
    ("globs", "expected"),
    [
        (["*.md"], ["guide.md", "api/reference.md"]),
        (["**/*.md"], ["guide.md", "api/reference.md"]),
        (["api/*"], ["api/client.py", "api/reference.md"]),
        (["*.txt", "*.py"], ["notes.txt", "api/client.py"]),
        (["*.json"], ["data.json"]),
        (
            ["*"],
            ["data.json", "guide.md", "logo.png", "notes.txt", "api/client.py", "api/reference.md"],
        ),
    ],
)
def test_glob_selects_files_by_name_or_path_under_the_directory(
    docs_tree: Path, globs: list[str], expected: list[str]
) -> None:
    assert relatives(docs_tree, globs) == expected


def test_files_named_directly_are_read_whatever_their_name(docs_tree: Path) -> None:
    inputs = find_inputs([str(docs_tree / "logo.png"), str(docs_tree / "api")], globs=["*.md"])
    assert [(i.name, i.relative) for i in inputs] == [
        (str(docs_tree / "logo.png"), "logo.png"),
        (str(docs_tree / "api" / "reference.md"), "reference.md"),
    ]


def test_the_output_directory_is_not_searched(docs_tree: Path) -> None:
    (docs_tree / "out").mkdir()
    (docs_tree / "out" / "guide.md.md").write_text("# An earlier output\n")
    found = find_inputs([str(docs_tree)], exclude=str(docs_tree / "out"))
    assert all(not item.relative.startswith("out/") for item in found)


def test_a_directory_with_nothing_to_read_is_a_usage_error(
    tmp_path: Path, docs_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(UsageError, match=r"no files matching \*\.rst"):
        find_inputs([str(docs_tree)], globs=["*.rst"])
    (tmp_path / "empty").mkdir()
    assert main(["chunk", str(tmp_path / "empty")]) == 2
    assert "no files matching a format partita reads" in capsys.readouterr().err


def test_a_directory_is_partitioned_file_by_file_in_order(
    docs_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["partition", str(docs_tree), "--glob", "*.md", "--jobs", "2"]) == 0
    expected = partita.partition(docs_tree / "guide.md")
    expected += partita.partition(docs_tree / "api" / "reference.md")
    assert capsys.readouterr().out == partita.elements_to_json(expected) + "\n"


def test_chunk_picks_the_code_strategy_for_a_tree_of_source_files(
    docs_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chunk", str(docs_tree), "--glob", "*.py", "--format", "jsonl"]) == 0
    chunk = json.loads(capsys.readouterr().out.splitlines()[0])
    expected = partita.chunk(partita.partition(docs_tree / "api" / "client.py"), "code")
    assert chunk["text"] == expected[0].text


def run_cli(*args: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "partita.cli", *args], input=stdin, capture_output=True, check=False
    )


def test_standard_input_markdown_is_told_by_its_headings() -> None:
    result = run_cli("partition", "-", "--format", "jsonl", stdin=b"# Title\n\nBody text.\n")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["type"], r["text"]) for r in rows] == [
        ("Title", "Title"),
        ("NarrativeText", "Body text."),
    ]
    assert rows[0]["metadata"]["filetype"] == "text/markdown"
    assert b"partita partition: 1 file, 2 elements, 0 failed" in result.stderr


def test_standard_input_docx_bytes_are_told_by_their_content(report_docx: Path) -> None:
    result = run_cli("chunk", "-", "--format", "text", stdin=report_docx.read_bytes())
    assert result.returncode == 0, result.stderr
    text = result.stdout.decode()
    assert text.startswith("#1 CompositeElement | Introduction | page 1 | ")
    assert "Pages are counted at page breaks." in text


def read_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_input_format_overrides_sniffing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    read_stdin(monkeypatch, b"# not a heading\n\nplain text\n")
    assert main(["partition", "-", "--input-format", "text", "--format", "jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[0]["text"] == "# not a heading"
    assert rows[0]["metadata"]["filetype"] == "text/plain"


def test_chunk_reads_elements_json_from_standard_input(
    docs_tree: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`partita partition doc | partita chunk -`: the elements are chunked, not partitioned."""
    guide = docs_tree / "guide.md"
    elements = partita.partition(guide)
    for data in (partita.elements_to_json(elements), _jsonl(elements)):
        read_stdin(monkeypatch, data.encode())
        assert main(["chunk", "-", "--max-characters", "30"]) == 0
        expected = partita.chunk_by_title(elements, max_characters=30)
        assert capsys.readouterr().out == partita.elements_to_json(expected) + "\n"


def test_a_language_as_input_format_reads_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "build.txt"
    script.write_text("package main\n\nfunc main() {}\n")
    assert main(["partition", str(script), "--input-format", "go", "--format", "jsonl"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["type"] == "CodeSnippet"
    assert row["metadata"]["filetype"] == "text/x-go"


def _jsonl(elements: list[partita.Element]) -> str:
    out = io.StringIO()
    partita.elements_to_jsonl(elements, out)
    return out.getvalue()
