"""PDFs with a KNOWN structure, each built with reportlab together with its ground truth.

`structured_docs()` returns the documents (deterministic bytes: `invariant=1`; all of them in
well under 2 s). Every document is drawn line by line on a reportlab canvas by a small layout
engine (`_Layout`) that wraps and hyphenates the text itself, so the ground truth is exactly
what was drawn:

- `report`: a 4+ page English report with bookmarks: a 20 pt document title, numbered section
  headings at three further levels (16 pt bold "1", 13 pt bold "1.1", 11 pt bold "1.1.1"; the
  body is 10 pt Helvetica), paragraphs wrapped with hyphenated line ends and one spanning a page
  break, bullet lists (•, -) with nesting, a numbered list (1., a), (i)) with nesting, a ruled
  table with a bold shaded header row, an unruled text-aligned table, and short body lines that
  must not become Titles;
- `columns`: two pages whose text runs in two columns under full-width headings, with a
  full-width ruled table between two column sections;
- `lists`: headings from typography only (no bookmarks), one drawn twice with a 0.3 pt offset
  (fake bold), lists with •, - and ▪ markers (▪ and the ligature glyphs need DejaVu Sans, used
  when installed: fonts-dejavu-core, Bitstream Vera derived licence, free to use), body words
  drawn with the ﬁ/ﬂ ligature glyphs, and a paragraph with URI link annotations;
- `numbered`: a cover page holding one 28 pt title, then numbered section headings in a
  heading font ("1. Introduction", 16 pt bold; "(1) Background ...", 11 pt bold; the body is
  10 pt Helvetica) that must be Titles, not ListItems, and a body-font numbered list;
- `chinese`: Chinese headings ("第一章 总则" style), paragraphs and list items in reportlab's
  CID font STSong-Light (pdfplumber extracts it as Unicode), wrapped character by character with
  no spaces, and a ruled table with Chinese cells (its • bullets are drawn in Helvetica: the
  CID font's • is not extracted).

Every document has at least two pages.

Every page of every document has a running header line at the top and a page number at the
bottom (recorded per page as Header / PageNumber ground truth).

Ground truth (`StructuredDoc.expected`, in reading order): `Title` (text, `depth` = the heading
style's rank in its document, 0 the largest), `ListItem` (text WITHOUT its marker, `depth` = the
nesting level, `marker` the drawn bullet or enumerator), `Table` (`cells`, the row-major grid),
`NarrativeText` (whole paragraphs; `spans_pages` when a page break cuts one), `Header` and
`PageNumber` (one per page). `hyphenated` lists the words split with a hyphen at a line end (both
halves on one page), `links` the (text, url) of each annotation, `column_order` (in `columns`)
the paragraph texts of the two-column sections in reading order, `ligature_words` the words drawn
with ligature glyphs and `fake_bold` the texts drawn twice.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Table, TableStyle

__all__ = ["Expected", "StructuredDoc", "structured_docs"]

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
DEJAVU_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
CJK_FONT = "STSong-Light"


@dataclass(frozen=True)
class Expected:
    """One expected element."""

    category: str
    text: str
    depth: int | None = None
    page: int = 1
    cells: tuple[tuple[str, ...], ...] | None = None
    marker: str | None = None
    spans_pages: bool = False


@dataclass(frozen=True)
class StructuredDoc:
    name: str
    data: bytes
    pages: int
    expected: tuple[Expected, ...]
    hyphenated: tuple[str, ...] = ()
    links: tuple[tuple[str, str], ...] = ()
    column_order: tuple[str, ...] = ()
    ligature_words: tuple[str, ...] = ()
    fake_bold: tuple[str, ...] = ()
    cjk: bool = False

    def of(self, category: str) -> list[Expected]:
        return [e for e in self.expected if e.category == category]


@cache
def _fonts() -> tuple[bool, bool]:
    """Register the CJK font and, when installed, DejaVu Sans; return (dejavu, cjk)."""
    pdfmetrics.registerFont(UnicodeCIDFont(CJK_FONT))
    dejavu = DEJAVU.is_file() and DEJAVU_BOLD.is_file()
    if dejavu:
        pdfmetrics.registerFont(TTFont("DejaVuSans", str(DEJAVU)))
        pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", str(DEJAVU_BOLD)))
    return dejavu, True


@dataclass(frozen=True)
class _Style:
    font: str
    size: float


_LIGATURES = {"fi": "\ufb01", "fl": "\ufb02"}


def _with_ligatures(text: str) -> str:
    for plain, glyph in _LIGATURES.items():
        text = text.replace(plain, glyph)
    return text


@dataclass
class _Layout:
    """A canvas with a cursor: draws blocks top-down, starting pages as needed."""

    name: str
    header: str
    footer: str  # -- format with {n} --
    body: _Style
    headings: Sequence[_Style]
    bookmarks: bool = False
    cjk: bool = False
    margin: float = 72.0
    buf: io.BytesIO = field(default_factory=io.BytesIO)
    expected: list[Expected] = field(default_factory=list)
    hyphenated: list[str] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)
    column_order: list[str] = field(default_factory=list)
    ligature_words: list[str] = field(default_factory=list)
    fake_bold: list[str] = field(default_factory=list)
    page: int = 0
    y: float = 0.0

    def __post_init__(self) -> None:
        self.width, self.height = letter
        self.c = Canvas(self.buf, pagesize=letter, invariant=1)
        self.c.setTitle(self.name)
        self._start_page()

    # -- pages -----------------------------------------------------------------------------------

    @property
    def left(self) -> float:
        return self.margin

    @property
    def text_width(self) -> float:
        return self.width - 2 * self.margin

    def _furniture_font(self) -> str:
        return CJK_FONT if self.cjk else "Helvetica"

    def _start_page(self) -> None:
        self.page += 1
        self.c.setFont(self._furniture_font(), 8)
        self.c.setFillColor(colors.grey)
        self.c.drawString(self.left, self.height - 40, self.header)
        self.c.setFillColor(colors.black)
        self.expected.append(Expected("Header", self.header, page=self.page))
        self.y = self.height - self.margin

    def _end_page(self) -> None:
        footer = self.footer.format(n=self.page)
        self.c.setFont(self._furniture_font(), 8)
        self.c.setFillColor(colors.grey)
        self.c.drawCentredString(self.width / 2, 40, footer)
        self.c.setFillColor(colors.black)
        self.expected.append(Expected("PageNumber", footer, page=self.page))
        self.c.showPage()

    def new_page(self) -> None:
        self._end_page()
        self._start_page()

    def ensure(self, height: float) -> None:
        if self.y - height < self.margin:
            self.new_page()

    def space(self, points: float) -> None:
        self.y -= points

    # -- wrapping ----------------------------------------------------------------------------------

    def wrap(self, text: str, style: _Style, width: float) -> list[tuple[str, str | None]]:
        """Lines of `text` within `width`: (drawn line, hyphen-split word or None)."""
        width_of = pdfmetrics.stringWidth
        if self.cjk:
            lines: list[tuple[str, str | None]] = []
            line = ""
            for ch in text:
                if line and width_of(line + ch, style.font, style.size) > width:
                    lines.append((line, None))
                    line = ""
                line += ch
            return [*lines, (line, None)]
        lines = []
        words = text.split()
        line = ""
        i = 0
        while i < len(words):
            word = words[i]
            candidate = f"{line} {word}" if line else word
            if width_of(candidate, style.font, style.size) <= width:
                line, i = candidate, i + 1
                continue
            if not line:  # -- a word wider than the line --
                line, i = word, i + 1
                continue
            # -- hyphenate a long plain word when the line is loose: the longest prefix that fits
            # (>= 4 letters, >= 3 left) --
            split = None
            loose = width_of(line, style.font, style.size) < 0.9 * width
            if loose and len(word) >= 8 and word.isalpha():
                for k in range(len(word) - 3, 3, -1):
                    if width_of(f"{line} {word[:k]}-", style.font, style.size) <= width:
                        split = k
                        break
            if split is None:
                lines.append((line, None))
                line = ""
                continue
            lines.append((f"{line} {word[:split]}-", word))
            words[i] = word[split:]
            line = ""
        if line:
            lines.append((line, None))
        return lines

    # -- blocks ----------------------------------------------------------------------------------

    def heading(self, text: str, level: int, *, fake_bold: bool = False) -> None:
        style = self.headings[level]
        self.ensure(style.size * 1.6 + self.body.size * 4)  # -- keep with the next lines --
        if self.y < self.height - self.margin - 1:
            self.space(style.size * 0.9)
        self.y -= style.size
        self.c.setFont(style.font, style.size)
        self.c.drawString(self.left, self.y, text)
        if fake_bold:
            self.c.drawString(self.left + 0.3, self.y, text)
            self.fake_bold.append(text)
        if self.bookmarks:
            key = f"h{len(self.expected)}"
            self.c.bookmarkHorizontal(key, self.left, self.y + style.size)
            self.c.addOutlineEntry(text, key, level=level)
        self.space(style.size * 0.7)
        self.expected.append(Expected("Title", text, depth=level, page=self.page))

    def _draw_lines(
        self,
        lines: list[tuple[str, str | None]],
        style: _Style,
        x: float,
        *,
        links: dict[str, str] | None = None,
        ligatures: bool = False,
    ) -> tuple[int, int]:
        """Draw wrapped lines from the cursor; return (first page, last page)."""
        leading = style.size * 1.3
        first = self.page
        for n, (line, split) in enumerate(lines):
            if self.y - leading < self.margin:
                self.new_page()
            self.y -= leading
            self.c.setFont(style.font, style.size)
            self.c.drawString(x, self.y, _with_ligatures(line) if ligatures else line)
            last_on_page = n + 1 < len(lines) and self.y - 2 * leading < self.margin
            if split is not None and not last_on_page:
                self.hyphenated.append(split)
            for text, url in (links or {}).items():
                at = line.find(text)
                if at >= 0:
                    x0 = x + pdfmetrics.stringWidth(line[:at], style.font, style.size)
                    x1 = x0 + pdfmetrics.stringWidth(text, style.font, style.size)
                    rect = (x0, self.y - 2, x1, self.y + style.size)
                    self.c.linkURL(url, rect, relative=0, thickness=0)
                    self.links.append((text, url))
        return first, self.page

    def paragraph(
        self,
        text: str,
        *,
        links: dict[str, str] | None = None,
        ligatures: bool = False,
    ) -> None:
        lines = self.wrap(text, self.body, self.text_width)
        first, last = self._draw_lines(
            lines, self.body, self.left, links=links, ligatures=ligatures
        )
        self.expected.append(Expected("NarrativeText", text, page=first, spans_pages=first != last))
        if ligatures:
            self.ligature_words.extend(
                w.strip(".,;:") for w in text.split() if any(k in w for k in _LIGATURES)
            )
        self.space(self.body.size * 0.8)

    def list_item(self, marker: str, text: str, level: int = 0, *, font: str | None = None) -> None:
        indent = self.left + 12 + 20 * level
        text_x = indent + 16
        lines = self.wrap(text, self.body, self.left + self.text_width - text_x)
        self.ensure(self.body.size * 1.3 * min(len(lines), 2))
        page_before = self.page
        self.y -= self.body.size * 1.3
        self.c.setFont(font or self.body.font, self.body.size)
        self.c.drawString(indent, self.y, marker)
        self.y += self.body.size * 1.3
        first, _ = self._draw_lines(lines, self.body, text_x)
        assert first == page_before
        self.expected.append(Expected("ListItem", text, depth=level, page=first, marker=marker))
        self.space(self.body.size * 0.3)

    def ruled_table(self, rows: list[list[str]], col_widths: list[float]) -> None:
        table = Table(rows, colWidths=col_widths)
        table.setStyle(
            TableStyle(
                [
                    ("GRID", (0, 0), (-1, -1), 0.6, colors.black),
                    ("FONTNAME", (0, 0), (-1, -1), self.body.font),
                    ("FONTNAME", (0, 0), (-1, 0), self._bold(self.body.font)),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
                    ("FONTSIZE", (0, 0), (-1, -1), self.body.size - 1),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ]
            )
        )
        _, height = table.wrapOn(self.c, self.text_width, self.height)
        self.ensure(height + 12)
        self.space(6)
        table.drawOn(self.c, self.left, self.y - height)
        self.y -= height + 14
        self._expect_table(rows)

    def unruled_table(self, rows: list[list[str]], col_x: list[float], right: set[int]) -> None:
        """Text aligned in columns (no lines); columns in `right` are right-aligned at col_x."""
        leading = self.body.size * 1.6
        self.ensure(leading * len(rows) + 12)
        self.space(6)
        for r, row in enumerate(rows):
            self.y -= leading
            font = self._bold(self.body.font) if r == 0 else self.body.font
            self.c.setFont(font, self.body.size)
            for c, cell in enumerate(row):
                x = self.left + col_x[c]
                if c in right:
                    self.c.drawRightString(x, self.y, cell)
                else:
                    self.c.drawString(x, self.y, cell)
        self.y -= 14
        self._expect_table(rows)

    def _expect_table(self, rows: list[list[str]]) -> None:
        cells = tuple(tuple(row) for row in rows)
        self.expected.append(
            Expected("Table", " ".join(" ".join(r) for r in rows), page=self.page, cells=cells)
        )

    def columns(self, left: list[str], right: list[str], gap: float = 24) -> None:
        """Two columns of paragraphs side by side from the cursor (they must fit on the page)."""
        width = (self.text_width - gap) / 2
        leading = self.body.size * 1.3
        top = self.y
        bottoms = []
        for x, paragraphs in ((self.left, left), (self.left + width + gap, right)):
            self.y = top
            for text in paragraphs:
                lines = self.wrap(text, self.body, width)
                assert self.y - leading * len(lines) >= self.margin, "column overflows the page"
                self._draw_lines(lines, self.body, x)
                self.expected.append(Expected("NarrativeText", text, page=self.page))
                self.column_order.append(text)
                self.y -= self.body.size * 0.8
            bottoms.append(self.y)
        self.y = min(bottoms)

    def _bold(self, font: str) -> str:
        if font == CJK_FONT:
            return font
        return {"Helvetica": "Helvetica-Bold", "DejaVuSans": "DejaVuSans-Bold"}.get(font, font)

    def finish(self) -> StructuredDoc:
        self._end_page()
        self.c.save()
        return StructuredDoc(
            name=self.name,
            data=self.buf.getvalue(),
            pages=self.page,
            expected=tuple(self.expected),
            hyphenated=tuple(self.hyphenated),
            links=tuple(self.links),
            column_order=tuple(self.column_order),
            ligature_words=tuple(self.ligature_words),
            fake_bold=tuple(self.fake_bold),
            cjk=self.cjk,
        )


# ------------------------------------------------------------------------------------------------
# text
# ------------------------------------------------------------------------------------------------

_SENTENCES = [
    "The committee reviewed the quarterly measurements and compared them with the published "
    "specifications of every participating laboratory.",
    "Independent verification remains essential because instrumentation drifts over long "
    "observation periods and environmental conditions fluctuate considerably.",
    "Administrators documented the procedures thoroughly, including calibration intervals, "
    "maintenance responsibilities and communication channels between departments.",
    "Consequently, the organization strengthened its internal governance and introduced "
    "standardized reporting templates for international collaborations.",
    "Measurements collected during the extraordinary circumstances were excluded from the "
    "comparative statistics to avoid misleading conclusions.",
    "Participants appreciated the transparent methodology and requested additional "
    "documentation about uncertainty propagation.",
]


def _body(seed: int, sentences: int) -> str:
    return " ".join(_SENTENCES[(seed + k) % len(_SENTENCES)] for k in range(sentences))


_CN_SENTENCES = [
    "本章规定了文档结构识别的基本原则和适用范围。",
    "系统应当按照阅读顺序输出段落、标题、列表和表格等元素。",
    "中文文本在换行时不应插入多余的空格，以免影响后续检索和分块。",
    "页眉和页脚在每一页的相同位置重复出现，应当单独识别。",
    "表格中的文字不应在正文段落中重复出现。",
]


def _cn_body(seed: int, sentences: int) -> str:
    return "".join(_CN_SENTENCES[(seed + k) % len(_CN_SENTENCES)] for k in range(sentences))


# ------------------------------------------------------------------------------------------------
# documents
# ------------------------------------------------------------------------------------------------

_HELVETICA_HEADINGS = [
    _Style("Helvetica-Bold", 20),
    _Style("Helvetica-Bold", 16),
    _Style("Helvetica-Bold", 13),
    _Style("Helvetica-Bold", 11),
]


def _report() -> StructuredDoc:
    d = _Layout(
        "report",
        header="Meridian Laboratories - Annual Structure Report",
        footer="Page {n}",
        body=_Style("Helvetica", 10),
        headings=_HELVETICA_HEADINGS,
        bookmarks=True,
    )
    d.heading("Annual Structure Report 2024", 0)
    d.paragraph(_body(0, 3))
    d.heading("1 Introduction", 1)
    d.paragraph(_body(1, 4))
    d.paragraph("See the tables below.")  # -- a short standalone body line: not a Title --
    d.heading("1.1 Scope", 2)
    d.paragraph(_body(2, 3))
    for marker, text, level in [
        ("•", "Calibration of every thermometer before the observation campaign", 0),
        ("•", "Documentation of maintenance intervals", 0),
        ("-", "Weekly inspection of the primary sensors", 1),
        (
            "-",
            "Monthly replacement of consumable filters and seals, recorded in the shared "
            "maintenance register together with the technician's initials",
            1,
        ),
        ("•", "Publication of the anonymized results", 0),
    ]:
        d.list_item(marker, text, level)
    d.heading("1.1.1 Instruments", 3)
    d.paragraph(_body(3, 2))
    d.ruled_table(
        [
            ["Instrument", "Location", "Interval", "Owner"],
            ["Quokka thermometer", "Hall A", "30 days", "Okonkwo"],
            ["Wallaby barometer", "Roof", "90 days", "Lindqvist"],
            ["Numbat hygrometer", "Basement", "60 days", "Okonkwo"],
            ["Bilby anemometer", "Mast 2", "14 days", "Ferreira"],
        ],
        [130, 90, 80, 100],
    )
    d.paragraph(_body(4, 3))
    d.heading("2 Methods", 1)
    d.paragraph(_body(5, 5))
    for marker, text, level in [
        ("1.", "Collect the raw readings from every station", 0),
        ("2.", "Validate the readings", 0),
        ("a)", "Reject values outside the physical range", 1),
        ("b)", "Flag values that differ from the station median by more than three deviations", 1),
        ("(i)", "Review flagged values manually", 2),
        ("(ii)", "Document every manual correction", 2),
        ("3.", "Aggregate the validated readings by month", 0),
    ]:
        d.list_item(marker, text, level)
    d.heading("2.1 Results", 2)
    d.paragraph(_body(0, 4))
    d.unruled_table(
        [
            ["Region", "Stations", "Readings", "Rejected"],
            ["Tasmania", "12", "43,200", "118"],
            ["Queensland", "31", "111,600", "402"],
            ["Victoria", "18", "64,800", "95"],
            ["Kimberley", "7", "25,200", "61"],
        ],
        [0, 170, 260, 350],
        right={1, 2, 3},
    )
    d.paragraph(_body(2, 8))  # -- long: crosses a page break --
    d.heading("2.2 Discussion", 2)
    d.paragraph(_body(4, 4))
    d.paragraph(_body(1, 9))
    d.heading("3 Conclusions", 1)
    d.paragraph(_body(3, 4))
    d.paragraph("Thank you.")  # -- short, standalone, body font: not a Title --
    return d.finish()


def _columns() -> StructuredDoc:
    d = _Layout(
        "columns",
        header="Field Notes Quarterly",
        footer="- {n} -",
        body=_Style("Helvetica", 9.5),
        headings=[_Style("Helvetica-Bold", 18), _Style("Helvetica-Bold", 13)],
    )
    d.heading("Observations from the Coastal Stations", 0)
    d.columns(
        [
            "Left column first paragraph. " + _body(0, 2),
            "Left column second paragraph. " + _body(1, 2),
        ],
        [
            "Right column first paragraph. " + _body(2, 2),
            "Right column second paragraph. " + _body(3, 2),
        ],
    )
    d.heading("Summary of Station Readings", 1)
    d.ruled_table(
        [
            ["Station", "Latitude", "Readings"],
            ["Cape Otway", "38.86 S", "8,640"],
            ["Wilsons Promontory", "39.13 S", "8,512"],
            ["Gabo Island", "37.57 S", "7,998"],
        ],
        [160, 110, 110],
    )
    d.columns(
        ["Left column third paragraph. " + _body(4, 2)],
        ["Right column third paragraph. " + _body(5, 2)],
    )
    d.new_page()
    d.heading("Methods for the Inland Stations", 0)
    d.columns(
        [
            "Left column fourth paragraph. " + _body(1, 3),
            "Left column fifth paragraph. " + _body(2, 1),
        ],
        [
            "Right column fourth paragraph. " + _body(3, 3),
            "Right column fifth paragraph. " + _body(4, 1),
        ],
    )
    return d.finish()


def _lists(dejavu: bool) -> StructuredDoc:
    body_font = "DejaVuSans" if dejavu else "Helvetica"
    bold = "DejaVuSans-Bold" if dejavu else "Helvetica-Bold"
    d = _Layout(
        "lists",
        header="Operations Handbook",
        footer="Page {n}",
        body=_Style(body_font, 10),
        headings=[_Style(bold, 17), _Style(bold, 13)],
    )
    d.heading("Operations Handbook", 0)
    d.paragraph(_body(1, 2))
    d.heading("Daily Checklist", 1, fake_bold=True)
    square = "▪" if dejavu else "-"
    for marker, text, level in [
        ("•", "Open the station log", 0),
        ("•", "Check the power supply", 0),
        ("-", "Main battery voltage", 1),
        ("-", "Backup generator fuel level", 1),
        (square, "Record the level in litres", 2),
        (square, "Order fuel below twenty percent", 2),
        (
            "•",
            "Close the station log and sign it with the date and your initials before you "
            "leave the building",
            0,
        ),
    ]:
        d.list_item(marker, text, level)
    d.heading("Weekly Procedure", 1)
    d.paragraph(_body(3, 2))
    for marker, text, level in [
        ("1.", "Download the data files", 0),
        ("2.", "Verify the checksums", 0),
        ("3.", "Archive the verified files", 0),
        ("a)", "Primary archive on the station server", 1),
        ("b)", "Secondary archive in the regional office", 1),
        ("4.", "Report anomalies", 0),
    ]:
        d.list_item(marker, text, level)
    d.heading("Final Remarks", 1)
    d.paragraph(
        "The final workflow defines the flow of files from the field to the office; the "
        "official profile of each station is filed with the fleet register.",
        ligatures=dejavu,
    )
    d.paragraph(
        "Further guidance is published on the project website and in the public data "
        "repository for anyone who needs it.",
        links={
            "project website": "https://example.org/handbook",
            "public data repository": "https://data.example.org/stations",
        },
    )
    d.new_page()  # -- a second page, so that the running header repeats --
    d.heading("Appendix: Contacts", 1)
    d.paragraph(_body(5, 3))
    for marker, text in [
        ("•", "Regional office, weekdays from nine to five"),
        ("•", "Emergency line, at any time"),
    ]:
        d.list_item(marker, text, 0)
    return d.finish()


def _chinese() -> StructuredDoc:
    d = _Layout(
        "chinese",
        header="结构识别测试文档",
        footer="第 {n} 页",
        body=_Style(CJK_FONT, 10.5),
        headings=[_Style(CJK_FONT, 18), _Style(CJK_FONT, 14)],
        cjk=True,
    )
    d.heading("第一章 总则", 0)
    d.paragraph(_cn_body(0, 6))
    d.heading("第一节 适用范围", 1)
    d.paragraph(_cn_body(2, 5))
    for marker, text in [
        ("1.", "标题按照字号和字重确定层级。"),
        ("2.", "列表项以项目符号或编号开头。"),
        ("3.", "表格使用单元格网格表示。"),
    ]:
        d.list_item(marker, text, 0)
    d.heading("第二章 表格", 0)
    d.paragraph(_cn_body(1, 4))
    d.ruled_table(
        [["城市", "站点数量", "负责人"], ["杭州", "十二", "王芳"], ["成都", "八", "李强"]],
        [120, 100, 100],
    )
    d.paragraph(_cn_body(3, 7))
    d.new_page()  # -- a second page, so that the running header repeats --
    d.heading("第三章 附则", 0)
    d.paragraph(_cn_body(4, 6))
    for text in ["本文档仅用于测试。", "如有疑问，请联系维护人员。"]:
        d.list_item("•", text, 0, font="Helvetica")  # -- STSong-Light's • is not extracted --
    return d.finish()


def _numbered() -> StructuredDoc:
    """A cover page with one huge title, then "1. Introduction" and "(1) ..." headings."""
    d = _Layout(
        "numbered",
        header="Technical Memorandum 17",
        footer="{n}",
        body=_Style("Helvetica", 10),
        headings=[
            _Style("Helvetica-Bold", 28),
            _Style("Helvetica-Bold", 16),
            _Style("Helvetica-Bold", 11),
        ],
    )
    d.space(160)
    d.heading("Groundwater Recharge Study", 0)
    d.paragraph("Prepared for the regional water board. " + _body(6, 1))
    d.new_page()
    sections = ("Introduction", "Methods", "Data sets", "Results", "Discussion")
    for n, name in enumerate(sections, start=1):
        d.heading(f"{n}. {name}", 1)
        d.paragraph(_body(n, 3))
        d.heading(f"(1) Background of the {name.lower()}", 2)
        d.paragraph(_body(n + 1, 2))
        if n == 2:
            for k, item in enumerate(("Field sampling", "Laboratory analysis", "Modelling")):
                d.list_item(f"{k + 1}.", item)
        d.heading(f"(2) Scope of the {name.lower()}", 2)
        d.paragraph(_body(n + 2, 3))
    return d.finish()


@cache
def structured_docs() -> tuple[StructuredDoc, ...]:
    dejavu, _ = _fonts()
    return (_report(), _columns(), _lists(dejavu), _chinese(), _numbered())


def write_all(directory: str | os.PathLike[str]) -> list[Path]:
    """Write every document as `<name>.pdf` into `directory`; return the paths."""
    out = []
    for doc in structured_docs():
        path = Path(directory) / f"{doc.name}.pdf"
        path.write_bytes(doc.data)
        out.append(path)
    return out


if __name__ == "__main__":  # -- python tests/partitioners/pdf/structured_docs.py OUT_DIR --
    import sys
    import time

    start = time.perf_counter()
    docs = structured_docs()
    print(f"{len(docs)} documents in {time.perf_counter() - start:.3f} s")
    for path in write_all(sys.argv[1] if len(sys.argv) > 1 else "."):
        print(path)
