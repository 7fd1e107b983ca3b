"""The shared corpus: every .docx partitions; golden outputs for a few small ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from partita.elements import Element
from partita.partitioners.docx import partition_docx
from tests.partitioners.golden import assert_matches_golden
from tests.shared import CORPUS, corpus_files, needs_corpus

DOCX_FILES = corpus_files("*.docx")
GOLDEN = [
    "unstructured/category-level.docx",
    "unstructured/docx-tables.docx",
    "unstructured/docx-hdrftr.docx",
    "docling/unit_test_headers_numbered.docx",
]


def _partition(path: Path) -> list[Element]:
    with path.open("rb") as f:  # -- a stream: no machine-specific directory or mtime --
        return partition_docx(file=f, metadata_filename=path.name)


@needs_corpus
@pytest.mark.parametrize("path", DOCX_FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_every_corpus_docx_partitions(path: Path) -> None:
    elements = partition_docx(path)
    assert all(e.metadata.filetype.endswith("wordprocessingml.document") for e in elements)  # type: ignore[union-attr]
    assert all(e.metadata.filename == path.name for e in elements)
    ids = [e.element_id for e in elements]
    assert len(set(ids)) == len(ids)


@needs_corpus
@pytest.mark.parametrize("name", GOLDEN)
def test_golden(name: str) -> None:
    assert_matches_golden(_partition(CORPUS / name), "docx-" + Path(name).stem)


@needs_corpus
def test_handbook_headings_and_pages() -> None:
    elements = _partition(CORPUS / "unstructured/handbook-872p.docx")
    titles = [e for e in elements if e.category == "Title"]
    assert len(titles) > 100
    pages = [e.metadata.page_number for e in elements if e.metadata.page_number is not None]
    assert pages == sorted(pages)
    assert pages[-1] > 50  # -- no rendered breaks: hard and section breaks only (about 80) --
    body = [e for e in elements if e.category not in ("Title", "Header", "Footer")]
    assert sum(1 for e in body if e.metadata.section_path) > len(body) * 0.9


def test_bundled_sample_document(fixtures_dir: Path) -> None:
    """The README's first command chunks `fixtures/sample.docx`: its structure comes through."""
    elements = partition_docx(fixtures_dir / "sample.docx")
    titles = [(e.text, e.metadata.category_depth) for e in elements if e.category == "Title"]
    assert titles == [
        ("Chunking Documents for Retrieval", 0),
        ("Why structure matters", 0),
        ("Signals a document gives", 1),
        ("Choosing a size", 1),
        ("中文知识库", 0),  # -- a custom style "标题 1" based on Heading 1 --
    ]
    (table,) = [e for e in elements if e.category == "Table"]
    assert table.metadata.text_as_html is not None
    assert "<thead><tr><th>strategy</th>" in table.metadata.text_as_html
    assert [e.text[:3] for e in elements if e.category == "ListItem"][-3:] == ["1. ", "2. ", "3. "]
