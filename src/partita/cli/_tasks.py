"""What a worker does with one input: partition it, or chunk it (module-level, so they pickle).

Both return a `Processed`: the elements to write and the counts the summary and the progress
bar need (elements read, pages), so the parent never walks a document twice. The warnings partita
emits meanwhile (`PartitaWarning`: an empty document, content that is not what its name says,
content left out) are collected as one line each, for the parent to print with the input's
failures: a worker's own standard error would interleave with the progress bar, and Python's
warning format takes two lines. Other warnings are shown as Python shows them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from partita.cli._inputs import MAX_STDIN_BYTES, Input, sniff_stdin_format
from partita.cli._warning_lines import one_line_warning, routing_warnings
from partita.elements import Element
from partita.errors import DocumentLimitError, PartitaWarning
from partita.partitioners import EmptyDocumentWarning, FormatMismatchWarning
from partita.partitioners._reading import read_elements

__all__ = ["Processed", "chunk_input", "count_pages", "partition_input"]


@dataclass(frozen=True, slots=True)
class Processed:
    """The outcome of one input that succeeded."""

    elements: list[Element]
    """What is written: the document's elements (`partition`) or its chunks (`chunk`)."""
    element_count: int
    """How many elements the document had (before chunking)."""
    pages: int
    """The highest page number among them, 0 when the document has no pages."""
    warnings: tuple[str, ...] = ()
    """The `PartitaWarning`s emitted while processing it, one line each, naming the input (all
    but `EmptyDocumentWarning`, which is `empty`)."""
    empty: str | None = None
    """Why the document gave no elements (`EmptyDocumentWarning`'s reason), or None."""


@dataclass(slots=True)
class _Noted:
    """The `PartitaWarning`s of one input, as `Processed` carries them."""

    lines: list[str] = field(default_factory=list)
    empty: str | None = None


def partition_input(item: Input) -> Processed:
    """Return the elements of `item` (a document, or with `--input-format json|jsonl` an
    elements file read back)."""
    with _noting_warnings(item) as noted:
        elements = _read_elements(item, reads_elements=False)
    pages = count_pages(elements)
    return Processed(elements, len(elements), pages, tuple(noted.lines), noted.empty)


def chunk_input(strategy: str, options: dict[str, Any], item: Input) -> Processed:
    """Return the chunks of `item` (a document or an elements file) by `strategy`."""
    from partita.chunking import chunk

    with _noting_warnings(item) as noted:
        elements = _read_elements(item, reads_elements=True)
        chunks = chunk(elements, strategy, **options)
    pages = count_pages(elements)
    return Processed(chunks, len(elements), pages, tuple(noted.lines), noted.empty)


@contextmanager
def _noting_warnings(item: Input) -> Iterator[_Noted]:
    """Collect the `PartitaWarning`s emitted in the body as lines (each once, in order); pass
    other warnings on to Python's display."""
    noted = _Noted()

    def note(warning: PartitaWarning) -> None:
        if isinstance(warning, EmptyDocumentWarning):
            noted.empty = warning.reason
            return
        if isinstance(warning, FormatMismatchWarning):
            warning = FormatMismatchWarning(item.name, warning.reason)  # -- "<stdin>" --
        text = one_line_warning(warning)
        if text not in noted.lines:
            noted.lines.append(text)

    with routing_warnings(note):
        yield noted


def count_pages(elements: list[Element]) -> int:
    """Return the highest page number `elements` record (`page_number`, or a chunk's
    `extra["last_page_number"]`), 0 when none does."""
    highest = 0
    for element in elements:
        metadata = element.metadata
        highest = max(highest, metadata.page_number or 0)
        last = (metadata.extra or {}).get("last_page_number")
        if isinstance(last, int):
            highest = max(highest, last)
    return highest


def _read_elements(item: Input, *, reads_elements: bool) -> list[Element]:
    """Return the elements of `item` (`partitioners._reading.read_elements`): read back from an
    elements file (by `--input-format`, or for `chunk` by a .json/.jsonl name or standard
    input's first byte), or partitioned."""
    fmt = item.format
    if item.is_stdin:
        assert item.data is not None
        if item.truncated:
            raise DocumentLimitError(
                f"standard input is longer than {MAX_STDIN_BYTES} bytes",
                filename=item.name,
                limit="standard input size",
            )
        fmt = fmt or sniff_stdin_format(item.data, reads_elements=reads_elements)
    content_type = None if fmt is None else Input(item.name, None, format=fmt).content_type
    options: dict[str, Any] = {}
    if item.is_code and item.format is not None:
        options["language"] = item.format
    source = item.data if item.data is not None else item.path
    assert source is not None
    return read_elements(
        source,
        input_format=fmt,
        elements_by_name=reads_elements,
        content_type=content_type,
        **options,
    )
