"""The document outline (bookmarks): heading texts and their levels.

An outline entry names a heading and its level; when a short paragraph's text matches an entry
(case, spacing and punctuation ignored), the paragraph is a Title of the entry's level (top
level = `category_depth` 0), whatever its typography says. A broken or absurdly deep outline is
ignored rather than failing the document: the outline only confirms what the page shows.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MAX_ENTRIES", "outline_key", "read_outline"]

MAX_ENTRIES = 20_000

_NOT_WORD = re.compile(r"[\W_]+")


def outline_key(text: str) -> str:
    """Return `text` reduced for matching against outline entries."""
    return _NOT_WORD.sub(" ", text.casefold()).strip()


def read_outline(document: Any) -> dict[str, int]:
    """Return {outline_key(title): depth} for the pdfminer `document`'s outline entries.

    The first entry with a given key wins. Returns {} when there is no usable outline.
    """
    levels: dict[str, int] = {}
    try:
        for count, entry in enumerate(document.get_outlines()):
            if count >= MAX_ENTRIES:
                break
            level, title = entry[0], entry[1]
            if isinstance(title, str) and isinstance(level, int) and level >= 1:
                key = outline_key(title)
                if key:
                    levels.setdefault(key, level - 1)
    except Exception:  # -- no outline, or a malformed one: the typography decides alone --
        return levels
    return levels
