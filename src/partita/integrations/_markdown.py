"""Elements as Markdown that partita reads back into the same elements, pages kept apart.

Principles:

- **A round trip.** `elements_to_markdown` writes what the Markdown partitioner reads back into
  the same elements (kinds, texts, heading paths); Markdown syntax inside a text is escaped.
- **Clean text, pages beside it.** Markdown has no pages, and whatever a reader's text holds is
  embedded by whichever splitter runs next, so the text carries no page marks:
  `elements_to_paged_markdown` returns the pages apart, as `PageStart`s (the offset in the text
  where each page's first block starts). `with_pages` gives the elements of such a text their
  pages back: each element takes the page of the last start at or above it.
- **Pages only when sure.** Page starts are trusted only when they sit between blocks, which
  `with_pages` checks: the text cut at its page starts must partition, piece by piece, into the
  same elements as the whole. Starts that do not fit the text (it was changed after it was
  written, or they are another text's) leave the elements without pages rather than with wrong
  ones.
- No LlamaIndex or LangChain import: this module needs no extra.
"""

from __future__ import annotations

import itertools
import re
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from partita.elements import Element

__all__ = [
    "PageStart",
    "PagedMarkdown",
    "elements_to_markdown",
    "elements_to_paged_markdown",
    "with_pages",
]

_BLOCK_SEPARATOR = "\n\n"


class PageStart(NamedTuple):
    """Where a page starts in a text: the offset of its first block, and the page's number."""

    offset: int
    page: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PagedMarkdown:
    """A Markdown text and where its pages start."""

    text: str
    """The Markdown, with no page marks in it."""
    page_starts: tuple[PageStart, ...]
    """Where each page starts in `text`, by increasing offset (empty when no page is known)."""


def elements_to_markdown(elements: Iterable[Element]) -> str:
    """Return `elements` as one Markdown text that partita's Markdown partitioner reads back
    into the same elements (kinds, texts, heading paths): a `Title` as a heading of its level
    ("#" for depth 0), a `ListItem` as a "- " item, a table as its `text_as_html` (else its
    text), a `CodeSnippet` fenced, any other element as its text; blocks separated by a blank
    line, empty texts left out. Markdown syntax in a text is escaped (`*`, `_`, `<`, a leading
    "#", "- " or "1." ...), so it reads back as text; line breaks inside a text read back as
    spaces. The text holds no page marks: `elements_to_paged_markdown` gives the pages too.
    """
    return elements_to_paged_markdown(elements).text


def elements_to_paged_markdown(elements: Iterable[Element]) -> PagedMarkdown:
    """Return the Markdown of `elements` (as `elements_to_markdown` writes it) with a
    `PageStart` at the first block of each page (of elements whose page is known; an element
    whose page is not known starts nothing), which `with_pages` reads back."""
    blocks: list[str] = []
    starts: list[PageStart] = []
    offset = 0
    page: int | None = None
    for element in elements:
        block = _block_of(element)
        if block is None:
            continue
        if blocks:
            offset += len(_BLOCK_SEPARATOR)
        element_page = element.metadata.page_number
        if element_page is not None and element_page != page:
            starts.append(PageStart(offset, element_page))
            page = element_page
        blocks.append(block)
        offset += len(block)
    return PagedMarkdown(text=_BLOCK_SEPARATOR.join(blocks), page_starts=tuple(starts))


def with_pages(
    elements: list[Element],
    text: str,
    page_starts: Sequence[PageStart],
    partition_text: Callable[[str], list[Element]],
) -> list[Element]:
    """Return `elements`, the partition of `text`, each with the page of the last of
    `page_starts` at or above it in `text` (`page_number`; an element above every start keeps
    its own). `partition_text` partitions a piece of `text` as `elements` were partitioned.

    `elements` come back unchanged when `page_starts` is empty, when its offsets do not
    increase, fall outside `text` or do not follow a blank line (or start it), or when the pieces
    between them do not partition into the same elements (kind and text) as the whole: a start
    that does not sit between blocks gives no page rather than a wrong one. Partitioning the
    pieces costs about as much as partitioning `text` again (only one page starting at offset 0
    needs none); their warnings are not repeated.
    """
    if not page_starts or not _fit(page_starts, text):
        return elements
    if len(page_starts) == 1 and page_starts[0].offset == 0:
        return [_on_page(element, page_starts[0].page) for element in elements]
    bounds = [*(start.offset for start in page_starts[1:]), len(text)]
    pieces: list[tuple[int | None, str]] = [(None, text[: page_starts[0].offset])]
    pieces.extend(
        (start.page, text[start.offset : end])
        for start, end in zip(page_starts, bounds, strict=True)
    )
    paged: list[tuple[int | None, Element]] = []
    with warnings.catch_warnings():
        # -- the pieces are the text read again: what they warn of, the whole text has warned of
        # -- (and a piece may hold no element) --
        warnings.simplefilter("ignore")
        for piece_page, piece in pieces:
            if piece.strip():
                paged.extend((piece_page, element) for element in partition_text(piece))
    if [(e.category, e.text) for _, e in paged] != [(e.category, e.text) for e in elements]:
        return elements
    return [
        element if page is None else _on_page(element, page)
        for (page, _), element in zip(paged, elements, strict=True)
    ]


def _fit(page_starts: Sequence[PageStart], text: str) -> bool:
    """Return `True` when each offset of `page_starts`, by increasing order, starts a block of
    `text`: at its start, or after a blank line, inside it."""
    offsets = [start.offset for start in page_starts]
    return (
        all(a < b for a, b in itertools.pairwise(offsets))
        and offsets[0] >= 0
        and offsets[-1] < len(text)
        and all(o == 0 or text.endswith(_BLOCK_SEPARATOR, 0, o) for o in offsets)
    )


def _on_page(element: Element, page: int) -> Element:
    """Return `element` with `page` as its page number."""
    if element.metadata.page_number == page:
        return element
    return replace(element, metadata=element.metadata.replace(page_number=page))


def _block_of(element: Element) -> str | None:
    """Return the Markdown block of `element`, or None when it has no text."""
    text = element.text.strip()
    html = element.metadata.text_as_html
    if element.category in ("Table", "TableChunk") and html:
        return html
    if not text:
        return None
    if element.category == "CodeSnippet":
        fence = "`" * max(3, 1 + max((len(r) for r in _BACKTICKS.findall(text)), default=0))
        return f"{fence}\n{element.text}\n{fence}"
    if element.category == "Title":
        depth = min(element.metadata.category_depth or 0, 5)
        return f"{'#' * (depth + 1)} {_escaped(' '.join(text.split()))}"
    if element.category == "ListItem":
        return f"- {_escaped(text)}"
    return _escaped(text)


_BACKTICKS = re.compile(r"`+")
_INLINE_SYNTAX = re.compile(r"([\\`*_\[\]<>&~|])")
_LEADING_MARKER = re.compile(r"^([-+=#])", re.MULTILINE)
_ORDERED_MARKER = re.compile(r"^(\d{1,9})([.)])", re.MULTILINE)


def _escaped(text: str) -> str:
    """Return `text` with what Markdown would read as syntax backslash-escaped, each line's
    indentation dropped (four spaces would start a code block)."""
    text = "\n".join(line.strip() for line in text.splitlines())
    text = _INLINE_SYNTAX.sub(r"\\\1", text)
    text = _ORDERED_MARKER.sub(r"\1\\\2", text)
    return _LEADING_MARKER.sub(r"\\\1", text)
