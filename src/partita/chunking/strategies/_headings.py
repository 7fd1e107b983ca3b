"""The "headings" strategy: sections cut at headings, each chunk prefixed with its heading path.

Principles (Markdown split by headers with an "H1 > H2" prefix for a
384-token embedder; a Word knowledge base cut by heading style; heading levels chosen):

- **Sections at headings.** A `Title` whose level (`category_depth` + 1; 1 when unknown) is at
  most `split_depth` starts a section; deeper titles stay inside their section as text. Every
  level cuts by default. The partitioners give titles their level from heading styles (custom
  and localized ones, outline levels), Markdown `#`s and HTML `<hN>`, so a Word knowledge base is
  cut by its heading styles.
- **The heading path as a prefix.** Each chunk of a section starts with the section's heading
  path, "H1 > H2 > H3", and a blank line (`heading_prefix`, default on): the embedder sees where
  the passage sits. The prefix counts inside the window, as the "sentence" strategy's
  `metadata_template` does, and the section's own heading is in it rather than repeated in the
  text. A heading path longer than half the window is left out (the text keeps its heading).
  A section holding only its heading is a chunk of that heading, under its parents' path.
- **Split to the window like "sentence".** A section's text is cut into paragraphs, sentences,
  clauses and lines, words and characters, packed greedily with an overlap of whole splits
  (`partita.chunking._text_chunks`); the window is a hard maximum for every chunk.
- **Metadata** (as Markdown header splitters record it): `extra["heading"]` (the section's heading),
  `["heading_level"]`, `["parent_heading"]` (the heading above it; absent at the top) and the
  chunk's `section_path`; provenance in `extra["sources"]` covers the text after the prefix
  (`extra["text_offset"]` characters).
- Tables stand alone, as in "by_title"; ids, `orig_elements` and provenance as in every text
  strategy.

Differences from LangChain's `MarkdownHeaderTextSplitter` + `TokenTextSplitter`: any partitioned
document, not only Markdown (Word heading styles, HTML headings, PDF titles); the prefix is
counted inside the budget instead of pushing a chunk past it; sections are split at sentence
ends, not every N tokens.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Unpack

from partita.chunking._ids import ChunkIds
from partita.chunking._options import CommonOptions, Help, OverlapOptions
from partita.chunking._run import ChunkingRun
from partita.chunking._strategy import StrategyParts, eager
from partita.chunking._text_chunks import (
    JOINER,
    TextChunkingOptions,
    iter_groups_chunks,
    iter_split_chunks,
)
from partita.elements import Element, Title
from partita.text._splits import iter_splits

__all__ = [
    "PARTS",
    "HeadingsChunkingOptions",
    "HeadingsOptions",
    "chunk_by_headings",
    "heading_level",
    "iter_chunks_by_headings",
    "run_headings",
]

PATH_SEPARATOR = " > "
"""What joins the headings of a heading path in a chunk's prefix."""


class HeadingsOptions(CommonOptions, OverlapOptions, total=False):
    """The options of the "headings" strategy."""

    split_depth: Annotated[
        int | None,
        Help("cut sections at headings down to this level (1: H1 only; default: every level)"),
    ]
    heading_prefix: Annotated[
        bool | None,
        Help('start each chunk with its heading path, "H1 > H2", inside the window (default on)'),
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class HeadingsChunkingOptions(TextChunkingOptions):
    """The validated "headings" options: `depth` (`split_depth`, None for every level) and
    `prefix` (`heading_prefix`, True by default)."""

    overlap: int | None = None
    respect_sections: bool | None = field(default=None, init=False)
    """Not an option of "headings": its sections are its headings' (`split_depth`)."""
    split_depth: int | None = None
    heading_prefix: bool | None = None
    depth: int | None = field(init=False)
    prefix: bool = field(init=False)

    def __post_init__(self) -> None:
        TextChunkingOptions.__post_init__(self)
        if self.split_depth is not None and self.split_depth < 1:
            raise ValueError(f"'split_depth' argument must be >= 1, got {self.split_depth}")
        object.__setattr__(self, "depth", self.split_depth)
        object.__setattr__(self, "prefix", self.heading_prefix is not False)


def heading_level(title: Element) -> int:
    """The level of a title: 1 for H1 (`category_depth` 0 or unknown), 2 for H2, ..."""
    depth = title.metadata.category_depth
    return 1 if depth is None or depth < 0 else depth + 1


def _path_of(title: Element) -> tuple[str, ...]:
    path = title.metadata.section_path
    return tuple(path) if path else (title.text,)


def run_headings(elements: Iterable[Element], opts: HeadingsChunkingOptions) -> Iterator[Element]:
    """Generate the "headings" chunks of `elements` under validated options `opts`."""
    run = ChunkingRun.of(opts)
    depth = opts.depth

    def starts_group(element: Element) -> bool:
        return isinstance(element, Title) and (depth is None or heading_level(element) <= depth)

    def chunk_group(group: Sequence[Element], ids: ChunkIds) -> Iterator[Element]:
        head = group[0] if starts_group(group[0]) else None
        body: Sequence[Element] = group
        path: tuple[str, ...] = ()
        extra: dict[str, Any] = {}
        if head is not None:
            path = _path_of(head)
            extra = {"heading": head.text, "heading_level": heading_level(head)}
            if len(path) > 1:
                extra["parent_heading"] = path[-2]
            if opts.prefix:
                body = group[1:]
                if not body:  # -- a heading alone: its own chunk, under its parents' path --
                    body, path = group, path[:-1]
        header = PATH_SEPARATOR.join(path) + JOINER if opts.prefix and path else ""
        if header and run.sizer.measure(header) > opts.hard_max // 2:
            header, body = "", group  # -- too long a path: no prefix, the heading kept as text --
        return iter_split_chunks(body, ids, run, iter_splits, header=header, chunk_extra=extra)

    return iter_groups_chunks(elements, run, chunk_group, starts_group=starts_group)


def iter_chunks_by_headings(
    elements: Iterable[Element], **options: Unpack[HeadingsOptions]
) -> Iterator[Element]:
    """Generate "headings" chunks of `elements`: sections cut at headings (down to
    `split_depth`), each split to the window with its heading path as a prefix."""
    return run_headings(elements, HeadingsChunkingOptions(**options))


chunk_by_headings = eager(iter_chunks_by_headings, "chunk_by_headings")
"""Return the "headings" chunks of `elements`; see `iter_chunks_by_headings`."""


PARTS = StrategyParts(
    HeadingsOptions,
    HeadingsChunkingOptions,
    run_headings,
    iter_chunks_by_headings,
    chunk_by_headings,
)
"""The parts of the "headings" strategy, for the registry."""
