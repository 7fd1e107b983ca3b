"""`partita.partition` picks the partitioner from the content, and fails with typed errors."""

from __future__ import annotations

import io
import pickle
import re
import warnings
from pathlib import Path

import pytest

import partita
from partita.errors import FileReadError, PartitaWarning, UnsupportedFormatError
from partita.partitioners import EmptyDocumentWarning, FormatMismatchWarning


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


# -- what partition() says about a document: empty, or not what its name claims ---------------


EMPTY_FILES = [
    (f"empty.{extension}", b"", "the file is empty (0 bytes)")
    for extension in ("pdf", "docx", "txt", "md", "html", "py")
]
"""An empty file of each format, and the reason its warning gives (the CLI's tests use them
too)."""


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        *EMPTY_FILES,
        ("blank.txt", b" \n\t\r\n\xc2\xa0\n", "it holds only whitespace"),
        ("blank.pdf", b"\n\n", "it holds only whitespace"),
        ("blank.md", b"\xef\xbb\xbf  \n", "it holds only whitespace"),
        ("blank.py", b"\n\n", "it holds only whitespace"),
        ("blank.html", b"<body><p> </p></body>", "partita found no text in this HTML document"),
    ],
)  # fmt: skip
def test_a_document_without_elements_warns_naming_it(
    tmp_path: Path, name: str, data: bytes, reason: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    expected = f"{path}: no elements: {reason}"
    with pytest.warns(EmptyDocumentWarning) as caught:
        assert partita.partition(path) == []
    assert [str(w.message) for w in caught] == [expected]  # -- and no FormatMismatchWarning --
    message = re.escape(f"{name}: no elements: {reason}")
    with pytest.warns(EmptyDocumentWarning, match=message), open(path, "rb") as f:
        assert partita.partition(file=f) == []


def test_documents_without_text_say_so(tmp_path: Path) -> None:
    from docx import Document
    from reportlab.pdfgen import canvas

    Document().save(str(tmp_path / "blank.docx"))
    pdf = canvas.Canvas(str(tmp_path / "blank.pdf"), invariant=1)
    pdf.showPage()
    pdf.save()
    for name, kind in (("blank.docx", "Word (docx)"), ("blank.pdf", "PDF")):
        message = f"{name}: no elements: partita found no text in this {kind} document"
        with pytest.warns(EmptyDocumentWarning, match=re.escape(message)):
            assert partita.partition(tmp_path / name) == []


def test_empty_text_and_streams_warn_too() -> None:
    with pytest.warns(EmptyDocumentWarning, match=r"^<text>: no elements: the text is empty$"):
        assert partita.partition(text="") == []
    with pytest.warns(EmptyDocumentWarning, match="^<text>: no elements: it holds only whitespace"):
        assert partita.partition(text=" \n ") == []
    message = "^<stream>: no elements: the document is empty \\(0 bytes\\)$"
    with pytest.warns(EmptyDocumentWarning, match=message):
        assert partita.partition(file=io.BytesIO(b"")) == []
    with pytest.warns(EmptyDocumentWarning, match="^in.md: no elements: the file is empty"):
        partita.partition(file=io.BytesIO(b""), metadata_filename="in.md")


def test_a_warning_can_be_made_an_error(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    with warnings.catch_warnings():
        warnings.simplefilter("error", EmptyDocumentWarning)
        with pytest.raises(EmptyDocumentWarning) as info:
            partita.partition(path)
    assert (info.value.filename, info.value.reason) == (str(path), "the file is empty (0 bytes)")
    again = pickle.loads(pickle.dumps(info.value))
    assert (type(again), str(again)) == (EmptyDocumentWarning, str(info.value))
    assert issubclass(EmptyDocumentWarning, PartitaWarning)
    assert issubclass(FormatMismatchWarning, PartitaWarning)


def test_content_that_is_not_what_its_name_claims_is_read_as_what_it_is(tmp_path: Path) -> None:
    notes = tmp_path / "notes.pdf"
    notes.write_text("Meeting notes\n\nWe agreed.\n")
    message = f"{notes}: the content is plain text, not PDF: read as plain text"
    with pytest.warns(FormatMismatchWarning) as caught:
        elements = partita.partition(notes)
    assert [str(w.message) for w in caught] == [message]
    assert [e.text for e in elements] == ["Meeting notes", "We agreed."]
    assert {e.metadata.filetype for e in elements} == {"text/plain"}

    word = tmp_path / "report.pdf"
    _sample_docx(word)
    message = "report.pdf: the content is Word (docx), not PDF: read as Word (docx)"
    with pytest.warns(FormatMismatchWarning, match=re.escape(message)):
        assert [e.text for e in partita.partition(word)] == ["Hello from Word."]

    pdf = tmp_path / "scan.txt"
    _sample_pdf(pdf)
    with pytest.warns(FormatMismatchWarning, match="the content is PDF, not plain text"):
        assert [e.text for e in partita.partition(pdf)] == ["Hello from a PDF."]

    message = "upload.docx: the content is plain text, not Word (docx): read as plain text"
    with pytest.warns(FormatMismatchWarning, match=re.escape(message)):
        partita.partition(file=io.BytesIO(b"hello"), metadata_filename="upload.docx")


@pytest.mark.parametrize(
    ("name", "data", "content_type"),
    [
        ("notes.pdf", b"plain words", "text/plain"),  # -- the caller said what it is --
        ("server.log", b"plain words", None),  # -- the name claims no format --
        ("data", b"plain words", None),
        ("README.md", b'<p align="center">logo</p>\n\n# Project\n\nText.', None),
        ("page.html", b"plain words", None),  # -- an .html name is HTML whatever it holds --
    ],
)
def test_no_mismatch_is_reported_where_there_is_none(
    tmp_path: Path, name: str, data: bytes, content_type: str | None
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert partita.partition(path, content_type=content_type)
