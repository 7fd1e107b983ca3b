"""Shared inputs of the integration tests: real Word documents, written with python-docx."""

from __future__ import annotations

from pathlib import Path

import pytest
from docx import Document

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def write_docx(path: Path, title: str, paragraphs: list[str]) -> Path:
    """Write a Word document: a heading, `paragraphs` under a subheading, and a small table."""
    doc = Document()
    doc.add_heading(title, level=1)
    doc.add_heading("Details", level=2)
    for text in paragraphs:
        doc.add_paragraph(text)
    table = doc.add_table(rows=2, cols=2)
    for row, cells in zip(table.rows, (("River", "Length"), ("Nile", "6650 km")), strict=True):
        for cell, text in zip(row.cells, cells, strict=True):
            cell.text = text
    doc.save(str(path))
    return path


@pytest.fixture
def sample_docx() -> Path:
    """The bundled sample Word document (`fixtures/sample.docx`)."""
    return FIXTURES / "sample.docx"


@pytest.fixture
def rivers_docx(tmp_path: Path) -> Path:
    """A Word document about rivers, written for the test."""
    return write_docx(
        tmp_path / "rivers.docx",
        "Rivers",
        [
            "Rivers carry silt to the sea. Herons wade in the shallows.",
            "The table below lists two rivers and their lengths.",
        ],
    )
