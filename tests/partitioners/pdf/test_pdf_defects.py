"""Regressions for defects of `partition_pdf` found on real documents, each reproduced on a PDF
drawn here with reportlab, and read with every character source (`backend`) partita has."""

from __future__ import annotations

import io
from typing import Any

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth  # type: ignore[import-untyped]
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


# -- 2. a boxed table's bold header row ----------------------------------------------------------


def test_bold_header_row_of_a_table_with_every_cell_boxed_is_only_in_the_table(
    backend: str | None,
) -> None:
    # -- every cell drawn as its own box, 6 pt apart (HTML's separate borders): more than the
    # -- ruled finder's 3 pt snap, so the boxes are no grid and the table is read from its
    # -- aligned text; the header row is taller than the body's, its text set off by 1.6 em --
    rows = [
        ["Name", "Quantity", "Price"],
        ["Apples", "12", "3.50"],
        ["Pears", "7", "2.25"],
        ["Plums", "30", "9.00"],
        ["Figs", "4", "1.10"],
    ]
    xs, spacing = [72, 222, 372, 522], 6.0
    heights = [32.0] + [20.0] * (len(rows) - 1)

    def draw(c: Canvas) -> None:
        c.setFont("Helvetica", 10)
        c.drawString(72, 720, "A paragraph above the table, in the body font of the page.")
        y = 700.0
        for row, height in zip(rows, heights, strict=True):
            c.setFont("Helvetica-Bold" if row is rows[0] else "Helvetica", 10)
            for k, cell in enumerate(row):
                x0, x1 = xs[k] + spacing / 2, xs[k + 1] - spacing / 2
                c.rect(x0, y - height + spacing / 2, x1 - x0, height - spacing)
                c.drawString(x0 + 3, y - height / 2 - 3.5, cell)
            y -= height
        c.setFont("Helvetica", 10)
        c.drawString(72, 450, "A paragraph below the table, in the body font of the page.")

    elements = partition(make_pdf(draw), backend)
    assert [e.category for e in elements] == ["NarrativeText", "Table", "NarrativeText"]
    table = elements[1]
    assert table.text == " ".join(cell for row in rows for cell in row)
    assert (table.metadata.text_as_html or "").startswith(
        "<table><thead><tr><th>Name</th><th>Quantity</th><th>Price</th></tr></thead>"
    )


# -- 3. table of contents entries with dot leaders -----------------------------------------------


@pytest.mark.parametrize("leader", [".", ". "], ids=["dots", "spaced-dots"])
def test_table_of_contents_entries_with_dot_leaders_are_one_element_each(
    leader: str, backend: str | None
) -> None:
    titles = ["Introduction", "Purpose of this guide", "Scope", "Background", "Methods"]
    entries = [
        (f"{k // 2 + 1}.{k % 2 + 1} {title}", str(3 + 4 * k)) for k, title in enumerate(titles)
    ]
    drawn: list[str] = []

    def draw(c: Canvas) -> None:
        c.setFont("Helvetica-Bold", 16)
        c.drawString(72, 720, "Contents")
        c.setFont("Helvetica", 10)
        for k, (text, page) in enumerate(entries):
            dots = leader * int(
                (400 - stringWidth(text, "Helvetica", 10)) / stringWidth(leader, "Helvetica", 10)
            )
            line = f"{text} {dots} {page}"
            drawn.append(" ".join(line.split()))
            c.drawString(72, 600 - 13 * k, line)

    elements = partition(make_pdf(draw), backend)
    # -- each entry its own paragraph, and no heading: "1.2 Scope ........ 7" is no section --
    assert summary(elements) == [
        ("Title", "Contents"),
        *[("NarrativeText", text) for text in drawn],
    ]


# -- 4. footnotes at a column's foot -------------------------------------------------------------


def _spread(c: Canvas, x: float, y: float, words: list[str], width: float) -> None:
    """Draw `words` in 7 pt Times justified to `width` from `x`."""
    widths = [stringWidth(word, "Times-Roman", 7) for word in words]
    space = (width - sum(widths)) / (len(words) - 1)
    c.setFont("Times-Roman", 7)
    for word, word_width in zip(words, widths, strict=True):
        c.drawString(x, y, word)
        x += word_width + space


def _words_within(seed: int, width: float) -> list[str]:
    words: list[str] = []
    for word in paragraph(seed, 40):
        if stringWidth(" ".join([*words, word]), "Times-Roman", 7) > width - 4:
            break
        words.append(word)
    return words


def test_footnotes_at_a_columns_foot_follow_its_body_each_its_own_paragraph(
    backend: str | None,
) -> None:
    # -- set as the Federal Register sets them (page 3, notes 11 and 12): 7 pt under a short
    # -- rule, each note's first line indented 10 pt, the lines justified; the first note's last
    # -- line ends 25 pt short of the column and the second's first line 35 pt short, so the two
    # -- lines are centred on each other by chance, which joined the notes --
    gutter = 12.0
    column = (WIDTH - 2 * 54 - gutter) / 2
    left = [paragraph(k, 70) for k in range(3)]
    right = [paragraph(20 + k, 90) for k in range(3)]
    short = {(0, 2): 25.0, (1, 0): 35.0}
    notes = [
        [_words_within(50, column - 10), _words_within(51, column), _words_within(52, column - 25)],
        [_words_within(53, column - 45), _words_within(54, column - 60)],
    ]
    for k, note in enumerate(notes):
        note[0][0] = f"{k + 1}{note[0][0]}"

    def draw(c: Canvas) -> None:
        y = 720.0
        for words in left:
            y = draw_paragraph(c, 54, y, words, column, justified=True) - 8
        y = 150.0
        c.setLineWidth(0.5)
        c.line(54, y + 11, 104, y + 11)
        for k, note in enumerate(notes):
            for j, words in enumerate(note):
                x0 = 64.0 if j == 0 else 54.0
                if j == len(note) - 1 and k == len(notes) - 1:
                    c.setFont("Times-Roman", 7)
                    c.drawString(x0, y, " ".join(words))
                else:
                    _spread(c, x0, y, words, 54 + column - short.get((k, j), 0.0) - x0)
                y -= 8
        y = 720.0
        for words in right:
            y = draw_paragraph(c, 54 + column + gutter, y, words, column, justified=True) - 8

    elements = partition(make_pdf(draw), backend)
    assert summary(elements) == [
        *[("NarrativeText", " ".join(words)) for words in left],
        *[("NarrativeText", " ".join(" ".join(line) for line in note)) for note in notes],
        *[("NarrativeText", " ".join(words)) for words in right],
    ]


# -- 5. a running header on the even pages only --------------------------------------------------


@pytest.mark.parametrize("pages", [4, 5, 6])
def test_running_header_on_the_even_pages_of_a_short_document_is_a_header(
    pages: int, backend: str | None
) -> None:
    header = "Annual Report of the Harbour Committee"
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(WIDTH, 792))
    for page in range(1, pages + 1):
        if page % 2 == 0:
            canvas.setFont("Helvetica", 9)
            canvas.drawString(72, 750, header)
        y = 700.0
        for k in range(3):
            y = draw_paragraph(canvas, 72, y, paragraph(10 * page + k, 60), 460, justified=False)
            y -= 12
        canvas.showPage()
    canvas.save()

    elements = partition(buffer.getvalue(), backend)
    assert [(e.metadata.page_number, e.category) for e in elements if e.text == header] == [
        (page, "Header") for page in range(2, pages + 1, 2)
    ]
    assert not any(e.category in ("Header", "Footer") and e.text != header for e in elements)
