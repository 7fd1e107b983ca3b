"""Table HTML: the one writer of the compact `<table>` partitioners put in `text_as_html`.

The form is the reference's: no whitespace between tags, no attributes but a cell's `colspan`
and `rowspan` (each only when greater than 1), text escaped with quotes kept (`&`, `<`, `>`
only), the lines of a cell joined by `<br/>`. Chunking's table cells carry their spans the same
way (`span_attributes`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

__all__ = ["cell_html", "span_attributes", "table_html", "text_table_html"]


def span_attributes(colspan: int, rowspan: int) -> str:
    """Return a cell's ` colspan="n"` and ` rowspan="m"` attributes, each only when over 1."""
    attributes = ""
    if colspan > 1:
        attributes += f' colspan="{colspan}"'
    if rowspan > 1:
        attributes += f' rowspan="{rowspan}"'
    return attributes


def cell_html(tag: str, lines: Iterable[str], colspan: int = 1, rowspan: int = 1) -> str:
    """Return the cell `<tag>` ("th" or "td") holding `lines`, escaped and joined by `<br/>`."""
    inner = "<br/>".join(escape(line, quote=False) for line in lines)
    return f"<{tag}{span_attributes(colspan, rowspan)}>{inner}</{tag}>"


def table_html(
    groups: Iterable[tuple[str | None, Sequence[Sequence[str]]]], caption: str = ""
) -> str:
    """Return the `<table>` of row `groups`, after its escaped `<caption>` when `caption` is set.

    A group is its tag ("thead", "tbody", "tfoot"; None for rows in no group) and its rows, each
    row the HTML of its cells (`cell_html`); each row is written in a `<tr>`, the group's rows
    inside its tag. A group without rows is left out.
    """
    parts = ["<table>"]
    if caption:
        parts.append(f"<caption>{escape(caption, quote=False)}</caption>")
    for tag, rows in groups:
        if not rows:
            continue
        if tag:
            parts.append(f"<{tag}>")
        for cells in rows:
            parts.append("<tr>")
            parts.extend(cells)
            parts.append("</tr>")
        if tag:
            parts.append(f"</{tag}>")
    parts.append("</table>")
    return "".join(parts)


def text_table_html(
    rows: Sequence[Sequence[tuple[str, int, int]]],
    header_count: int,
    body_tag: str | None = "tbody",
) -> str:
    """Return the table of `rows` of `(text, colspan, rowspan)` cells: the first `header_count`
    rows a `<thead>` of `<th>` cells, the others a group `body_tag` (None: in no group) of `<td>`
    cells."""
    head, body = rows[:header_count], rows[header_count:]
    return table_html(
        [
            ("thead", [[cell_html("th", [t], c, r) for t, c, r in row] for row in head]),
            (body_tag, [[cell_html("td", [t], c, r) for t, c, r in row] for row in body]),
        ]
    )
