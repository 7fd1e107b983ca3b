"""partition_pdf on column layouts drawn with reportlab: narrow gutters, headings between column
regions, and justified prose whose wide word spaces are not gutters."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from reportlab.lib.pagesizes import letter  # type: ignore[import-untyped]
from reportlab.pdfbase.pdfmetrics import stringWidth  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from partita.elements import Element
from partita.partitioners.pdf import partition_pdf

WIDTH, HEIGHT = letter

_VOCABULARY = [
    "river",
    "stone",
    "lantern",
    "quietly",
    "harbour",
    "meadow",
    "orchard",
    "committee",
    "proposal",
    "reviews",
    "detail",
    "winter",
    "signal",
    "compass",
    "bright",
    "ledger",
    "northern",
    "valley",
    "window",
    "garden",
    "measure",
    "simple",
    "morning",
    "evening",
    "distant",
    "narrow",
    "silver",
    "copper",
    "marble",
    "thunder",
    "gentle",
    "ancient",
    "harvest",
]


def make_pdf(draw: Callable[[Canvas], None]) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=letter)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def partition(data: bytes) -> list[Element]:
    return partition_pdf(file=io.BytesIO(data))


def summary(elements: list[Element]) -> list[tuple[str, str]]:
    return [(e.category, e.text) for e in elements]


def paragraph(seed: int, count: int) -> list[str]:
    """`count` words picked deterministically from the vocabulary, the last ending a sentence."""
    words = [_VOCABULARY[(seed * 7 + i * i * 3 + i * 5) % len(_VOCABULARY)] for i in range(count)]
    words[0] = words[0].capitalize()
    words[-1] += "."
    return words


def wrap(words: list[str], width: float, font: str, size: float) -> list[list[str]]:
    lines: list[list[str]] = [[]]
    for word in words:
        if lines[-1] and stringWidth(" ".join([*lines[-1], word]), font, size) > width:
            lines.append([])
        lines[-1].append(word)
    return lines


def draw_paragraph(
    canvas: Canvas,
    x: float,
    y: float,
    words: list[str],
    width: float,
    *,
    justified: bool,
    font: str = "Times-Roman",
    size: float = 9,
    leading: float = 10.5,
) -> float:
    """Draw `words` wrapped to `width` from baseline `y` down (justified: every line but the last
    spread to the full width, word by word); return the baseline below the last line.

    A line whose spaces would be wider than one em is left ragged, as a typesetter would have
    hyphenated it (word spaces wider than about one em split a line: see `lines`)."""
    canvas.setFont(font, size)
    lines = wrap(words, width, font, size)
    for k, line in enumerate(lines):
        widths = [stringWidth(word, font, size) for word in line]
        space = (width - sum(widths)) / max(1, len(line) - 1)
        if justified and k < len(lines) - 1 and len(line) > 1 and space <= size:
            at = x
            for word, word_width in zip(line, widths, strict=True):
                canvas.drawString(at, y, word)
                at += word_width + space
        else:
            canvas.drawString(x, y, " ".join(line))
        y -= leading
    return y


@pytest.mark.parametrize("justified", [True, False], ids=["justified", "ragged"])
@pytest.mark.parametrize("gutter", [8, 10, 12])
def test_three_columns_with_a_narrow_gutter_are_read_one_after_the_other(
    gutter: float, justified: bool
) -> None:
    column = (WIDTH - 2 * 46 - 2 * gutter) / 3
    texts = [[paragraph(10 * col + k, 70 + 9 * k) for k in range(2)] for col in range(3)]

    def draw(c: Canvas) -> None:
        c.setFont("Times-Bold", 14)
        c.drawCentredString(WIDTH / 2, 740, "A Centred Heading Over Three Columns")
        for col, paragraphs in enumerate(texts):
            x, y = 46 + col * (column + gutter), 712.0
            for words in paragraphs:
                y = draw_paragraph(c, x, y, words, column, justified=justified) - 8

    elements = partition(make_pdf(draw))
    assert summary(elements) == [
        ("Title", "A Centred Heading Over Three Columns"),
        *[("NarrativeText", " ".join(words)) for paragraphs in texts for words in paragraphs],
    ]


def test_two_narrow_column_regions_keep_the_full_width_heading_between_them() -> None:
    column, gutter = 230, 8
    regions = [[paragraph(3 * r + col, 60) for col in range(2)] for r in range(2)]

    def draw(c: Canvas) -> None:
        y = 730.0
        for r, region in enumerate(regions):
            if r:
                c.setFont("Times-Bold", 13)
                c.drawCentredString(WIDTH / 2, y, "The Heading Between Column Regions")
                y -= 24
            bottoms = [
                draw_paragraph(c, 72 + col * (column + gutter), y, words, column, justified=True)
                for col, words in enumerate(region)
            ]
            y = min(bottoms) - 20

    elements = partition(make_pdf(draw))
    assert summary(elements) == [
        ("NarrativeText", " ".join(regions[0][0])),
        ("NarrativeText", " ".join(regions[0][1])),
        ("Title", "The Heading Between Column Regions"),
        ("NarrativeText", " ".join(regions[1][0])),
        ("NarrativeText", " ".join(regions[1][1])),
    ]


@pytest.mark.parametrize("aligned", [True, False], ids=["aligned-spaces", "varied-spaces"])
def test_justified_paragraph_with_wide_word_spaces_stays_one_paragraph(aligned: bool) -> None:
    # -- aligned: every line holds the same words 0.9 em apart, so its wide spaces line up down
    # -- the page like a gutter would; they are as wide as every other space of their line --
    if aligned:
        lines = [["Orchard", "lantern", "committee", "harbour", "valley", "window"]] * 9
        words = [word for line in lines for word in line]
        words[-1] += "."
    else:
        words = paragraph(5, 120)

    def draw(c: Canvas) -> None:
        if not aligned:
            draw_paragraph(c, 72, 700, words, 400, justified=True, font="Helvetica", size=10)
            return
        c.setFont("Helvetica", 10)
        for k, line in enumerate(lines):
            at = 72.0
            for word in line:
                c.drawString(at, 700 - 12 * k, word + ("." if k == 8 and word == "window" else ""))
                at += stringWidth(word, "Helvetica", 10) + 9

    elements = partition(make_pdf(draw))
    assert summary(elements) == [("NarrativeText", " ".join(words))]
