"""The peers' chunkings, as baselines to measure partita's against.

What a retrieval stack does without a structure-aware chunker, on a document loader's plain text:

- `text_windows`: fixed token windows over the document's plain text (`max_tokens`, 512
  cl100k_base tokens by default, no overlap): LangChain's `TokenTextSplitter` or LlamaIndex's
  `TokenTextSplitter` over the text a PDF loader gives. The plain text is the elements' texts
  joined by "\\n\\n", as `_documents.joined_text` makes it; a window is the slice of it from its
  first token's start to the next window's first token, so windows cross sections, tables and
  pages, as the peers' do.
- `pages`: one chunk per page (LangChain's `PyPDFLoader`, LlamaIndex's `PDFReader` documents
  embedded as they are): a page's elements' texts joined by "\\n\\n". Elements without a page
  number are a page of their own, in order.

Both are named like strategies in a configuration (`text_windows:max_tokens=512`, `pages`) but
are not chunking strategies: evaluation runs them (`chunk_with_baseline`). Their chunks record
their sources (`partita.chunking.provenance`'s records), so evaluation places them in the
document like any other chunk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from partita.chunking.parents import parent_id_of
from partita.elements import CompositeElement, Element, ElementMetadata, new_element
from partita.serialization._sources import SourceRecord, source_record

__all__ = [
    "BASELINE_OPTIONS",
    "PEER_BASELINES",
    "chunk_with_baseline",
    "is_baseline",
    "page_chunks",
    "text_windows",
]

PEER_BASELINES: tuple[str, ...] = ("text_windows:max_tokens=512", "pages")
"""The configurations `partita evaluate --baselines` adds: 512-token windows over the plain text
(the size most LangChain and LlamaIndex examples use) and one chunk per page."""

BASELINE_OPTIONS: Mapping[str, frozenset[str]] = {
    "text_windows": frozenset({"max_tokens", "overlap", "tokenizer"}),
    "pages": frozenset(),
}
"""The baselines, by name, and the options each takes."""

_JOINER = "\n\n"


def is_baseline(strategy: str) -> bool:
    """Whether `strategy` names a baseline rather than a chunking strategy."""
    return strategy in BASELINE_OPTIONS


def chunk_with_baseline(
    elements: Sequence[Element], strategy: str, **options: Any
) -> list[Element]:
    """The chunks of `elements` by the baseline `strategy` with `options`. Raise `ValueError`
    for an unknown baseline, `TypeError` for an option it does not take."""
    taken = BASELINE_OPTIONS.get(strategy)
    if taken is None:
        raise ValueError(f"no baseline {strategy!r}; known: {', '.join(BASELINE_OPTIONS)}")
    unknown = sorted(set(options) - taken)
    if unknown:
        raise TypeError(f"the {strategy!r} baseline takes no option {', '.join(unknown)}")
    if strategy == "pages":
        return page_chunks(elements)
    return text_windows(elements, **options)


def _plain_text(elements: Iterable[Element]) -> tuple[str, list[tuple[int, Element]]]:
    """The elements' texts joined by "\\n\\n" (each id once), and where each element starts."""
    placed: list[tuple[int, Element]] = []
    seen: set[str] = set()
    position = 0
    for element in elements:
        if element.element_id in seen or not element.text:
            continue
        seen.add(element.element_id)
        placed.append((position, element))
        position += len(element.text) + len(_JOINER)
    return _JOINER.join(e.text for _, e in placed), placed


def _sources(placed: Sequence[tuple[int, Element]], low: int, high: int) -> list[SourceRecord]:
    """The records of the plain text's `[low, high)`: each element's part of it."""
    records: list[SourceRecord] = []
    for start, element in placed:
        end = start + len(element.text)
        if end <= low or start >= high:
            continue
        a, b = max(low, start), min(high, end)
        records.append(source_record(element.element_id, a - start, b - start, a - low))
    return records


def _chunk(text: str, records: list[SourceRecord], first: Element, pages: list[int]) -> Element:
    metadata = first.metadata
    fields: dict[str, Any] = {
        "filename": metadata.filename,
        "file_directory": metadata.file_directory,
        "filetype": metadata.filetype,
        "extra": {"sources": records},
    }
    if pages:
        fields["page_number"] = min(pages)
        fields["extra"]["last_page_number"] = max(pages)
    chunk_id = parent_id_of([f"{r['element_id']}:{r['start']}-{r['end']}" for r in records])
    return new_element(CompositeElement, text, chunk_id, ElementMetadata(**fields))


def _pages_of(placed: Sequence[tuple[int, Element]], records: Sequence[SourceRecord]) -> list[int]:
    by_id = {e.element_id: e for _, e in placed}
    found = (by_id[r["element_id"]].metadata.page_number for r in records)
    return [page for page in found if page is not None]


def text_windows(
    elements: Sequence[Element],
    max_tokens: int = 512,
    overlap: int = 0,
    tokenizer: str = "cl100k_base",
) -> list[Element]:
    """Windows of `max_tokens` tokens of the tiktoken encoding `tokenizer` over the elements'
    plain text, each starting `max_tokens - overlap` tokens after the last (see the module
    docstring)."""
    if max_tokens < 1 or not 0 <= overlap < max_tokens:
        raise ValueError("text_windows needs max_tokens >= 1 and 0 <= overlap < max_tokens")
    from partita.text.sizing._tokenizers import resolve_tokenizer

    _, tokens = resolve_tokenizer(tokenizer)
    if tokens is None:
        raise ValueError(f"text_windows needs a tiktoken encoding, got {tokenizer!r}")
    text, placed = _plain_text(elements)
    ids = tokens.encode_ordinary(text)
    _, starts = tokens.encoding.decode_with_offsets(ids)
    starts = [*starts, len(text)]
    chunks: list[Element] = []
    step = max_tokens - overlap
    for first_token in range(0, len(ids), step):
        low = starts[first_token]
        high = starts[min(first_token + max_tokens, len(ids))]
        window = text[low:high]
        if not window.strip():
            continue
        records = _sources(placed, low, high)
        chunks.append(_chunk(window, records, placed[0][1], _pages_of(placed, records)))
        if first_token + max_tokens >= len(ids):
            break
    return chunks


def page_chunks(elements: Sequence[Element]) -> list[Element]:
    """One chunk per page: each page's elements' texts joined by "\\n\\n", in document order."""
    _, placed = _plain_text(elements)
    groups: list[list[tuple[int, Element]]] = []
    page: Callable[[Element], int | None] = lambda e: e.metadata.page_number  # noqa: E731
    for item in placed:
        element = item[1]
        if groups and page(element) is not None and page(groups[-1][0][1]) == page(element):
            groups[-1].append(item)
        else:
            groups.append([item])
    chunks: list[Element] = []
    for group in groups:
        low = group[0][0]
        high = group[-1][0] + len(group[-1][1].text)
        text = _JOINER.join(e.text for _, e in group)
        records = _sources(group, low, high)
        chunks.append(_chunk(text, records, group[0][1], _pages_of(group, records)))
    return chunks
