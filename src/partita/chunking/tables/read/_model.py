"""The HTML `<table>` that table chunking splits, as compact rows and cells.

`HtmlTable.from_html_text()` reads the first `<table>` of a table's `text_as_html` and
compactifies it: `<thead>`/`<tbody>`/`<tfoot>` are unwrapped, every attribute except
`colspan`/`rowspan` is dropped, `<th>` becomes `<td>`, and text and tails are
whitespace-normalized. Before compactifying it records, per row, whether it is a header row (in
`<thead>`, or all `<th>` after optional blank `<td>` corner cells), its source `<tr>` HTML (used
to repeat headers), and its row group (the `<thead>`/`<tbody>`/`<tfoot>`, or the table itself)
that bounds a `rowspan="0"`. Cell text treats a `<br>` as a word boundary; an empty cell has no
text. Follows unstructured's `unstructured.common.html_table` (Apache-2.0) so that the HTML and
text are byte-identical to the reference's.

Simple markup (cells of text and line breaks, see `_simple_reader`) is read by a
fast path without building a tree; other regularly structured tables are read from lxml's tree
in one walk that does not change it (`_tree_reader`). Both compute every row value
up front. Anything else is parsed and compactified with lxml in place, and its rows and cells
(`LxmlRow`, `LxmlCell`) derive their values lazily, failing where the reference fails. All
satisfy the `HtmlRow` and `HtmlCell` protocols.
"""

from __future__ import annotations

import copy
import html
from collections.abc import Iterator, Sequence
from functools import cached_property
from typing import Protocol, cast

from lxml import etree
from lxml.html import HtmlElement, fragment_fromstring

from partita._table_html import span_attributes
from partita.chunking.tables.read._simple_reader import parse_simple_table
from partita.chunking.tables.read._tree_reader import parse_tree_table

__all__ = [
    "HtmlCell",
    "HtmlRow",
    "HtmlTable",
    "LxmlCell",
    "LxmlRow",
    "format_td",
    "leading_header_row_count",
    "normalize_html_cell_text",
    "parse_row_fragment",
]


class HtmlCell(Protocol):
    """A `<td>` of a compactified table."""

    @property
    def html(self) -> str:
        """The compact HTML of this cell, like `<td>foo bar</td>`; a void `<td/>` (with its
        spans) when it has no text."""
        ...

    @property
    def text(self) -> str:
        """The normalized text of this cell, the empty string when it has none."""
        ...

    @property
    def rowspan(self) -> int | None:
        """The declared `rowspan`, 1 when absent or unparseable, `None` for `rowspan="0"`."""
        ...

    @property
    def colspan(self) -> int:
        """The declared `colspan`, 1 when absent, unparseable or not positive."""
        ...

    def html_with_rowspan(self, rowspan: int) -> str:
        """Return this cell's HTML with its `rowspan` set to `rowspan` (removed when 1)."""
        ...


class HtmlRow(Protocol):
    """A `<tr>` of a compactified table."""

    @property
    def html(self) -> str:
        """The compact HTML of this row, like `<tr><td>foo</td><td>bar</td></tr>`."""
        ...

    @property
    def text(self) -> str:
        """The texts of the cells that have any, joined by spaces."""
        ...

    @property
    def is_header(self) -> bool:
        """`True` for a `<thead>` row or an all-`<th>` row after optional blank corner cells."""
        ...

    @property
    def source_html(self) -> str | None:
        """The source `<tr>` HTML captured before compactification, when known."""
        ...

    @property
    def row_group_key(self) -> object:
        """Identity of this row's row group (compare with `is`), `None` when unknown.

        Rows whose key is `None` (made directly rather than by `HtmlTable.iter_rows()`) are all
        treated as one group.
        """
        ...

    @property
    def max_rowspan(self) -> int | None:
        """The largest `rowspan` of any cell in this row, 1 when none spans rows.

        `None` when a cell declares `rowspan="0"` ("every remaining row"), which reaches farther
        than any count.
        """
        ...

    def iter_cells(self) -> Iterator[HtmlCell]:
        """Generate a cell for each child element of this `<tr>`."""
        ...

    def iter_cell_texts(self) -> Iterator[str]:
        """Generate the text of each cell that has any; an empty cell generates nothing."""
        ...

    def html_clipped_to_rows(self, max_rowspan: int) -> str:
        """Return this row's HTML with any `rowspan` reaching past `max_rowspan` rows clipped.

        `max_rowspan` counts the rows, this one included, present from here on in the emitted
        fragment. A clipped `rowspan` of 1 is removed; nothing else changes.
        """
        ...

    def row_clipped_to_rows(self, max_rowspan: int) -> HtmlRow:
        """Return a new row like this one with its `rowspan`s clipped to `max_rowspan`."""
        ...


def normalize_html_cell_text(cell: HtmlElement) -> str:
    """Return the whitespace-normalized text of `cell`, a `<br>` counting as a word boundary."""
    if next(cell.iterdescendants("br"), None) is None:
        return " ".join(cell.text_content().split())

    # -- lxml's `text_content()` adds no space for a `<br>`; add one to a copy's tails --
    normalized_cell = copy.deepcopy(cell)
    for br in cast("list[HtmlElement]", normalized_cell.xpath(".//br")):
        br.tail = f" {br.tail or ''}"
    return " ".join(normalized_cell.text_content().split())


def format_td(cell_text: str, colspan: int = 1, rowspan: int = 1) -> str:
    """Return a `<td>` for `cell_text`, escaped and whitespace-normalized.

    `colspan`/`rowspan` attributes appear only when greater than 1; an empty text gives a void
    `<td/>`. A line-feed in `cell_text` becomes a `<br/>`.
    """
    s = html.escape(cell_text)
    s = "<br/>".join(s.split("\n"))
    text = " ".join(s.split())
    attrs = span_attributes(colspan, rowspan)
    return f"<td{attrs}>{text}</td>" if text else f"<td{attrs}/>"


def parse_row_fragment(row_html: str) -> HtmlElement | None:
    """Return the `<tr>` element parsed from `row_html`, or `None` when there is none."""
    try:
        parsed = fragment_fromstring(row_html)
    except (etree.ParserError, ValueError):
        return None
    if parsed.tag == "tr":
        return parsed
    rows = cast("list[HtmlElement]", parsed.xpath(".//tr"))
    return rows[0] if rows else None


def _tostring(element: HtmlElement) -> str:
    """Return `element` serialized as HTML text, its tail included."""
    return etree.tostring(element, encoding=str)


class HtmlTable:
    """A compactified `<table>`: its compact HTML and its rows."""

    def __init__(
        self, html: str, rows: Sequence[HtmlRow], element: etree._Element | None = None
    ) -> None:
        self.html = html
        """The compact one-line HTML of this table, like `<table><tr><td>a</td></tr></table>`."""
        self._rows = tuple(rows)
        self._element = element
        """The `<table>` element whose text nodes hold the table's words, `None` when the rows'
        cell texts hold them."""

    @classmethod
    def from_html_text(cls, html_text: str) -> HtmlTable:
        """Return the compactified first `<table>` of the HTML fragment `html_text`.

        Raises `ValueError` when `html_text` holds no `<table>` or is not a single-element HTML
        fragment.
        """
        simple = parse_simple_table(html_text)
        if simple is not None:
            return cls(*simple)
        tree = parse_tree_table(html_text)
        if tree is not None:
            return cls(*tree)
        return _compactified_lxml_table(html_text)

    def iter_rows(self) -> Iterator[HtmlRow]:
        """Generate the rows of this table, in document order."""
        return iter(self._rows)

    @cached_property
    def text(self) -> str:
        """The whitespace-normalized, space-joined text of this table."""
        if self._element is None:
            return " ".join(row.text for row in self._rows if row.text)
        return " ".join(" ".join(map(str, self._element.itertext())).split())


def _compactified_lxml_table(html_text: str) -> HtmlTable:
    """Return the table of `html_text` parsed and compactified by lxml (see the module doc)."""
    try:
        root = fragment_fromstring(html_text)
    except etree.ParserError as error:
        raise ValueError(f"`html_text` is not an HTML fragment: {error}") from error
    tables = cast("list[HtmlElement]", root.xpath("//table"))
    if not tables:
        raise ValueError("`html_text` contains no `<table>` element")
    table = tables[0]

    # -- header semantics, source row HTML and row-group identity do not survive
    # -- compactification, so capture them first --
    rows = cast("list[HtmlElement]", table.xpath("./tr | ./thead/tr | ./tbody/tr | ./tfoot/tr"))
    source_row_htmls = tuple(_tostring(tr) for tr in rows)
    header_row_idxs = {idx for idx, tr in enumerate(rows) if _is_header_tr(tr)}
    # -- the parent element object outlives `.drop_tag()` below, so it keeps its identity --
    row_group_keys = tuple(tr.getparent() for tr in rows)

    for e in cast("list[HtmlElement]", table.xpath(".//thead | .//tbody | .//tfoot")):
        e.drop_tag()

    for e in table.iter():
        # -- colspan/rowspan are structural, every other attribute is cosmetic --
        preserved = {k: e.attrib[k] for k in ("colspan", "rowspan") if k in e.attrib}
        e.attrib.clear()
        for k, v in preserved.items():
            e.attrib[k] = v
        if e.tag == "th":
            e.tag = "td"
        if e.text:
            e.text = " ".join(e.text.split())
        # -- a whitespace-only tail is layout noise, but a tail can also be real content
        # -- (`<b>foo</b> bar`), whose edge spaces are kept as one space each --
        if e.tail:
            parts = e.tail.split()
            if not parts:
                e.tail = None
            else:
                prefix = " " if e.tail[0].isspace() else ""
                suffix = " " if e.tail[-1].isspace() else ""
                e.tail = prefix + " ".join(parts) + suffix

    trs = cast("list[HtmlElement]", table.xpath("./tr"))
    compact_rows = [
        LxmlRow(
            tr,
            is_header=idx in header_row_idxs,
            source_html=source_row_htmls[idx] if idx < len(source_row_htmls) else None,
            row_group_key=row_group_keys[idx] if idx < len(row_group_keys) else None,
        )
        for idx, tr in enumerate(trs)
    ]
    return HtmlTable(_tostring(table), compact_rows, table)


def _is_header_tr(tr: HtmlElement) -> bool:
    """Return whether source `tr` is a header row: in `<thead>`, or `<th>` after a blank corner."""
    cells = cast("list[HtmlElement]", tr.xpath("./th | ./td"))
    first_th_idx = next((i for i, cell in enumerate(cells) if cell.tag == "th"), None)
    has_blank_corner = first_th_idx is not None and all(
        cell.tag == "td" and not cell.text_content().strip() for cell in cells[:first_th_idx]
    )
    has_only_th_after_corner = first_th_idx is not None and all(
        cell.tag == "th" or (cell.tag == "td" and not cell.text_content().strip())
        for cell in cells[first_th_idx:]
    )
    parent = tr.getparent()
    return (parent is not None and parent.tag == "thead") or (
        has_blank_corner and has_only_th_after_corner
    )


def leading_header_row_count(table: HtmlTable) -> int:
    """Return the number of contiguous header rows at the top of `table`."""
    count = 0
    for row in table.iter_rows():
        if not row.is_header:
            break
        count += 1
    return count


class LxmlRow:
    """A `<tr>` element of a compactified table; its values are derived on first use."""

    def __init__(
        self,
        tr: HtmlElement,
        is_header: bool = False,
        source_html: str | None = None,
        row_group_key: object = None,
    ) -> None:
        self._tr = tr
        self._is_header = is_header
        self._source_html = source_html
        self._row_group_key = row_group_key

    @cached_property
    def html(self) -> str:
        """The HTML of this row, like `<tr><td>foo</td><td>bar</td></tr>`."""
        return _tostring(self._tr)

    def iter_cells(self) -> Iterator[LxmlCell]:
        """Generate a cell for each child element of this `<tr>`."""
        return iter(self._cells)

    @property
    def is_header(self) -> bool:
        """`True` for a `<thead>` row or an all-`<th>` row after optional blank corner cells."""
        return self._is_header

    @property
    def source_html(self) -> str | None:
        """The source `<tr>` HTML captured before compactification, when known."""
        return self._source_html

    @property
    def row_group_key(self) -> object:
        """Identity of this row's row group (compare with `is`), `None` when unknown.

        Rows whose key is `None` (made directly rather than by `HtmlTable.iter_rows()`) are all
        treated as one group.
        """
        return self._row_group_key

    def iter_cell_texts(self) -> Iterator[str]:
        """Generate the text of each cell that has any; an empty cell generates nothing."""
        return iter(self._cell_texts)

    @cached_property
    def max_rowspan(self) -> int | None:
        """The largest `rowspan` of any cell in this row, 1 when none spans rows.

        `None` when a cell declares `rowspan="0"` ("every remaining row"), which reaches farther
        than any count.
        """
        spans = [cell.rowspan for cell in self._cells]
        if any(span is None for span in spans):
            return None
        return max((span for span in spans if span is not None), default=1)

    def html_clipped_to_rows(self, max_rowspan: int) -> str:
        """Return this row's HTML with any `rowspan` reaching past `max_rowspan` rows clipped.

        `max_rowspan` counts the rows, this one included, present from here on in the emitted
        fragment. A clipped `rowspan` of 1 is removed; nothing else changes.
        """
        return _tostring(self._clipped_tr(max_rowspan))

    def row_clipped_to_rows(self, max_rowspan: int) -> LxmlRow:
        """Return a new row like this one with its `rowspan`s clipped to `max_rowspan`."""
        return LxmlRow(
            self._clipped_tr(max_rowspan),
            is_header=self._is_header,
            source_html=self._source_html,
            row_group_key=self._row_group_key,
        )

    @cached_property
    def text(self) -> str:
        """The texts of the cells that have any, joined by spaces."""
        return " ".join(self._cell_texts)

    @cached_property
    def _cells(self) -> tuple[LxmlCell, ...]:
        return tuple(LxmlCell(td) for td in self._tr)

    @cached_property
    def _cell_texts(self) -> tuple[str, ...]:
        return tuple(cell.text for cell in self._cells if cell.text)

    def _clipped_tr(self, max_rowspan: int) -> HtmlElement:
        """Return a copy of the `<tr>` with each over-reaching `rowspan` clipped."""
        tr = copy.deepcopy(self._tr)
        for td in tr:
            rowspan = _rowspan(td)
            if rowspan is not None and rowspan <= max_rowspan:
                continue
            if max_rowspan <= 1:
                td.attrib.pop("rowspan", None)
            else:
                td.attrib["rowspan"] = str(max_rowspan)
        return tr


def _rowspan(td: HtmlElement) -> int | None:
    """Return the declared `rowspan` of `td`: 1 when absent or unparseable, `None` for "0"."""
    try:
        value = int(td.attrib.get("rowspan", 1))
    except (TypeError, ValueError):
        return 1
    return None if value == 0 else max(1, value)


class LxmlCell:
    """A `<td>` element of a compactified table; its values are derived on first use."""

    def __init__(self, td: HtmlElement) -> None:
        self._td = td

    @cached_property
    def html(self) -> str:
        """The HTML of this cell, like `<td>foo bar</td>`; a void `<td/>` when it has no text."""
        if self.text:
            return _tostring(self._td)
        return format_td("", self.colspan, self.rowspan or 1)

    @cached_property
    def text(self) -> str:
        """The normalized text of this cell, the empty string when it has none."""
        return normalize_html_cell_text(self._td)

    @cached_property
    def rowspan(self) -> int | None:
        """The declared `rowspan`, 1 when absent or unparseable.

        `None` for `rowspan="0"`, HTML's "every remaining row of the row group".
        """
        return _rowspan(self._td)

    @cached_property
    def colspan(self) -> int:
        """The declared `colspan`, 1 when absent, unparseable or not positive."""
        try:
            value = int(self._td.attrib.get("colspan", 1))
        except (TypeError, ValueError):
            return 1
        return max(1, value)

    def html_with_rowspan(self, rowspan: int) -> str:
        """Return this cell's HTML with its `rowspan` set to `rowspan` (removed when 1)."""
        td = copy.deepcopy(self._td)
        if rowspan <= 1:
            td.attrib.pop("rowspan", None)
        else:
            td.attrib["rowspan"] = str(rowspan)
        return _tostring(td)
