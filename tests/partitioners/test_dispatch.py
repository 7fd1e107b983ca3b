"""`partita.partition` picks the partitioner from the content, and fails with typed errors."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import partita
from partita.errors import FileReadError, UnsupportedFormatError


def test_text_file_is_partitioned(fixtures_dir: Path) -> None:
    elements = partita.partition(fixtures_dir / "sample.txt")
    assert elements == partita.partition_text(fixtures_dir / "sample.txt")
    assert elements[0].text == "Chunking Documents for Retrieval"


def test_text_argument_and_file_object() -> None:
    by_text = partita.partition(text="Hello\n\nWorld.")
    by_file = partita.partition(file=io.BytesIO(b"Hello\n\nWorld."))
    assert [e.text for e in by_text] == [e.text for e in by_file] == ["Hello", "World."]


def test_file_object_keeps_its_name(tmp_path: Path) -> None:
    path = tmp_path / "n.txt"
    path.write_text("Hello")
    with open(path, "rb") as f:
        (element,) = partita.partition(file=f)
    assert element.metadata.filename == "n.txt"


@pytest.mark.parametrize(
    ("data", "name", "fmt"),
    [
        (b"%PDF-1.4\n%%EOF", "a.pdf", "pdf"),
        (b"<html><body><p>x</p></body></html>", "a.html", "html"),
        (b"# x", "a.md", "md"),
    ],
)
def test_formats_without_a_partitioner_are_named(
    tmp_path: Path, data: bytes, name: str, fmt: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    if fmt in partita.partitioners.PARTITIONERS:
        pytest.skip(f"{fmt} has a partitioner now")
    with pytest.raises(UnsupportedFormatError, match=fmt) as info:
        partita.partition(path)
    assert info.value.format == fmt
    assert name in str(info.value)


def test_zip_that_is_not_docx_is_unsupported(tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "a.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("x.txt", "x")
    with pytest.raises(UnsupportedFormatError, match="zip"):
        partita.partition(path)


def test_content_type_overrides_detection() -> None:
    elements = partita.partition(text="<p>not html here</p>", content_type="text/plain")
    assert [e.text for e in elements] == ["<p>not html here</p>"]
    with pytest.raises(UnsupportedFormatError, match="image/png"):
        partita.partition(text="x", content_type="image/png")


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(FileReadError, match=r"missing\.txt"):
        partita.partition(tmp_path / "missing.txt")
    with pytest.raises(FileReadError):
        partita.partition(tmp_path)


def test_exactly_one_source() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        partita.partition(text="a", file=io.BytesIO(b"a"))
