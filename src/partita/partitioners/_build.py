"""The finishing stage every partitioner shares: common metadata, ids, hierarchy.

A partitioner generates `Draft`s (an element class, its text, its format-specific metadata);
`iter_finished_elements` turns them into elements with `filename`, `file_directory`, `filetype`
and `last_modified` set, deterministic ids (numbered per page), and `parent_id` /
`section_path` from `partita.hierarchy`.

IDS

- **A document's ids are its own.** An id hashes the document's identity with the element's
  text, page and position on the page: its path as given (`file_directory` and `filename`), or,
  for a document without a path (`text=`, a file object without a name), the SHA-256 of its
  content. Two documents with different identities never share an id: not two files of one
  name in different folders, not two texts given without a name (`elements.document_key`).
- **A bare file name keeps the reference's ids.** A path without a directory (`"report.pdf"`,
  or `metadata_filename="report.pdf"`) is hashed as the reference hashes it,
  `sha256(f"{filename}{text}{page}{seq}")`, so partita's ids equal unstructured's there. Two
  documents given one bare name are one document by that name: give each its directory (or no
  name) to tell them apart.
- **The same document gives the same ids on every run**: the same path (or content) and the
  same elements. A document edited in place keeps its path, so an element with the same text
  at the same place keeps its id.
- **Unique within a document.** Where an id repeats within one document (the reference's hash
  runs page and position together), the repeat gets another hash (`_iter_identified`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from partita.elements import Element, ElementMetadata, document_key, element_id_for
from partita.errors import FileReadError
from partita.hierarchy import iter_with_hierarchy

__all__ = ["Draft", "content_digest", "file_digest", "iter_finished_elements"]


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
    content: bytes | str | None = None,
    digest: str | None = None,
) -> Iterator[Element]:
    """Generate the finished elements of `drafts`, in order.

    `path` (the document's path or given name) fills `filename` and `file_directory`, and
    identifies the document in its ids. Without a `path`, the document is identified by its
    `digest` (`content_digest` or `file_digest`) or else by `content`, the bytes or text the
    partitioner read, hashed here; with neither, by nothing (the reference's ids, filename
    "None": for callers that build elements from no document).
    """
    directory, name = os.path.split(path) if path else ("", "")
    common: dict[str, Any] = {
        "filename": name or None,
        "file_directory": directory or None,
        "filetype": filetype,
        "last_modified": last_modified,
    }
    if not path and digest is None and content is not None:
        digest = content_digest(content)
    key = document_key(directory, name, None if path else digest)
    yield from iter_with_hierarchy(_iter_identified(drafts, common, key))


def content_digest(content: bytes | str) -> str:
    """Return the hex SHA-256 of `content`: its bytes, or its text in UTF-8 (lone surrogates
    kept), so that a text and its UTF-8 bytes have one digest."""
    if isinstance(content, str):
        content = content.encode("utf-8", "surrogatepass")
    return hashlib.sha256(content).hexdigest()


_READ_BYTES = 1 << 20


def file_digest(file: IO[bytes], name: str | None = None) -> str:
    """Return the hex SHA-256 of the binary, seekable `file`, the whole of it from its start (as
    the PDF worker's spool copies it), read 1 MiB at a time, leaving `file` where it was.

    Raises `FileReadError` naming `name` (else "<stream>") when it cannot be read.
    """
    digest = hashlib.sha256()
    try:
        start = file.tell()
        file.seek(0)
        try:
            while block := file.read(_READ_BYTES):
                digest.update(block)
        finally:
            file.seek(start)
    except (OSError, ValueError) as exc:
        raise FileReadError(f"cannot read {name or '<stream>'}: {exc}") from exc
    return digest.hexdigest()


def _iter_identified(
    drafts: Iterable[Draft], common: dict[str, Any], key: str | None
) -> Iterator[Element]:
    """Give each draft its id (`element_id_for` under the document's `key`), made unique
    within the document.

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
        element_id = element_id_for(filename, draft.text, page, seq, key=key)
        if element_id in issued:
            element_id = _disambiguated_id(filename, draft.text, page, seq, key, issued)
        issued.add(element_id)
        yield draft.cls(draft.text, element_id=element_id, metadata=meta)


def _disambiguated_id(
    filename: str | None,
    text: str,
    page: int | None,
    seq: int,
    key: str | None,
    issued: set[str],
) -> str:
    """An id for an element whose id was already issued: page and position kept apart."""
    head = f"{filename}\x00" if key is None else key
    attempt = 0
    while True:
        data = f"{head}{text}\x00{page}\x00{seq}\x00{attempt}"
        candidate = hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        if candidate not in issued:
            return candidate
        attempt += 1
