"""Headings of `partition_pdf`: numbered headings, stable depths, strictness, top-of-page headings.

Each test draws a small PDF with reportlab (10 pt Helvetica body) and asserts the exact Title
texts and depths.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen.canvas import Canvas

from partita.partitioners.pdf import partition_pdf

_TEXT = (
    "the quick brown fox jumps over the lazy dog while the committee reviews every proposal "
    "in detail before a final vote is taken on the matter"
)
_WORDS = _TEXT.split()


def _sentence(seed: int, n: int = 14) -> str:
    return " ".join(_WORDS[(seed * 7 + i) % len(_WORDS)] for i in range(n)).capitalize()


def _draw(path: Path, pages: int, page: Callable[[Canvas, int], None]) -> str:
    c = Canvas(str(path), pagesize=letter, invariant=1)
    for p in range(pages):
        page(c, p)
        c.showPage()
    c.save()
    return str(path)


def _body(c: Canvas, y: float, lines: int, seed: int = 0) -> float:
    c.setFont("Helvetica", 10)
    for i in range(lines):
        c.drawString(72, y, _sentence(seed + i))
        y -= 13
    return y - 10


def _titles(path: str) -> list[tuple[str, int | None]]:
    return [
        (el.text, el.metadata.category_depth)
        for el in partition_pdf(filename=path)
        if el.category == "Title"
    ]


def _of(path: str, category: str) -> list[str]:
    return [el.text for el in partition_pdf(filename=path) if el.category == category]


# -- D2: typography beats list markers -------------------------------------------------------------


def test_numbered_headings_in_a_heading_font_are_titles(tmp_path: Path) -> None:
    def page(c: Canvas, p: int) -> None:
        y = 640.0
        for h in range(2):
            c.setFont("Helvetica-Bold", 16)
            c.drawString(72, y, f"{p * 2 + h + 1}. Introduction part {h}")
            y -= 24
            c.setFont("Helvetica-Bold", 11)
            c.drawString(72, y, f"(1) Background of item {h}")
            y = _body(c, y - 18, 8, h)

    titles = _titles(_draw(tmp_path / "numbered.pdf", 2, page))
    assert titles == [
        ("1. Introduction part 0", 0),
        ("(1) Background of item 0", 1),
        ("2. Introduction part 1", 0),
        ("(1) Background of item 1", 1),
        ("3. Introduction part 0", 0),
        ("(1) Background of item 0", 1),
        ("4. Introduction part 1", 0),
        ("(1) Background of item 1", 1),
    ]


def test_body_font_numbered_lines(tmp_path: Path) -> None:
    """A lone "1. Introduction" in the body font is a Title; a numbered list stays a list."""

    def page(c: Canvas, p: int) -> None:
        c.setFont("Helvetica", 10)
        c.drawString(72, 640, f"{p + 1}. Introduction")
        y = _body(c, 620, 6, p)
        y -= 10
        c.setFont("Helvetica", 10)
        for i, item in enumerate(("Apples and pears", "Oranges", "Plums")):
            c.drawString(72, y, f"{i + 1}. {item}")
            y -= 13
        _body(c, y - 10, 6, p + 3)

    path = _draw(tmp_path / "body-numbered.pdf", 2, page)
    assert _titles(path) == [("1. Introduction", 0), ("2. Introduction", 0)]
    assert _of(path, "ListItem") == ["1. Apples and pears", "2. Oranges", "3. Plums"] * 2


def test_numbers_without_a_heading_word_are_not_titles(tmp_path: Path) -> None:
    def page(c: Canvas, p: int) -> None:
        y = _body(c, 640, 10, p)
        c.setFont("Helvetica", 10)
        for row in ("1.25 na", "2.31 na", "3.5 mm"):
            c.drawString(72, y, row)
            y -= 20
        _body(c, y - 10, 6, p + 1)

    assert _titles(_draw(tmp_path / "numbers.pdf", 2, page)) == []


# -- D3: stable, bounded depths ------------------------------------------------------------------


def test_depth_does_not_drift_when_a_larger_heading_appears_late(tmp_path: Path) -> None:
    def page(c: Canvas, p: int) -> None:
        y = 640.0
        if p == 7:
            c.setFont("Helvetica-Bold", 20)
            c.drawString(72, y, "Part Two Appendix")
            y -= 30
        c.setFont("Helvetica-Bold", 14)
        c.drawString(72, y, f"Section heading {p + 1}")
        _body(c, y - 22, 30, p)

    titles = _titles(_draw(tmp_path / "drift.pdf", 9, page))
    assert titles == [
        *((f"Section heading {n}", 0) for n in range(1, 8)),
        ("Part Two Appendix", 0),
        ("Section heading 8", 0),
        ("Section heading 9", 0),
    ]


def test_depths_are_bounded(tmp_path: Path) -> None:
    sizes = (30, 27, 24, 21, 18, 16, 14, 12.5)

    def page(c: Canvas, p: int) -> None:
        y = 650.0
        for size in sizes:
            c.setFont("Helvetica-Bold", size)
            c.drawString(72, y, f"Heading at {size} points")
            y = _body(c, y - size - 6, 2, p)

    titles = _titles(_draw(tmp_path / "deep.pdf", 2, page))
    assert [d for _, d in titles] == [0, 1, 2, 3, 4, 5, 5, 5] * 2


# -- D4: strictness ------------------------------------------------------------------------------


def test_two_line_bold_heading_is_a_title(tmp_path: Path) -> None:
    def page(c: Canvas, p: int) -> None:
        c.setFont("Helvetica-Bold", 10)
        c.drawString(72, 640, "Airworthiness Directives; The Boeing")
        c.drawString(72, 628, "Company Airplanes")
        _body(c, 612, 10, p)

    titles = _titles(_draw(tmp_path / "two-line.pdf", 2, page))
    assert titles == [("Airworthiness Directives; The Boeing Company Airplanes", 0)] * 2


def test_author_line_is_not_a_title(tmp_path: Path) -> None:
    def page(c: Canvas, p: int) -> None:
        c.setFont("Helvetica-Bold", 18)
        c.drawString(72, 720, f"Flow duration curves {p + 1}")
        c.setFont("Helvetica", 12)
        c.drawString(72, 696, "Patrick Lane, Alice Best, Klaus Hickel, Lu Zhang")
        _body(c, 670, 12, p)

    titles = _titles(_draw(tmp_path / "authors.pdf", 2, page))
    assert titles == [("Flow duration curves 1", 0), ("Flow duration curves 2", 0)]


# -- D5: headings at the top of the page are not running headers ---------------------------------


def test_chapter_headings_at_the_top_are_not_headers(tmp_path: Path) -> None:
    def page(c: Canvas, p: int) -> None:
        c.setFont("Helvetica", 8)
        c.drawString(72, 760, "Annual report 2024")
        c.setFont("Helvetica-Bold", 16)
        c.drawString(72, 735, f"Chapter {p + 1}")
        _body(c, 700, 40, p)

    path = _draw(tmp_path / "chapters.pdf", 6, page)
    elements: list[Any] = partition_pdf(filename=path)
    assert [(e.text, e.metadata.category_depth) for e in elements if e.category == "Title"] == [
        (f"Chapter {n}", 0) for n in range(1, 7)
    ]
    assert [e.text for e in elements if e.category == "Header"] == ["Annual report 2024"] * 6
