"""Writing results: --format json|jsonl|text|markdown, and --output-dir with up-to-date skips."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import partita
from partita.cli import main
from partita.cli._output import render_for_people
from partita.elements import ElementMetadata, Table

RULE = "-" * 72


def test_json_and_jsonl_hold_the_same_chunks(
    report_docx: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chunk", str(report_docx)]) == 0
    as_json = capsys.readouterr().out
    assert main(["chunk", str(report_docx), "--format", "jsonl"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line) for line in lines] == json.loads(as_json)
    expected = partita.chunk_by_title(partita.partition(report_docx))
    assert as_json == partita.elements_to_json(expected) + "\n"


def test_text_shows_each_chunk_with_heading_path_and_pages_and_no_blobs(
    report_docx: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["chunk", str(report_docx), "--strategy", "basic", "--max-characters", "80"]
    assert main([*args, "--page-range", "--format", "text"]) == 0
    out = capsys.readouterr().out
    chunks = out.split(f"\n{RULE}\n")
    assert len(chunks) == 2
    assert chunks[0] == (
        "#1 CompositeElement | Introduction | pages 1-2 | 77 chars\n"
        "Introduction\n\nPartita reads documents.\n\nIt chunks them for retrieval.\n\nMethod\n"
    )
    assert chunks[1].startswith("#2 CompositeElement | Method | page 2 | ")
    assert "orig_elements" not in out
    assert "eJ" not in out  # -- zlib+base64 blobs start so --


def test_a_chunk_across_pages_shows_its_page_range_and_recorded_heading_path(
    report_docx: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["chunk", str(report_docx), "--strategy", "basic", "--max-characters", "1000"]
    args += ["--page-range", "--heading-context", "metadata", "--format", "text"]
    assert main(args) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header == "#1 CompositeElement | Introduction | pages 1-2 | 138 chars"


def test_markdown_is_a_header_in_bold_the_text_and_a_rule_between_chunks(
    report_docx: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["chunk", str(report_docx), "--combine-text-under-n-chars", "0"]
    assert main([*args, "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    first, second = out.split("\n---\n\n")
    assert first.startswith("**#1 CompositeElement | Introduction | page 1 | ")
    assert second.startswith("**#2 CompositeElement | Method | page 2 | ")
    assert "Headings start sections." in second


def test_partition_prints_elements_for_people_too(
    docs_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["partition", str(docs_tree / "guide.md"), "--format", "text"]) == 0
    headers = [line for line in capsys.readouterr().out.splitlines() if line.startswith("#")]
    assert headers == [
        "#1 Title | Guide | 5 chars",
        "#2 NarrativeText | Guide | 11 chars",
        "#3 Title | Guide > Install | 7 chars",
        "#4 NarrativeText | Guide > Install | 8 chars",
    ]


def test_several_inputs_on_one_stream_are_named(
    docs_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chunk", str(docs_tree), "--glob", "*.md", "--format", "text", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"==> {docs_tree / 'guide.md'} <==\n\n#1 CompositeElement | Guide")
    assert f"\n==> {docs_tree / 'api' / 'reference.md'} <==\n\n#1 " in out


def test_a_table_is_its_html_in_markdown_and_its_text_in_text() -> None:
    html = "<table><tr><td>a</td><td>b</td></tr></table>"
    table = Table("a b", metadata=ElementMetadata(text_as_html=html, page_number=3))
    markdown = render_for_people([table], "markdown")
    assert markdown == f"**#1 Table | page 3 | 3 chars**\n\n{html}\n"
    assert render_for_people([table], "text") == "#1 Table | page 3 | 3 chars\na b\n"


def outputs(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize(
    ("fmt", "extension"),
    [("json", ".json"), ("jsonl", ".jsonl"), ("text", ".txt"), ("markdown", ".md")],
)
def test_output_dir_mirrors_the_input_tree(
    docs_tree: Path, tmp_path: Path, fmt: str, extension: str
) -> None:
    out = tmp_path / "out"
    assert main(["chunk", str(docs_tree), "--output-dir", str(out), "--format", fmt]) == 0
    names = ["api/client.py", "api/reference.md", "guide.md", "notes.txt"]
    assert outputs(out) == [name + extension for name in names]
    written = (out / "api" / f"reference.md{extension}").read_text()
    chunks = partita.chunk_by_title(partita.partition(docs_tree / "api" / "reference.md"))
    if fmt == "json":
        assert written == partita.elements_to_json(chunks) + "\n"
    elif fmt == "jsonl":
        assert [json.loads(line) for line in written.splitlines()] == json.loads(
            partita.elements_to_json(chunks)
        )
    else:
        assert written == render_for_people(chunks, fmt)


def test_output_dir_skips_inputs_whose_output_is_newer_unless_forced(
    docs_tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = ["partition", str(docs_tree), "--glob", "*.md", "--output-dir", str(out)]
    assert main(args) == 0
    guide_out, reference_out = out / "guide.md.json", out / "api" / "reference.md.json"
    # -- guide's output is newer than guide; reference was edited after its output --
    os.utime(docs_tree / "guide.md", (1_000_000, 1_000_000))
    os.utime(guide_out, (2_000_000, 2_000_000))
    os.utime(reference_out, (1_000_000, 1_000_000))
    os.utime(docs_tree / "api" / "reference.md", (2_000_000, 2_000_000))
    guide_out.write_text("kept\n")
    os.utime(guide_out, (2_000_000, 2_000_000))
    reference_out.write_text("stale\n")
    os.utime(reference_out, (1_000_000, 1_000_000))
    capsys.readouterr()

    assert main(args) == 0
    assert guide_out.read_text() == "kept\n"
    assert partita.elements_from_json(filename=reference_out)
    assert "1 file, 2 elements, 0 failed, 1 skipped (up to date) in " in capsys.readouterr().err

    assert main([*args, "--force"]) == 0
    assert partita.elements_from_json(filename=guide_out)
    assert "2 files, 6 elements, 0 failed in " in capsys.readouterr().err


def test_output_dir_writes_nothing_for_a_failed_input(docs_tree: Path, tmp_path: Path) -> None:
    (docs_tree / "broken.pdf").write_bytes(b"%PDF-1.7\n%%EOF\n")
    out = tmp_path / "out"
    assert main(["partition", str(docs_tree), "-q", "--output-dir", str(out)]) == 1
    assert "broken.pdf.json" not in outputs(out)
    assert "guide.md.json" in outputs(out)
    assert not [name for name in outputs(out) if ".partita-" in name]  # -- no temporary left --


def test_output_dir_refuses_two_inputs_with_one_output(
    docs_tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "guide.md").write_text("# Another guide\n")
    args = ["partition", str(docs_tree / "guide.md"), str(other / "guide.md")]
    assert main([*args, "--output-dir", str(tmp_path / "out")]) == 2
    assert "would both be written to" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_standard_input_goes_to_stdin_in_the_output_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Hello\n\nWorld.\n")))
    out = tmp_path / "out"
    assert main(["partition", "-", "--output-dir", str(out), "--format", "text"]) == 0
    assert outputs(out) == ["stdin.txt"]
