"""Reports with ruled grid tables (reportlab `GRID`), their header rows bold, shaded or plain, in
one and two columns: every heading is a Title and nothing else is, every table is found.

A table that a page or column break cuts leaves its header row alone at the foot of a column (or
its last row alone at the head of the next), a grid of one row: it is read as a table of that
row, never as a bold Title ("Name Value Unit") or a Title and a paragraph.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass

import pytest
from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageTemplate,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from partita.partitioners.pdf import partition_pdf

HEADERS = ("bold", "shaded", "plain")
WORDS = ("alpha", "beta", "gamma", "delta", "data", "value", "measure", "the", "of", "and")


@dataclass(frozen=True)
class Report:
    data: bytes
    titles: list[str]
    cells: list[list[list[str]]]
    """Each table's rows of cells."""


def report(seed: int, header: str, columns: int) -> Report:
    """A report of 2-5 numbered sections, each a heading, 1-3 paragraphs and a ruled table of
    2-12 rows and 2-5 columns (8-12 pt, the header row up to 2 pt larger), some tables
    repeating their header row on a new page."""
    rnd = random.Random(seed)
    styles = getSampleStyleSheet()
    buffer = io.BytesIO()
    if columns == 1:
        doc: BaseDocTemplate = SimpleDocTemplate(buffer, pagesize=letter)
    else:
        doc = BaseDocTemplate(buffer, pagesize=letter)
        width, height = letter
        half = (width - 90) / 2
        frames = [Frame(36, 36, half, height - 72), Frame(54 + half, 36, half, height - 72)]
        doc.addPageTemplates([PageTemplate(id="two", frames=frames)])
    story: list[Flowable] = []
    titles: list[str] = []
    tables: list[list[list[str]]] = []
    for section in range(rnd.randint(2, 5)):
        title = f"{section + 1}. {rnd.choice(['Results', 'Methods', 'Overview', 'Details'])}"
        titles.append(title)
        story.append(Paragraph(title, styles[rnd.choice(["Heading1", "Heading2", "Heading3"])]))
        for _ in range(rnd.randint(1, 3)):
            words = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(20, 90)))
            story.append(Paragraph(words + ".", styles["BodyText"]))
        count = rnd.randint(2, 5)
        rows = [["Name", "Value", "Unit", "Notes", "Source"][:count]]
        for row in range(rnd.randint(2, 12)):
            value = f"{rnd.randint(1, 999)}.{rnd.randint(0, 9)}"
            rows.append([f"item{row}", value, rnd.choice(["kg", "m", "s"]), "ok", "lab"][:count])
        tables.append(rows)
        size = rnd.choice([8, 9, 10, 11, 12])
        style = [
            ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
            ("FONTSIZE", (0, 0), (-1, -1), size),
            ("FONTSIZE", (0, 0), (-1, 0), size + rnd.choice([0, 0, 1, 2])),
        ]
        if header != "plain":
            style.append(("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"))
        if header == "shaded":
            style.append(("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey))
        table = Table(rows, repeatRows=rnd.choice([0, 1]))
        table.setStyle(TableStyle(style))
        story.append(table)
        story.append(Spacer(1, rnd.choice([0, 6, 12, 24])))
    doc.build(story)
    return Report(buffer.getvalue(), titles, tables)


@pytest.mark.parametrize("columns", [1, 2])
@pytest.mark.parametrize("header", HEADERS)
def test_headings_are_the_titles_and_every_table_is_found(header: str, columns: int) -> None:
    found = wrong = missed = 0
    for seed in range(40):
        made = report(seed, header, columns)
        elements = partition_pdf(file=io.BytesIO(made.data))
        titles = [e.text for e in elements if e.category == "Title"]
        found += sum(1 for t in titles if t in made.titles)
        wrong += sum(1 for t in titles if t not in made.titles)
        missed += sum(1 for t in made.titles if t not in titles)
        table_text = " ".join(e.text for e in elements if e.category == "Table")
        for rows in made.cells:  # -- every cell of every table is in a Table element --
            for row in rows:
                for cell in row:
                    assert cell in table_text, (seed, cell)
    assert found / (found + wrong) >= 0.98
    assert found / (found + missed) >= 0.98


def test_a_header_row_cut_off_by_a_column_break_is_a_table_not_a_title() -> None:
    made = report(29, "bold", 2)  # -- its last table's header row ends the first column --
    elements = partition_pdf(file=io.BytesIO(made.data))
    lone = [e for e in elements if e.category == "Table" and e.text == "Name Value Unit"]
    assert len(lone) == 1
    assert "<thead><tr><th>Name</th><th>Value</th><th>Unit</th></tr></thead>" in (
        lone[0].metadata.text_as_html or ""
    )
    assert not [e for e in elements if e.category == "Title" and "Name" in e.text]
