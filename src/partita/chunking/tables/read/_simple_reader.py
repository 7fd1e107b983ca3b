"""The fast path of `HtmlTable.from_html_text()`: simple tables read without building a tree.

`parse_simple_table()` accepts only markup whose parse is unambiguous: one `<table>` (with
optional surrounding whitespace) holding `<tr>` rows directly or in `<thead>`/`<tbody>`/`<tfoot>`,
rows holding `<td>`/`<th>` cells of text and line breaks (`<br>`, `<br/>` or `<br />`) or void
cells (`<td/>`, which lxml's parser reads as empty), every other tag lowercase with an explicit
end tag, attributes written ` name="value"` with no duplicates in a row or cell tag, whitespace
between tags limited to space, tab and line feed, text free of control characters and of
entities other than `&amp; &lt; &gt; &quot; &nbsp; &#39; &#x27;`, and at least one row. For that
markup it returns the compact HTML and rows byte-identical to what compactifying lxml's parse
gives (see `partita.chunking.tables.read._model`): the HTML is lxml's XML serialization (`<td/>`
for a cell without content, `<td></td>` for one with only whitespace, text escaped
`&amp; &lt; &gt;`, `<br/>`), and each row's source HTML is that of the uncompacted `<tr>`, its
trailing whitespace included. Anything else returns `None`, and the caller takes the general
lxml path."""

from __future__ import annotations

import re

from partita.chunking.tables.read._simple_rows import ATTRS as _ATTRS
from partita.chunking.tables.read._simple_rows import (
    PlainRow,
    SimpleRow,
    has_duplicate_attrs,
    parse_cells,
)

__all__ = ["parse_simple_table"]

# -- every repeat is possessive (`*+`, `++`): what follows a repeat can never start another of
# -- its items, so giving characters back could never make a match, and the engine keeps no
# -- backtracking state (reading rows with spans or void cells takes a third less) --
_WS = "[ \t\n]*+"
_CHARS = "[^<&\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\ud800-\\udfff\\ufffe\\uffff]*+"
_TEXT = f"{_CHARS}(?:&(?:amp|lt|gt|quot|nbsp|#39|#x27);{_CHARS})*+"
_CONTENT = f"{_TEXT}(?:<br ?/?>{_TEXT})*+"
"""A cell's content: text, with line breaks."""
_CELLS = rf"<t(?:d{_ATTRS}(?:/|>{_CONTENT}</td)|h{_ATTRS}(?:/|>{_CONTENT}</th))>"
_ROW_INNER = rf"{_WS}(?:{_CELLS}{_WS})*+"
"""A row's inner markup: cells, each with content and an end tag or void (`<td/>`), between
layout whitespace."""

_TABLE_START = re.compile(rf"{_WS}<table{_ATTRS}>")

_PLAIN_WORD = "[^\\s<>&\\x00-\\x1f\\x7f-\\x9f\\ud800-\\udfff\\ufffe\\uffff]++"
_PLAIN_TEXT = f"{_PLAIN_WORD}(?: {_PLAIN_WORD})*+"
_PLAIN_CELLS = f"(?:<td>{_PLAIN_TEXT}</td>|<th>{_PLAIN_TEXT}</th>)++"
"""The inner markup of a plain row: attribute-less cells of text that is normalized, not empty
and needs no escaping, with nothing between them."""

_PLAIN_ROW = re.compile(_PLAIN_CELLS)

_PLAIN_TOKEN = re.compile(
    f"(<tr>({_PLAIN_CELLS})</tr>|<(thead|tbody|tfoot)>|</(thead|tbody|tfoot)>)"
)
"""A plain row (its inner markup) or a row group's start or end tag, with nothing before it;
group 1 is the whole token."""

_TOKEN = re.compile(
    rf"({_WS}(?:<tr>({_PLAIN_CELLS})</tr>(?=({_WS}))"
    rf"|<tr({_ATTRS})>({_ROW_INNER})</tr>(?=({_WS}))"
    rf"|<(thead|tbody|tfoot){_ATTRS}>|</(thead|tbody|tfoot)>))"
)
"""After optional whitespace, a plain row (its inner markup and the whitespace after it, which is
not consumed), another row (its attributes, inner markup and following whitespace) or a row
group's start or end tag; group 1 is the whole token, which ends `>`."""

_FOREIGN_TAG = re.compile("<(?!/?(?:t[dhr]|table|thead|tbody|tfoot|br)[ />])")
"""A tag, comment or other markup outside the grammar (or a `<` in text, which it excludes)."""

_LAYOUT_WS = re.compile(">[ \t\n]+<")
"""Whitespace alone between two tags."""

_LAYOUT_CHARS = frozenset(" \t\n")


def parse_simple_table(html_text: str) -> tuple[str, list[SimpleRow]] | None:
    """Return the compact HTML and rows of `html_text`, `None` unless it is a simple table."""
    start = _TABLE_START.match(html_text)
    end = len(html_text.rstrip(" \t\n")) - len("</table>")
    if start is None or not html_text.startswith("</table>", end):
        return None
    body = html_text[start.end() : end]
    # -- attributes, line feeds, void cells, line breaks, entities or tags other than
    # -- `<t…>`/`</t…>` rule out a plain body --
    rows = (
        "=" not in body
        and "\n" not in body
        and "/>" not in body
        and "&" not in body
        and body.count("<") == body.count("<t") + body.count("</t")
        and _plain_rows(body)
    )
    if not rows:
        if _FOREIGN_TAG.search(body):
            return None  # -- fails fast where the full tokenization would fail late --
        rows = _rows(body)
    if not rows:
        return None
    return "<table>" + "".join(row.html for row in rows) + "</table>", rows


def _plain_rows(body: str) -> list[SimpleRow] | None:
    """Return the rows of the table `body` when all are plain (see `_PLAIN_CELLS`) and nothing
    else is between its tags, else `None`."""
    tokens = _PLAIN_TOKEN.findall(body)
    if sum(len(token[0]) for token in tokens) != len(body):
        return None
    table_key = object()
    group_key = table_key
    section = ""
    in_thead = False
    rows: list[SimpleRow] = []
    append = rows.append
    for _token, inner, opened, closed in tokens:
        if inner:
            append(_plain_row(inner, ("", inner, ""), in_thead, group_key))
        elif opened:
            if section:
                return None
            section = opened
            in_thead = opened == "thead"
            group_key = object()
        else:
            if closed != section:
                return None
            section = ""
            in_thead = False
            group_key = table_key
    return None if section else rows


def _rows(body: str) -> list[SimpleRow] | None:
    """Return the rows of the table `body`, `None` when it is not simple markup."""
    tokens = _TOKEN.findall(body)
    # -- tokens absorb the whitespace before them and end in `>`, so they cover all but the
    # -- trailing whitespace exactly when nothing else lies between them --
    if sum(len(token[0]) for token in tokens) != len(body.rstrip(" \t\n")):
        return None
    table_key = object()
    group_key = table_key
    section = ""
    rows: list[SimpleRow] = []
    for _token, plain, plain_tail, tr_attrs, inner, tail, opened, closed in tokens:
        if plain:
            rows.append(_plain_row(plain, ("", plain, plain_tail), section == "thead", group_key))
        elif opened:
            if section:
                return None
            section = opened
            group_key = object()
        elif closed:
            if closed != section:
                return None
            section = ""
            group_key = table_key
        else:
            row = _parse_row(tr_attrs, inner, tail, section == "thead", group_key)
            if row is None:
                return None
            rows.append(row)
    return None if section else rows


def _plain_row(
    cells: str, source: tuple[str, str, str], in_thead: bool, group_key: object
) -> SimpleRow:
    """Return the row whose plain inner markup (see `_PLAIN_CELLS`) is `cells`: only `<th>`s
    need to become `<td>`s to make it compact."""
    if "<th>" in cells:
        compact = cells.replace("<th>", "<td>").replace("</th>", "</td>")
        # -- no cell is blank, so a row of `<th>`s alone is a header row --
        is_header = in_thead or "<td>" not in cells
    else:
        compact = cells
        is_header = in_thead
    text = compact[4:-5].replace("</td><td>", " ")
    return PlainRow(f"<tr>{compact}</tr>", text, is_header, group_key, source)


def _parse_row(
    tr_attrs: str, inner: str, tail: str, in_thead: bool, group_key: object
) -> SimpleRow | None:
    """Return the row of `<tr{tr_attrs}>{inner}</tr>{tail}`, `None` for a duplicate attribute."""
    if tr_attrs and has_duplicate_attrs(tr_attrs):
        return None
    source = (tr_attrs, inner, tail)
    # -- a row the plain alternative of `_TOKEN` missed can only be plain with attributes on its
    # -- `<tr>` or layout whitespace, which starts the markup or follows a `>` --
    if tr_attrs or inner[:1] in _LAYOUT_CHARS or "> " in inner or ">\n" in inner or ">\t" in inner:
        # -- drops the whitespace between cells, and that of a blank cell, which plain rows lack --
        cells_markup = _LAYOUT_WS.sub("><", inner).strip(" \t\n")
        if _PLAIN_ROW.fullmatch(cells_markup):
            return _plain_row(cells_markup, source, in_thead, group_key)

    parsed = parse_cells(inner)
    if parsed is None:
        return None
    cells, texts, xmls, is_th_row, max_rowspan = parsed
    html = "<tr>" + "".join(xmls) + "</tr>" if cells else "<tr></tr>" if inner else "<tr/>"
    is_header = in_thead or is_th_row
    return SimpleRow(html, cells, tuple(texts), max_rowspan, is_header, group_key, source)
