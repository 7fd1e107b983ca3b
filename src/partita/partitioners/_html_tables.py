"""HTML tables to a Table element's text and its compact `text_as_html`.

A table's text is its caption and then its cells' texts in reading order, joined by single spaces
(the reference's form). Its HTML is rebuilt from the source: `<caption>`, the `<thead>` /
`<tbody>` / `<tfoot>` groups as written, `<tr>` rows and `<th>` / `<td>` cells with their
`colspan` / `rowspan` (when greater than 1); every other attribute is dropped and text is escaped.
Cell text is whitespace-normalized; a `<br>` in a cell becomes `<br/>` in the HTML and a space in
the text. A table nested in a cell is flattened into that cell's text. A row whose cells are all
empty is dropped, unless the table has row spans (dropping a row would shift them).
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from partita._table_html import cell_html, table_html
from partita.text._whitespace import normalize_space, strip_not_text

__all__ = ["TableContent", "table_content"]

_ROW_GROUPS = frozenset({"thead", "tbody", "tfoot"})
_CELLS = frozenset({"td", "th"})
_ANY_TABLE_PART = frozenset({"script", "style", "template"})
"""Elements any table part may hold (dropped by the walk anyway)."""
_COLUMN_PARTS = frozenset({"col"})
_SEPARATED = frozenset(
    {
        *("td", "th", "tr", "table", "caption", "p", "div", "li", "dt", "dd", "ul", "ol", "dl"),
        *("h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "section", "pre", "figcaption"),
    }
)
"""Tags whose content does not run into its neighbours' (blocks, and a nested table's cells)."""


@dataclass(frozen=True, slots=True)
class TableContent:
    """What a `<table>` yields: its `text` (caption first) and `html`, empty when no cell has
    text; `caption` on its own; and what is `misplaced` in it."""

    text: str
    html: str
    caption: str
    misplaced: list[str | etree._Element]
    """The texts and elements that sit in the table's structure rather than in a cell or its
    caption, in document order (browsers show them before the table, a table after it)."""


@dataclass(slots=True)
class _Cell:
    tag: str
    lines: list[str]
    colspan: int
    rowspan: int

    def to_html(self) -> str:
        return cell_html(self.tag, self.lines, self.colspan, self.rowspan)


def table_content(table: etree._Element) -> TableContent:
    """Return the text, compact HTML and misplaced content of `table`."""
    caption = ""
    groups: list[tuple[str | None, list[list[_Cell]]]] = []
    misplaced: list[str | etree._Element] = []
    _add_stray(misplaced, table.text)
    implied: list[_Cell] | None = None  # -- cells directly in the table: an implied row --
    for child in table:
        tag = child.tag
        if tag in _CELLS:
            if implied is None:
                implied = []
                _append_row(groups, implied)
            implied.append(_cell(child))
        else:
            implied = None
            if tag == "caption":
                caption = " ".join(_lines(child))
            elif tag == "tr":
                _append_row(groups, _row_cells(child, misplaced))
            elif tag in _ROW_GROUPS:
                assert isinstance(tag, str)
                groups.append((tag, _rows(child, misplaced)))
            elif tag == "colgroup":
                _add_misplaced_children(child, _COLUMN_PARTS, misplaced)
            elif tag != "col":
                _add_misplaced(misplaced, child)
        _add_stray(misplaced, child.tail)

    has_rowspan = any(cell.rowspan > 1 for _, rows in groups for row in rows for cell in row)
    words: list[str] = [caption] if caption else []
    kept_groups: list[tuple[str | None, list[list[str]]]] = []
    for group, rows in groups:
        kept = [row for row in rows if has_rowspan or any(cell.lines for cell in row)]
        words.extend(line for row in kept for cell in row for line in cell.lines)
        kept_groups.append((group, [[cell.to_html() for cell in row] for row in kept]))
    if len(words) == (1 if caption else 0):
        return TableContent("", "", caption, misplaced)
    return TableContent(" ".join(words), table_html(kept_groups, caption), caption, misplaced)


def _append_row(groups: list[tuple[str | None, list[list[_Cell]]]], row: list[_Cell]) -> None:
    """Append `row` to the last group when it has no row-group tag, else to a new such group."""
    if groups and groups[-1][0] is None:
        groups[-1][1].append(row)
    else:
        groups.append((None, [row]))


def _rows(group: etree._Element, misplaced: list[str | etree._Element]) -> list[list[_Cell]]:
    """Return the rows of the row group `group`: its `<tr>`s, and each run of cells directly in
    it (an implied row, as browsers read it); add what is misplaced in it to `misplaced`."""
    rows: list[list[_Cell]] = []
    implied: list[_Cell] | None = None
    _add_stray(misplaced, group.text)
    for child in group:
        if child.tag in _CELLS:
            if implied is None:
                implied = []
                rows.append(implied)
            implied.append(_cell(child))
        else:
            implied = None
            if child.tag == "tr":
                rows.append(_row_cells(child, misplaced))
            else:
                _add_misplaced(misplaced, child)
        _add_stray(misplaced, child.tail)
    return rows


def _row_cells(tr: etree._Element, misplaced: list[str | etree._Element]) -> list[_Cell]:
    cells = []
    _add_stray(misplaced, tr.text)
    for child in tr:
        if child.tag in _CELLS:
            cells.append(_cell(child))
        else:
            _add_misplaced(misplaced, child)
        tail = child.tail
        if tail and not tail.isspace():
            misplaced.append(tail)
    return cells


def _add_misplaced_children(
    part: etree._Element, allowed: frozenset[str], misplaced: list[str | etree._Element]
) -> None:
    _add_stray(misplaced, part.text)
    for child in part:
        if child.tag not in allowed:
            _add_misplaced(misplaced, child)
        _add_stray(misplaced, child.tail)


def _add_misplaced(misplaced: list[str | etree._Element], element: etree._Element) -> None:
    """Add `element`, a child of a table part that is no part of a table, to `misplaced`
    (comments and the `script` / `style` / `template` that tables may hold excepted)."""
    if isinstance(element.tag, str) and element.tag not in _ANY_TABLE_PART:
        misplaced.append(element)


def _add_stray(misplaced: list[str | etree._Element], text: str | None) -> None:
    if text and not text.isspace():
        misplaced.append(text)


def _cell(cell: etree._Element) -> _Cell:
    tag = cell.tag
    assert isinstance(tag, str)
    return _Cell(tag, _lines(cell), _span(cell.get("colspan")), _span(cell.get("rowspan")))


def _span(value: str | None) -> int:
    if not value:
        return 1
    try:
        return max(1, min(int(value.strip()), 1000))
    except ValueError:
        return 1


def _lines(cell: etree._Element) -> list[str]:
    """Return the whitespace-normalized lines of `cell`'s text, split at `<br>`s, none empty.

    The text of the blocks inside (and a nested table's cells) is kept apart from its
    neighbours'. The tree is read, never written: strings from the document go into no lxml
    setter (which refuses the characters XML cannot hold), and `NOT_TEXT` characters are dropped.
    """
    if len(cell) == 0:
        text = cell.text
        return [_normalized(text)] if text and not text.isspace() else []
    lines: list[str] = []
    parts: list[str] = []
    for event, element in etree.iterwalk(cell, events=("start", "end")):
        tag = element.tag
        if event == "start":
            if tag in _SEPARATED:
                parts.append(" ")
            if element.text and isinstance(tag, str):
                parts.append(element.text)
            continue
        if element is cell:
            break
        if tag == "br":
            lines.append(_normalized("".join(parts)))
            parts.clear()
        elif tag in _SEPARATED:
            parts.append(" ")
        if element.tail:
            parts.append(element.tail)
    lines.append(_normalized("".join(parts)))
    return [line for line in lines if line]


def _normalized(text: str) -> str:
    return strip_not_text(normalize_space(text))
