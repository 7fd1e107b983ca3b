"""Sign-only columns merged into the numbers they belong to.

Financial tables right-align their numbers and let the ")" of a negative, or a "%", hang past
the digits; a "$" stands at the column's left edge. Typesetting them as cells of their own (as
SEC filings converted from HTML do) makes a table finder see a column of ")" beside the
numbers, and the table reads "(2 )", "12 %", "$ 72,361".

Principles:

- A column is a *sign column* when every cell over it is a cell of that column alone (no
  `colspan` over it, no `rowspan` in the table) and holds nothing or only ")" or "%" (or ")%",
  "%)"), at least one of them not empty; its signs join the cell on their left, without a space
  ("(2" + ")" → "(2)"), and the column goes.
- Likewise a column holding nothing or only a currency sign ("$", "€", "£", "¥") joins the cell
  on its right ("$" + "72,361" → "$72,361").
- Inside every cell, a space between a digit and the ")" or "%" after it goes ("(29 )" →
  "(29)"), and so does one after a currency sign before a number ("$ 72" → "$72").
- Anything else is left as it is: a table with a `rowspan`, a header cell spanning the sign
  column, a column holding a ")" and a word.

Cost: linear in the table's cells (each column is checked once over a grid of cell starts).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["merge_sign_columns", "tighten"]

_Cell = tuple[str, int, int]

_SIGNS = re.compile(r"\)|%|\)%|%\)")
_CURRENCY = re.compile(r"[$€£¥]")
_LOOSE_SIGN = re.compile(r"(?<=\d)\s+(?=[)%](?:\s|$))")
_LOOSE_CURRENCY = re.compile(r"(?:^|(?<=[\s(]))([$€£¥])\s+(?=\(?\d)")


def tighten(text: str) -> str:
    """`text` without the spaces inside a number's signs: "(29 )" → "(29)", "12 %" → "12%",
    "$ 72" → "$72"."""
    if ")" not in text and "%" not in text and not any(c in text for c in "$€£¥"):
        return text
    return _LOOSE_CURRENCY.sub(r"\1", _LOOSE_SIGN.sub("", text))


def merge_sign_columns(rows: Sequence[Sequence[_Cell]]) -> list[list[_Cell]]:
    """Return `rows` of (text, colspan, rowspan) cells with their sign columns merged into the
    neighbouring cells (see the module docstring)."""
    out = [[(tighten(text), colspan, rowspan) for text, colspan, rowspan in row] for row in rows]
    if not out or any(rowspan != 1 for row in out for _, _, rowspan in row):
        return out
    # -- each row's cells by the column they start at; a column spanned by a cell is blocked --
    starts: list[dict[int, int]] = []
    blocked: set[int] = set()
    width = 0
    for row in out:
        at: dict[int, int] = {}
        column = 0
        for index, (_, colspan, _) in enumerate(row):
            at[column] = index
            blocked.update(range(column + 1, column + colspan))
            column += colspan
        starts.append(at)
        width = max(width, column)
    signs = [c for c in range(1, width) if _only(out, starts, blocked, c, _SIGNS)]
    currencies = [c for c in range(width - 1) if _only(out, starts, blocked, c, _CURRENCY)]
    if not signs and not currencies:
        return out
    merged: list[list[_Cell]] = []
    sign_set, currency_set = set(signs), set(currencies) - set(signs)
    for row, at in zip(out, starts, strict=True):
        cells: list[_Cell] = []
        carry = ""  # -- a currency sign waiting for the cell on its right --
        column = 0
        for text, colspan, rowspan in row:
            here = column
            column += colspan
            if here in sign_set and at.get(here) is not None and cells:
                last = cells[-1]
                cells[-1] = (last[0] + text.strip(), last[1], last[2])
                continue
            if here in currency_set:
                carry = text.strip()
                continue
            if carry:
                text = carry + text.strip() if text.strip() else carry
                carry = ""
            cells.append((text, colspan, rowspan))
        if carry:
            cells.append((carry, 1, 1))
        merged.append(cells)
    return merged


def _only(
    rows: Sequence[Sequence[_Cell]],
    starts: Sequence[dict[int, int]],
    blocked: set[int],
    column: int,
    pattern: re.Pattern[str],
) -> bool:
    """True when every cell over `column` is its own, empty or matching `pattern`, and at least
    one matches."""
    if column in blocked:
        return False
    seen = False
    for row, at in zip(rows, starts, strict=True):
        index = at.get(column)
        if index is None:
            continue  # -- a short row: nothing over the column --
        text, colspan, _ = row[index]
        text = text.strip()
        if colspan != 1 or (text and not pattern.fullmatch(text)):
            return False
        seen = seen or bool(text)
    return seen
