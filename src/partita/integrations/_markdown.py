"""Elements as Markdown that partita reads back into the same elements, pages included.

Principles:

- **A round trip.** `elements_to_markdown` writes what the Markdown partitioner reads back into
  the same elements (kinds, texts, heading paths); Markdown syntax inside a text is escaped.
- **Pages as comments.** Markdown has no pages, so each page's first block is preceded by a
  line `<!-- page N -->` (`PAGE_MARKER`), an HTML comment: invisible when the Markdown is
  rendered, no element when it is partitioned. `with_marked_pages` gives the elements of such a
  text their pages back: each element takes the page of the last marker above it.
- **Pages only when sure.** Page markers are trusted only when they sit between blocks, which
  `with_marked_pages` checks: the text cut at its markers must partition, piece by piece, into
  the same elements as the whole. A marker inside a code block, or a list or a reference link
  cut by one, leaves the elements without pages rather than with wrong ones.
- No LlamaIndex or LangChain import: this module needs no extra.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable
from dataclasses import replace

from partita.elements import Element

__all__ = ["PAGE_MARKER", "elements_to_markdown", "page_marker", "with_marked_pages"]

PAGE_MARKER = re.compile(r"^<!-- page (\d{1,9}) -->[ \t]*$", re.MULTILINE)
"""A line that starts a page in the Markdown `elements_to_markdown` writes."""


def page_marker(page: int) -> str:
    """Return the line that marks the start of page `page`."""
    return f"<!-- page {page} -->"


def elements_to_markdown(elements: Iterable[Element], *, page_markers: bool = True) -> str:
    """Return `elements` as one Markdown text that partita's Markdown partitioner reads back
    into the same elements (kinds, texts, heading paths): a `Title` as a heading of its level
    ("#" for depth 0), a `ListItem` as a "- " item, a table as its `text_as_html` (else its
    text), a `CodeSnippet` fenced, any other element as its text; blocks separated by a blank
    line, empty texts left out. Markdown syntax in a text is escaped (`*`, `_`, `<`, a leading
    "#", "- " or "1." ...), so it reads back as text; line breaks inside a text read back as
    spaces. With `page_markers`, a `page_marker` line precedes the first block of each page
    (of elements whose page is known), which `with_marked_pages` reads back.
    """
    blocks: list[str] = []
    page: int | None = None
    for element in elements:
        block = _block_of(element)
        if block is None:
            continue
        element_page = element.metadata.page_number
        if page_markers and element_page is not None and element_page != page:
            blocks.append(page_marker(element_page))
            page = element_page
        blocks.append(block)
    return "\n\n".join(blocks)


def with_marked_pages(
    elements: list[Element], text: str, partition_markdown: Callable[[str], list[Element]]
) -> list[Element]:
    """Return `elements`, the partition of the Markdown `text`, each with the page of the last
    `PAGE_MARKER` above it in `text` (`page_number`; an element above every marker keeps its
    own). `partition_markdown` partitions a piece of `text` as `elements` were partitioned.

    `elements` come back unchanged when `text` has no marker, or when the pieces between its
    markers do not partition into the same elements (kind and text) as the whole: a marker that
    does not sit between blocks gives no page rather than a wrong one. Partitioning the pieces
    costs about as much as partitioning `text` again; their warnings are not repeated.
    """
    starts = [(match.start(), int(match.group(1))) for match in PAGE_MARKER.finditer(text)]
    if not starts:
        return elements
    pieces: list[tuple[int | None, str]] = [(None, text[: starts[0][0]])]
    for (start, page), (end, _) in zip(starts, [*starts[1:], (len(text), 0)], strict=True):
        pieces.append((page, text[start:end]))
    paged: list[tuple[int | None, Element]] = []
    with warnings.catch_warnings():
        # -- the pieces are the text read again: what they warn of, the whole text has warned of
        # -- (and a piece may hold no element: a page of link reference definitions) --
        warnings.simplefilter("ignore")
        for piece_page, piece in pieces:
            if PAGE_MARKER.sub("", piece, count=1).strip():
                paged.extend((piece_page, element) for element in partition_markdown(piece))
    if [(e.category, e.text) for _, e in paged] != [(e.category, e.text) for e in elements]:
        return elements
    return [
        element
        if page is None or element.metadata.page_number == page
        else replace(element, metadata=element.metadata.replace(page_number=page))
        for (page, _), element in zip(paged, elements, strict=True)
    ]


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
