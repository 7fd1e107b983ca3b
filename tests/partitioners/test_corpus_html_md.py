"""The shared corpus's HTML and Markdown documents: all partition, a few match golden outputs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from partita.elements import Element, Table
from partita.partitioners.html import partition_html
from partita.partitioners.markdown import partition_md
from tests.partitioners.golden import assert_matches_golden
from tests.shared import CORPUS, corpus_files, needs_corpus

Partitioner = Callable[..., list[Element]]


def _partitioner(path: Path) -> Partitioner:
    return partition_html if path.suffix in (".html", ".htm") else partition_md


@needs_corpus
@pytest.mark.parametrize(
    "path",
    corpus_files("*.html", "*.htm", "*.md", "*.markdown"),
    ids=lambda p: str(p.relative_to(CORPUS)),
)
def test_every_corpus_document_partitions(path: Path) -> None:
    elements = _partitioner(path)(path)
    assert elements
    assert len({e.element_id for e in elements}) == len(elements)
    assert all(e.text or e.category == "Image" for e in elements)
    assert all(e.metadata.filename == path.name for e in elements)
    for table in (e for e in elements if isinstance(e, Table)):
        assert (table.metadata.text_as_html or "").startswith("<table>")


@needs_corpus
@pytest.mark.parametrize(
    ("relative", "golden"),
    [
        ("unstructured/example-10k-1p.html", "html-example-10k-1p"),
        ("unstructured/example-steelJIS-datasheet.html", "html-example-steelJIS-datasheet"),
        ("markitdown/test_blog.html", "html-test-blog"),
        ("docling/wiki.md", "md-wiki"),
        ("docling/word_sample.docx.docling-gt.md", "md-word-sample-docling-gt"),
    ],
)
def test_selected_documents_match_their_golden_outputs(relative: str, golden: str) -> None:
    path = CORPUS / relative
    with path.open("rb") as f:
        elements = _partitioner(path)(file=f, metadata_filename=path.name)
    assert_matches_golden(elements, golden)


@needs_corpus
def test_ten_k_keeps_its_tables_and_text() -> None:
    elements = partition_html(CORPUS / "unstructured/example-10k.html")
    tables = [e for e in elements if isinstance(e, Table)]
    assert len(tables) == 84
    text = " ".join(e.text for e in elements)
    assert "Galaxy Gaming" in text
    assert "<script" not in text
