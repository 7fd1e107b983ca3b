"""The one writer of partitioners' table HTML (`partita._table_html`)."""

from __future__ import annotations

from partita._table_html import cell_html, span_attributes, table_html, text_table_html


def test_spans_only_when_over_one() -> None:
    assert span_attributes(1, 1) == ""
    assert span_attributes(2, 3) == ' colspan="2" rowspan="3"'


def test_cell_lines_are_escaped_and_joined_by_br() -> None:
    assert cell_html("td", ["a<b", '"c" & d'], 2) == '<td colspan="2">a&lt;b<br/>"c" &amp; d</td>'


def test_groups_without_rows_are_left_out() -> None:
    html = table_html([("thead", [["<th>h</th>"]]), ("tbody", []), (None, [["<td>x</td>"]])], "C")
    assert (
        html == "<table><caption>C</caption><thead><tr><th>h</th></tr></thead>"
        "<tr><td>x</td></tr></table>"
    )


def test_text_table_head_and_body() -> None:
    rows = [[("h", 1, 1)], [("b", 1, 2)]]
    assert text_table_html(rows, 1) == (
        "<table><thead><tr><th>h</th></tr></thead>"
        '<tbody><tr><td rowspan="2">b</td></tr></tbody></table>'
    )
    assert (
        text_table_html(rows, 0, None)
        == '<table><tr><td>h</td></tr><tr><td rowspan="2">b</td></tr></table>'
    )
