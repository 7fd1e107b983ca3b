"""Tables: text, merged cells, header rows, nested tables, tables in content controls and text
boxes (`partitioners/docx/tables.py`)."""

from __future__ import annotations

from partita.elements import Table
from tests.partitioners.docx.builders import (
    append_body_xml,
    new_document,
    partition,
    styled_paragraph,
    xml,
)


def _fill(table: object, rows: list[list[str]]) -> None:
    for r, values in enumerate(rows):
        for c, value in enumerate(values):
            table.cell(r, c).text = value  # type: ignore[attr-defined]


def test_simple_table_text_and_html() -> None:
    doc = new_document()
    table = doc.add_table(rows=2, cols=2)
    _fill(table, [["Name", "Qty"], ["a & b", "<3>"]])
    (element,) = partition(doc)
    assert isinstance(element, Table)
    assert element.text == "Name Qty a & b <3>"
    assert element.metadata.text_as_html == (
        "<table><tr><td>Name</td><td>Qty</td></tr>"
        "<tr><td>a &amp; b</td><td>&lt;3&gt;</td></tr></table>"
    )


def test_merged_cells_keep_colspan_and_rowspan() -> None:
    doc = new_document()
    table = doc.add_table(rows=3, cols=3)
    _fill(table, [["x", "", "y"], ["z", "1", "2"], ["", "3", "4"]])
    table.cell(0, 0).merge(table.cell(0, 1))  # -- gridSpan --
    table.cell(1, 0).merge(table.cell(2, 0))  # -- vMerge --
    (element,) = partition(doc)
    assert element.metadata.text_as_html == (
        '<table><tr><td colspan="2">x</td><td>y</td></tr>'
        '<tr><td rowspan="2">z</td><td>1</td><td>2</td></tr>'
        "<tr><td>3</td><td>4</td></tr></table>"
    )
    assert element.text == "x y z 1 2 3 4"


def test_rows_repeating_as_header_become_thead() -> None:
    doc = new_document()
    table = doc.add_table(rows=3, cols=2)
    _fill(table, [["H1", "H2"], ["a", "b"], ["c", "d"]])
    table.rows[0]._tr.get_or_add_trPr().append(xml("<w:tblHeader/>"))
    (element,) = partition(doc)
    assert element.metadata.text_as_html == (
        "<table><thead><tr><th>H1</th><th>H2</th></tr></thead>"
        "<tbody><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></tbody></table>"
    )


def test_header_flag_off_or_not_leading_is_not_a_header() -> None:
    doc = new_document()
    table = doc.add_table(rows=2, cols=1)
    _fill(table, [["a"], ["b"]])
    table.rows[0]._tr.get_or_add_trPr().append(xml('<w:tblHeader w:val="false"/>'))
    table.rows[1]._tr.get_or_add_trPr().append(xml("<w:tblHeader/>"))
    (element,) = partition(doc)
    assert "<thead>" not in (element.metadata.text_as_html or "")


def test_nested_table_is_flattened_into_its_cell() -> None:
    doc = new_document()
    outer = doc.add_table(rows=1, cols=2)
    outer.cell(0, 0).text = "left"
    cell = outer.cell(0, 1)
    cell.text = "before"
    inner = cell.add_table(rows=1, cols=2)
    _fill(inner, [["n1", "n2"]])
    (element,) = partition(doc)
    assert element.text == "left before n1 n2"
    assert element.metadata.text_as_html == (
        "<table><tr><td>left</td><td>before\nn1 n2</td></tr></table>"
    )


def test_table_inside_a_content_control_is_kept() -> None:
    doc = new_document()
    append_body_xml(
        doc,
        "<w:sdt><w:sdtPr/><w:sdtContent><w:tbl><w:tr><w:sdt><w:sdtContent>"
        "<w:tc><w:p><w:r><w:t>in control</w:t></w:r></w:p></w:tc>"
        "</w:sdtContent></w:sdt></w:tr></w:tbl></w:sdtContent></w:sdt>",
    )
    (element,) = partition(doc)
    assert element.text == "in control"
    assert element.metadata.text_as_html == "<table><tr><td>in control</td></tr></table>"


def _text_box(inner: str) -> str:
    box = f"<w:txbxContent>{inner}</w:txbxContent>"
    return (
        '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor>'
        "<a:graphic><a:graphicData><wps:wsp><wps:txbx>"
        f"{box}</wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing>"
        f"</mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox>{box}</v:textbox></v:shape>"
        "</w:pict></mc:Fallback></mc:AlternateContent></w:r>"
    )


def test_text_box_content_is_emitted_once_after_its_paragraph() -> None:
    doc = new_document()
    table = "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>boxed cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
    inner = styled_paragraph("Box heading", "Heading2") + table
    append_body_xml(doc, f"<w:p><w:r><w:t>Anchor text.</w:t></w:r>{_text_box(inner)}</w:p>")
    doc.add_paragraph("After.")
    elements = partition(doc)
    assert [(e.category, e.text) for e in elements] == [
        ("NarrativeText", "Anchor text."),
        ("Title", "Box heading"),
        ("Table", "boxed cell"),
        ("NarrativeText", "After."),
    ]


def test_text_box_in_a_table_cell_adds_to_the_cell() -> None:
    doc = new_document()
    inner = styled_paragraph("boxed")
    append_body_xml(
        doc,
        f"<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r>{_text_box(inner)}</w:p></w:tc>"
        "</w:tr></w:tbl>",
    )
    (element,) = partition(doc)
    assert element.text == "cell boxed"


def test_empty_table_is_not_an_element() -> None:
    doc = new_document()
    doc.add_table(rows=2, cols=2)
    doc.add_paragraph("Text.")
    assert [e.category for e in partition(doc)] == ["NarrativeText"]


def test_grid_before_keeps_columns_aligned() -> None:
    doc = new_document()
    append_body_xml(
        doc,
        "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>b"
        '</w:t></w:r></w:p></w:tc></w:tr><w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>'
        "<w:tc><w:p><w:r><w:t>c</w:t></w:r></w:p></w:tc></w:tr></w:tbl>",
    )
    (element,) = partition(doc)
    assert element.metadata.text_as_html == (
        "<table><tr><td>a</td><td>b</td></tr><tr><td></td><td>c</td></tr></table>"
    )
