"""The middle path of `HtmlTable.from_html_text()`: tables read from lxml's parse in one walk.

`parse_tree_table()` takes the tables that are not simple markup (see
`_simple_reader`) but whose structure is regular: the fragment is one `<table>`
whose children are `<tr>` rows or `<thead>`/`<tbody>`/`<tfoot>` groups of them, rows hold only
`<td>`/`<th>` cells, and the text around those tags is whitespace. A cell may hold any markup
(inline tags, line breaks, nested tables) except comments, processing instructions and row-group
tags. It parses with a plain lxml HTML parser (the same tree as `lxml.html`'s, without its
per-element class lookup) and, without changing the tree, computes in one walk what
compactifying it would give: per cell the normalized text and compact XML serialization
(attributes other than `colspan`/`rowspan` dropped, `<th>` renamed `<td>`, texts normalized,
tails normalized keeping one edge space), so the rows are `SimpleRow`s. A row's source HTML is
serialized from the untouched tree on demand. Anything else, control characters included,
returns `None` and takes the general lxml path.
"""

from __future__ import annotations

import re

from lxml import etree

from partita.chunking.tables.read._simple_rows import (
    CellData,
    SimpleRow,
    cell_xml,
    escape_text,
    rowspan_of,
)

__all__ = ["parse_tree_table"]

_PARSER = etree.HTMLParser()
"""`lxml.html`'s parser options, without its element class lookup."""


_UNSAFE_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
"""Characters the parser or serializer may replace."""

_SAFE_SPAN = re.compile('[^"<>&\x00-\x1f\x7f]*')
"""A `colspan`/`rowspan` value serialized as it is."""

_ROW_GROUPS = ("thead", "tbody", "tfoot")


class _Irregular(Exception):
    """The table is not one this module reads."""


def parse_tree_table(html_text: str) -> tuple[str, list[SimpleRow], etree._Element] | None:
    """Return the compact HTML, the rows and the (untouched) `<table>` element of `html_text`,
    `None` unless it is a regular table."""
    # -- what a one-table fragment looks like, checked before parsing --
    stripped = html_text.strip()
    if stripped[:6].lower() != "<table" or stripped[-8:].lower() != "</table>":
        return None
    if _UNSAFE_CHARS.search(html_text):
        return None
    table = _parse_table(html_text)
    if table is None:
        return None
    try:
        rows = _rows(table)
    except _Irregular:
        return None
    if not rows:
        return None
    return "<table>" + "".join(row.html for row in rows) + "</table>", rows, table


def _parse_table(html_text: str) -> etree._Element | None:
    """Return the `<table>` of `html_text` parsed as `lxml.html.fragment_fromstring()` does, when
    it is the fragment's only element and no text surrounds it."""
    try:
        doc = etree.fromstring(f"<html><body>{html_text}</body></html>", _PARSER)
    except (etree.LxmlError, ValueError):
        return None
    if doc is None or doc.tag != "html":
        return None
    bodies = [e for e in doc if e.tag == "body"]
    if len(bodies) != 1:
        return None
    body = bodies[0]
    if len(body) != 1 or not _is_blank(body.text):
        return None
    table = body[0]
    if table.tag != "table" or not _is_blank(table.tail) or not _is_blank(table.text):
        return None
    return table


def _is_blank(text: str | None) -> bool:
    return not text or text.isspace()


def _rows(table: etree._Element) -> list[SimpleRow]:
    """Return the rows of `table`; raises `_Irregular` for anything but rows and row groups."""
    table_key = object()
    rows: list[SimpleRow] = []
    for child in table:
        tag = child.tag
        if not _is_blank(child.tail):
            raise _Irregular
        if tag == "tr":
            rows.append(_row(child, table_key, False))
        elif tag in _ROW_GROUPS:
            if not _is_blank(child.text):
                raise _Irregular
            group_key = object()
            for tr in child:
                if tr.tag != "tr" or not _is_blank(tr.tail):
                    raise _Irregular
                rows.append(_row(tr, group_key, tag == "thead"))
        else:
            raise _Irregular
    return rows


def _row(tr: etree._Element, group_key: object, in_thead: bool) -> SimpleRow:
    """Return the compact row of the source `tr`."""
    if not _is_blank(tr.text):
        raise _Irregular
    cells: list[CellData] = []
    xmls: list[str] = []
    texts: list[str] = []
    has_th = has_text_td = has_zero_rowspan = False
    max_rowspan = 1
    for cell in tr:
        tag = cell.tag
        if tag == "th":
            has_th = True
        elif tag != "td":
            raise _Irregular
        tail = cell.tail
        if tail and not tail.isspace():
            raise _Irregular
        if len(cell):
            text, body, is_blank = _element_content(cell)
        else:
            raw = cell.text
            if raw is None:
                text, body, is_blank = "", "/>", True
            else:
                text = " ".join(raw.split())
                is_blank = not text
                if "&" in text or "<" in text or ">" in text:
                    body = f">{escape_text(text)}</td>"
                else:
                    body = f">{text}</td>"
        if text:
            texts.append(text)
        if tag == "td" and not is_blank:
            has_text_td = True
        colspan_raw = cell.get("colspan")
        rowspan_raw = cell.get("rowspan")
        if colspan_raw is None and rowspan_raw is None:
            xml = f"<td{body}"
            cells.append((text, None, None, body, xml))
            xmls.append(xml)
            continue
        for value in (colspan_raw, rowspan_raw):
            if value is not None and _SAFE_SPAN.fullmatch(value) is None:
                raise _Irregular
        if rowspan_raw is not None:
            rowspan = rowspan_of(rowspan_raw)
            if rowspan is None:
                has_zero_rowspan = True
            elif rowspan > max_rowspan:
                max_rowspan = rowspan
        xml = cell_xml(colspan_raw, rowspan_raw, body)
        cells.append((text, colspan_raw, rowspan_raw, body, xml))
        xmls.append(xml)
    if cells:
        html = "<tr>" + "".join(xmls) + "</tr>"
    else:
        html = "<tr/>" if tr.text is None else "<tr></tr>"
    return SimpleRow(
        html,
        cells,
        tuple(texts),
        None if has_zero_rowspan else max_rowspan,
        in_thead or (has_th and not has_text_td),
        group_key,
        tr,
    )


def _element_content(cell: etree._Element) -> tuple[str, str, bool]:
    """Return the normalized text of `cell` (a `<br>` counting as a word boundary), the compact
    serialization of what follows its attributes (`>…</td>`), and whether its source text is
    blank."""
    markup: list[str] = []
    texts: list[str] = []
    raw_texts: list[str] = []
    raw = cell.text
    if raw:
        _append_text(raw, markup, texts, raw_texts)
    for child in cell:
        _serialize(child, markup, texts, raw_texts)
    content = "".join(texts)
    return " ".join(content.split()), f">{''.join(markup)}</td>", not "".join(raw_texts).strip()


def _append_text(raw: str, markup: list[str], texts: list[str], raw_texts: list[str]) -> None:
    """Append an element's source text `raw` to `raw_texts`, its compact text to `texts` and
    that text escaped to `markup`."""
    raw_texts.append(raw)
    text = " ".join(raw.split())
    texts.append(text)
    markup.append(escape_text(text))


def _serialize(
    element: etree._Element, markup: list[str], texts: list[str], raw_texts: list[str]
) -> None:
    """Append the compact serialization of `element` and its tail to `markup`, their compact
    texts to `texts` (a `<br>`'s tail after a space) and their source texts to `raw_texts`."""
    tag = element.tag
    if not isinstance(tag, str) or ":" in tag or tag in _ROW_GROUPS:
        raise _Irregular  # -- a comment or processing instruction, or a tag lxml would drop --
    if tag == "th":
        tag = "td"
    attrs = ""
    colspan = element.get("colspan")
    rowspan = element.get("rowspan")
    for name, value in (("colspan", colspan), ("rowspan", rowspan)):
        if value is not None:
            if _SAFE_SPAN.fullmatch(value) is None:
                raise _Irregular
            attrs += f' {name}="{value}"'
    raw = element.text
    if raw is None and not len(element):
        markup.append(f"<{tag}{attrs}/>")
    else:
        markup.append(f"<{tag}{attrs}>")
        if raw:
            _append_text(raw, markup, texts, raw_texts)
        for child in element:
            _serialize(child, markup, texts, raw_texts)
        markup.append(f"</{tag}>")
    if tag == "br":
        texts.append(" ")
    raw_tail = element.tail
    if raw_tail:
        raw_texts.append(raw_tail)
        words = raw_tail.split()
        if words:
            prefix = " " if raw_tail[0].isspace() else ""
            suffix = " " if raw_tail[-1].isspace() else ""
            tail = prefix + " ".join(words) + suffix
            texts.append(tail)
            markup.append(escape_text(tail))
