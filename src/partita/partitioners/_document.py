"""The run every text-format partitioner shares: read, draft, bound, finish.

HTML, Markdown and plain text differ only in how they draft elements from a document's content;
reading the source (at most `max_bytes`), holding the drafts to the document budget
(`_html_limits.iter_within_budget`) and finishing them with the document's name, type and date
(`_build.iter_finished_elements`) is written here once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import IO

from partita.elements import Element
from partita.partitioners._build import Draft, iter_finished_elements
from partita.partitioners._html_limits import iter_within_budget
from partita.partitioners._source import Source, read_source

__all__ = ["iter_document_elements"]


def iter_document_elements(
    filename: str | os.PathLike[str] | None,
    file: IO[bytes] | IO[str] | None,
    text: str | None,
    metadata_filename: str | None,
    *,
    max_bytes: int,
    filetype: str,
    drafts: Callable[[Source, str], Iterable[Draft]],
) -> Iterator[Element]:
    """Generate the elements of the document given by exactly one of `filename`, `file` and
    `text`: `drafts(source, name)` drafts them from the source read (`name` names the document
    in errors), within the document budget; `metadata_filename`, else the path read, names the
    document in metadata, and `filetype` is its type."""
    source = read_source(filename, file, text, max_bytes=max_bytes, name=metadata_filename)
    name = metadata_filename or source.path
    display_name = name or source.display_name
    yield from iter_finished_elements(
        iter_within_budget(drafts(source, display_name), display_name),
        path=name,
        filetype=filetype,
        last_modified=source.last_modified,
        content=source.data,
    )
