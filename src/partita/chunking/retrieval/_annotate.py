"""Annotations a retrieval chunk carries besides its text: the heading path, the page range, and
whether it continues an element cut before it.

- `heading_context` ("prefix" or "metadata"): `extra["heading_path"]`, the heading path of the
  chunk's first element joined by " > " (a flat string, as vector stores want metadata).
- `page_range`: `extra["last_page_number"]`, the highest page of the elements the chunk draws
  on; `page_number` stays the first page, as the reference consolidates it.
- `is_continuation`: True on a chunk whose first new text continues an element cut before it,
  as the reference marks the later pieces of a split element.

`iter_annotated_pre_chunks` applies the first two, and `table_text="rows"` (`_rows`), to the
reference pipeline's chunks (options that add to chunks without regrouping them), so
`page_range` alone leaves the chunks as the reference makes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from partita.chunking._options import SharedChunkingOptions
from partita.chunking.retrieval._context import PATH_JOINER, Path
from partita.elements import Element, Table

__all__ = ["annotated", "annotations_of", "iter_annotated", "iter_annotated_pre_chunks"]


def annotations_of(
    elements: Sequence[Element], path: Path, opts: SharedChunkingOptions
) -> dict[str, Any]:
    """The `extra` fields a chunk drawing on `elements` (its first one with heading path `path`)
    gets under `opts`."""
    extra: dict[str, Any] = {}
    if opts.retrieval.heading_context is not None and path:
        extra["heading_path"] = PATH_JOINER.join(" ".join(part.split()) for part in path)
    if opts.retrieval.page_range:
        pages = [e.metadata.page_number for e in elements if e.metadata.page_number is not None]
        if pages:
            extra["last_page_number"] = max(pages)
    return extra


def annotated(
    chunk: Element,
    elements: Sequence[Element],
    path: Path,
    opts: SharedChunkingOptions,
    *,
    continuation: bool = False,
) -> Element:
    """`chunk` with its annotations (see the module docstring)."""
    extra = annotations_of(elements, path, opts)
    if not extra and not continuation:
        return chunk
    changes: dict[str, Any] = {}
    if extra:
        changes["extra"] = {**(chunk.metadata.extra or {}), **extra}
    if continuation:
        changes["is_continuation"] = True
    return type(chunk)(
        chunk.text, element_id=chunk.element_id, metadata=chunk.metadata.replace(**changes)
    )


def iter_annotated(
    chunks: Iterable[Element], elements: Sequence[Element], path: Path, opts: SharedChunkingOptions
) -> Iterator[Element]:
    """`chunks` (all made from `elements`), each annotated."""
    for chunk in chunks:
        yield annotated(chunk, elements, path, opts)


def iter_annotated_pre_chunks(
    elements: Iterable[Element],
    run: Any,
    to_pre_chunks: Any,
) -> Iterator[Element]:
    """The reference pipeline's chunks of `elements`, annotated: `to_pre_chunks(elements)` makes
    the pre-chunks, each becomes its chunks (`partita.chunking._chunks.iter_chunks_of`), each
    chunk annotated from its pre-chunk's elements."""
    from partita.chunking._chunks import iter_chunks_of
    from partita.chunking._ids import ChunkIds
    from partita.chunking.retrieval._context import iter_with_paths

    paths: dict[int, Path] = {}

    def recorded() -> Iterator[Element]:
        for element, path in iter_with_paths(elements):
            paths[id(element)] = path
            yield element

    ids = ChunkIds()
    opts = run.opts
    for pre_chunk in to_pre_chunks(recorded()):
        members = pre_chunk.elements
        path = paths.get(id(members[0]), ()) if members else ()
        chunks = iter_chunks_of(pre_chunk, run, ids)
        if (
            opts.retrieval.table_text == "rows"
            and len(members) == 1
            and isinstance(members[0], Table)
        ):
            from partita.chunking.retrieval._rows import iter_rows_rendered

            chunks = (r for c in chunks for r in iter_rows_rendered(c, members[0], run, ids))
        for chunk in chunks:
            yield annotated(chunk, members, path, opts)
        for member in members:
            paths.pop(id(member), None)
