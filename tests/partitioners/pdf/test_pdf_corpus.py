"""The shared corpus's PDFs: all partition without error, a few match golden outputs.

The two large PDFs (400 and 619 pages) and the slowest table-heavy ones are left to the
benchmark unless `PARTITA_PDF_FULL_CORPUS=1`, to keep this directory's tests fast.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

from partita.elements import Table
from partita.partitioners.pdf import NoTextLayerWarning, partition_pdf
from tests.partitioners.golden import assert_matches_golden
from tests.shared import CORPUS, corpus_files, needs_corpus

FULL = os.environ.get("PARTITA_PDF_FULL_CORPUS") == "1"
_SLOW = {
    "unstructured/DA-619p.pdf",
    "unstructured/pdf2image-memory-error-test-400p.pdf",
    "pdfplumber/WARN-Report-for-7-1-2015-to-03-25-2016.pdf",
    "pdfplumber/chelsea_pdta.pdf",
    "pdfplumber/federal-register-2020-17221.pdf",
    "mineru/demo1.pdf",
    "mineru/demo2.pdf",
    "docling/redp5110_sampled.pdf",
    "unstructured/fr_olap.pdf",
}


def _documents() -> list[Path]:
    return [p for p in corpus_files("*.pdf") if FULL or str(p.relative_to(CORPUS)) not in _SLOW]


@needs_corpus
@pytest.mark.parametrize("path", _documents(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_every_corpus_pdf_partitions(path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoTextLayerWarning)  # -- scans in the corpus --
        elements = partition_pdf(path)
    assert len({e.element_id for e in elements}) == len(elements)
    assert all(e.text for e in elements)
    assert all(e.metadata.filename == path.name for e in elements)
    assert all(e.metadata.filetype == "application/pdf" for e in elements)
    for table in (e for e in elements if isinstance(e, Table)):
        assert (table.metadata.text_as_html or "").startswith("<table>")


@needs_corpus
def test_the_scanned_corpus_pdf_warns_that_it_has_no_text_layer() -> None:
    path = CORPUS / "unstructured/table-multi-row-column-cells.pdf"
    with pytest.warns(NoTextLayerWarning, match="table-multi-row-column-cells.pdf"):
        assert partition_pdf(path) == []


@needs_corpus
@pytest.mark.parametrize(
    ("relative", "golden"),
    [
        ("pdfplumber/2023-06-20-PV.pdf", "pdf-2023-06-20-PV"),
        ("pdfplumber/scotus-transcript-p1.pdf", "pdf-scotus-transcript-p1"),
        ("docling/2305.03393v1-pg9.pdf", "pdf-2305.03393v1-pg9"),
        ("unstructured/korean-text-with-tables.pdf", "pdf-korean-text-with-tables"),
    ],
)
def test_selected_pdfs_match_their_golden_outputs(relative: str, golden: str) -> None:
    path = CORPUS / relative
    with path.open("rb") as f:
        elements = partition_pdf(file=f, metadata_filename=path.name)
    assert_matches_golden(elements, golden)


@needs_corpus
def test_multi_column_paper_reads_its_sections_in_order() -> None:
    elements = partition_pdf(CORPUS / "unstructured/multi-column-2p.pdf")
    titles = [e.text for e in elements if e.category == "Title"]
    assert titles[:4] == [
        "Dense Passage Retrieval for Open-Domain Question Answering",
        "Abstract",
        "1 Introduction",
        "2 Background",
    ]
    texts = [e.text for e in elements]
    intro = texts.index("1 Introduction")
    assert texts[intro + 1].startswith("Open-domain question answering (QA)")
