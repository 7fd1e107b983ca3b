"""`table_text="rows"`: a table chunk's text rendered row by row, "header: value; ...", for
embedding.

Principles:

- **Each row names its columns.** A table's text as partitioners give it is its cells in reading
  order, so a number is far from the column it belongs to; an embedding model reads "Revenue:
  2023 = 4,120" better than "4,120" twenty cells after "Revenue". Rows are read from the chunk's
  `text_as_html`; the header is the table's leading header rows (`th` cells, in the table
  before chunking, when `orig_elements` holds it), else its first row when it has two or more
  rows. A data row renders as `"label: h1 = v1; h2 = v2"` (`render_rows`), rows joined by
  newlines; a table of one row is its cells joined by
  "; ".
- **The window still holds.** Rendering repeats the header, so a rendered chunk may outgrow the
  window: it is then cut between rows into several chunks of the same table (`TableChunk`s with
  its `table_id`), each with the HTML of its own rows and the header's; a row larger than the
  window alone is cut at sentence ends, clauses, then words (`partita.text._splits`).
- `text_as_html` stays the table's (the cut chunks': their rows). Provenance records, as for a
  chunk cut from HTML, each run of the chunk's words found in the table's text
  (`tables._emit.align_runs`); the column names and separators added are in no record.
- A chunk without HTML keeps its text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from partita.chunking._ids import ChunkIds
from partita.chunking._run import ChunkingRun
from partita.chunking.provenance import SourcesBuilder
from partita.elements import Element, Table, TableChunk
from partita.text._splits import iter_splits

__all__ = ["iter_rows_rendered", "render_rows"]


def render_rows(header: Sequence[str], row: Sequence[str]) -> str:
    """One data row as "label: column = value; ...": its first cell with letters, when it is
    in the first column or under no column name, is its label; a cell under a column name is
    "name = value", one without its value alone; empty cells and currency signs left out, a
    closing bracket or percent sign joined to the value before it ("(619 )" is "(619)")."""
    values: list[tuple[int, str]] = []
    for index, value in enumerate(row):
        value = " ".join(value.split())
        if not value or value in _CURRENCY:
            continue
        if value in _CLOSING and values:
            at, before = values[-1]
            values[-1] = (at, before + value)
            continue
        values.append((index, value))
    label = ""
    parts: list[str] = []
    for index, value in values:
        own = " ".join(header[index].split()) if index < len(header) else ""
        first = not label and not parts and any(c.isalpha() for c in value)
        if first and (not own or index == 0):
            label = value
            continue
        name = own or _name_at(header, index)
        parts.append(f"{name} = {value}" if name and name != value else value)
    body = "; ".join(parts)
    return f"{label}: {body}" if label and body else label or body


_CURRENCY = frozenset({"$", "€", "£", "¥"})
_CLOSING = frozenset({")", "%", ")%", "%)"})


def _name_at(header: Sequence[str], index: int) -> str:
    """The column name at `index`, else at a neighbouring index (a value and its header cell one
    column apart, as PDF tables set a currency sign in a column of its own), else ""."""
    for at in (index, index - 1, index + 1):
        if 0 <= at < len(header):
            name = " ".join(header[at].split())
            if name:
                return name
    return ""


def _rows_of(html: str) -> tuple[list[Any], int] | None:
    from partita.chunking.tables.read._model import HtmlTable, leading_header_row_count

    try:
        table = HtmlTable.from_html_text(html.strip())
    except ValueError:
        return None
    rows = list(table.iter_rows())
    return rows, leading_header_row_count(table)


def _header_count(chunk: Element, rows: list[Any], counted: int) -> int:
    """The chunk's header rows: its carried-over header rows, else its table's leading header
    rows (from `orig_elements`, whose HTML keeps `th`), else the first of two or more rows."""
    carried = chunk.metadata.num_carried_over_header_rows
    if carried:
        return carried
    origins = chunk.metadata.orig_elements or ()
    for origin in origins:
        html = origin.metadata.text_as_html
        if isinstance(origin, Table) and html:
            parsed = _rows_of(html)
            if parsed is not None and parsed[1]:
                return min(parsed[1], len(rows) - 1)
    if counted:
        return min(counted, len(rows) - 1)
    from partita.chunking.retrieval._table_headers import is_header_row

    first = list(rows[0].iter_cell_texts()) if rows else []
    return 1 if len(rows) >= 2 and is_header_row(first) else 0


def iter_rows_rendered(
    chunk: Element,
    table: Element,
    run: ChunkingRun,
    ids: ChunkIds,
    continued: Callable[[str], str] | None = None,
) -> Iterator[Element]:
    """`chunk`, a chunk of `table`, with its text rendered by rows, or its pieces when that
    outgrows the window (see the module docstring); a chunk without HTML unchanged. What the
    chunk holds before the table's text (a header, titles) stays before the rows, on its first
    piece; later pieces start with `continued(piece_text)` when given (a continuation header,
    `table_headers`), else with the same."""
    html = chunk.metadata.text_as_html
    parsed = _rows_of(html) if isinstance(chunk, Table) and html else None
    if parsed is None or not parsed[0]:
        yield chunk
        return
    rows, counted = parsed
    header_count = _header_count(chunk, rows, counted)
    header_rows, body = rows[:header_count], rows[header_count:]
    header = _column_names(header_rows)
    lines = [render_rows(header, list(row.iter_cell_texts())) for row in body]
    if not body:
        lines = ["; ".join(" ".join(c.split()) for c in row.iter_cell_texts()) for row in rows]
        body, header_rows = rows, []
    pairs = [(line, row) for line, row in zip(lines, body, strict=True) if line]
    lead, lead_records = _lead_of(chunk, table)
    longest = lead
    if continued is not None:
        longest = max(lead, _with_separator(continued("")), key=run.sizer.measure)
    room = run.opts.hard_max - (run.sizer.measure(longest) + 1 if longest else 0)
    pieces = list(_iter_pieces(pairs, run, max(room, 1)))
    if len(pieces) <= 1:
        if not pieces:
            yield chunk
            return
        yield _replaced(chunk, table, lead, lead_records, pieces[0][0], html, chunk.element_id)
        return
    table_id = chunk.metadata.table_id or ids.next_table_id(chunk.element_id)
    head_html = "".join(row.html for row in header_rows)
    for index, (text, piece_rows) in enumerate(pieces):
        piece_html = "<table>" + head_html + "".join(r.html for r in piece_rows) + "</table>"
        element_id = chunk.element_id if index == 0 else ids.next_id(chunk.element_id)
        if index and continued is not None:
            later = _with_separator(continued(text))
            piece = _replaced(chunk, table, later, [], text, piece_html, element_id)
        else:
            piece = _replaced(chunk, table, lead, lead_records, text, piece_html, element_id)
        metadata = piece.metadata.replace(
            table_id=table_id,
            chunk_index=index,
            is_continuation=True if index else chunk.metadata.is_continuation,
        )
        yield TableChunk(piece.text, element_id=piece.element_id, metadata=metadata)


def _column_names(header_rows: Sequence[Any]) -> list[str]:
    """Each column's name: its header cells top to bottom, joined by " "."""
    names: list[list[str]] = []
    for row in header_rows:
        column = 0
        for cell in row.iter_cells():
            for _ in range(max(cell.colspan, 1)):
                while len(names) <= column:
                    names.append([])
                text = " ".join(cell.text.split())
                if text and (not names[column] or names[column][-1] != text):
                    names[column].append(text)
                column += 1
    return [" ".join(parts) for parts in names]


def _iter_pieces(
    pairs: Sequence[tuple[str, Any]], run: ChunkingRun, limit: int
) -> Iterator[tuple[str, list[Any]]]:
    """The rendered rows packed into texts within `limit`, with their rows."""
    sizer = run.sizer
    text, rows = "", list[Any]()
    for line, row in pairs:
        joined = f"{text}\n{line}" if text else line
        if sizer.fits(joined, limit):
            text, rows = joined, [*rows, row]
            continue
        if text:
            yield text, rows
        if sizer.fits(line, limit):
            text, rows = line, [row]
            continue
        measure = sizer.bounded_by(limit)
        for split in iter_splits(line, measure, limit):
            yield line[split.start : split.end], [row]
        text, rows = "", []
    if text:
        yield text, rows


def _with_separator(header: str) -> str:
    return header + "\n\n" if header else ""


def _lead_of(chunk: Element, table: Element) -> tuple[str, list[Any]]:
    """What `chunk` holds before the table's own text (header, titles), and the records of it."""
    extra = chunk.metadata.extra or {}
    records = list(extra.get("sources") or [])
    table_offsets = [r["offset"] for r in records if r["element_id"] == table.element_id]
    if table_offsets:
        end = min(table_offsets)
    else:
        stripped = table.text.strip()
        found = chunk.text.rfind(stripped[:40]) if stripped else -1
        end = found if found >= 0 else int(extra.get("text_offset", 0))
    return chunk.text[:end], [r for r in records if r["offset"] < end]


def _replaced(
    chunk: Element,
    table: Element,
    lead: str,
    lead_records: list[Any],
    text: str,
    html: str | None,
    element_id: str,
) -> Element:
    """`chunk` with `lead` then `text` (its provenance re-aligned), and `text_as_html`."""
    from partita.chunking.tables._emit import align_runs

    metadata = chunk.metadata
    extra = dict(metadata.extra or {})
    if "text_offset" in extra and not lead_records:
        extra["text_offset"] = len(lead)
        if not lead:
            del extra["text_offset"]
    if "sources" in extra:
        builder = SourcesBuilder()
        for record in lead_records:
            builder.add(record["element_id"], record["start"], record["end"], record["offset"])
        runs, _ = align_runs(text, table.text)
        for start, length, offset in runs:
            builder.add(table.element_id, start, start + length, offset + len(lead))
        extra["sources"] = builder.records()
    return type(chunk)(
        lead + text,
        element_id=element_id,
        metadata=metadata.replace(text_as_html=html, extra=extra or None),
    )
