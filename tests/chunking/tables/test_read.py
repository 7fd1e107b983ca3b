"""`partita.chunking.tables.read._model`: the compact table model, checked against
unstructured's."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from unstructured.common.html_table import HtmlCell as RefHtmlCell
from unstructured.common.html_table import HtmlRow as RefHtmlRow
from unstructured.common.html_table import HtmlTable as RefHtmlTable

from partita.chunking.tables.read._model import (
    HtmlRow,
    HtmlTable,
    _compactified_lxml_table,
    format_td,
    leading_header_row_count,
    parse_row_fragment,
)
from partita.chunking.tables.read._simple_reader import parse_simple_table
from partita.chunking.tables.read._tree_reader import parse_tree_table
from partita.chunking.tables.split._headers import _as_header_row_html
from tests.chunking.table_strategies import html_tables, simple_tables, spanning_tables


def _rows(html: str) -> list[HtmlRow]:
    return list(HtmlTable.from_html_text(html).iter_rows())


# -- compactification -----------------------------------------------------------------------------


def test_from_html_text_compactifies_sections_attributes_header_cells_and_whitespace() -> None:
    table = HtmlTable.from_html_text(
        '<table border="1" class="dataframe">\n'
        '  <thead>\n    <tr style="x"><th class="h">Name</th><th colspan="2">Qty   and\n'
        "  Price</th></tr>\n  </thead>\n"
        '  <tbody>\n    <tr><td rowspan="2" align="right"> a </td><td>1</td><td>2</td></tr>\n'
        "  </tbody>\n</table>"
    )

    assert table.html == (
        '<table><tr><td>Name</td><td colspan="2">Qty and Price</td></tr>'
        '<tr><td rowspan="2">a</td><td>1</td><td>2</td></tr></table>'
    )
    assert table.text == "Name Qty and Price a 1 2"


def test_from_html_text_keeps_inline_tails_with_single_edge_spaces() -> None:
    table = HtmlTable.from_html_text(
        "<table><tr><td><b>foo</b>   bar  <i>baz</i></td></tr></table>"
    )

    assert table.html == "<table><tr><td><b>foo</b> bar <i>baz</i></td></tr></table>"
    assert [list(row.iter_cell_texts()) for row in table.iter_rows()] == [["foo bar baz"]]


def test_from_html_text_uses_the_first_table_of_the_fragment() -> None:
    table = HtmlTable.from_html_text(
        "<div><p>x</p><table><tr><td>a</td></tr></table><table><tr><td>b</td></tr></table></div>"
    )

    assert table.html == "<table><tr><td>a</td></tr></table>"


@pytest.mark.parametrize(
    "html",
    ["<p>no table here</p>", "<table></table><p>two elements</p>", "leading text", ""],
)
def test_from_html_text_raises_value_error_without_a_single_fragment_holding_a_table(
    html: str,
) -> None:
    with pytest.raises(ValueError):
        HtmlTable.from_html_text(html)


# -- cells ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "text"),
    [
        ("<td>a<br>b</td>", "a b"),
        ("<td>a<br/>b</td>", "a b"),
        ("<td>a <br> b<br></td>", "a b"),
        ("<td> x  &amp; \n y </td>", "x & y"),
        ("<td><b>bold</b>tail</td>", "boldtail"),
        ("<td>  </td>", ""),
        ("<td/>", ""),
    ],
)
def test_cell_text_is_normalized_with_br_as_a_word_boundary(cell: str, text: str) -> None:
    (row,) = _rows(f"<table><tr>{cell}</tr></table>")

    assert [c.text for c in row.iter_cells()] == [text]
    assert list(row.iter_cell_texts()) == ([text] if text else [])


@pytest.mark.parametrize(
    ("attrs", "rowspan", "colspan"),
    [
        ("", 1, 1),
        (' rowspan="3" colspan="2"', 3, 2),
        (' rowspan="0" colspan="0"', None, 1),
        (' rowspan="x" colspan="-2"', 1, 1),
        (' rowspan=" 2 "', 2, 1),
    ],
)
def test_cell_spans_parse_like_html(attrs: str, rowspan: int | None, colspan: int) -> None:
    (row,) = _rows(f"<table><tr><td{attrs}>a</td></tr></table>")
    (cell,) = row.iter_cells()

    assert (cell.rowspan, cell.colspan) == (rowspan, colspan)


def test_an_empty_cell_serializes_as_a_void_td_with_its_spans() -> None:
    (row,) = _rows('<table><tr><td colspan="2" rowspan="0"> </td><td>a</td></tr></table>')

    assert [cell.html for cell in row.iter_cells()] == ['<td colspan="2"/>', "<td>a</td>"]


@pytest.mark.parametrize(
    ("args", "html"),
    [
        (("a < b & c",), "<td>a &lt; b &amp; c</td>"),
        (("two\nlines",), "<td>two<br/>lines</td>"),
        (("  spaced   out ",), "<td>spaced out</td>"),
        (("",), "<td/>"),
        (("x", 2, 3), '<td colspan="2" rowspan="3">x</td>'),
        (("", 3), '<td colspan="3"/>'),
        (('"q"', 1, 1), "<td>&quot;q&quot;</td>"),
    ],
)
def test_format_td_escapes_normalizes_and_omits_default_spans(
    args: tuple[str] | tuple[str, int] | tuple[str, int, int], html: str
) -> None:
    assert format_td(*args) == html


# -- rows -----------------------------------------------------------------------------------------


def test_max_rowspan_is_none_for_a_rowspan_zero_cell() -> None:
    rows = _rows(
        '<table><tr><td rowspan="3">a</td><td>b</td></tr>'
        '<tr><td rowspan="0">c</td></tr><tr><td>d</td></tr></table>'
    )

    assert [row.max_rowspan for row in rows] == [3, None, 1]


def test_html_clipped_to_rows_rewrites_only_over_reaching_rowspans() -> None:
    (row,) = _rows(
        '<table><tr><td rowspan="5">a</td><td rowspan="2">b</td><td rowspan="0">c</td></tr></table>'
    )

    assert row.html_clipped_to_rows(2) == (
        '<tr><td rowspan="2">a</td><td rowspan="2">b</td><td rowspan="2">c</td></tr>'
    )
    assert row.html_clipped_to_rows(1) == "<tr><td>a</td><td>b</td><td>c</td></tr>"
    assert row.row_clipped_to_rows(3).max_rowspan == 3


def test_row_group_keys_identify_each_section() -> None:
    rows = _rows(
        "<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>a</td></tr><tr><td>b</td></tr>"
        "</tbody><tbody><tr><td>c</td></tr></tbody></table>"
    )

    keys = [row.row_group_key for row in rows]
    assert keys[1] is keys[2]
    assert len({id(key) for key in keys}) == 3


def test_parse_row_fragment_returns_the_tr_or_none() -> None:
    tr = parse_row_fragment("<tr><td>a</td></tr>")

    assert tr is not None
    assert tr.tag == "tr"
    assert parse_row_fragment("<td>a</td><td>b</td>") is None


# -- headers --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("html", "is_header", "count"),
    [
        ("<thead><tr><td>a</td></tr></thead><tr><td>b</td></tr>", [True, False], 1),
        ("<tr><th>a</th><th>b</th></tr><tr><th>c</th></tr><tr><td>d</td></tr>", [1, 1, 0], 2),
        ("<tr><td></td><th>a</th></tr><tr><td>b</td></tr>", [True, False], 1),
        ("<tr><td>x</td><th>a</th></tr>", [False], 0),
        ("<tr><th>a</th><td></td></tr>", [True], 1),
        ("<tr><th>a</th><td>b</td></tr>", [False], 0),
        ("<tr><td>a</td></tr><tr><th>b</th></tr>", [False, True], 0),
        ("<tr></tr>", [False], 0),
    ],
)
def test_header_rows_are_thead_rows_or_th_rows_after_a_blank_corner(
    html: str, is_header: list[bool], count: int
) -> None:
    table = HtmlTable.from_html_text(f"<table>{html}</table>")

    assert [row.is_header for row in table.iter_rows()] == [bool(h) for h in is_header]
    assert leading_header_row_count(table) == count


# -- differential: the reference's table model --------------------------------------------------


def _ref_leading_header_row_count(table: RefHtmlTable) -> int:
    count = 0
    for row in table.iter_rows():
        if not row.is_header:
            break
        count += 1
    return count


def _row_group_pattern(keys: list[object]) -> list[int]:
    """Return the keys renumbered by first appearance, compared by identity."""
    seen: list[object] = []
    pattern = []
    for key in keys:
        idx = next((i for i, k in enumerate(seen) if k is key), None)
        if idx is None:
            seen.append(key)
            idx = len(seen) - 1
        pattern.append(idx)
    return pattern


def _cell_facts(row: HtmlRow | RefHtmlRow, clip: int) -> list[tuple[object, ...]]:
    return [
        (
            c.html,
            c.text,
            c.rowspan,
            c.colspan,
            _ref_html_with_rowspan(c, clip)
            if isinstance(c, RefHtmlCell)
            else c.html_with_rowspan(clip),
        )
        for c in row.iter_cells()
    ]


def _ref_html_with_rowspan(cell: RefHtmlCell, rowspan: int) -> str:
    """The reference cell's HTML with its `rowspan` set, as partita's `html_with_rowspan()`."""
    td = copy.deepcopy(cell._td)
    if rowspan <= 1:
        td.attrib.pop("rowspan", None)
    else:
        td.attrib["rowspan"] = str(rowspan)
    return str(etree.tostring(td, encoding=str))


def _row_facts(row: HtmlRow | RefHtmlRow, clip: int) -> tuple[object, ...]:
    try:
        return _checked_row_facts(row, clip)
    except ValueError as error:
        # -- e.g. a comment among the cells, which is not an element --
        return ("error", type(error).__name__)


def _checked_row_facts(row: HtmlRow | RefHtmlRow, clip: int) -> tuple[object, ...]:
    clipped = row.row_clipped_to_rows(clip)
    return (
        row.html,
        row.source_html,
        list(row.iter_cell_texts()),
        row.is_header,
        row.max_rowspan,
        row.html_clipped_to_rows(clip),
        _cell_facts(row, clip),
        (clipped.html, clipped.max_rowspan, list(clipped.iter_cell_texts()), clipped.is_header),
        [(c.html, c.rowspan) for c in clipped.iter_cells()],
    )


def _assert_model_matches_the_reference(html: str, clip: int) -> None:
    try:
        ref = RefHtmlTable.from_html_text(html)
    except (etree.ParserError, ValueError):
        with pytest.raises(ValueError):
            HtmlTable.from_html_text(html)
        return
    ours = HtmlTable.from_html_text(html)

    assert ours.html == ref.html
    assert ours.text == ref.text
    assert leading_header_row_count(ours) == _ref_leading_header_row_count(ref)
    ref_rows, our_rows = list(ref.iter_rows()), list(ours.iter_rows())
    assert [_row_facts(r, clip) for r in our_rows] == [_row_facts(r, clip) for r in ref_rows]
    assert _row_group_pattern([r.row_group_key for r in our_rows]) == _row_group_pattern(
        [r.row_group_key for r in ref_rows]
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(html_tables(), spanning_tables()), st.integers(1, 4))
def test_table_model_matches_the_reference(html: str, clip: int) -> None:
    _assert_model_matches_the_reference(html, clip)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        simple_tables(),
        simple_tables(plain=True),
        simple_tables(near_miss=True),
        simple_tables(rich=True),
        simple_tables(rich=True, near_miss=True),
    ),
    st.integers(1, 4),
)
def test_simple_table_model_matches_the_reference(html: str, clip: int) -> None:
    _assert_model_matches_the_reference(html, clip)


# -- the fast path ------------------------------------------------------------------------------


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(simple_tables(), simple_tables(plain=True)), st.integers(1, 4))
def test_the_fast_path_reads_simple_tables_as_lxml_does(html: str, clip: int) -> None:
    simple = parse_simple_table(html)
    if "<tr" not in html:
        # -- a table without rows is left to lxml --
        assert simple is None
        return
    assert simple is not None
    _assert_same_tables(HtmlTable(*simple), _compactified_lxml_table(html), clip)


def _assert_same_tables(fast: HtmlTable, slow: HtmlTable, clip: int) -> None:
    """Assert that the table read by a fast path equals the one lxml compactified."""
    assert fast.html == slow.html
    assert fast.text == slow.text
    fast_rows, slow_rows = list(fast.iter_rows()), list(slow.iter_rows())
    assert [_row_facts(r, clip) for r in fast_rows] == [_row_facts(r, clip) for r in slow_rows]
    assert [r.text for r in fast_rows] == [r.text for r in slow_rows]
    assert [_as_header_row_html(r, clip) for r in fast_rows] == [
        _as_header_row_html(r, clip) for r in slow_rows
    ]
    assert _row_group_pattern([r.row_group_key for r in fast_rows]) == _row_group_pattern(
        [r.row_group_key for r in slow_rows]
    )


# -- the tree path ------------------------------------------------------------------------------


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        simple_tables(rich=True),
        simple_tables(rich=True, near_miss=True),
        html_tables(),
        spanning_tables(),
    ),
    st.integers(1, 4),
)
def test_the_tree_path_reads_regular_tables_as_lxml_does(html: str, clip: int) -> None:
    tree = parse_tree_table(html)
    if tree is None:
        return
    _assert_same_tables(HtmlTable(*tree), _compactified_lxml_table(html), clip)


@pytest.mark.parametrize(
    "html",
    [
        "<table><tr><td>a <b>b</b></td></tr></table>",
        "<TABLE>\n<THEAD><TR><TH>A</TH></TR></THEAD><tr><td>x<br>y</TD></tr></table>\n",
        '<table><tr><td><a href="#">l</a>, <span class="c">s</span></td></tr></table>',
        "<table><tr><td><table><tr><td>nested</td></tr></table></td></tr></table>",
        "<table><tr><td colspan=2 rowspan='3'>a</td><td nowrap>b</td></tr></table>",
        "<table><tr><td>a &copy; &foo;</td></tr></table>",
    ],
)
def test_the_tree_path_takes_regular_tables(html: str) -> None:
    assert parse_simple_table(html) is None
    assert parse_tree_table(html) is not None


@pytest.mark.parametrize(
    "html",
    [
        "<table></table>",
        "<table><caption>c</caption><tr><td>a</td></tr></table>",
        "<table><tr><td>a</td></tr>junk</table>",
        "<table><tr><td>a</td>junk</tr></table>",
        "<table><tr><!-- c --><td>a</td></tr></table>",
        "<table><tr><td>a<!-- c --></td></tr></table>",
        "<table><tr><td><table><tbody><tr><td>n</td></tr></tbody></table></td></tr></table>",
        "<table><tr><td><o:p>x</o:p></td></tr></table>",
        "<table><tr><td>a\x01</td></tr></table>",
        '<table><tr><td colspan="a&amp;b">a</td></tr></table>',
        "<table><tr><td>a</td></tr></table><p>b</p>",
        "x<table><tr><td>a</td></tr></table>",
        "<div><table><tr><td>a</td></tr></table></div>",
    ],
)
def test_the_tree_path_leaves_irregular_tables_to_lxml(html: str) -> None:
    assert parse_tree_table(html) is None


@pytest.mark.parametrize(
    "html",
    [
        "<table><tr><td>a</td></tr></table>",
        '\n<table border="1">\n<thead>\n<tr style="x"><th>A</th></tr>\n</thead>\n'
        '<tbody><tr><td rowspan="2" class="c">&amp;&nbsp;b &gt; c</td><td></td><td> </td></tr>'
        "</tbody><tfoot></tfoot></table>\n",
        "<table><tr></tr><tr> </tr><tr><td>x</td></tr></table>",
        "<table><tr><td>a<br>b<br/> c <br />d</td></tr></table>",
        '<table><tr><td/><th colspan="2"/><td rowspan="2"/><td>x</td></tr></table>',
    ],
)
def test_the_fast_path_takes_simple_markup(html: str) -> None:
    assert parse_simple_table(html) is not None


@pytest.mark.parametrize(
    "html",
    [
        "<table></table>",
        "<table><tbody></tbody></table>",
        "<table><tr><td>a<b>b</b></td></tr></table>",
        "<table><tr><td>a</br>b</td></tr></table>",
        "<table><tr><td>a &copy; b</td></tr></table>",
        "<table><tr><td>a\r\nb</td></tr></table>",
        "<table><tr><td colspan=2>a</td></tr></table>",
        '<table><tr><td colspan="2" colspan="3">a</td></tr></table>',
        '<table><tr class="a" class="b"><td>a</td></tr></table>',
        "<table><tr><td>a</th></tr></table>",
        "<table><TR><td>a</td></TR></table>",
        "<table><caption>c</caption><tr><td>a</td></tr></table>",
        "<table><thead><tbody><tr><td>a</td></tr></tbody></thead></table>",
        "<table><thead><tr><td>a</td></tr></tbody></table>",
        "<table><tr><td>a</td></tr>junk</table>",
        "<table><tr><td>a</td></tr></table><p>b</p>",
        "x<table><tr><td>a</td></tr></table>",
        "<table><tr><td>a</td></tr>",
        "<table><tr><td /><td>a</td></tr></table>",
    ],
)
def test_the_fast_path_leaves_anything_else_to_lxml(html: str) -> None:
    assert parse_simple_table(html) is None
