"""Source files to one CodeSnippet each, their language told by extension or content type."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import partita
from partita.elements import CodeSnippet
from partita.errors import DocumentLimitError, UnsupportedFormatError
from partita.partitioners._detect import detect_format
from partita.partitioners.code import partition_code


@pytest.mark.parametrize(
    ("name", "language", "filetype"),
    [
        ("app.py", "python", "text/x-python"),
        ("Main.java", "java", "text/x-java-source"),
        ("App.kt", "kotlin", "text/x-kotlin"),
        ("index.mjs", "javascript", "text/javascript"),
        ("index.ts", "typescript", "application/typescript"),
        ("View.tsx", "tsx", "text/tsx"),
        ("main.go", "go", "text/x-go"),
        ("lib.rs", "rust", "text/x-rust"),
    ],
)
def test_a_source_file_is_one_code_snippet_in_its_language(
    tmp_path: Path, name: str, language: str, filetype: str
) -> None:
    path = tmp_path / name
    path.write_text("\n// head\nx = 1\r\ny = 2\n\n", encoding="utf-8")
    (element,) = partita.partition(path)
    assert isinstance(element, CodeSnippet)
    assert element.text == "// head\nx = 1\ny = 2"
    assert element.metadata.extra == {"start_line": 2, "code_language": language}
    assert (element.metadata.filetype, element.metadata.filename) == (filetype, name)


def test_code_is_told_by_extension_before_markup() -> None:
    assert detect_format(b"<View />\n", "a.tsx") == "code"
    assert detect_format("import os\n", "a.py") == "code"
    assert detect_format(b"%PDF-1.7", "a.py") == "pdf"
    assert detect_format(b'"""Magic: a PDF starts with %PDF-."""', "detect.py") == "code"
    assert detect_format(b'"""Magic: a PDF starts with %PDF-."""', "detect.txt") == "text"
    assert detect_format(b"junk\n%PDF-1.7\n", "report.pdf") == "pdf"
    assert detect_format(b"junk\n%PDF-1.7\n", "blob") == "pdf"
    assert detect_format(b"plain", "notes.txt") == "text"


def test_the_language_may_be_given_by_name_or_content_type() -> None:
    (by_name,) = partition_code(text="fn main() {}", language="rs")
    assert by_name.metadata.extra == {"start_line": 1, "code_language": "rust"}
    (by_type,) = partita.partition(text="package main", content_type="text/x-go")
    assert by_type.metadata.extra == {"start_line": 1, "code_language": "go"}
    (unknown,) = partition_code(text="PRINT 1", metadata_filename="a.bas")
    assert unknown.metadata.extra == {"start_line": 1}
    assert unknown.metadata.filetype == "text/plain"
    with pytest.raises(UnsupportedFormatError, match="cobol"):
        partition_code(text="x", language="cobol")


def test_invalid_code_is_still_read_and_whitespace_gives_nothing() -> None:
    (element,) = partition_code(file=io.BytesIO(b"def broken(:\n"), metadata_filename="b.py")
    assert element.text == "def broken(:"
    assert partition_code(text=" \n\t\n", metadata_filename="e.py") == []


def test_bytes_decode_as_text_files_do() -> None:
    (element,) = partition_code(file=io.BytesIO("s = 'é'\n".encode("cp1252")), language="py")
    assert element.text == "s = 'é'"
    (bom,) = partition_code(file=io.BytesIO(b"\xef\xbb\xbfx = 1"), language="py")
    assert bom.text == "x = 1"


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.py"
    with path.open("wb") as f:
        f.truncate(49 * 1024 * 1024)
    with pytest.raises(DocumentLimitError, match=r"huge\.py"):
        partition_code(path)
