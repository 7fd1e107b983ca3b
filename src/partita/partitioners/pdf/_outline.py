"""The document outline (bookmarks): heading texts and their levels.

An outline entry names a heading and its level; when a short paragraph's text matches an entry
(case, spacing and punctuation ignored), the paragraph is a Title of the entry's level (top
level = `category_depth` 0), whatever its typography says. A broken outline is ignored rather
than failing the document (the outline only confirms what the page shows); one whose links
cycle or meet is read once per item.
"""

from __future__ import annotations

import re
from typing import Any

from pdfminer.pdftypes import PDFObjRef, resolve1, str_value
from pdfminer.utils import decode_text

from partita.errors import PartitaError

__all__ = ["MAX_ENTRIES", "outline_key", "read_outline"]

MAX_ENTRIES = 20_000

_NOT_WORD = re.compile(r"[\W_]+")


def outline_key(text: str) -> str:
    """Return `text` reduced for matching against outline entries."""
    return _NOT_WORD.sub(" ", text.casefold()).strip()


def read_outline(document: Any) -> dict[str, int]:
    """Return {outline_key(title): depth} for the pdfminer `document`'s outline entries.

    The entries are those pdfminer's `get_outlines` lists (a `/Title` and an `/A` or `/Dest`;
    children one level below their parent), in its order, but each outline item is visited once,
    without recursion: an outline whose `/First` and `/Next` links meet or cycle is read in
    linear time. The first entry with a given key wins; at most `MAX_ENTRIES` are read. Returns
    {} when there is no usable outline.
    """
    levels: dict[str, int] = {}
    try:
        root = document.catalog.get("Outlines")
        if root is None:
            return levels
        count = 0
        seen: set[int] = set()
        pending: list[tuple[Any, int]] = [(root, 0)]
        while pending and count < MAX_ENTRIES:
            ref, level = pending.pop()
            if isinstance(ref, PDFObjRef):
                if ref.objid in seen:
                    continue
                seen.add(ref.objid)
            entry = resolve1(ref)
            if not isinstance(entry, dict):
                continue
            if "Title" in entry and ("A" in entry or "Dest" in entry):
                count += 1
                title = decode_text(str_value(entry["Title"]))
                key = outline_key(title)
                if key and level >= 1:
                    levels.setdefault(key, level - 1)
            if "Next" in entry:
                pending.append((entry["Next"], level))
            if "First" in entry and "Last" in entry:
                pending.append((entry["First"], level + 1))  # -- children before the next --
    except PartitaError:
        raise  # -- a bound of the document's, not a broken outline --
    except Exception:  # -- a malformed outline: the typography decides alone --
        return levels
    return levels
