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


def _sample_pdf(path: Path) -> None:
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path), invariant=1)
    pdf.drawString(72, 720, "Hello from a PDF.")
    pdf.save()


def _sample_docx(path: Path) -> None:
    from docx import Document

    doc = Document()
    doc.add_paragraph("Hello from Word.")
    doc.save(str(path))


@pytest.mark.parametrize(
    ("name", "write", "filetype", "text"),
    [
        ("a.pdf", _sample_pdf, "application/pdf", "Hello from a PDF."),
        (
            "a.docx",
            _sample_docx,
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "Hello from Word.",
        ),
        ("a.html", b"<html><body><p>Hello from HTML.</p></body></html>", "text/html", None),
        ("a.md", b"# Hello\n\nFrom *Markdown*.", "text/markdown", None),
    ],
)
def test_every_format_is_dispatched_to_its_partitioner(
    tmp_path: Path, name: str, write: object, filetype: str, text: str | None
) -> None:
    path = tmp_path / name
    if isinstance(write, bytes):
        path.write_bytes(write)
    else:
        assert callable(write)
        write(path)
    sources = [path]
    if filetype != "text/markdown":  # -- Markdown is told by its name: its content is text --
        # -- a name without the extension: the content decides --
        anonymous = tmp_path / "document"
        anonymous.write_bytes(path.read_bytes())
        sources.append(anonymous)
    for source in sources:
        elements = partita.partition(source)
        assert elements, source
        assert {e.metadata.filetype for e in elements} == {filetype}
        if text is not None:
            assert [e.text for e in elements] == [text]


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
