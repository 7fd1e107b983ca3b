"""Regressions for defects of `partition_pdf` found on real documents, each reproduced on a PDF
drawn here with reportlab, and read with every character source (`backend`) partita has."""

from __future__ import annotations

import io
from typing import Any

import pytest
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from partita.elements import Element
from partita.partitioners import pdf
from tests.partitioners.pdf.test_pdf_columns import (
    WIDTH,
    draw_paragraph,
    make_pdf,
    paragraph,
    summary,
)

_BACKENDS: tuple[str | None, ...] = tuple(getattr(pdf, "BACKENDS", ())) or (None,)


@pytest.fixture(params=_BACKENDS, ids=lambda b: b or "default")
def backend(request: pytest.FixtureRequest) -> str | None:
    value: str | None = request.param
    return value


def partition(data: bytes, backend: str | None, **options: Any) -> list[Element]:
    if backend is not None:
        options["backend"] = backend
    return pdf.partition_pdf(file=io.BytesIO(data), **options)


# -- 1. a bulleted list in the right column ------------------------------------------------------


@pytest.mark.parametrize("gutter", [10, 24], ids=["narrow-gutter", "wide-gutter"])
def test_bulleted_list_in_the_right_column_keeps_its_bullets(
    gutter: float, backend: str | None
) -> None:
    # -- reportlab's standard fonts have no "•": it is drawn as an unmapped glyph, which reads as
    # -- a bullet where it opens a line; in the right column it follows the left column's text
    # -- on the same printed line --
    column = (WIDTH - 120 - gutter) / 2
    left = paragraph(1, 90)
    intro = paragraph(2, 25)
    items = [" ".join(paragraph(20 + k, 4 + k % 3)[:-1]) for k in range(5)]

    def draw(c: Canvas) -> None:
        draw_paragraph(c, 60, 700, left, column, justified=False, font="Helvetica", size=10)
        x = 60 + column + gutter
        y = draw_paragraph(c, x, 700, intro, column, justified=False, font="Helvetica", size=10)
        c.setFont("Helvetica", 10)
        for item in items:
            c.drawString(x, y, "\u2022")
            c.drawString(x + 10, y, item)
            y -= 10.5

    elements = partition(make_pdf(draw), backend)
    assert summary(elements) == [
        ("NarrativeText", " ".join(left)),
        ("NarrativeText", " ".join(intro)),
        *[("ListItem", item) for item in items],
    ]
