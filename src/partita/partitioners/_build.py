"""The finishing stage every partitioner shares: common metadata, ids, hierarchy.

A partitioner generates `Draft`s (an element class, its text, its format-specific metadata);
`iter_finished_elements` turns them into elements with `filename`, `file_directory`, `filetype`
and `last_modified` set, the reference's deterministic ids (numbered per page), and `parent_id` /
`section_path` from `partita.hierarchy`.
"""

from __future__ import annotations

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
    seq_on_page: dict[int | None, int] = {}
    filename = common["filename"]
    for draft in drafts:
        meta = ElementMetadata(**common, **draft.meta)
        page = meta.page_number
        seq = seq_on_page.get(page, 0)
        seq_on_page[page] = seq + 1
        element_id = element_id_for(filename, draft.text, page, seq)
        yield draft.cls(draft.text, element_id=element_id, metadata=meta)
