"""The PDFium source (`partita.partitioners.pdf.pdfium`): the same structure as the pdfplumber
source, its frame, its preflight, and files given as paths or file objects."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from partita.partitioners.pdf import BACKENDS, partition_pdf
from partita.partitioners.pdf.pdfium._frame import frame_for
from partita.partitioners.pdf.pdfium._preflight import _ABSURD_NUMBER, Preflight
from tests.partitioners.pdf.structured_docs import structured_docs
from tests.robustness.hostile_pdf import xobject_fan_out


@pytest.mark.parametrize("doc", structured_docs(), ids=lambda doc: doc.name)
def test_both_backends_give_the_same_elements(doc: object) -> None:
    data: bytes = doc.data  # type: ignore[attr-defined]
    pdfium = partition_pdf(file=io.BytesIO(data))
    plumber = partition_pdf(file=io.BytesIO(data), backend="pdfplumber")
    assert [(e.category, e.text, e.metadata.category_depth) for e in pdfium] == [
        (e.category, e.text, e.metadata.category_depth) for e in plumber
    ]
    assert {e.metadata.detection_origin for e in pdfium} == {"pdfium"}
    assert {e.metadata.detection_origin for e in plumber} == {"pdfplumber"}


def test_a_path_and_a_file_object_give_the_same_elements(tmp_path: Path) -> None:
    doc = structured_docs()[0]
    path = tmp_path / "report.pdf"
    path.write_bytes(doc.data)
    from_path = partition_pdf(path)
    with path.open("rb") as file:  # -- read by pdfminer and PDFium in turn, each seeking --
        from_file = partition_pdf(file=file, metadata_filename=str(path))
    assert [e.text for e in from_file] == [e.text for e in from_path]
    assert len(from_path) > 20
    assert from_path[0].metadata.last_modified is not None


def test_an_unknown_backend_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="pdfium, pdfplumber"):
        partition_pdf(file=io.BytesIO(structured_docs()[0].data), backend="mupdf")
    assert BACKENDS == ("pdfium", "pdfplumber")


@pytest.mark.parametrize(
    ("rotation", "point", "expected", "size"),
    [
        (0, (10.0, 20.0), (10.0, 20.0), (612.0, 792.0)),
        (90, (10.0, 20.0), (20.0, 602.0), (792.0, 612.0)),
        (180, (10.0, 20.0), (602.0, 772.0), (612.0, 792.0)),
        (270, (10.0, 20.0), (772.0, 10.0), (792.0, 612.0)),
    ],
)
def test_the_frame_shows_user_space_rotated_clockwise(
    rotation: int,
    point: tuple[float, float],
    expected: tuple[float, float],
    size: tuple[float, float],
) -> None:
    frame = frame_for((0.0, 0.0, 612.0, 792.0), rotation)
    assert frame.point(*point) == expected
    assert (frame.width, frame.height) == size


@pytest.mark.parametrize(
    ("content", "absurd"),
    [
        (b"BT /F1 12 Tf 99999999999999 0 Td (x) Tj ET", True),
        (b"BT /F1 12 Tf [1 0 0 1 -12345678901234.5 0] Tm ET", True),
        (b"BT /F1 12 Tf <00120034005600780090001200340056> Tj ET", False),
        (b"BT /F1 12 Tf (1234567890123456) Tj ET", False),
        (b"BT /F1 12 Tf 72 720 Td (ordinary) Tj ET", False),
    ],
)
def test_absurd_numbers_are_number_tokens_not_digits_in_strings(
    content: bytes, absurd: bool
) -> None:
    assert bool(_ABSURD_NUMBER.search(content)) is absurd


def test_a_fan_out_of_forms_weighs_past_the_bound_and_is_read_by_pdfminer() -> None:
    import pdfplumber

    from partita.partitioners.pdf._limits import DocumentBudget
    from partita.partitioners.pdf._open import guarded

    data = xobject_fan_out(levels=6, fan=10)  # -- a million form draws --
    with pdfplumber.open(io.BytesIO(data)) as pdf, guarded("fan", "x", DocumentBudget("fan", 1)):
        refusal = Preflight().refusal(pdf.pages[0].page_obj)
    assert refusal is not None
    assert "weighs more than" in refusal
    light = structured_docs()[0].data
    with pdfplumber.open(io.BytesIO(light)) as pdf, guarded("light", "x", DocumentBudget("l", 1)):
        assert Preflight().refusal(pdf.pages[0].page_obj) is None


def test_characters_beyond_the_bmp_read_whole_and_the_text_encodes() -> None:
    from tests.shared import shared_corpus

    # -- normal_4pages draws characters beyond the BMP (mathematical letters): PDFium gives each
    # -- as two char indexes, which were read as two lone surrogates the text could not encode --
    elements = partition_pdf(shared_corpus() / "docling" / "normal_4pages.pdf")
    text = "".join(element.text for element in elements)
    text.encode("utf-8")  # -- raises on a lone surrogate --
    assert any(ord(char) > 0xFFFF for char in text)
