"""Tables: a `w:tbl` to its text and an HTML rendering that keeps merged cells and header rows.

- Cells spanning columns (`w:gridSpan`, legacy `w:hMerge`) get `colspan`; vertically merged cells
  (`w:vMerge` restart ... continue) are written once, with `rowspan`; `w:gridBefore` leaves an
  empty cell so the columns stay aligned. Spans are read as Word reads them: 0 (or a value that
  is not a number) is 1, and none exceeds `MAX_TABLE_COLUMNS` (63, the widest table Word opens).
- Leading rows marked to repeat as header (`w:tblHeader`) become `<thead>` with `<th>` cells; the
  other rows then go in `<tbody>`. A table without header rows is a bare `<table><tr>...`.
- A cell's text is its paragraphs' texts joined by "\n"; a nested table is flattened into its
  cell (its text as one more line); text boxes in a cell add their paragraphs' lines, and an
  altChunk the texts of the elements it imports (`_altchunks`). Rows and cells inside content
  controls or custom XML are unwrapped.
- The Table's text is the non-empty cell texts joined by " ", with each cell's line breaks as
  spaces (as the reference does); links' offsets index into it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from lxml import etree

from partita._table_html import text_table_html
from partita.elements import Link
from partita.partitioners._build import Draft
from partita.partitioners.docx import _ns as ns
from partita.partitioners.docx._limits import MAX_TABLE_COLUMNS, clamp
from partita.partitioners.docx._runs import InlineReader

__all__ = ["TableContent", "read_table"]

_GRID_SPAN = ns.w("gridSpan")
_GRID_BEFORE = ns.w("gridBefore")
_V_MERGE = ns.w("vMerge")
_H_MERGE = ns.w("hMerge")
_TBL_HEADER = ns.w("tblHeader")

AltChunkDrafts = Callable[[etree._Element], list[Draft]]
"""Returns the drafts of the part an altChunk imports (`BlockWalker`)."""


@dataclass(slots=True)
class TableContent:
    """A table read for partitioning."""

    text: str
    html: str
    emphasis: list[tuple[str, str]] = field(default_factory=list)
    links: list[tuple[str, str, int]] = field(default_factory=list)
    breaks: int = 0
    """Page breaks counted inside the table (they take effect after it)."""
    note_refs: list[tuple[str, str]] = field(default_factory=list)


_NO_LINKS: tuple[tuple[str, str, int], ...] = ()


@dataclass(slots=True)
class _Cell:
    """One cell as it is kept until the table's HTML is written: small, as a table can have
    millions (an empty cell shares `_NO_LINKS`)."""

    text: str
    links: Sequence[tuple[str, str, int]]
    colspan: int = 1
    rowspan: int = 1


@dataclass(slots=True)
class _CellLines:
    """The lines of the cell being read, with their links."""

    lines: list[str] = field(default_factory=list)
    links: list[tuple[str, str, int]] = field(default_factory=list)
    length: int = 0
    """The length of the lines joined, kept as lines are added (joining per line is quadratic)."""

    def add_line(self, text: str, links: list[tuple[str, str, int]]) -> None:
        """Append the line `text`, with `links` whose offsets index into it."""
        offset = self.length + 1 if self.lines else 0
        self.links.extend((t, u, offset + s) for t, u, s in links)
        self.lines.append(text)
        self.length = offset + len(text)


def read_table(
    tbl: etree._Element,
    reader: InlineReader,
    *,
    with_html: bool = True,
    alt_chunk: AltChunkDrafts | None = None,
) -> TableContent:
    """Return the text and HTML of the table `tbl`, reading cell paragraphs with `reader` and
    altChunks with `alt_chunk` (without it, a cell's altChunks give nothing).

    The HTML is made only `with_html` and when the table has text (a nested table is only text).
    The table, its rows and its cells are blocks of the reader's budget.
    """
    reader.budget.spend_block()
    result = TableContent("", "")
    rows: list[tuple[bool, list[_Cell]]] = []
    origins: dict[int, _Cell] = {}
    for tr in _iter_children(tbl, ns.TR):
        rows.append(_read_row(tr, reader, result, origins, alt_chunk))
    pieces: list[str] = []
    length = 0
    for _, cells in rows:
        for cell in cells:
            flat = cell.text.replace("\n", " ")
            if not flat:
                continue
            if pieces:
                length += 1
            for text, url, start in cell.links:
                result.links.append((text, url, length + start))
            pieces.append(flat)
            length += len(flat)
    result.text = " ".join(pieces)
    if with_html and pieces:
        header_count = 0
        for is_header, _ in rows:
            if not is_header:
                break
            header_count += 1
        result.html = _html(rows, header_count)
    return result


def _read_row(
    tr: etree._Element,
    reader: InlineReader,
    result: TableContent,
    origins: dict[int, _Cell],
    alt_chunk: AltChunkDrafts | None,
) -> tuple[bool, list[_Cell]]:
    budget = reader.budget
    budget.spend_block()
    trpr = tr.find(ns.TRPR)
    is_header = trpr is not None and ns.is_on(trpr.find(_TBL_HEADER))
    column = _span(trpr.find(_GRID_BEFORE) if trpr is not None else None, 0)
    cells: list[_Cell] = []
    if column > 0:
        cells.append(_Cell("", _NO_LINKS, colspan=column))
    for tc in _iter_children(tr, ns.TC):
        budget.spend_block()
        # -- `w:tcPr` comes first in a cell (CT_Tc); `find` would cost a path lookup per cell --
        tcpr = tc[0] if len(tc) and tc[0].tag == ns.TCPR else None
        span = v_merge = h_merge = None
        if tcpr is not None:
            span = _span(tcpr.find(_GRID_SPAN), 1)
            v_merge = tcpr.find(_V_MERGE)
            h_merge = tcpr.find(_H_MERGE)
        span = max(span or 1, 1)
        cell = _read_cell(tc, reader, result, alt_chunk)
        if h_merge is not None and h_merge.get(ns.W_VAL) != "restart" and cells:
            cells[-1].colspan += span
        elif v_merge is not None and v_merge.get(ns.W_VAL) != "restart" and column in origins:
            origins[column].rowspan += 1
        else:
            cell.colspan = span
            cells.append(cell)
            if origins:
                for covered in range(column, column + span):
                    origins.pop(covered, None)
            if v_merge is not None:
                origins[column] = cell
        column += span
    return is_header, cells


def _read_cell(
    tc: etree._Element, reader: InlineReader, result: TableContent, alt_chunk: AltChunkDrafts | None
) -> _Cell:
    if len(tc) <= 1 and (not len(tc) or tc[0].tag == ns.TCPR):
        return _Cell("", _NO_LINKS)
    cell = _CellLines()
    _read_blocks(tc, reader, result, cell, alt_chunk)
    return _Cell("\n".join(cell.lines), cell.links or _NO_LINKS)


def _read_blocks(
    container: etree._Element,
    reader: InlineReader,
    result: TableContent,
    cell: _CellLines,
    alt_chunk: AltChunkDrafts | None = None,
) -> None:
    for child in container:
        tag = child.tag
        if tag == ns.P:
            inline = reader.read(child)
            result.breaks += inline.breaks_before + inline.breaks_after
            result.emphasis.extend(inline.emphasis)
            result.note_refs.extend(inline.note_refs)
            if inline.text:
                cell.add_line(inline.text, inline.links)
            for box in inline.boxes:
                _read_blocks(box, reader, result, cell, alt_chunk)
        elif tag == ns.TBL:
            nested = read_table(child, reader, with_html=False, alt_chunk=alt_chunk)
            result.breaks += nested.breaks
            result.emphasis.extend(nested.emphasis)
            result.note_refs.extend(nested.note_refs)
            if nested.text:
                cell.add_line(nested.text, nested.links)
        elif tag == ns.SDT:
            content = child.find(ns.SDT_CONTENT)
            if content is not None:
                _read_blocks(content, reader, result, cell, alt_chunk)
        elif tag in ns.BLOCK_WRAPPERS:
            _read_blocks(child, reader, result, cell, alt_chunk)
        elif tag == ns.ALT_CHUNK and alt_chunk is not None:
            for draft in alt_chunk(child):
                if draft.text:
                    links: Sequence[Link] = draft.meta.get("links", ())
                    cell.add_line(
                        draft.text, [(x.text or "", x.url, x.start_index or 0) for x in links]
                    )


def _iter_children(parent: etree._Element, tag: str) -> Iterator[etree._Element]:
    """Generate the `tag` children of `parent`, looking through content controls and custom XML
    (lazily: a row can hold millions of cells, and the block budget must see each as it comes)."""
    for child in parent:
        if child.tag == tag:
            yield child
        elif child.tag == ns.SDT:
            content = child.find(ns.SDT_CONTENT)
            if content is not None:
                yield from _iter_children(content, tag)
        elif child.tag in ns.BLOCK_WRAPPERS:
            yield from _iter_children(child, tag)


def _html(rows: list[tuple[bool, list[_Cell]]], header_count: int) -> str:
    """The table's HTML: its first `header_count` rows a `<thead>` of `<th>`, the others a
    `<tbody>` (bare rows when there is no header)."""
    cells = [[(cell.text, cell.colspan, cell.rowspan) for cell in row] for _, row in rows]
    return text_table_html(cells, header_count, "tbody" if header_count else None)


def _span(el: etree._Element | None, default: int) -> int:
    """The column count in `el`'s `w:val` (`default` when absent or not a number), clamped to
    0..`MAX_TABLE_COLUMNS`: it drives a loop over the columns covered."""
    value = ns.int_or_none(el.get(ns.W_VAL)) if el is not None else None
    return default if value is None else clamp(value, 0, MAX_TABLE_COLUMNS)
