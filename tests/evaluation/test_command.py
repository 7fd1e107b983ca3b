"""`partita evaluate` from the command line, on the bundled tiny corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from partita.cli import main

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "evaluation"
FAKE = "partita.embeddings:hashing_embedder"


def test_one_command_on_a_folder_gives_results_a_table_and_a_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, report = tmp_path / "r.json", tmp_path / "r.html"
    status = main(
        [
            "evaluate", str(CORPUS), "--questions", str(CORPUS / "questions.jsonl"),
            "--config", "token:max_tokens=40,overlap=10,tokenizer=cl100k_base",
            "--config", "headings:max_tokens=80,tokenizer=cl100k_base",
            "--embedder", FAKE, "--cache-dir", str(tmp_path / "cache"),
            "--json", str(out), "-o", str(report), "-k", "3",
        ]
    )  # fmt: skip
    assert status == 0
    captured = capsys.readouterr()
    assert "headings:max_tokens=80" in captured.out
    assert "Recommended" in captured.out
    assert "[2/2]" in captured.err
    results = json.loads(out.read_text(encoding="utf-8"))
    assert [d["name"] for d in results["documents"]] == ["bicycles", "tea", "volcanoes"]
    assert results["questions"] == 9
    assert results["k"] == 3
    assert all(c["retrieval"]["top_k"]["recall"] > 0 for c in results["configurations"])
    assert report.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")


def test_without_an_embedder_and_without_questions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    args = ["evaluate", str(CORPUS / "tea.md"), "--embedder", "none", "--json", str(out)]
    assert main([*args, "-o", str(tmp_path / "r.html"), "-q"]) == 0
    results = json.loads(out.read_text(encoding="utf-8"))
    assert len(results["configurations"]) == 5  # -- the default configurations --
    assert all(c["retrieval"] is None for c in results["configurations"])
    assert capsys.readouterr().err == ""


def test_compare_pairs_two_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for size in (40, 120):
        out = tmp_path / f"{size}.json"
        config = f"sentence:max_tokens={size},tokenizer=cl100k_base"
        status = main(
            [
                "evaluate", str(CORPUS), "--questions", str(CORPUS / "questions.jsonl"),
                "--config", config, "--embedder", FAKE, "--cache-dir", str(tmp_path / "c"),
                "--json", str(out), "-o", str(tmp_path / "r.html"), "-q",
            ]
        )  # fmt: skip
        assert status == 0
        runs.append(str(out))
    capsys.readouterr()
    assert main(["evaluate", "--compare", *runs]) == 0
    table = capsys.readouterr().out
    assert "| sentence:max_tokens=40" in table
    assert "| recall | 9 |" in table


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--config", "by_title:max_charactrs=1"], "max_charactrs"),
        (["--embedder", "nocolon"], "module:function"),
    ],
)
def test_bad_usage_exits_2_naming_the_problem(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["evaluate", str(CORPUS / "tea.md"), *args]) == 2
    assert message in capsys.readouterr().err
    assert main(["evaluate"]) == 2
