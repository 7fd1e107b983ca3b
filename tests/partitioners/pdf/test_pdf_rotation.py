"""Pages turned for display (`/Rotate`) and text drawn turned on the page: each is read in the
orientation its text is written in (`pdfium.page.text_rotation`)."""

from __future__ import annotations

import io

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen.canvas import Canvas

from partita.partitioners.pdf import partition_pdf


def _page(rotate: int, turn: int) -> bytes:
    """One page shown rotated by `rotate` degrees, its text drawn turned by `turn` degrees
    (counter-clockwise, about the page's centre): a heading and two paragraphs."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=letter)
    canvas.setPageRotation(rotate)
    if turn:
        canvas.translate(306, 396)
        canvas.rotate(turn)
        canvas.translate(-306, -396)
    canvas.setFont("Helvetica-Bold", 18)
    canvas.drawString(72, 600, "Heading of the page")
    canvas.setFont("Helvetica", 11)
    y = 570
    for n in range(1, 7):
        canvas.drawString(72, y, f"Line {n} of the first paragraph, which goes on for a while.")
        y -= 14
    y -= 14
    for n in range(1, 5):
        canvas.drawString(72, y, f"Line {n} of the second paragraph, also fairly long text.")
        y -= 14
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _summary(data: bytes, **options: str) -> list[tuple[str, str]]:
    return [(e.category, e.text) for e in partition_pdf(file=io.BytesIO(data), **options)]


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_a_turned_page_reads_as_an_upright_one(rotate: int, turn: int) -> None:
    upright = _summary(_page(0, 0))
    assert [category for category, _ in upright] == ["Title", "NarrativeText", "NarrativeText"]
    assert upright[1][1].startswith("Line 1 of the first paragraph")
    assert _summary(_page(rotate, turn)) == upright


def test_the_pdfplumber_backend_leaves_out_text_not_upright_on_the_shown_page() -> None:
    # -- what the default backend fixes: pdfminer applies /Rotate and drops what is then not
    # -- upright, so a page turned for display without its text turned reads as nothing --
    assert _summary(_page(90, 0), backend="pdfplumber") == []
    assert _summary(_page(90, 0)) == _summary(_page(0, 0))
