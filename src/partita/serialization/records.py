"""The vector-store record form of a chunk: an id, its text and flat scalar metadata.

Vector stores filter on metadata, and most accept only flat scalar values: Chroma rejects a list
or a nested dict, Qdrant's payload indexes and LanceDB's columns want one scalar type per field.
A chunk's metadata is richer (`section_path` a tuple, `coordinates` nested, `orig_elements` whole
elements), so `chunk_to_record` flattens it, the same way for every strategy.

Principles:

- **Flat scalars only.** Every metadata value is a `str`, `int`, `float` (finite) or `bool`;
  never None, a list or a dict. An unset field is absent, not None.
- **Nothing large inlined.** `orig_elements` is never in a record (the `_sources` string names
  the elements instead), nor coordinates, links or emphasis; a table's HTML only while it is
  small (below).
- **Deterministic.** The record's `id` is the chunk's `element_id`, which partita derives from
  the input and options: re-indexing a document replaces its records instead of duplicating
  them (`upsert`). Two different documents never share ids unless they share their file name
  and first element; the same document chunked by two strategies does share them, so keep one
  strategy per collection.

The record
----------
`chunk_to_record(chunk)` returns `{"id": str, "text": str, "metadata": {...}}` (`VectorRecord`).
`text` is `chunk.text` (a heading prefix included, when the chunking put one). The metadata
holds, each only when known:

- `element_type` (str, always): the chunk's category: "CompositeElement", "Table",
  "TableChunk" (or any element's category, for elements that were not chunked).
- `chunk_index` (int): the chunk's 0-based position in its chunking run (`iter_records`
  numbers them; `chunk_to_record` only when given `chunk_index`).
- `heading_path` (str): the headings the chunk sits under, joined by " > ": the chunk's
  `extra["heading_path"]` when the chunking recorded one (`heading_context`), else its
  `section_path`.
- `page_number` (int): the chunk's first page; `last_page_number` (int): its last page, from
  `extra["last_page_number"]` (`page_range=True`), else the first page.
- `filename`, `file_directory`, `filetype`, `last_modified`, `url`, `page_name` (str): the
  metadata fields of those names.
- `languages` (str): the chunk's languages, joined by "," ("eng,zho").
- `table_id` (str), `table_chunk_index` (int), `is_continuation` (bool): for the chunks of a
  split table: the id they share, the piece's number in its table (the metadata's own
  `chunk_index`), and whether the piece continues a table.
- `table_html` (str): a table chunk's `text_as_html`, while it is at most `table_html_max_chars`
  characters (`TABLE_HTML_MAX_CHARS`, 2,000, by default; 0 never includes it). Small tables are
  the ones worth handing to an LLM as HTML, and 2,000 characters keeps a record well inside the
  metadata limits of hosted stores (Pinecone's 40 KB per vector, say); a larger table's HTML
  stays in the chunk.
- `_sources` (str): the chunk's provenance records (`partita.chunking.provenance`), each as
  `element_id:start-end@offset`, joined by ";" ("e1:0-120@0;e2:0-40@122"), when it has any;
  `parse_sources` reads them back.
- Every other field of the chunk's `extra` whose value is a scalar and whose name is an
  identifier (letters, digits, "_"; so no dotted name, which Qdrant would read as a path) and
  is none of the names above, under its own name: `heading`, `heading_level` and
  `parent_heading` ("headings"), `window` and `original_text` ("sentence_window"),
  `text_offset` (the length of a heading prefix), ...
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, TypedDict

from partita.elements import Element
from partita.serialization._sources import SourceRecord, source_record

__all__ = [
    "RECORD_KEYS",
    "TABLE_HTML_MAX_CHARS",
    "Scalar",
    "VectorRecord",
    "chunk_to_record",
    "iter_records",
    "parse_sources",
    "sources_to_string",
]

Scalar = str | int | float | bool
"""A metadata value every vector store accepts."""


class VectorRecord(TypedDict):
    """A chunk as a vector store stores it: `id`, `text`, and flat scalar `metadata`."""

    id: str
    text: str
    metadata: dict[str, Scalar]


TABLE_HTML_MAX_CHARS = 2000
"""The longest `text_as_html` a record includes as `table_html`, by default."""

_STRING_FIELDS = ("filename", "file_directory", "filetype", "last_modified", "url", "page_name")
"""Metadata fields copied as they are (strings)."""

RECORD_KEYS = frozenset(
    {
        "element_type",
        "chunk_index",
        "heading_path",
        "page_number",
        "last_page_number",
        "languages",
        "table_id",
        "table_chunk_index",
        "is_continuation",
        "table_html",
        "sources",
        *_STRING_FIELDS,
    }
)
"""The metadata names a record defines; an `extra` field of one of these names is not copied."""

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def chunk_to_record(
    chunk: Element,
    *,
    chunk_index: int | None = None,
    table_html_max_chars: int = TABLE_HTML_MAX_CHARS,
) -> VectorRecord:
    """Return the record of `chunk`: its `element_id`, its text and its flat metadata (see the
    module docstring, field by field). `chunk_index`, when given, is the chunk's position in its
    run; `table_html_max_chars` bounds the `table_html` included (0: never)."""
    return {
        "id": chunk.element_id,
        "text": chunk.text,
        "metadata": _flat_metadata(chunk, chunk_index, table_html_max_chars),
    }


def iter_records(
    chunks: Iterable[Element], *, table_html_max_chars: int = TABLE_HTML_MAX_CHARS
) -> Iterator[VectorRecord]:
    """Generate the records of `chunks`, numbering them from 0 in `chunk_index`."""
    for index, chunk in enumerate(chunks):
        yield chunk_to_record(chunk, chunk_index=index, table_html_max_chars=table_html_max_chars)


def sources_to_string(records: Iterable[SourceRecord]) -> str:
    """Return provenance `records` as one string: `element_id:start-end@offset`, joined by ";"."""
    return ";".join(f"{r['element_id']}:{r['start']}-{r['end']}@{r['offset']}" for r in records)


def parse_sources(text: str) -> list[SourceRecord]:
    """Return the provenance records a record's `sources` string holds (`sources_to_string`'s
    inverse); [] for an empty string. Raises `ValueError` for a malformed one."""
    records: list[SourceRecord] = []
    for part in text.split(";") if text else ():
        element_id, sep, span = part.rpartition(":")
        match = re.fullmatch(r"(\d+)-(\d+)@(\d+)", span)
        if not sep or not element_id or match is None:
            raise ValueError(f"not a source record: {part!r}")
        start, end, offset = (int(g) for g in match.groups())
        records.append(source_record(element_id, start, end, offset))
    return records


def _flat_metadata(
    chunk: Element, chunk_index: int | None, table_html_max_chars: int
) -> dict[str, Scalar]:
    metadata = chunk.metadata
    extra: Mapping[str, Any] = metadata.extra or {}
    out: dict[str, Scalar] = {"element_type": chunk.category}
    if chunk_index is not None:
        out["chunk_index"] = chunk_index
    heading_path = _heading_path(extra.get("heading_path"), metadata.section_path)
    if heading_path:
        out["heading_path"] = heading_path
    page = metadata.page_number
    if page is not None:
        last = extra.get("last_page_number")
        out["page_number"] = page
        out["last_page_number"] = last if isinstance(last, int) and _is_int(last) else page
    for name in _STRING_FIELDS:
        value = getattr(metadata, name)
        if isinstance(value, str):
            out[name] = value
    if metadata.languages:
        out["languages"] = ",".join(metadata.languages)
    if metadata.table_id is not None:
        out["table_id"] = metadata.table_id
        if metadata.chunk_index is not None:
            out["table_chunk_index"] = metadata.chunk_index
    if metadata.is_continuation is not None:
        out["is_continuation"] = metadata.is_continuation
    html = metadata.text_as_html
    if html and len(html) <= table_html_max_chars:
        out["table_html"] = html
    sources = extra.get("sources")
    if isinstance(sources, Sequence) and not isinstance(sources, str):
        well_formed = [r for r in sources if _is_source_record(r)]
        if well_formed:
            out["sources"] = sources_to_string(well_formed)
    for name, value in extra.items():
        if name not in RECORD_KEYS and _IDENTIFIER.match(name) and _is_scalar(value):
            out[name] = value
    return out


def _heading_path(recorded: Any, section_path: Sequence[str] | None) -> str:
    """Return the heading path as one string: `recorded` (a string, or a sequence of headings)
    when the chunking recorded one, else `section_path` joined."""
    if isinstance(recorded, str):
        return recorded
    if isinstance(recorded, Sequence) and recorded and all(isinstance(h, str) for h in recorded):
        return " > ".join(recorded)
    return " > ".join(section_path) if section_path else ""


def _is_source_record(value: Any) -> bool:
    """True when `value` is a provenance record: an element id and three offsets."""
    return (
        isinstance(value, Mapping)
        and isinstance(value.get("element_id"), str)
        and all(_is_int(value.get(key)) for key in ("start", "end", "offset"))
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_scalar(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, (str, int, bool))
