"""Generated annual-report pages: financial statements aligned by whitespace, and filings.

`Statement` describes a statement as drawn: its title, unit line, header rows, notes column and
rows (a label, its indent and its values); `draw_statement` draws it the way SEC filings set
them: labels at the left, values right-aligned in columns, "$" at a column's left edge, the ")"
of a negative and the "%" of a share drawn as glyphs of their own past the digits, "—" for
nothing. `expected_grid` is the table the partitioner should read, cell by cell.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen.canvas import Canvas

Value = float | str | None
"""A number, "—" for a dash, "12%" style text for a share, or None for an empty cell."""

PAGE_WIDTH, PAGE_HEIGHT = letter
_LEFT = 72.0
_SIZE = 9.0
_PITCH = 12.5
_FIRST_EDGE = 390.0
_COLUMN_STEP = 72.0
_NOTE_EDGE = 318.0


@dataclass
class Row:
    label: str
    values: Sequence[Value] = ()
    indent: int = 0
    dollar: bool = False
    note: str = ""


@dataclass
class Statement:
    title: str
    years: Sequence[str]
    rows: Sequence[Row]
    unit: str = "(In millions, except per share amounts)"
    span: str = ""
    """A header line over all the value columns ("Year Ended June 30,"), or none."""
    notes: bool = False
    title_style: str = "caps"
    """"caps" (body font, capitals, centred), "bold" (bold, centred) or "large" (12 pt bold)."""
    continued: bool = False
    extra_rows: Sequence[Row] = field(default_factory=list[Row])
    shaded: bool = False
    """Every other row drawn on a light grey band (as filings converted from HTML are)."""


def _edges(statement: Statement) -> list[float]:
    return [_FIRST_EDGE + k * _COLUMN_STEP for k in range(len(statement.years))]


def _number(value: float) -> tuple[str, str]:
    """The digits as drawn and the sign hanging past them."""
    text = f"{abs(value):,.2f}" if value != int(value) else f"{abs(int(value)):,}"
    return (f"({text}", ")") if value < 0 else (text, "")


def cell_text(value: Value, dollar: bool) -> str:
    """The text a value's cell should read."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    digits, sign = _number(value)
    return f"{'$' if dollar else ''}{digits}{sign}"


def draw_title(c: Canvas, title: str, style: str, y: float) -> None:
    if style == "large":
        c.setFont("Helvetica-Bold", 12)
    elif style == "bold":
        c.setFont("Helvetica-Bold", _SIZE + 1)
    else:
        c.setFont("Helvetica", _SIZE)
        title = title.upper()
    c.drawCentredString(PAGE_WIDTH / 2, y, title)


def draw_statement(c: Canvas, statement: Statement, y: float, rows: Sequence[Row]) -> float:
    """Draw `statement`'s header and `rows` from `y` down; return the y below them."""
    edges = _edges(statement)
    c.setFont("Helvetica", _SIZE)
    c.drawString(_LEFT, y, statement.unit)
    y -= _PITCH
    if statement.span:
        middle = (edges[0] - 40 + edges[-1]) / 2
        c.drawCentredString(middle, y, statement.span)
        y -= _PITCH
    if statement.notes:
        c.drawRightString(_NOTE_EDGE, y, "Note")
    for edge, year in zip(edges, statement.years, strict=True):
        c.setFont("Helvetica-Bold", _SIZE)
        c.drawRightString(edge, y, year)
    c.setFont("Helvetica", _SIZE)
    y -= _PITCH * 1.3
    for k, row in enumerate(rows):
        if statement.shaded and k % 2 == 0:
            c.setFillGray(0.85)
            c.rect(_LEFT - 2, y - 3, edges[-1] + 12 - _LEFT, _PITCH, stroke=0, fill=1)
            c.setFillGray(0)
        c.drawString(_LEFT + 10 * row.indent, y, row.label)
        if row.note:
            c.drawRightString(_NOTE_EDGE, y, row.note)
        for edge, value in zip(edges, row.values, strict=False):
            if value is None:
                continue
            if isinstance(value, str):
                if value.endswith("%"):
                    c.drawRightString(edge, y, value[:-1])
                    c.drawString(edge + 1.5, y, "%")
                else:
                    c.drawRightString(edge - 4, y, value)
                continue
            digits, sign = _number(value)
            c.drawRightString(edge, y, digits)
            if sign:
                c.drawString(edge + 0.5, y, sign)
            if row.dollar:
                c.drawString(edge - 52, y, "$")
        y -= _PITCH
    return y


def expected_grid(statement: Statement, rows: Sequence[Row]) -> list[list[str]]:
    """The statement's table as the partitioner should read it: header rows, then body rows
    (cells spanning columns appear once, as `_grid` reads them)."""
    width = len(statement.years)
    note = ["Note"] if statement.notes else []
    grid: list[list[str]] = [[statement.unit, *([""] * (len(note) + width))]]
    if statement.span:
        grid.append(["", *([""] * len(note)), statement.span])
    grid.append(["", *note, *statement.years])
    for row in rows:
        notes = [row.note] if statement.notes else []
        values = [cell_text(v, row.dollar) for v in row.values]
        values += [""] * (width - len(values))
        grid.append([row.label, *notes, *values])
    return grid


_PROSE = (
    "Revenue increased $13.6 billion or 7% driven by growth in Intelligent Cloud and "
    "Productivity and Business Processes. Cost of revenue increased 5% driven by growth in "
    "Microsoft Cloud, offset in part by improved cloud services efficiencies, and operating "
    "expenses increased as we invested in research and development and in our sales teams."
)


def _prose(c: Canvas, y: float) -> float:
    c.setFont("Helvetica", _SIZE)
    words = _PROSE.split()
    line = ""
    for word in words:
        if len(line) + len(word) > 100:
            c.drawString(_LEFT, y, line)
            y -= _PITCH
            line = word
        else:
            line = f"{line} {word}".strip()
    c.drawString(_LEFT, y, line)
    return y - 2 * _PITCH


def _furniture(c: Canvas, company: str, page: int) -> None:
    c.setFont("Helvetica", 8)
    c.drawString(_LEFT, PAGE_HEIGHT - 40, "Table of Contents")
    c.drawRightString(PAGE_WIDTH - _LEFT, PAGE_HEIGHT - 40, company.upper())
    c.drawCentredString(PAGE_WIDTH / 2, 40, str(page))


def filing_pdf(
    company: str, statements: Sequence[Statement]
) -> tuple[bytes, list[tuple[int, str]]]:
    """A short annual report: a cover page, an MD&A page and `statements`, each page under a
    running head and a "Table of Contents" link, over its number; and its titles as drawn
    ((page, text)): only headings, no furniture, unit line, checkbox or table cell."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=letter, invariant=1)
    titles: list[tuple[int, str]] = []
    page = 1
    # -- the cover --
    c.setFont("Helvetica-Bold", 12)
    c.drawCentredString(PAGE_WIDTH / 2, PAGE_HEIGHT - 90, "UNITED STATES")
    c.drawCentredString(PAGE_WIDTH / 2, PAGE_HEIGHT - 106, "SECURITIES AND EXCHANGE COMMISSION")
    titles.append((page, "UNITED STATES SECURITIES AND EXCHANGE COMMISSION"))
    c.setFont("Helvetica-Bold", 16)
    c.drawCentredString(PAGE_WIDTH / 2, PAGE_HEIGHT - 150, "FORM 10-K")
    titles.append((page, "FORM 10-K"))
    c.setFont("Helvetica", _SIZE)
    c.drawString(
        _LEFT,
        PAGE_HEIGHT - 200,
        "Indicate by check mark if the registrant is a "
        "well-known seasoned issuer, as defined in Rule 405 of the Securities Act.",
    )
    for k, label in enumerate(("Yes", "No")):
        y = PAGE_HEIGHT - 230 - 20 * k
        c.setFont("Helvetica", _SIZE)
        c.drawString(_LEFT + 300, y, label)
        c.setFont("ZapfDingbats", _SIZE)
        c.drawString(_LEFT + 320, y, "o")
    y = _prose(c, PAGE_HEIGHT - 300)
    c.setFont("Helvetica", 8)
    c.drawCentredString(PAGE_WIDTH / 2, 40, "1")
    c.showPage()
    # -- management's discussion --
    page += 1
    _furniture(c, company, page)
    c.setFont("Helvetica", _SIZE)
    c.drawString(_LEFT, PAGE_HEIGHT - 90, "PART II")
    titles.append((page, "PART II"))
    item = "Item 7. Management's Discussion and Analysis of Financial Condition"
    c.drawString(_LEFT, PAGE_HEIGHT - 110, item)
    titles.append((page, item))
    c.setFont("Helvetica-Bold", _SIZE)
    c.drawString(_LEFT, PAGE_HEIGHT - 135, "Overview")
    titles.append((page, "Overview"))
    y = _prose(c, PAGE_HEIGHT - 155)
    c.setFont("Helvetica", _SIZE)
    c.drawCentredString(PAGE_WIDTH / 2, y, "NOTES TO FINANCIAL STATEMENTS")
    titles.append((page, "NOTES TO FINANCIAL STATEMENTS"))
    y = _prose(c, y - 20)
    _prose(c, y)
    c.showPage()
    for statement in statements:
        pages = [statement.rows, statement.extra_rows] if statement.continued else [statement.rows]
        for k, rows in enumerate(pages):
            page += 1
            _furniture(c, company, page)
            title = statement.title + (" (continued)" if k else "")
            draw_title(c, title, statement.title_style, PAGE_HEIGHT - 90)
            shown = title.upper() if statement.title_style == "caps" else title
            titles.append((page, shown))
            y = draw_statement(c, statement, PAGE_HEIGHT - 130, rows)
            c.setFont("Helvetica", _SIZE)
            c.drawString(_LEFT, y - 10, "Refer to accompanying notes.")
            c.showPage()
    c.save()
    return buf.getvalue(), titles


def statement_pdf(statements: Sequence[Statement]) -> bytes:
    """One statement a page (two when it continues), each under its centred title."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=letter, invariant=1)
    for statement in statements:
        pages = [statement.rows, statement.extra_rows] if statement.continued else [statement.rows]
        for k, rows in enumerate(pages):
            title = statement.title + (" (continued)" if k else "")
            draw_title(c, title, statement.title_style, PAGE_HEIGHT - 90)
            draw_statement(c, statement, PAGE_HEIGHT - 130, rows)
            c.showPage()
    c.save()
    return buf.getvalue()
