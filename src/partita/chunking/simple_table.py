"""The fast path of `HtmlTable.from_html_text()`: simple tables read without building a tree.

`parse_simple_table()` accepts only markup whose parse is unambiguous: one `<table>` (with
optional surrounding whitespace) holding `<tr>` rows directly or in `<thead>`/`<tbody>`/`<tfoot>`,
rows holding `<td>`/`<th>` cells of text and line breaks (`<br>`, `<br/>` or `<br />`), every tag
lowercase with explicit end tags, attributes written ` name="value"` with no duplicates in a row
or cell tag, whitespace between tags limited to space, tab and line feed, text free of control
characters and of entities other than `&amp; &lt; &gt; &quot; &nbsp; &#39; &#x27;`, and at least
one row. For that markup it returns the compact HTML and rows byte-identical to what
compactifying lxml's parse gives (see `partita.chunking.html_table`): the HTML is lxml's XML
serialization (`<td/>` for a cell without content, `<td></td>` for one with only whitespace, text
escaped `&amp; &lt; &gt;`, `<br/>`), and each row's source HTML is that of the uncompacted `<tr>`,
its trailing whitespace included. Anything else returns `None`, and the caller takes the general
lxml path."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lxml import etree

__all__ = [
    "CellData",
    "SimpleCell",
    "SimpleRow",
    "cell_xml",
    "escape_text",
    "parse_simple_table",
    "rowspan_of",
]

_WS = "[ \t\n]*"
_ATTRS = '(?: [a-z][a-z0-9_-]*="[^"<>&\\x00-\\x1f\\x7f-\\x9f\\ud800-\\udfff\\ufffe\\uffff]*")*'
_CHARS = "[^<&\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\ud800-\\udfff\\ufffe\\uffff]*"
_TEXT = f"{_CHARS}(?:&(?:amp|lt|gt|quot|nbsp|#39|#x27);{_CHARS})*"
_CONTENT = f"{_TEXT}(?:<br ?/?>{_TEXT})*"
"""A cell's content: text, with line breaks."""
_ROW_INNER = rf"{_WS}(?:<t(?:d{_ATTRS}>{_CONTENT}</td|h{_ATTRS}>{_CONTENT}</th)>{_WS})*"

_TABLE_START = re.compile(rf"{_WS}<table{_ATTRS}>")

_PLAIN_WORD = "[^\\s<>&\\x00-\\x1f\\x7f-\\x9f\\ud800-\\udfff\\ufffe\\uffff]+"
_PLAIN_TEXT = f"{_PLAIN_WORD}(?: {_PLAIN_WORD})*"
_PLAIN_CELLS = f"(?:<td>{_PLAIN_TEXT}</td>|<th>{_PLAIN_TEXT}</th>)+"
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

_CELL = re.compile(rf"<(t[dh])({_ATTRS})>([^<]*(?:<br ?/?>[^<]*)*)</t[dh]>")
"""A cell of a row's inner markup: tag, attributes and raw content."""

_BR = re.compile("<br ?/?>")

_FOREIGN_TAG = re.compile("<(?!/?(?:t[dhr]|table|thead|tbody|tfoot|br)[ />])")
"""A tag, comment or other markup outside the grammar (or a `<` in text, which it excludes)."""

_LAYOUT_WS = re.compile(">[ \t\n]+<")
"""Whitespace alone between two tags."""


_ATTR = re.compile(r' ([a-z][a-z0-9_-]*)="([^"]*)"')

_ENTITY = re.compile(r"&(amp|lt|gt|quot|nbsp|#39|#x27);")
_ENTITY_CHARS = {
    "amp": "&",
    "lt": "<",
    "gt": ">",
    "quot": '"',
    "nbsp": "\xa0",
    "#39": "'",
    "#x27": "'",
}


def _decode(raw: str) -> str:
    """Return the text of `raw`, its (accepted) character references resolved."""
    return _ENTITY.sub(lambda m: _ENTITY_CHARS[m.group(1)], raw) if "&" in raw else raw


def escape_text(text: str) -> str:
    """Return `text` escaped as lxml serializes text content."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _source_content(raw: str) -> str:
    """Return lxml's serialization of the raw cell content `raw`, as parsed."""
    if "<" in raw:
        return "<br/>".join(escape_text(_decode(piece)) for piece in _BR.split(raw))
    return escape_text(_decode(raw))


def _compact_content(raw: str) -> tuple[str, str]:
    """Return the normalized text of the raw cell content `raw` (a line break counting as a word
    boundary) and its compactified serialization: text normalized, each line break's tail
    normalized keeping one edge space each side."""
    pieces = [_decode(piece) for piece in _BR.split(raw)]
    text = " ".join(" ".join(pieces).split())
    parts = [escape_text(" ".join(pieces[0].split()))]
    for tail in pieces[1:]:
        words = tail.split()
        if words:
            prefix = " " if tail[0].isspace() else ""
            suffix = " " if tail[-1].isspace() else ""
            parts.append(f"<br/>{prefix}{escape_text(' '.join(words))}{suffix}")
        else:
            parts.append("<br/>")
    return text, "".join(parts)


def _colspan(raw: str | None) -> int:
    """Return a declared `colspan` as the lxml path reads it: 1 when absent, unparseable or not
    positive."""
    if raw is None:
        return 1
    try:
        return max(1, int(raw))
    except ValueError:
        return 1


def rowspan_of(raw: str | None) -> int | None:
    """Return a declared `rowspan` as the lxml path reads it: 1 when absent or unparseable, at
    least 1, `None` for `rowspan="0"`."""
    if raw is None:
        return 1
    try:
        value = int(raw)
    except ValueError:
        return 1
    return None if value == 0 else max(1, value)


def _empty_td(colspan: int, rowspan: int) -> str:
    """Return the void `<td/>` the lxml path formats for a cell without text."""
    attrs = ""
    if colspan > 1:
        attrs += f' colspan="{colspan}"'
    if rowspan > 1:
        attrs += f' rowspan="{rowspan}"'
    return f"<td{attrs}/>"


CellData = tuple[str, str | None, str | None, str, str]
"""A cell as parsed: `(text, colspan value, rowspan value, body, compact HTML)`, the values
verbatim (`None` when absent) and the body what follows the attributes: `>text</td>` or `/>`."""


class SimpleCell:
    """A compact `<td>` of a simple table. Matches `partita.chunking.html_table.HtmlCell`."""

    __slots__ = ("_data", "colspan", "rowspan", "text")

    def __init__(self, data: CellData) -> None:
        self._data = data
        self.text = data[0]
        """The normalized text, the empty string when the cell has none."""
        self.colspan = _colspan(data[1])
        """The declared `colspan`, 1 when absent, unparseable or not positive."""
        self.rowspan = rowspan_of(data[2])
        """The declared `rowspan`, 1 when absent or unparseable, `None` for `rowspan="0"`."""

    @property
    def html(self) -> str:
        """The compact HTML of this cell; a void `<td/>` with its spans when it has no text."""
        if self.text:
            return self._data[4]
        return _empty_td(self.colspan, self.rowspan or 1)

    def html_with_rowspan(self, rowspan: int) -> str:
        """Return this cell's compact HTML with its `rowspan` set to `rowspan` (removed when 1)."""
        _text, colspan_raw, _rowspan_raw, body, _xml = self._data
        return cell_xml(colspan_raw, str(rowspan) if rowspan > 1 else None, body)


def cell_xml(colspan_raw: str | None, rowspan_raw: str | None, body: str) -> str:
    """Return the compact `<td>` with these attribute values (`None`: absent) and `body`."""
    head = "<td" if colspan_raw is None else f'<td colspan="{colspan_raw}"'
    return f"{head}{body}" if rowspan_raw is None else f'{head} rowspan="{rowspan_raw}"{body}'


class SimpleRow:
    """A compact `<tr>` of a simple table, every derived value computed once, up front.

    Matches `partita.chunking.html_table.HtmlRow`.
    """

    __slots__ = (
        "_cells",
        "_source",
        "html",
        "is_header",
        "max_rowspan",
        "row_group_key",
        "text",
        "texts",
    )

    def __init__(
        self,
        html: str,
        cells: list[CellData] | None,
        texts: tuple[str, ...],
        max_rowspan: int | None,
        is_header: bool,
        row_group_key: object,
        source: tuple[str, str, str] | etree._Element | None,
    ) -> None:
        self.html = html
        """The compact HTML of this row, like `<tr><td>foo</td><td>bar</td></tr>`."""
        self._cells = cells
        """The parsed cells, `None` until needed when the row has only plain `<td>`s."""
        self.texts = texts
        """The text of each cell that has any."""
        self.text = " ".join(texts)
        """The cell texts joined by spaces."""
        self.max_rowspan = max_rowspan
        """The largest `rowspan` of any cell, 1 when none spans rows, `None` for a `rowspan="0"`."""
        self.is_header = is_header
        """`True` for a `<thead>` row or an all-`<th>` row after optional blank corner cells."""
        self.row_group_key = row_group_key
        """Identity of this row's `<thead>`/`<tbody>`/`<tfoot>` (or table): compare with `is`."""
        self._source = source
        """The source row: `(attributes, inner markup, trailing whitespace)` of its markup, or
        its element in an untouched lxml tree."""

    @property
    def max_cell_text_len(self) -> int:
        """The length of the longest cell text, 0 when no cell has text."""
        return max(map(len, self.texts), default=0)

    @property
    def source_html(self) -> str | None:
        """The serialized source `<tr>`, before compactification, trailing whitespace included."""
        source = self._source
        if source is None:
            return None
        if isinstance(source, tuple):
            return _source_tr_html(*source)
        return str(etree.tostring(source, encoding=str))

    def iter_cells(self) -> Iterator[SimpleCell]:
        """Generate a cell for each `<td>` of this row."""
        return map(SimpleCell, self._cell_data())

    def iter_cell_texts(self) -> Iterator[str]:
        """Generate the text of each cell that has any."""
        return iter(self.texts)

    def html_clipped_to_rows(self, max_rowspan: int) -> str:
        """Return this row's HTML with any `rowspan` reaching past `max_rowspan` rows clipped."""
        if self.max_rowspan is not None and self.max_rowspan <= max_rowspan:
            return self.html
        return "<tr>" + "".join(cell[4] for cell in self._clipped_cells(max_rowspan)) + "</tr>"

    def row_clipped_to_rows(self, max_rowspan: int) -> SimpleRow:
        """Return a new row like this one with its `rowspan`s clipped to `max_rowspan`."""
        cells = self._clipped_cells(max_rowspan)
        return SimpleRow(
            "<tr>" + "".join(cell[4] for cell in cells) + "</tr>" if cells else self.html,
            cells,
            self.texts,
            _max_rowspan(cells),
            self.is_header,
            self.row_group_key,
            self._source,
        )

    def header_html(self, max_rowspan: int) -> str | None:
        """Return the source `<tr>` as a repeated header row: cells become `<th>`, a `rowspan`
        reaching past `max_rowspan` rows is clipped (removed when that is 1), no trailing
        whitespace; `None` unless the source is markup (the caller re-parses `source_html`)."""
        if not isinstance(self._source, tuple):
            return None
        attrs, inner, _tail = self._source
        if not inner:
            return f"<tr{attrs}/>"

        def header_cell(match: re.Match[str]) -> str:
            _tag, cell_attrs, raw = match.groups()
            if "rowspan" in cell_attrs:
                cell_attrs = _ATTR.sub(lambda m: _clipped_attr(m, max_rowspan), cell_attrs)
            if not raw:
                return f"<th{cell_attrs}/>"
            return f"<th{cell_attrs}>{_source_content(raw)}</th>"

        return f"<tr{attrs}>{_CELL.sub(header_cell, inner)}</tr>"

    def _cell_data(self) -> list[CellData]:
        if self._cells is None:
            assert isinstance(self._source, tuple)  # -- a lazily parsed row keeps its markup --
            parsed = _parse_cells(self._source[1])
            self._cells = parsed[0] if parsed is not None else []
        return self._cells

    def _clipped_cells(self, max_rowspan: int) -> list[CellData]:
        clipped: list[CellData] = []
        for cell in self._cell_data():
            text, colspan_raw, rowspan_raw, body, _xml = cell
            rowspan = rowspan_of(rowspan_raw)
            if rowspan is not None and rowspan <= max_rowspan:
                clipped.append(cell)
                continue
            new_raw = str(max_rowspan) if max_rowspan > 1 else None
            xml = cell_xml(colspan_raw, new_raw, body)
            clipped.append((text, colspan_raw, new_raw, body, xml))
        return clipped


def _clipped_attr(match: re.Match[str], max_rowspan: int) -> str:
    """Return the attribute `match` as it is, or, a `rowspan` reaching past `max_rowspan` rows,
    clipped (dropped when clipped to 1)."""
    name, value = match.groups()
    rowspan = rowspan_of(value)
    if name != "rowspan" or (rowspan is not None and rowspan <= max_rowspan):
        return match.group(0)
    return f' rowspan="{max_rowspan}"' if max_rowspan > 1 else ""


def _max_rowspan(cells: list[CellData]) -> int | None:
    spans = [rowspan_of(cell[2]) for cell in cells]
    if None in spans:
        return None
    return max((span for span in spans if span is not None), default=1)


def _source_tr_html(attrs: str, inner: str, tail: str) -> str:
    """Return lxml's serialization of the source `<tr>` made of `attrs`, `inner` and `tail`."""
    if not inner:
        return f"<tr{attrs}/>{tail}"
    return f"<tr{attrs}>{_CELL.sub(_source_cell_html, inner)}</tr>{tail}"


def _source_cell_html(match: re.Match[str]) -> str:
    tag, attrs, raw = match.groups()
    if not raw:
        return f"<{tag}{attrs}/>"
    return f"<{tag}{attrs}>{_source_content(raw)}</{tag}>"


def parse_simple_table(html_text: str) -> tuple[str, list[SimpleRow]] | None:
    """Return the compact HTML and rows of `html_text`, `None` unless it is a simple table."""
    start = _TABLE_START.match(html_text)
    end = len(html_text.rstrip(" \t\n")) - len("</table>")
    if start is None or not html_text.startswith("</table>", end):
        return None
    body = html_text[start.end() : end]
    # -- attributes, line feeds or tags other than `<t…>`/`</t…>` rule out a plain body --
    rows = (
        "=" not in body
        and "\n" not in body
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
    rows: list[SimpleRow] = []
    for _token, inner, opened, closed in tokens:
        if inner:
            rows.append(_plain_row(inner, ("", inner, ""), section == "thead", group_key))
        elif opened:
            if section:
                return None
            section = opened
            group_key = object()
        else:
            if closed != section:
                return None
            section = ""
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
    texts = tuple(compact[4:-5].split("</td><td>"))
    return SimpleRow(f"<tr>{compact}</tr>", None, texts, 1, is_header, group_key, source)


def _parse_row(
    tr_attrs: str, inner: str, tail: str, in_thead: bool, group_key: object
) -> SimpleRow | None:
    """Return the row of `<tr{tr_attrs}>{inner}</tr>{tail}`, `None` for a duplicate attribute."""
    if tr_attrs and _has_duplicate_attrs(tr_attrs):
        return None
    source = (tr_attrs, inner, tail)
    # -- drops the whitespace between cells, and that of a blank cell, which plain rows lack --
    cells_markup = _LAYOUT_WS.sub("><", inner).strip(" \t\n")
    if _PLAIN_ROW.fullmatch(cells_markup):
        return _plain_row(cells_markup, source, in_thead, group_key)

    parsed = _parse_cells(inner)
    if parsed is None:
        return None
    cells, is_th_row, max_rowspan = parsed
    if cells:
        html = "<tr>" + "".join(cell[4] for cell in cells) + "</tr>"
    else:
        html = "<tr></tr>" if inner else "<tr/>"
    texts = tuple(cell[0] for cell in cells if cell[0])
    return SimpleRow(html, cells, texts, max_rowspan, in_thead or is_th_row, group_key, source)


def _has_duplicate_attrs(attrs: str) -> bool:
    names = [name for name, _value in _ATTR.findall(attrs)]
    return len(set(names)) != len(names)


def _parse_cells(inner: str) -> tuple[list[CellData], bool, int | None] | None:
    """Return the cells of a row's inner markup, whether it is a row of `<th>`s after blank
    `<td>` corner cells, and its largest `rowspan`; `None` when a cell repeats an attribute."""
    cells: list[CellData] = []
    has_th = has_text_td = has_zero_rowspan = False
    max_rowspan = 1
    for tag, attrs, raw in _CELL.findall(inner):
        if not raw:
            text = ""
            body = "/>"
        elif "<" in raw:
            text, content = _compact_content(raw)
            body = f">{content}</td>"
        elif "&" in raw or ">" in raw:
            text = " ".join(_decode(raw).split())
            body = f">{escape_text(text)}</td>"
        else:
            text = " ".join(raw.split())
            body = f">{text}</td>"
        if tag == "th":
            has_th = True
        elif text:
            has_text_td = True
        if not attrs:
            cells.append((text, None, None, body, f"<td{body}"))
            continue
        pairs = _ATTR.findall(attrs)
        found = dict(pairs)
        if len(found) != len(pairs):
            return None
        colspan_raw = found.get("colspan")
        rowspan_raw = found.get("rowspan")
        if rowspan_raw is not None:
            rowspan = rowspan_of(rowspan_raw)
            if rowspan is None:
                has_zero_rowspan = True
            elif rowspan > max_rowspan:
                max_rowspan = rowspan
        cells.append(
            (text, colspan_raw, rowspan_raw, body, cell_xml(colspan_raw, rowspan_raw, body))
        )
    # -- a `<th>` row may start with blank `<td>` corner cells, but has no `<td>` with text --
    return cells, has_th and not has_text_td, None if has_zero_rowspan else max_rowspan
