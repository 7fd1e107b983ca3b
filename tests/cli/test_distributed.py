"""`partita chunk --engine ray`: what it refuses before starting Ray (the runs themselves are
tested in tests/distributed/test_ray_engine.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from partita.cli import main


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "give --output-dir"),
        (["--output-dir", "OUT", "--format", "text"], "parquet or jsonl, not text"),
        (["--output-dir", "OUT", "--input-format", "md"], "drop --input-format"),
        (["--output-dir", "OUT", "--max-characters", "-5"], "max_characters"),
    ],
)
def test_ray_usage_errors_exit_2_before_any_work(
    extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.md").write_text("# A\n\ntext\n")
    args = [a.replace("OUT", str(tmp_path / "out")) for a in extra]
    assert main(["chunk", "--engine", "ray", str(tmp_path / "a.md"), *args]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_standard_input_is_not_a_ray_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chunk", "--engine", "ray", "-", "--output-dir", str(tmp_path / "o")]) == 2
    assert "not standard input" in capsys.readouterr().err


@pytest.mark.parametrize(
    "flags",
    [
        ["--incremental"],
        ["--ray-address", "auto"],
        ["--files-per-task", "2"],
        ["--format", "parquet"],
    ],
)
def test_ray_flags_need_the_ray_engine(
    flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.md").write_text("# A\n\ntext\n")
    assert main(["chunk", str(tmp_path / "a.md"), *flags]) == 2
    assert "need --engine ray" in capsys.readouterr().err
