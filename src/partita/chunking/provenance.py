"""Provenance: where a chunk's text came from, as ranges of its source elements' texts.

A caller who keeps the elements a document was partitioned into can highlight any chunk in
them, `orig_elements` kept or not (`include_orig_elements=False`): the chunk names its sources.

The record contract (the same for every strategy)
-------------------------------------------------
A chunk's `metadata.extra["sources"]` is a list of records, each a plain dict

    {"element_id": str, "start": int, "end": int, "offset": int}

meaning `chunk.text[offset : offset + (end - start)] == source.text[start:end]`, where `source`
is the element, among those the chunking run was given, whose `element_id` the record names.

- **Exact.** Every record holds, character for character. Where the chunker rewrote text so that
  one range cannot stand for it, there are several records, never an approximate one.
- **In order, disjoint.** Records follow the chunk's text and never overlap in it. One element
  may have several records in a chunk (its text whitespace-normalized, or taken twice), and one
  range of an element may be taken by several chunks (overlap).
- **Only whitespace is left out.** The chunk's text outside the records is whitespace: what the
  chunker put between texts ("\\n\\n" between two elements, " " after an overlap tail repeated
  by the splitter, "\\n" between a table's overlap prefix and its text) and the one space that
  stands for a longer whitespace run it normalized (a table chunk cut from HTML may leave out
  more: see below). `rebuilds(chunk, elements_by_id)` checks all of this. Characters a chunker
  drops (a text splitting separator) are in no chunk, so in no record.
- **In `extra`.** The records live in the undeclared metadata fields, which JSON writes as the
  ordinary metadata field "sources" and reads back into `extra`: they round-trip unchanged.
- **Opt-in where the default is the reference's.** "basic" and "by_title" record sources only
  with `provenance=True`: their default output is the `unstructured` library's, byte for byte,
  and with provenance off nothing here runs. A strategy's default is its options value type's
  `PROVENANCE_DEFAULT`.

What "basic" and "by_title" record
----------------------------------
- **Whitespace normalization.** A pre-chunk's text is the elements' texts, each with its
  whitespace normalized (`" ".join(text.split())`; a `CodeSnippet` is kept as it is), joined by
  "\\n\\n". A normalized text equals its source wherever the source has a single space between
  words, so an element gets one record per run of words separated by single spaces: one record
  for a text that is already normal; the space standing for a longer run is left out
  (`partita.chunking._prechunk.text_trace`).
- **The overlap prefix** (`overlap_all`) is the end of the previous pre-chunk's text; its records
  are that text's records cut to the prefix, so they point at the elements it came from.
- **Split pieces.** An oversized text is split by the reference's rules (`TextSplitter`); each
  piece is traced through the splitter's cuts (`partita.chunking._tracing.PieceTracer`): its new
  text is a range of the text it was cut from, the overlap tail repeated at its start
  (`overlap`) points where that tail came from, and the space the splitter puts after the tail
  is a joiner.
- **Tables.** A `Table` chunk's text is the table's text, stripped (after an overlap prefix and
  "\\n", when the table got one): one record for the table, and the prefix's. A `TableChunk` cut
  from the text alone (no HTML, or a tiny window) is a split piece, as above. A `TableChunk` cut
  from `text_as_html` takes its text from the HTML's cells, not from the table's text: each
  maximal run of its words that the table's text holds is recorded where it is found
  (`partita.chunking.tables._emit.align_runs`), searched from where the previous run ended
  (header rows repeated on a continuation chunk: from the table's start), else from the table's
  start. So a record holds exactly, but where the table's text repeats the same words (a text
  copied down a rowspan, a recurring cell value) it may point at another occurrence of them;
  and a cell text the table's text does not hold at all is not recorded (`rebuilds` is then
  False). A table passed through (`skip_table_chunking`) records itself, whole.

This module holds the contract and its helpers: `SourceRecord` and `source_record` (the
record's form, from `partita.serialization._sources`),
`SourcesBuilder` (records from spans, a contiguous range kept as one), `Trace` (the spans of a
text, cut and moved), and, for readers, `sources_of(chunk)`, `iter_source_texts(chunk,
elements_by_id)` (each record with its element and text, to highlight) and
`rebuilds(chunk, elements_by_id)` (the check of the contract).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from partita.elements import Element
from partita.serialization._sources import SourceRecord, source_record

__all__ = [
    "EMPTY_TRACE",
    "SourceRecord",
    "SourceText",
    "SourcesBuilder",
    "Span",
    "Trace",
    "iter_source_texts",
    "rebuilds",
    "records_of",
    "source_record",
    "sources_of",
    "with_sources",
]


class SourceText(NamedTuple):
    """A record resolved against its element: `element.text[start:end]` is the chunk's text at
    `offset`."""

    element: Element
    start: int
    end: int
    offset: int

    @property
    def text(self) -> str:
        """The characters the record covers: `element.text[start:end]`."""
        return self.element.text[self.start : self.end]


Span = tuple[str, int, int, int]
"""A record as a tuple, `(element_id, start, end, offset)`: how chunking builds records."""


class SourcesBuilder:
    """Collects a chunk's records in text order; a span that continues the last one (the same
    element, contiguous in both texts) extends it, so a contiguous range is one record."""

    __slots__ = ("_spans",)

    def __init__(self) -> None:
        self._spans: list[Span] = []

    def add(self, element_id: str, start: int, end: int, offset: int) -> None:
        """Add the record of `source.text[start:end]` at `offset` (after every record held)."""
        if start >= end:
            return
        spans = self._spans
        if spans:
            last_id, last_start, last_end, last_offset = spans[-1]
            if (
                last_id == element_id
                and last_end == start
                and last_offset + last_end - last_start == offset
            ):
                spans[-1] = (last_id, last_start, end, last_offset)
                return
        spans.append((element_id, start, end, offset))

    def extend(self, spans: Iterable[Span]) -> None:
        """Add `spans`, in order."""
        for span in spans:
            self.add(*span)

    def records(self) -> list[SourceRecord]:
        """Return the records collected, as dicts."""
        return [source_record(*span) for span in self._spans]


def sources_of(chunk: Element) -> list[SourceRecord]:
    """Return the records of `chunk` (`metadata.extra["sources"]`), [] when it has none."""
    extra = chunk.metadata.extra
    if not extra:
        return []
    return list(extra.get("sources") or [])


def iter_source_texts(
    chunk: Element, elements_by_id: Mapping[str, Element]
) -> Iterator[SourceText]:
    """Generate the records of `chunk` resolved against `elements_by_id` (element id to element:
    the elements the chunks were made from), in the chunk's text order.

    Raises `KeyError` for a record naming an element `elements_by_id` lacks.
    """
    for record in sources_of(chunk):
        element = elements_by_id[record["element_id"]]
        yield SourceText(element, record["start"], record["end"], record["offset"])


def rebuilds(chunk: Element, elements_by_id: Mapping[str, Element]) -> bool:
    """True when the records of `chunk` rebuild its text from `elements_by_id`: every record
    names a known element and holds exactly, the records are in order and disjoint, and the text
    they leave out is whitespace only — besides a header of `extra["text_offset"]` characters
    before them (a "sentence" `metadata_template`, a "headings" heading path) and the U+FFFD a
    token window shows for a character it cuts."""
    text = chunk.text
    covered = (chunk.metadata.extra or {}).get("text_offset", 0)
    for record in sources_of(chunk):
        element = elements_by_id.get(record["element_id"])
        start, end, offset = record["start"], record["end"], record["offset"]
        if element is None or not 0 <= start < end <= len(element.text) or offset < covered:
            return False
        if text[offset : offset + end - start] != element.text[start:end]:
            return False
        if _left_out(text[covered:offset]):
            return False
        covered = offset + end - start
    return not _left_out(text[covered:])


def _left_out(text: str) -> bool:
    """True when `text`, left out of every record, holds more than whitespace and U+FFFD."""
    return bool(text.strip()) and bool(text.replace("\ufffd", "").strip())


class Trace:
    """The spans of a text (in text order, disjoint): where its characters came from."""

    __slots__ = ("_ends", "spans")

    def __init__(self, spans: list[Span]) -> None:
        self.spans = spans
        self._ends: list[int] | None = None

    def clip(self, lo: int, hi: int, shift: int = 0) -> Iterator[Span]:
        """Generate the spans of `text[lo:hi]`, placed at `shift` (offsets `- lo + shift`)."""
        spans = self.spans
        ends = self._ends
        if ends is None:
            ends = self._ends = [offset + end - start for _, start, end, offset in spans]
        for index in range(bisect_right(ends, lo), len(spans)):
            element_id, start, end, offset = spans[index]
            if offset >= hi:
                return
            a, b = max(offset, lo), min(offset + end - start, hi)
            if a < b:
                yield element_id, start + a - offset, start + b - offset, a - lo + shift

    def cut(self, lo: int, hi: int) -> Trace:
        """Return the trace of `text[lo:hi]`."""
        return Trace(list(self.clip(lo, hi)))


EMPTY_TRACE = Trace([])
"""The trace of a text that comes from no element."""


def records_of(trace: Trace) -> list[SourceRecord]:
    """Return the records of a whole text traced by `trace`."""
    builder = SourcesBuilder()
    builder.extend(trace.spans)
    return builder.records()


def with_sources(extra: Mapping[str, Any] | None, records: list[SourceRecord]) -> dict[str, Any]:
    """Return the `extra` metadata of a chunk: `extra`'s fields and `sources`, the records."""
    return {**extra, "sources": records} if extra else {"sources": records}
