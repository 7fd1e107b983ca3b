"""`partita inspect` through its parser, with the chunk command's flags as the command line adds
them (`partita.cli._add_chunking_arguments`, passed in as `partita.cli` does)."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

import partita
from partita.cli import _add_chunking_arguments
from partita.inspection._command import add_inspect_parser

MARKDOWN = """# Ducks

Ducks are waterbirds. {long}

## Sizes

| name | size |
| --- | --- |
| mallard | 58 cm |

- dabbling ducks
- diving ducks
"""


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="partita")
    commands = parser.add_subparsers(dest="command")
    add_inspect_parser(commands, _add_chunking_arguments)
    args = parser.parse_args(["inspect", *argv])
    status: int = args.run(args)
    return status


def page_data(path: Path) -> dict[str, object]:
    found = re.search(
        r'<script type="application/json" id="inspection-data">(.*?)</script>',
        path.read_text(encoding="utf-8"),
        re.S,
    )
    assert found is not None
    data: dict[str, object] = json.loads(found.group(1))
    return data


@pytest.fixture
def document(tmp_path: Path) -> Path:
    path = tmp_path / "ducks.md"
    path.write_text(MARKDOWN.format(long="They swim and dabble. " * 30), encoding="utf-8")
    return path


def test_it_writes_the_page_with_provenance_forced_on(document: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    status = run(str(document), "--max-characters", "200", "--overlap", "20", "--no-provenance",
                 "-o", str(out), "-q")  # fmt: skip

    assert status == 0
    data = page_data(out)
    assert data["title"] == "ducks.md"
    assert data["settings"] == {"strategy": "by_title", "max_characters": 200, "overlap": 20,
                                "provenance": True}  # fmt: skip
    chunks = data["chunks"]
    assert isinstance(chunks, list)
    assert len(chunks) > 3
    assert all(c["r"] for c in chunks), "every chunk maps to elements"
    assert data["overlaps"], "the long paragraph's pieces overlap"
    assert "Table" in data["types"]  # type: ignore[operator]


def test_it_reads_element_json_and_takes_the_strategy(document: Path, tmp_path: Path) -> None:
    elements = tmp_path / "ducks.jsonl"
    partita.elements_to_jsonl(partita.partition(str(document)), str(elements))
    out = tmp_path / "page.html"

    assert run(str(elements), "--strategy", "sentence", "--max-characters", "120",
               "--per-view", "3", "-o", str(out), "-q") == 0  # fmt: skip
    assert "const PER_VIEW = 3;" in out.read_text(encoding="utf-8")
    assert page_data(out)["settings"]["strategy"] == "sentence"  # type: ignore[index]


@pytest.mark.parametrize(
    "argv", [("--max-characters", "0"), ("--per-view", "0"), ("--overlap", "-1")]
)
def test_bad_options_are_a_usage_error(
    argv: tuple[str, ...], document: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "page.html"
    assert run(str(document), *argv, "-o", str(out)) == 2
    assert "partita inspect: error:" in capsys.readouterr().err
    assert not out.exists()


def test_an_unreadable_document_fails_with_status_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(str(tmp_path / "missing.md"), "-o", str(tmp_path / "page.html")) == 1
    assert "missing.md" in capsys.readouterr().err
