"""The `partita` command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import partita
from partita.cli import main


def test_partition_writes_reference_json(
    fixtures_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["partition", str(fixtures_dir / "sample.txt")]) == 0
    out = capsys.readouterr().out
    elements = partita.elements_from_json(text=out)
    assert elements == partita.partition(fixtures_dir / "sample.txt")


def test_jsonl_and_output_file(fixtures_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    sample = str(fixtures_dir / "sample.txt")
    assert main(["partition", sample, sample, "--jsonl", "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 2 * len(partita.partition(sample))
    assert all(json.loads(line)["type"] for line in lines)


def test_one_bad_file_is_reported_and_the_rest_go_on(
    fixtures_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "missing.txt"
    status = main(["partition", str(bad), str(fixtures_dir / "sample.txt")])
    captured = capsys.readouterr()
    assert status == 1
    assert "missing.txt" in captured.err
    assert "FileReadError" in captured.err
    assert partita.elements_from_json(text=captured.out)


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["partition"])
    assert info.value.code == 2
    assert main([]) == 2


def test_help_documents_every_flag() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "partita.cli", "partition", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    for flag in ("--output", "--jsonl", "--quiet"):
        assert flag in result.stdout


def test_console_script_is_installed(fixtures_dir: Path) -> None:
    result = subprocess.run(
        [Path(sys.executable).parent / "partita", "partition", str(fixtures_dir / "sample.txt")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout)[0]["type"] == "Title"
