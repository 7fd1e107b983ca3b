"""Small real documents for the command line's tests, written in `tmp_path`."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest


def write_docx(path: Path, sections: list[tuple[str, list[str]]]) -> Path:
    """Write a Word document with python-docx: each section a Heading 1 and its paragraphs,
    sections after the first on a new page (a hard page break)."""
    document = docx.Document()
    for number, (heading, paragraphs) in enumerate(sections):
        if number:
            document.add_page_break()
        document.add_heading(heading, level=1)
        for paragraph in paragraphs:
            document.add_paragraph(paragraph)
    document.save(str(path))
    return path


@pytest.fixture
def report_docx(tmp_path: Path) -> Path:
    """A two-page Word document: "Introduction" on page 1, "Method" on page 2."""
    return write_docx(
        tmp_path / "report.docx",
        [
            ("Introduction", ["Partita reads documents.", "It chunks them for retrieval."]),
            ("Method", ["Headings start sections.", "Pages are counted at page breaks."]),
        ],
    )


@pytest.fixture
def docs_tree(tmp_path: Path) -> Path:
    """A tree of documents with things a directory search must leave out:

    docs/guide.md, docs/notes.txt, docs/api/reference.md, docs/api/client.py (code),
    docs/data.json (not a document), docs/logo.png, docs/.git/HEAD, docs/.draft.md (hidden).
    """
    root = tmp_path / "docs"
    (root / "api").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "guide.md").write_text("# Guide\n\nStart here.\n\n## Install\n\nRun pip.\n")
    (root / "notes.txt").write_text("Notes\n\nA plain text note.\n")
    (root / "api" / "reference.md").write_text("# Reference\n\nThe API.\n")
    (root / "api" / "client.py").write_text('def hello():\n    return "hi"\n')
    (root / "data.json").write_text('{"not": "elements"}\n')
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / ".draft.md").write_text("# Draft\n")
    return root
