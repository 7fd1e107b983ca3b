"""partition_pdf on PDFs drawn with reportlab in the test: structure, metadata, errors."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from reportlab.lib.pagesizes import letter  # type: ignore[import-untyped]
from reportlab.lib.pdfencrypt import StandardEncryption  # type: ignore[import-untyped]
from reportlab.lib.utils import ImageReader  # type: ignore[import-untyped]
from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
from reportlab.pdfbase.cidfonts import UnicodeCIDFont  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from partita.elements import Element
from partita.errors import DocumentError
from partita.partitioners.pdf import NoTextLayerWarning, iter_pdf_elements, partition_pdf

WIDTH, HEIGHT = letter
BODY = 10


def make_pdf(*pages: Callable[[Canvas], None], **canvas_args: object) -> bytes:
    """Return a PDF with one page per drawing function."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=letter, **canvas_args)
    for draw in pages:
        draw(canvas)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def text_lines(
    canvas: Canvas,
    x: float,
    y: float,
    lines: list[str],
    font: str = "Helvetica",
    size: float = BODY,
) -> float:
    """Draw `lines` from baseline `y` down; return the baseline after the last one."""
    canvas.setFont(font, size)
    for line in lines:
        canvas.drawString(x, y, line)
        y -= size * 1.25
    return y


def partition(data: bytes, **kwargs: object) -> list[Element]:
    return partition_pdf(file=io.BytesIO(data), **kwargs)  # type: ignore[arg-type]


def summary(elements: list[Element]) -> list[tuple[str, str]]:
    return [(e.category, e.text) for e in elements]


def test_headings_paragraphs_and_depths_come_from_typography() -> None:
    def draw(c: Canvas) -> None:
        y = text_lines(c, 72, 720, ["Annual Report"], "Helvetica-Bold", 20)
        y = text_lines(c, 72, y - 10, ["1 Scope and purpose"], "Helvetica-Bold", 14)
        y = text_lines(
            c,
            72,
            y - 6,
            [
                "This report covers the year and describes the work of the",
                "committee in some detail, as the rules require of it.",
            ],
        )
        y = text_lines(c, 72, y - 8, ["Background"], "Helvetica-Bold", BODY)
        text_lines(c, 72, y - 4, ["A second paragraph follows the bold heading here."])

    elements = partition(make_pdf(draw))
    assert summary(elements) == [
        ("Title", "Annual Report"),
        ("Title", "1 Scope and purpose"),
        (
            "NarrativeText",
            "This report covers the year and describes the work of the committee "
            "in some detail, as the rules require of it.",
        ),
        ("Title", "Background"),
        ("NarrativeText", "A second paragraph follows the bold heading here."),
    ]
    assert [e.metadata.category_depth for e in elements if e.category == "Title"] == [0, 1, 2]
    assert elements[2].metadata.parent_id == elements[1].id
    assert elements[4].metadata.section_path == (
        "Annual Report",
        "1 Scope and purpose",
        "Background",
    )


def test_paragraph_breaks_on_gaps_and_indents_and_joins_hyphenated_words() -> None:
    def draw(c: Canvas) -> None:
        y = text_lines(c, 72, 720, ["The first paragraph has a hyphen-", "ated word in it."])
        y = text_lines(c, 72, y - 14, ["After a gap, a second paragraph."])
        y = text_lines(c, 90, y, ["An indented first line starts a third paragraph that runs on"])
        text_lines(c, 72, y, ["to a second line."])

    assert summary(partition(make_pdf(draw))) == [
        ("NarrativeText", "The first paragraph has a hyphenated word in it."),
        ("NarrativeText", "After a gap, a second paragraph."),
        (
            "NarrativeText",
            "An indented first line starts a third paragraph that runs on to a second line.",
        ),
    ]


def test_two_columns_are_read_one_after_the_other_below_a_full_width_title() -> None:
    left = [f"left column line {i} of the text" for i in range(8)]
    right = [f"right column line {i} of the text" for i in range(8)]

    def draw(c: Canvas) -> None:
        text_lines(c, 72, 720, ["A Title Across Both Columns"], "Helvetica-Bold", 18)
        text_lines(c, 72, 680, left)
        text_lines(c, 320, 680, right)

    elements = partition(make_pdf(draw))
    assert summary(elements) == [
        ("Title", "A Title Across Both Columns"),
        ("NarrativeText", " ".join(left)),
        ("NarrativeText", " ".join(right)),
    ]


def test_ruled_table_becomes_one_table_with_a_header_row() -> None:
    rows = [["Name", "Qty", "Price"], ["apple", "3", "1.20"], ["pear", "10", "0.80"]]

    def draw(c: Canvas) -> None:
        text_lines(c, 72, 720, ["Before the table."])
        xs, top = [72, 200, 300, 400], 690
        for r, row in enumerate(rows):
            y = top - 20 * r
            for col, cell in enumerate(row):
                c.setFont("Helvetica-Bold" if r == 0 else "Helvetica", BODY)
                c.drawString(xs[col] + 4, y - 14, cell)
        for r in range(len(rows) + 1):
            c.line(xs[0], top - 20 * r, xs[-1], top - 20 * r)
        for x in xs:
            c.line(x, top, x, top - 20 * len(rows))
        text_lines(c, 72, 600, ["After the table."])

    elements = partition(make_pdf(draw))
    assert [e.category for e in elements] == ["NarrativeText", "Table", "NarrativeText"]
    table = elements[1]
    assert table.text == "Name Qty Price apple 3 1.20 pear 10 0.80"
    assert table.metadata.text_as_html == (
        "<table><thead><tr><th>Name</th><th>Qty</th><th>Price</th></tr></thead><tbody>"
        "<tr><td>apple</td><td>3</td><td>1.20</td></tr>"
        "<tr><td>pear</td><td>10</td><td>0.80</td></tr></tbody></table>"
    )


def test_a_box_around_a_paragraph_is_not_a_table() -> None:
    def draw(c: Canvas) -> None:
        c.rect(60, 600, 400, 130)
        text_lines(c, 72, 700, ["Only a framed paragraph."])

    assert summary(partition(make_pdf(draw))) == [("NarrativeText", "Only a framed paragraph.")]


def test_bullets_and_numbers_make_list_items_with_depth_from_indent() -> None:
    def draw(c: Canvas) -> None:
        y = text_lines(c, 72, 720, ["Things to bring:"])
        y = text_lines(c, 72, y - 4, ["\u2022 a tent", "\u2022 a stove"])
        y = text_lines(c, 90, y, ["\u2022 with fuel"])
        text_lines(c, 72, y - 10, ["1. first step", "2. second step"])

    elements = partition(make_pdf(draw))
    assert summary(elements) == [
        ("NarrativeText", "Things to bring:"),
        ("ListItem", "a tent"),
        ("ListItem", "a stove"),
        ("ListItem", "with fuel"),
        ("ListItem", "1. first step"),
        ("ListItem", "2. second step"),
    ]
    assert [e.metadata.category_depth for e in elements[1:4]] == [0, 0, 1]


_ORDINALS = {1: "first", 2: "second", 3: "third"}


def _page_with_furniture(n: int) -> Callable[[Canvas], None]:
    def draw(c: Canvas) -> None:
        text_lines(c, 72, 760, ["ACME Quarterly Report"], size=8)
        text_lines(c, 72, 700, [f"Body text of the {_ORDINALS[n]} page says its own thing."])
        text_lines(c, 290, 30, [f"Page {n} of 3"], size=8)

    return draw


def test_repeated_top_and_bottom_lines_are_headers_and_footers() -> None:
    elements = partition(make_pdf(*(_page_with_furniture(n) for n in (1, 2, 3))))
    assert summary(elements)[:3] == [
        ("Header", "ACME Quarterly Report"),
        ("NarrativeText", "Body text of the first page says its own thing."),
        ("PageNumber", "Page 1 of 3"),
    ]
    assert [e.category for e in elements].count("Header") == 3
    without = partition(
        make_pdf(*(_page_with_furniture(n) for n in (1, 2, 3))), include_headers_footers=False
    )
    assert {e.category for e in without} == {"NarrativeText"}


def test_a_top_line_on_a_single_page_is_not_a_header_but_a_page_number_is_one() -> None:
    def draw(c: Canvas) -> None:
        text_lines(c, 72, 760, ["ACME Quarterly Report"], size=8)
        text_lines(c, 72, 700, ["Body."])
        text_lines(c, 300, 30, ["- 7 -"], size=8)

    assert [e.category for e in partition(make_pdf(draw))] == [
        "NarrativeText",
        "NarrativeText",
        "PageNumber",
    ]


def test_a_running_head_beside_a_page_number_is_a_header_even_on_a_single_page() -> None:
    def draw(c: Canvas) -> None:
        text_lines(c, 72, 760, ["A Unified Toolkit for Layout Analysis"], size=8)
        text_lines(c, 520, 760, ["5"], size=8)
        text_lines(c, 72, 700, ["Body."])

    assert summary(partition(make_pdf(draw))) == [
        ("Header", "A Unified Toolkit for Layout Analysis"),
        ("PageNumber", "5"),
        ("NarrativeText", "Body."),
    ]


@pytest.mark.parametrize(
    ("label", "beside"),
    [
        ("(1)", "Defined terms"),  # -- a paragraph label, not a page number --
        ("V", "Vestigial data"),  # -- a table cell --
    ],
)
def test_text_beside_a_label_that_reads_as_a_page_number_stays_text(
    label: str, beside: str
) -> None:
    def draw(c: Canvas) -> None:
        text_lines(c, 72, 760, [label], size=8)
        text_lines(c, 120, 760, [beside], size=8)
        text_lines(c, 72, 700, ["Body."])

    categories = {text: category for category, text in summary(partition(make_pdf(draw)))}
    assert categories[beside] == "NarrativeText"


def test_metadata_pages_coordinates_links_and_ids() -> None:
    def first(c: Canvas) -> None:
        text_lines(c, 100, 700, ["Visit the example site today."])
        width = c.stringWidth("Visit the ", "Helvetica", BODY)
        link_width = c.stringWidth("example site", "Helvetica", BODY)
        c.linkURL("https://example.com/", (100 + width, 697, 100 + width + link_width, 710))

    def second(c: Canvas) -> None:
        text_lines(c, 72, 700, ["Second page."])

    data = make_pdf(first, second)
    elements = partition(data, starting_page_number=5, metadata_filename="doc.pdf")
    assert [e.metadata.page_number for e in elements] == [5, 6]
    meta = elements[0].metadata
    assert meta.filetype == "application/pdf"
    assert meta.filename == "doc.pdf"
    assert meta.detection_origin == "pdfium"  # -- the default backend read the characters --
    assert meta.links is not None
    assert len(meta.links) == 1
    link = meta.links[0]
    assert (link.text, link.url, link.start_index) == ("example site", "https://example.com/", 10)
    coords = meta.coordinates
    assert coords is not None
    assert coords.system == "PointSpace"
    assert (coords.layout_width, coords.layout_height) == (WIDTH, HEIGHT)
    (x0, y_top), (_, y_bottom), (x1, _), _ = coords.points
    assert x0 == pytest.approx(100, abs=0.5)
    assert y_bottom < 700 < y_top < 700 + BODY + 1
    assert x1 > x0
    assert (
        partition(data, starting_page_number=5, metadata_filename="doc.pdf")[0].id == elements[0].id
    )


def test_pages_selects_pages_and_page_breaks_follow_each_page() -> None:
    pages = [_page_with_body(n) for n in (1, 2, 3)]
    data = make_pdf(*pages)
    picked = partition(data, pages=[2, 3])
    assert [(e.text, e.metadata.page_number) for e in picked] == [
        ("Page two.", 2),
        ("Page three.", 3),
    ]
    with_breaks = partition(data, include_page_breaks=True)
    assert [e.category for e in with_breaks] == ["NarrativeText", "PageBreak"] * 3


def _page_with_body(n: int) -> Callable[[Canvas], None]:
    words = {1: "one", 2: "two", 3: "three"}

    def draw(c: Canvas) -> None:
        text_lines(c, 72, 600, [f"Page {words[n]}."])

    return draw


def test_iter_pdf_elements_is_lazy_and_streams_pages() -> None:
    data = make_pdf(*(_page_with_body(n) for n in (1, 2, 3)))
    stream = iter_pdf_elements(file=io.BytesIO(data))
    assert next(stream).text == "Page one."
    assert [e.text for e in stream] == ["Page two.", "Page three."]


def test_fake_bold_is_read_once_as_bold_and_cjk_lines_join_without_space() -> None:

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))

    def draw(c: Canvas) -> None:
        c.setFont("Helvetica", BODY)
        c.drawString(72, 700, "Heavy words")
        c.drawString(72.3, 700, "Heavy words")
        text_lines(c, 72, 660, ["这是第一行的中文文字", "这是第二行"], "STSong-Light")

    assert summary(partition(make_pdf(draw))) == [
        ("Title", "Heavy words"),  # -- drawn twice: bold, and bolder than the body --
        ("NarrativeText", "这是第一行的中文文字这是第二行"),
    ]


@pytest.mark.parametrize(
    "data",
    [b"", b"hello, not a pdf", b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF"],
)
def test_bad_input_is_a_document_error_naming_the_file(data: bytes) -> None:
    with pytest.raises(DocumentError, match=r"bad\.pdf"):
        partition_pdf(file=io.BytesIO(data), metadata_filename="bad.pdf")


def test_a_truncated_pdf_is_a_document_error() -> None:
    data = make_pdf(_page_with_body(1), _page_with_body(2))
    with pytest.raises(DocumentError, match=r"cut\.pdf"):
        partition_pdf(file=io.BytesIO(data[: len(data) // 2]), metadata_filename="cut.pdf")


def test_an_encrypted_pdf_needs_its_password() -> None:

    data = make_pdf(_page_with_body(1), encrypt=StandardEncryption("secret", canPrint=0))
    with pytest.raises(DocumentError, match=r"locked\.pdf: .*password"):
        partition_pdf(file=io.BytesIO(data), metadata_filename="locked.pdf")
    assert [e.text for e in partition(data, password="secret")] == ["Page one."]


def test_an_image_only_page_gives_a_warning_and_no_elements() -> None:

    image = Image.new("RGB", (40, 40), (200, 10, 10))

    def draw(c: Canvas) -> None:
        c.drawImage(ImageReader(image), 72, 500, 200, 200)

    with pytest.warns(NoTextLayerWarning, match="1 page"):
        assert partition(make_pdf(draw)) == []


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=9)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_WORD, min_size=1, max_size=12), min_size=1, max_size=12))
def test_no_word_is_lost_or_reordered(lines: list[list[str]]) -> None:
    def draw(c: Canvas) -> None:
        text_lines(c, 72, 720, [" ".join(words) for words in lines])

    words = [w for e in partition(make_pdf(draw)) for w in e.text.split()]
    assert words == [w for line in lines for w in line]
