"""Tables without vertical lines (text-aligned, booktabs) and pages that must not give tables."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from lxml import html as lxml_html
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen.canvas import Canvas

from partita.elements import Element
from partita.partitioners.pdf import partition_pdf

Draw = Callable[[Canvas], None]

_PROSE = (
    "The committee reviewed the quarterly measurements and compared them with the published "
    "specifications of every participating laboratory. Independent verification remains "
    "essential because instrumentation drifts over long observation periods and environmental "
    "conditions fluctuate considerably, so the procedures were documented thoroughly."
)


def _pdf(draw: Draw) -> bytes:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=letter, invariant=1)
    draw(c)
    c.showPage()
    c.save()
    return buf.getvalue()


def _elements(draw: Draw) -> list[Element]:
    return partition_pdf(file=io.BytesIO(_pdf(draw)))


def _grid(element: Element) -> list[list[str]]:
    root = lxml_html.fromstring(element.metadata.text_as_html or "")
    return [
        [" ".join((cell.text_content() or "").split()) for cell in tr if cell.tag in ("td", "th")]
        for tr in root.iter("tr")
    ]


def _tables(elements: list[Element]) -> list[Element]:
    return [e for e in elements if e.category == "Table"]


def _wrap(text: str, chars: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > chars:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines


def _paragraph(c: Canvas, text: str, x: float, y: float, chars: int = 95) -> float:
    c.setFont("Helvetica", 10)
    for line in _wrap(text, chars):
        c.drawString(x, y, line)
        y -= 13
    return y - 10


_ROWS = [
    ["Region", "Stations", "Readings", "Rejected"],
    ["Tasmania", "12", "43,200", "118"],
    ["Queensland", "31", "111,600", "402"],
    ["Victoria", "18", "64,800", "95"],
    ["Kimberley", "7", "25,200", "61"],
]


def _aligned_rows(c: Canvas, y: float, rows: list[list[str]], *, bold_header: bool) -> float:
    for r, row in enumerate(rows):
        c.setFont("Helvetica-Bold" if bold_header and r == 0 else "Helvetica", 10)
        c.drawString(72, y, row[0])
        for x, cell in zip((260, 350, 440), row[1:], strict=True):
            c.drawRightString(x, y, cell)  # -- numeric columns right-aligned --
        y -= 16
    return y


# -- tables ----------------------------------------------------------------------------------------


def test_aligned_table_with_bold_header_and_numeric_columns() -> None:
    def draw(c: Canvas) -> None:
        y = _paragraph(c, _PROSE, 72, 720)
        y = _aligned_rows(c, y - 10, _ROWS, bold_header=True)
        _paragraph(c, _PROSE, 72, y - 10)

    elements = _elements(draw)
    (table,) = _tables(elements)
    assert _grid(table) == _ROWS
    assert "<thead><tr><th>Region</th>" in (table.metadata.text_as_html or "")
    assert table.text == " ".join(" ".join(row) for row in _ROWS)
    others = " ".join(e.text for e in elements if e is not table)
    assert "Tasmania" not in others
    assert "43,200" not in others
    assert [e.category for e in elements] == ["NarrativeText", "Table", "NarrativeText"]


def test_aligned_table_without_bold_header_kept_by_its_numbers() -> None:
    elements = _elements(lambda c: _aligned_rows(c, 700, _ROWS, bold_header=False))
    (table,) = _tables(elements)
    assert _grid(table) == _ROWS
    assert "<th>" not in (table.metadata.text_as_html or "")


def test_left_aligned_word_table_needs_a_bold_header() -> None:
    rows = [
        ["Instrument", "Location", "Owner"],
        ["Quokka thermometer", "Hall A", "Okonkwo"],
        ["Wallaby barometer", "Roof", "Lindqvist"],
        ["Numbat hygrometer", "Basement", "Ferreira"],
    ]

    def draw(c: Canvas) -> None:
        y = 700.0
        for r, row in enumerate(rows):
            c.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 10)
            for x, cell in zip((72, 250, 400), row, strict=True):
                c.drawString(x, y, cell)
            y -= 15

    (table,) = _tables(_elements(draw))
    assert _grid(table) == rows


def test_booktabs_table_between_horizontal_rules() -> None:
    rows = [
        ["Model", "Precision", "Recall"],
        ["baseline", "0.81", "0.77"],
        ["ours", "0.93", "0.90"],
    ]

    def draw(c: Canvas) -> None:
        y = _paragraph(c, _PROSE, 72, 720)
        c.setLineWidth(0.8)
        c.line(72, y + 2, 400, y + 2)  # -- top rule --
        y -= 12
        for r, row in enumerate(rows):
            c.setFont("Helvetica", 9)
            for x, cell in zip((80, 220, 330), row, strict=True):
                c.drawString(x, y, cell)
            if r == 0:
                c.setLineWidth(0.4)
                c.line(72, y - 4, 400, y - 4)  # -- mid rule under the header --
            y -= 15
        c.setLineWidth(0.8)
        c.line(72, y + 9, 400, y + 9)  # -- bottom rule --
        _paragraph(c, _PROSE, 72, y - 10)

    elements = _elements(draw)
    (table,) = _tables(elements)
    assert _grid(table) == rows
    assert "<thead><tr><th>Model</th>" in (table.metadata.text_as_html or "")
    assert "0.93" not in " ".join(e.text for e in elements if e is not table)


def test_table_ruled_inside_but_open_at_the_sides_keeps_its_outer_columns() -> None:
    rows = [["Dataset", "Base", "Large", "Notes"], ["PubLayNet", "F", "M", "Layouts of papers"]]
    rows += [["PRImA", "M", "-", "Scanned magazines"], ["Newspaper", "F", "-", "US newspapers"]]
    xs = (80, 170, 230, 290)

    def draw(c: Canvas) -> None:
        top, pitch = 700.0, 16.0
        bottom = top - pitch * len(rows)
        c.setLineWidth(0.6)
        for y in (top, top - pitch, bottom):
            c.line(72, y, 460, y)  # -- full-width horizontal rules --
        for x in (160, 220, 280):
            c.line(x, top, x, bottom)  # -- inner vertical rules only --
        for r, row in enumerate(rows):
            c.setFont("Helvetica", 9)
            for x, cell in zip(xs, row, strict=True):
                c.drawString(x, top - pitch * r - 12, cell)

    (table,) = _tables(_elements(draw))
    assert _grid(table)[0] == rows[0]
    assert [row[0] for row in _grid(table)] == [row[0] for row in rows]


# -- not tables --------------------------------------------------------------------------------


def _justified_prose(c: Canvas) -> None:
    y = 720.0
    for _ in range(3):
        c.setFont("Helvetica", 10)
        for line in _wrap(_PROSE, 80)[:-1]:
            words = line.split()
            extra = (440 - c.stringWidth(line, "Helvetica", 10)) / max(1, len(words) - 1)
            x = 72.0
            for word in words:
                c.drawString(x, y, word)
                x += c.stringWidth(word + " ", "Helvetica", 10) + extra
            y -= 13
        y -= 10


def _aligned_list(c: Canvas) -> None:
    y = 720.0
    for item in ("Calibrate every sensor", "Record the readings", "Publish the results", "Archive"):
        c.setFont("Helvetica", 10)
        c.drawString(90, y, "\u2022")
        c.drawString(120, y, item)  # -- a wide gap after the bullet --
        y -= 14


def _two_columns(c: Canvas) -> None:
    for x in (72, 320):
        y = 720.0
        for _ in range(3):
            y = _paragraph(c, _PROSE, x, y, chars=42)


def _form(c: Canvas) -> None:
    y = 720.0
    for left, value, right, value2 in [
        ("Name:", "Jane Doe", "Date:", "2024-03-01"),
        ("Address:", "12 High Street", "Phone:", "555 0100"),
        ("City:", "Hobart", "Postcode:", "7000"),
        ("Country:", "Australia", "Account:", "88213"),
    ]:
        c.setFont("Helvetica", 10)
        c.drawString(72, y, left)
        c.drawString(150, y, value)
        c.drawString(320, y, right)
        c.drawString(400, y, value2)
        y -= 18


def _contents(c: Canvas) -> None:
    y = 720.0
    for number, title, page in [
        ("1", "Introduction", "1"),
        ("2", "Methods", "4"),
        ("3", "Results", "9"),
        ("4", "Discussion", "15"),
    ]:
        c.setFont("Helvetica", 11)
        c.drawString(72, y, f"{number}  {title} " + "." * 60)
        c.drawRightString(520, y, page)
        y -= 16


@pytest.mark.parametrize(
    "draw",
    [_justified_prose, _aligned_list, _two_columns, _form, _contents],
    ids=["justified-prose", "aligned-list", "two-columns", "form", "contents"],
)
def test_pages_that_are_not_tables(draw: Draw) -> None:
    elements = _elements(draw)
    assert _tables(elements) == []
    assert elements
