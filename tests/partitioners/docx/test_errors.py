"""Bad input: typed errors naming the file, bounded decompression, no entity expansion
(`partitioners/docx/_package.py`)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from partita.errors import DocumentError, FileReadError, PartitaError
from partita.partitioners.docx import _limits as limits
from partita.partitioners.docx import partition_docx
from partita.partitioners.docx._losses import DocxContentWarning
from tests.partitioners.docx.builders import new_document, to_bytes


def _zip(parts: dict[str, bytes]) -> bytes:
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return stream.getvalue()


def _error(tmp_path: Path, data: bytes, name: str = "bad.docx") -> DocumentError:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(DocumentError) as info:
        partition_docx(path)
    assert str(path) in str(info.value)
    assert info.value.filename == str(path)
    return info.value


def test_not_a_zip(tmp_path: Path) -> None:
    assert "zip" in str(_error(tmp_path, b"just some text, not a docx"))


def test_corrupt_zip(tmp_path: Path) -> None:
    _error(tmp_path, b"PK\x03\x04" + b"\x00garbage" * 50)


def test_truncated_docx(tmp_path: Path) -> None:
    data = to_bytes(new_document())
    _error(tmp_path, data[: len(data) // 2])


def test_zip_without_a_main_document(tmp_path: Path) -> None:
    error = _error(tmp_path, _zip({"hello.txt": b"hi", "[Content_Types].xml": b"<Types/>"}))
    assert "word/document.xml" in str(error)


def test_document_part_that_is_not_wordprocessingml(tmp_path: Path) -> None:
    _error(tmp_path, _zip({"word/document.xml": b"<html><body/></html>"}))


def test_malformed_xml(tmp_path: Path) -> None:
    _error(tmp_path, _zip({"word/document.xml": b"<w:document><w:body>"}))


def test_zip_bomb_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_PART_BYTES", 1024 * 1024)
    bomb = _zip({"word/document.xml": b"<a>" + b" " * (8 * 1024 * 1024) + b"</a>"})
    assert len(bomb) < 64 * 1024
    assert "size limit" in str(_error(tmp_path, bomb)) or "too large" in str(_error(tmp_path, bomb))


def _document_with_dtd(dtd: str, text: str) -> bytes:
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    return (
        f'<?xml version="1.0"?><!DOCTYPE d [{dtd}]>'
        f'<w:document xmlns:w="{w}"><w:body><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:body>'
        "</w:document>"
    ).encode()


def test_entity_expansion_bomb_is_a_document_error(tmp_path: Path) -> None:
    laughs = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    document = _document_with_dtd(f'<!ENTITY l0 "ha">{laughs}', "x&l9;")
    _error(tmp_path, _zip({"word/document.xml": document}))


def test_external_entities_are_not_resolved(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    document = _document_with_dtd(f'<!ENTITY xxe SYSTEM "file://{secret}">', "see &xxe;")
    path = tmp_path / "xxe.docx"
    path.write_bytes(_zip({"word/document.xml": document}))
    with pytest.warns(DocxContentWarning, match="unexpanded entity references: 1"):
        assert [e.text for e in partition_docx(path)] == ["see"]


def test_missing_file_is_a_file_read_error(tmp_path: Path) -> None:
    with pytest.raises(FileReadError):
        partition_docx(tmp_path / "absent.docx")


def test_stream_errors_name_the_given_filename() -> None:
    with pytest.raises(PartitaError, match=r"upload\.docx"):
        partition_docx(file=io.BytesIO(b"nope"), metadata_filename="upload.docx")
