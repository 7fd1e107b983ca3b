"""Format detection: magic bytes first, then the name."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from partita.partitioners._detect import (
    detect_file_format,
    detect_format,
    format_for_content_type,
    format_for_extension,
)


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("head", "name", "expected"),
    [
        (_zip({"word/document.xml": b"<w/>"}), "renamed.bin", "docx"),
        (_zip({"xl/workbook.xml": b"<x/>"}), "book.xlsx", "zip"),
        (b"PK\x03\x04broken", "report.docx", "docx"),
        (b"PK\x03\x04broken", "archive.zip", "zip"),
        (b"%PDF-1.7\n...", "x.txt", "pdf"),
        (b"<!DOCTYPE html><html><body>x</body></html>", "page.txt", "html"),
        (b"\xef\xbb\xbf<html><p>x</p></html>", None, "html"),
        (b"<!-- note -->\n<div>x</div>", None, "html"),
        (b"# Title\n\ntext", "readme.md", "md"),
        (b"# Title\n\ntext", "readme.txt", "text"),
        (b"plain", "page.html", "html"),
        (b"plain", None, "text"),
        ("<html><body>x</body></html>", None, "html"),
        # -- Markdown may start with an HTML block; only a whole HTML document is HTML --
        (b'<p align="center"><img src="logo.png"></p>\n\n# Project', "README.md", "md"),
        (b"<!-- badges -->\n<div>x</div>\n\n# Project", "README.md", "md"),
        (b"<!DOCTYPE html>\n<html><body>x</body></html>", "page.md", "html"),
        (b'<p align="center">x</p>', "README.txt", "html"),
    ],
)
def test_detect_format(head: bytes | str, name: str | None, expected: str) -> None:
    assert detect_format(head, name) == expected


def test_detect_file_format_reads_zip_directory(tmp_path: Path) -> None:
    path = tmp_path / "doc.bin"
    path.write_bytes(_zip({"word/document.xml": b"<w/>"}))
    assert detect_file_format(str(path)) == "docx"


@pytest.mark.parametrize(
    ("content_type", "expected"),
    [
        ("text/plain; charset=utf-8", "text"),
        ("text/markdown", "md"),
        ("application/pdf", "pdf"),
        ("application/xhtml+xml", "html"),
        ("image/png", None),
    ],
)
def test_format_for_content_type(content_type: str, expected: str | None) -> None:
    assert format_for_content_type(content_type) == expected


def test_a_zip_the_zip_module_cannot_list_falls_back_on_the_name(tmp_path: Path) -> None:
    """A central directory claiming zip version 19.4 (NotImplementedError in zipfile)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("word/document.xml", "<w:document/>")
    data = bytearray(out.getvalue())
    central = data.rfind(b"PK\x01\x02")
    data[central + 6] = 194  # -- "version needed to extract" 19.4 --
    path = tmp_path / "odd.docx"
    path.write_bytes(bytes(data))
    assert detect_format(bytes(data), "odd.docx") == "docx"
    assert detect_file_format(str(path)) == "docx"
    assert detect_file_format(str(path.rename(tmp_path / "odd.bin"))) == "zip"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("report.PDF", "pdf"),
        ("a/b.docx", "docx"),
        ("notes.txt", "text"),
        ("README.markdown", "md"),
        ("page.htm", "html"),
        ("app.py", "code"),
        ("server.log", None),
        ("Makefile", None),
        (None, None),
    ],
)
def test_format_for_extension_is_what_a_name_claims(name: str | None, expected: str | None) -> None:
    assert format_for_extension(name) == expected
