"""What every chunk of a table carries: the table's title, its unit and its column headers.

Principles:

- **The first chunk of a table** has its context (`_tables.context_header`: heading path and the
  introducing sentence); when neither that context nor the table's first text names the unit
  ("(In millions)"), the unit found around the table follows it.
- **A continuation chunk** (every later piece of a split table) carries no more than the table's
  title (the innermost part of its heading path), its unit and its column headers, in at most
  `MAX_CONTINUATION_CHARACTERS` characters and a quarter of the window (`continuation_header`):
  it never repeats the introducing paragraph, so no two pieces of a table share a long start
  (their own rows follow the same short header).
- **The unit** is the first "in millions / thousands / billions" phrase (with what follows it up
  to a closing bracket or the phrase's end) in the start of the table's text, the introducing
  element's text, then the heading path (`unit_of`).
- **Column headers** are the table's leading header rows (`th`), else its leading rows that hold
  no figure other than a year (a date line, "2023 2022", "At December 31, 2019"), at most
  three, read from `text_as_html` (`column_headers_of`); none when its first row holds a figure.
  A table's later pieces do not repeat its header rows in their own text (the reference's
  `repeat_table_headers` is off for them): the continuation header names the columns, in at most
  90 characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from partita.chunking.retrieval._context import HEADER_SHARE, Path
from partita.elements import Element
from partita.text.sizing import Sizer

__all__ = [
    "MAX_CONTINUATION_CHARACTERS",
    "column_headers_of",
    "continuation_header",
    "is_header_row",
    "unit_of",
]

MAX_CONTINUATION_CHARACTERS = 150
"""A continuation header's longest text: two pieces of a table then share at most this much
before their own rows (with the separator)."""

_TITLE_CHARACTERS = 80
_COLUMNS_CHARACTERS = 90
_MAX_HEADER_ROWS = 3
_UNIT = re.compile(
    r"\(?[^()\n]{0,24}?\bin\s+(?:millions|thousands|billions)\b[^()\n.;:]{0,60}\)?",
    re.IGNORECASE,
)
_FIGURE = re.compile(r"\d[\d,.]*")
_YEAR = re.compile(r"(?:19|20)\d\d")


def unit_of(texts: Iterable[str]) -> str:
    """The unit phrase of the first of `texts` that names one ("" when none does), whitespace
    normalized, in brackets as written or put in them."""
    for text in texts:
        found = _UNIT.search(" ".join(text.split()))
        if found is not None:
            unit = found.group(0).strip()
            if not unit.startswith("("):
                unit = "(" + unit.lstrip(" ,") + ")"
            elif not unit.endswith(")"):
                unit += ")"
            return unit
    return ""


def is_header_row(cells: Sequence[str]) -> bool:
    """True when the row of `cells` holds some text and no figure but years: a row of column
    headers."""
    values = [" ".join(c.split()) for c in cells if c.strip()]
    if not values:
        return False
    for value in values:
        for figure in _FIGURE.findall(value):
            digits = figure.strip(",.")
            if digits and not _YEAR.fullmatch(digits):
                return False
    return True


def column_headers_of(table: Element) -> str:
    """The table's column headers (see the module docstring), their rows' cells joined by " ",
    rows by " | "; "" when it has none or no HTML."""
    html = table.metadata.text_as_html
    if not html:
        return ""
    from partita.chunking.tables.read._model import HtmlTable, leading_header_row_count

    try:
        parsed = HtmlTable.from_html_text(html.strip())
    except ValueError:
        return ""
    marked = leading_header_row_count(parsed)  # -- `th` rows --
    lines: list[str] = []
    for index, row in enumerate(parsed.iter_rows()):
        cells = list(row.iter_cell_texts())
        if len(lines) >= max(marked, _MAX_HEADER_ROWS) or (
            index >= marked and not is_header_row(cells)
        ):
            break
        kept: list[str] = []
        for cell in cells:
            value = " ".join(cell.split())
            if value and (not kept or kept[-1] != value):
                kept.append(value)
        lines.append(" ".join(kept))
    if len(lines) == len(list(parsed.iter_rows())):
        return ""  # -- a table of header-like rows only: its text says it all --
    return _shortened(" | ".join(lines), _COLUMNS_CHARACTERS)


def _shortened(text: str, limit: int) -> str:
    """`text` cut at a word end to at most `limit` characters."""
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit + 1)
    return text[: cut if cut > 0 else limit].rstrip(" |,;")


def continuation_header(
    path: Path,
    unit: str,
    columns: str,
    piece_text: str,
    sizer: Sizer,
    window: int,
    earlier: Iterable[str] = (),
) -> str:
    """The header of a continuation piece whose own text is `piece_text`: the title (the last
    part of `path`), `unit`, and `columns` when the piece does not start with them; within
    `MAX_CONTINUATION_CHARACTERS` and a quarter of `window`, and holding none of the `earlier`
    chunk texts whole (parts dropped until it fits and holds none)."""
    title = _shortened(" ".join(path[-1].split()), _TITLE_CHARACTERS) if path else ""
    first_line = " ".join(piece_text[: len(columns) + 40].split())
    if columns and first_line.startswith(columns.split(" | ")[0]):
        columns = ""
    texts = [text for text in earlier if text]

    def joined(*parts: str) -> str:
        head = " ".join(part for part in parts[:2] if part)
        tail = parts[2] if len(parts) > 2 else ""
        return head + ("\n" + tail if head and tail else tail)

    for candidate in (
        joined(title, unit, columns),
        joined(title, unit),
        joined("", unit, columns),
        title,
        unit,
    ):
        if (
            candidate
            and len(candidate) <= MAX_CONTINUATION_CHARACTERS
            and sizer.fits(candidate, window // HEADER_SHARE)
            and not any(text in candidate for text in texts)
        ):
            return candidate
    return ""
