"""The rows and cells of a simple table (see `_simple_reader`), their values
computed from the markup once.

A `SimpleRow` keeps its source markup: the `(attributes, inner markup, trailing whitespace)` of
its `<tr>`, or its element in an untouched lxml tree
(`partita.chunking.tables.read._tree_reader`). A
`PlainRow` is a row of plain cells (attribute-less, text that is normalized, not empty and needs
no escaping) whose cells are parsed only when asked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from lxml import etree

from partita._table_html import span_attributes

__all__ = [
    "ATTRS",
    "CellData",
    "ParsedCells",
    "PlainRow",
    "SimpleCell",
    "SimpleRow",
    "cell_xml",
    "escape_text",
    "has_duplicate_attrs",
    "parse_cells",
    "rowspan_of",
]

ATTRS = '(?: [a-z][a-z0-9_-]*+="[^"<>&\\x00-\\x1f\\x7f-\\x9f\\ud800-\\udfff\\ufffe\\uffff]*+")*+'
"""The attributes of a tag, each written ` name="value"` (possessive: a `>` or `/` follows)."""

_CELL = re.compile(rf"<(t[dh])({ATTRS})(?:/>|>([^<]*(?:<br ?/?>[^<]*)*)</t[dh]>)")
"""A cell of a row's inner markup: tag, attributes and raw content (empty for a void `<td/>`)."""

_BR = re.compile("<br ?/?>")

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
    return f"<td{span_attributes(colspan, rowspan)}/>"


CellData = tuple[str, str | None, str | None, str, str]
"""A cell as parsed: `(text, colspan value, rowspan value, body, compact HTML)`, the values
verbatim (`None` when absent) and the body what follows the attributes: `>text</td>` or `/>`."""


class SimpleCell:
    """A compact `<td>` of a simple table. Matches
    `partita.chunking.tables.read._model.HtmlCell`."""

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

    Matches `partita.chunking.tables.read._model.HtmlRow`.
    """

    __slots__ = (
        "_cells",
        "_source",
        "_texts",
        "html",
        "is_header",
        "max_rowspan",
        "row_group_key",
        "text",
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
        self._texts: tuple[str, ...] | None = texts
        """The text of each cell that has any, `None` until needed in a `PlainRow`."""
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
    def texts(self) -> tuple[str, ...]:
        """The text of each cell that has any."""
        texts = self._texts
        if texts is None:
            # -- a plain row: every cell is a `<td>` with text --
            texts = self._texts = tuple(self.html[8:-10].split("</td><td>"))
        return texts

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
        if self._cells is None:
            # -- a plain row: cells without attributes whose text needs no escaping --
            return f"<tr{attrs}>{inner.replace('<td>', '<th>').replace('</td>', '</th>')}</tr>"

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
            parsed = parse_cells(self._source[1])
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


class PlainRow(SimpleRow):
    """A `SimpleRow` of plain cells, made cheaply: its cell texts and cells are derived from its
    compact HTML and source markup when asked for."""

    __slots__ = ()

    def __init__(
        self,
        html: str,
        text: str,
        is_header: bool,
        row_group_key: object,
        source: tuple[str, str, str],
    ) -> None:
        self.html = html
        self._cells = None
        self._texts = None
        self.text = text
        self.max_rowspan = 1
        self.is_header = is_header
        self.row_group_key = row_group_key
        self._source = source


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


ParsedCells = tuple[list[CellData], list[str], list[str], bool, int | None]
"""A row's cells as parsed: the cells, the texts of those that have any, their compact HTML,
whether the row is a row of `<th>`s after blank `<td>` corner cells, and its largest `rowspan`
(`None` for a `rowspan="0"`)."""


def parse_cells(inner: str) -> ParsedCells | None:
    """Return the cells of a row's inner markup (see `ParsedCells`); `None` when a cell repeats
    an attribute."""
    cells: list[CellData] = []
    texts: list[str] = []
    xmls: list[str] = []
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
        if text:
            texts.append(text)
            if tag != "th":
                has_text_td = True
        if tag == "th":
            has_th = True
        if not attrs:
            xml = "<td" + body
            cells.append((text, None, None, body, xml))
            xmls.append(xml)
            continue
        spans = _spans_of(attrs)
        if spans is None:
            return None
        colspan_raw, rowspan_raw, rowspan, head = spans
        if rowspan is None:
            has_zero_rowspan = True
        elif rowspan > max_rowspan:
            max_rowspan = rowspan
        xml = head + body
        cells.append((text, colspan_raw, rowspan_raw, body, xml))
        xmls.append(xml)
    # -- a `<th>` row may start with blank `<td>` corner cells, but has no `<td>` with text --
    is_th_row = has_th and not has_text_td
    return cells, texts, xmls, is_th_row, None if has_zero_rowspan else max_rowspan


@lru_cache(maxsize=512)
def _spans_of(attrs: str) -> tuple[str | None, str | None, int | None, str] | None:
    """Return a cell's `colspan` and `rowspan` values as written (`None`: absent), its `rowspan`
    as read (`rowspan_of`) and the start of its compact `<td` tag, from its attributes `attrs`;
    `None` when they name one attribute twice. Cached: tables repeat a few attribute strings."""
    pairs = _ATTR.findall(attrs)
    found = dict(pairs)
    if len(found) != len(pairs):
        return None
    colspan_raw = found.get("colspan")
    rowspan_raw = found.get("rowspan")
    return colspan_raw, rowspan_raw, rowspan_of(rowspan_raw), cell_xml(colspan_raw, rowspan_raw, "")


def has_duplicate_attrs(attrs: str) -> bool:
    """Return whether the attributes `attrs` (see `ATTRS`) name one attribute twice."""
    names = [name for name, _value in _ATTR.findall(attrs)]
    return len(set(names)) != len(names)
