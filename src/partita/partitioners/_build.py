"""The finishing stage every partitioner shares: common metadata, ids, hierarchy.

A partitioner generates `Draft`s (an element class, its text, its format-specific metadata);
`iter_finished_elements` turns them into elements with `filename`, `file_directory`, `filetype`
and `last_modified` set, the reference's deterministic ids (numbered per page), and `parent_id` /
`section_path` from `partita.hierarchy`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from partita.elements import Element, ElementMetadata, element_id_for
from partita.hierarchy import iter_with_hierarchy

__all__ = ["Draft", "iter_finished_elements"]


@dataclass(slots=True)
class Draft:
    """An element before it has its id and document-wide metadata."""

    cls: type[Element]
    text: str
    meta: dict[str, Any] = field(default_factory=dict[str, Any])


def iter_finished_elements(
    drafts: Iterable[Draft],
    *,
    path: str | None,
    filetype: str,
    last_modified: str | None = None,
) -> Iterator[Element]:
    """Generate the finished elements of `drafts`, in order.

    `path` (the document's path or given name) fills `filename` and `file_directory`.
    """
    directory, name = os.path.split(path) if path else ("", "")
    common: dict[str, Any] = {
        "filename": name or None,
        "file_directory": directory or None,
        "filetype": filetype,
        "last_modified": last_modified,
    }
    yield from iter_with_hierarchy(_iter_identified(drafts, common))


def _iter_identified(drafts: Iterable[Draft], common: dict[str, Any]) -> Iterator[Element]:
    """Give each draft the reference's id, made unique within the document.

    The reference hashes `f"{filename}{text}{page}{seq}"`, page and position run together, so
    the same text at page 10, position 21 and at page 102, position 1 gets one id (it happens
    with running headers and footers in long PDFs). A repeated id is replaced by a hash that
    separates the two numbers (and, should that repeat too, counts on), so ids stay equal to the
    reference's wherever the reference's are unique, and unique everywhere. The ids issued are
    remembered: about 100 bytes per element of the document.
    """
    seq_on_page: dict[int | None, int] = {}
    issued: set[str] = set()
    filename = common["filename"]
    for draft in drafts:
        meta = ElementMetadata(**common, **draft.meta)
        page = meta.page_number
        seq = seq_on_page.get(page, 0)
        seq_on_page[page] = seq + 1
        element_id = element_id_for(filename, draft.text, page, seq)
        if element_id in issued:
            element_id = _disambiguated_id(filename, draft.text, page, seq, issued)
        issued.add(element_id)
        yield draft.cls(draft.text, element_id=element_id, metadata=meta)


def _disambiguated_id(
    filename: str | None, text: str, page: int | None, seq: int, issued: set[str]
) -> str:
    """An id for an element whose reference id was already issued: page and position kept apart."""
    attempt = 0
    while True:
        data = f"{filename}\x00{text}\x00{page}\x00{seq}\x00{attempt}"
        candidate = hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        if candidate not in issued:
            return candidate
        attempt += 1
