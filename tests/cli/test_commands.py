"""The `partita` command line: `partition` and `chunk` end to end, exit statuses, reports."""

from __future__ import annotations

import importlib.metadata
import json
import re
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


def test_chunk_partitions_and_chunks(
    fixtures_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = fixtures_dir / "sample.txt"
    assert main(["chunk", str(sample), "--max-characters", "200", "--overlap", "20"]) == 0
    chunks = partita.elements_from_json(text=capsys.readouterr().out)
    expected = partita.chunk_by_title(partita.partition(sample), max_characters=200, overlap=20)
    assert chunks == expected


def test_chunk_reads_an_elements_file(
    fixtures_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elements = partita.partition(fixtures_dir / "sample.txt")
    path = tmp_path / "elements.jsonl"
    partita.elements_to_jsonl(elements, path)
    args = ["chunk", str(path), "--strategy", "basic", "--max-tokens", "40"]
    args += ["--tokenizer", "cl100k_base", "--no-include-orig-elements"]
    assert main(args) == 0
    chunks = partita.elements_from_json(text=capsys.readouterr().out)
    expected = partita.chunk_elements(
        elements, max_tokens=40, tokenizer="cl100k_base", include_orig_elements=False
    )
    assert chunks == expected
    assert all(c.metadata.orig_elements is None for c in chunks)


def test_chunk_rejects_invalid_options_before_reading(
    fixtures_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["chunk", str(fixtures_dir / "sample.txt"), "--overlap", "600"]
    assert main(args) == 2
    captured = capsys.readouterr()
    assert "'overlap' argument must be less than `max_characters`" in captured.err
    assert captured.out == ""


def test_chunk_help_documents_every_chunking_option() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "partita.cli", "chunk", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    flags = [
        "--strategy",
        "--max-characters",
        "--new-after-n-chars",
        "--max-tokens",
        "--new-after-n-tokens",
        "--tokenizer",
        "--overlap",
        "--overlap-all",
        "--combine-text-under-n-chars",
        "--multipage-sections",
        "--include-orig-elements",
        "--repeat-table-headers",
        "--isolate-table",
        "--skip-table-chunking",
        "--text-splitting-separators",
    ]
    for flag in flags:
        assert flag in result.stdout


def test_chunk_takes_separators_with_escapes_and_the_basic_strategy(
    fixtures_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = fixtures_dir / "sample.txt"
    args = ["chunk", str(sample), "--strategy", "basic", "--max-characters", "60"]
    args += ["--text-splitting-separators", "\\n", ". ", "--combine-text-under-n-chars", "5"]
    assert main(args) == 0
    chunks = partita.elements_from_json(text=capsys.readouterr().out)
    expected = partita.chunk_elements(
        partita.partition(sample), max_characters=60, text_splitting_separators=["\n", ". "]
    )
    assert chunks == expected


def test_a_batch_survives_crashing_and_hanging_files(
    fixtures_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every file is reported whatever stops it; the good ones are written in order."""
    sample = str(fixtures_dir / "sample.txt")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")
    args = ["partition", sample, str(broken), str(tmp_path / "missing.txt"), sample]
    status = main([*args, "--jobs", "2", "--timeout", "60", "--max-memory", "2G", "--jsonl"])
    captured = capsys.readouterr()
    assert status == 1
    lines = captured.out.splitlines()
    assert len(lines) == 2 * len(partita.partition(sample))
    assert "broken.pdf: DocumentError" in captured.err
    assert "missing.txt: FileReadError" in captured.err


def test_limits_are_validated(capsys: pytest.CaptureFixture[str]) -> None:
    for flags in (["--jobs", "0"], ["--timeout", "-1"], ["--max-memory", "lots"]):
        with pytest.raises(SystemExit) as info:
            main(["partition", "x.txt", *flags])
        assert info.value.code == 2
    assert "not a memory size" in capsys.readouterr().err


def test_default_json_is_byte_identical_to_elements_to_json(
    fixtures_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = fixtures_dir / "sample.docx"
    assert main(["partition", str(sample)]) == 0
    expected = partita.elements_to_json(partita.partition(sample)) + "\n"
    assert capsys.readouterr().out == expected


def test_exit_status_is_0_when_every_input_succeeds(
    docs_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["partition", str(docs_tree), "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    assert "failed" in captured.err  # -- the summary --
    assert "partita: " + str(docs_tree) not in captured.err  # -- no failure reported --


def test_a_corrupt_file_among_good_ones_exits_1_and_the_others_are_written(
    docs_tree: Path, report_docx: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corrupt = docs_tree / "api" / "broken.docx"
    corrupt.write_bytes(b"PK\x03\x04 not a zip at all")
    status = main(["chunk", str(docs_tree), str(report_docx), "--jobs", "2", "--format", "jsonl"])
    captured = capsys.readouterr()
    assert status == 1
    assert f"partita: {corrupt}: DocumentError: " in captured.err
    filenames = {json.loads(line)["metadata"]["filename"] for line in captured.out.splitlines()}
    assert filenames == {"guide.md", "notes.txt", "reference.md", "client.py", "report.docx"}
    assert ", 1 failed in " in captured.err


def test_usage_errors_of_the_new_flags_exit_2(
    docs_tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    guide = str(docs_tree / "guide.md")
    for argv in (
        ["partition", guide, "--format", "yaml"],
        ["partition", guide, "-o", "x.json", "--output-dir", str(tmp_path / "out")],
        ["chunk", guide, "--input-format", "odt"],
    ):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
    assert main(["partition", guide, "--jsonl", "--format", "text"]) == 2
    assert main(["partition", guide, "--force"]) == 2
    assert main(["partition", "-", "-"]) == 2
    err = capsys.readouterr().err
    assert "--jsonl contradicts --format text" in err
    assert "--force only applies with --output-dir" in err
    assert "standard input (-) can be read only once" in err


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"partita {importlib.metadata.version('partita')}\n"


def test_the_console_script_prints_its_version() -> None:
    result = subprocess.run(
        [Path(sys.executable).parent / "partita", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == f"partita {partita.__version__}"


def test_the_summary_line_counts_files_elements_chunks_failures_and_time(
    docs_tree: Path, report_docx: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    guide = docs_tree / "guide.md"
    args = ["chunk", str(guide), str(report_docx), str(docs_tree / "missing.md")]
    assert main([*args, "--jobs", "1", "--format", "jsonl"]) == 1
    captured = capsys.readouterr()
    elements = len(partita.partition(guide)) + len(partita.partition(report_docx))
    chunks = len(captured.out.splitlines())
    summary = captured.err.splitlines()[-1]
    assert re.fullmatch(
        rf"partita chunk: 3 files, {elements} elements, {chunks} chunks, 2 pages, 1 failed"
        r" in \d+\.\d\d s",
        summary,
    ), summary


def test_partition_summary_has_no_chunk_count_and_quiet_has_no_summary(
    docs_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    guide = str(docs_tree / "guide.md")
    assert main(["partition", guide]) == 0
    assert re.fullmatch(
        r"partita partition: 1 file, 4 elements, 0 failed in \d+\.\d\d s\n",
        capsys.readouterr().err,
    )
    assert main(["partition", guide, "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_progress_shows_files_and_pages_per_second_when_asked(
    docs_tree: Path, report_docx: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """stderr is not a terminal under pytest: no bar unless --progress."""
    args = ["partition", str(docs_tree / "guide.md"), str(report_docx), "--jobs", "1"]
    assert main(args) == 0
    assert "files/s" not in capsys.readouterr().err
    assert main([*args, "--progress"]) == 0
    err = capsys.readouterr().err
    assert re.search(r"\[#+-*\] 1/2 [\d.]+ files/s, [\d.]+ pages/s guide\.md", err), err
    assert re.search(r"\[#{24}\] 2/2 [\d.]+ files/s, [\d.]+ pages/s report\.docx", err), err
