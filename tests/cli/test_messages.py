"""What a person sees when something is wrong: one line per problem, the promised exit status,
never a traceback.

Usage errors (bad flags and values, an output that cannot be written) are one line and exit 2
before any input is read; an empty document is a warning line (a failure with `--strict`); a
document whose content is not what its name says is read as what it is, with a warning line.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from partita.cli import main
from tests.cli.conftest import write_docx
from tests.partitioners.test_dispatch import EMPTY_FILES

_SUMMARY = re.compile(r"^partita (partition|chunk): \d+ files?, .* in [\d.]+ s$")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    """Return (exit status, standard error's lines, standard output) of `partita argv`."""
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, captured.err.splitlines(), captured.out


@pytest.fixture
def text_file(tmp_path: Path) -> Path:
    path = tmp_path / "a.txt"
    path.write_text("Hello world.\n\nSecond paragraph.\n")
    return path


@pytest.fixture
def plain_file(tmp_path: Path) -> Path:
    """A file where a folder is expected."""
    path = tmp_path / "afile"
    path.write_text("not a folder\n")
    return path


# -- outputs that cannot be written: one line, exit 2, before any input is read ---------------


_UNWRITABLE = [
    (["-o", "{tmp}/nodir/x.json"], "-o {tmp}/nodir/x.json: the folder {tmp}/nodir does not exist"),
    (["-o", "{tmp}/afile/x.json"], "-o {tmp}/afile/x.json: {tmp}/afile is a file, not a folder"),
    (["-o", "{tmp}"], "-o {tmp}: is a folder, not a file"),
    (["--output-dir", "{tmp}/afile"], "--output-dir {tmp}/afile: is a file, not a folder"),
    (["--output-dir", "{tmp}/afile/a"], "--output-dir {tmp}/afile/a: {tmp}/afile is a file,"
     " not a folder"),
]  # fmt: skip
"""(flags, message) with "{tmp}" for the test's folder, which holds the file "afile"."""


@pytest.mark.parametrize(
    ("command", "flags", "expected"),
    [
        (command, flags, expected)
        for command in ("partition", "chunk", "inspect")
        for flags, expected in _UNWRITABLE
        if command != "inspect" or flags[0] == "-o"  # -- inspect writes one page: no --output-dir
    ],
)
def test_an_output_that_cannot_be_written_is_one_usage_line(
    command: str,
    flags: list[str],
    expected: str,
    tmp_path: Path,
    plain_file: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    tmp = str(tmp_path)
    missing = str(tmp_path / "missing.txt")  # -- never read: the usage error comes first --
    argv = [command, missing, *(flag.format(tmp=tmp) for flag in flags)]
    status, err, out = run(argv, capsys)
    assert (status, out) == (2, "")
    assert err == [f"partita {command}: error: {expected.format(tmp=tmp)}"]


def test_standard_output_and_a_new_output_dir_are_fine(
    text_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, err, _ = run(["partition", str(text_file), "-o", "-"], capsys)
    assert status == 0
    assert len(err) == 1
    assert _SUMMARY.match(err[0])
    created = tmp_path / "new" / "deeper"
    status, err, _ = run(["partition", str(text_file), "--output-dir", str(created)], capsys)
    assert status == 0
    assert len(err) == 1
    assert (created / "a.txt.json").is_file()


def test_a_failure_to_write_the_output_is_one_line_and_exit_1(
    text_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    status, err, _ = run(["partition", str(text_file), "-o", "/dev/full"], capsys)
    assert status == 1
    assert err == ["partita partition: error: cannot write /dev/full: No space left on device"]


# -- bad flags and values: one line, not the usage block -------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["chunk", "{file}", "--strategy", "nope"],
            "partita chunk: error: argument --strategy: invalid choice: 'nope' (choose from",
        ),
        (
            ["chunk", "{file}", "--max-characters", "abc"],
            "partita chunk: error: argument --max-characters: expected a whole number, got 'abc'",
        ),
        (
            ["chunk", "{file}", "--overlap", "1.5"],
            "partita chunk: error: argument --overlap: expected a whole number, got '1.5'",
        ),
        (
            ["partition", "{file}", "--jobs", "x"],
            "partita partition: error: argument --jobs/-j: expected a whole number, got 'x'",
        ),
        (
            ["partition", "{file}", "--timeout", "soon"],
            "partita partition: error: argument --timeout: expected a number, got 'soon'",
        ),
        (
            ["inspect", "{file}", "--strategy", "nope"],
            "partita inspect: error: argument --strategy: invalid choice: 'nope'",
        ),
        (
            ["chunk", "{file}", "--bogus"],
            "partita chunk: error: unrecognized arguments: --bogus",
        ),
        (["partition"], "partita partition: error: the following arguments are required: FILE"),
        (["frobnicate"], "partita: error: argument COMMAND: invalid choice: 'frobnicate'"),
    ],
)
def test_a_bad_flag_or_value_is_one_line_pointing_at_help(
    argv: list[str], expected: str, text_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, err, out = run([arg.format(file=text_file) for arg in argv], capsys)
    assert (status, out) == (2, "")
    (line,) = err
    assert line.startswith(expected)
    prog = expected.split(": error:")[0]
    assert line.endswith(f" (see {prog} --help)")


def test_invalid_chunking_options_are_one_line(
    text_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, err, _ = run(
        ["chunk", str(text_file), "--max-characters", "10", "--overlap", "20"], capsys
    )
    assert status == 2
    assert err == [
        "partita chunk: error: 'overlap' argument must be less than `max_characters`, got 20 >= 10"
        " (see partita chunk --help)"
    ]


def test_an_unknown_tokenizer_is_partitas_one_line_without_tiktoken_noise(
    text_file: Path,
) -> None:
    """Run as a person runs it: the console script, whatever tiktoken prints on its own."""
    partita = str(Path(sys.executable).parent / "partita")
    result = subprocess.run(
        [partita, "chunk", str(text_file), "--max-tokens", "50", "--tokenizer", "nope"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout) == (2, "")
    (line,) = result.stderr.splitlines()
    assert line.startswith("partita chunk: error: Unknown tokenizer name 'nope': the encodings")
    assert "cl100k_base" in line
    assert "Plugins found" not in line


# -- empty documents: a warning line, a failure with --strict --------------------------------

_EMPTY_CASES = [
    *EMPTY_FILES,
    ("blank.txt", b"  \n\n\t \r\n", "it holds only whitespace"),
    ("blank.md", b"\xef\xbb\xbf\n \n", "it holds only whitespace"),
    ("blank.pdf", b"\n\n   \n", "it holds only whitespace"),
    ("blank.html", b"<html><body> </body></html>", "partita found no text in this HTML document"),
]  # fmt: skip


@pytest.mark.parametrize("command", ["partition", "chunk"])
@pytest.mark.parametrize(("name", "data", "reason"), _EMPTY_CASES)
def test_an_empty_document_is_a_warning_line(
    command: str,
    name: str,
    data: bytes,
    reason: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    status, err, out = run([command, str(path)], capsys)
    assert status == 0
    assert json.loads(out) == []
    assert err[0] == f"partita: warning: {path}: no elements: {reason}"
    assert len(err) == 2
    assert _SUMMARY.match(err[1])


@pytest.mark.parametrize(("name", "data", "reason"), _EMPTY_CASES[:1] + _EMPTY_CASES[-2:])
def test_strict_makes_an_empty_document_a_failure(
    name: str, data: bytes, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    status, err, out = run(["partition", str(path), "--strict"], capsys)
    assert status == 1
    assert json.loads(out) == []
    assert err[0] == f"partita: {path}: EmptyDocumentWarning: no elements: {reason} (--strict)"
    assert len(err) == 2
    assert ", 1 failed in " in err[1]


def test_strict_fails_only_the_empty_inputs_of_a_batch(
    text_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.docx"
    empty.write_bytes(b"")
    argv = ["chunk", str(empty), str(text_file), "--strict", "--jobs", "2", "--format", "jsonl"]
    status, err, out = run(argv, capsys)
    assert status == 1
    assert {json.loads(line)["metadata"]["filename"] for line in out.splitlines()} == {"a.txt"}
    assert err[0] == (
        f"partita: {empty}: EmptyDocumentWarning: no elements: the file is empty (0 bytes)"
        " (--strict)"
    )
    assert len(err) == 2
    assert ", 1 failed in " in err[1]


def test_an_empty_standard_input_is_named_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    status, err, _ = run(["partition", "-"], capsys)
    assert status == 0
    assert err[0] == "partita: warning: <stdin>: no elements: the document is empty (0 bytes)"


def test_quiet_prints_no_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    assert run(["partition", str(path), "--quiet"], capsys)[:2] == (0, [])


def test_inspect_prints_the_warning_as_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    status, err, _ = run(["inspect", str(path), "-o", str(tmp_path / "page.html")], capsys)
    assert status == 0
    assert err[0] == f"partita: warning: {path}: no elements: the file is empty (0 bytes)"
    assert len(err) == 2
    assert err[1].startswith("partita inspect: 0 elements, 0 chunks")


# -- content that is not what its name says: read as what it is, with a warning line ----------


def test_a_text_file_named_pdf_is_read_as_text_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.pdf"
    path.write_text("Meeting notes\n\nWe agreed on the plan.\n")
    status, err, out = run(["partition", str(path)], capsys)
    assert status == 0
    assert [e["text"] for e in json.loads(out)] == ["Meeting notes", "We agreed on the plan."]
    assert err[0] == (
        f"partita: warning: {path}: the content is plain text, not PDF: read as plain text"
    )
    assert len(err) == 2
    assert _SUMMARY.match(err[1])


def test_a_word_document_named_pdf_is_read_as_word(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_docx(tmp_path / "report.pdf", [("Heading", ["Body text."])])
    status, err, out = run(["chunk", str(path), "--strict"], capsys)
    assert status == 0
    assert "Body text." in json.loads(out)[0]["text"]
    assert err[0] == (
        f"partita: warning: {path}: the content is Word (docx), not PDF: read as Word (docx)"
    )
    assert len(err) == 2


def test_input_format_says_what_a_file_is_without_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.pdf"
    path.write_text("Meeting notes\n")
    status, err, _ = run(["partition", str(path), "--input-format", "text"], capsys)
    assert status == 0
    assert len(err) == 1
    assert _SUMMARY.match(err[0])


def test_an_interrupt_is_one_line_and_status_130(
    text_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from partita.cli import _commands as commands

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(commands, "run_partition", interrupted)
    assert run(["partition", str(text_file)], capsys)[:2] == (
        130,
        ["partita partition: interrupted"],
    )
