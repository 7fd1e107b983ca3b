"""Context for retrieval chunks: heading paths, the headers placed before a chunk's text, and the
sentence that introduces a table.

- **Heading paths.** An element's path is its `metadata.section_path` (partitioners fill it), or,
  for elements that lack it (read from another tool's JSON), the texts of the Titles above it by
  `category_depth`, as `partita.hierarchy` computes it (`iter_with_paths`).
- **A chunk's header** is the path of its first element, its parts joined by " > ", each part's
  whitespace normalized. A chunk that starts with a Title does not repeat that title: its header
  is the path above it. A header larger than a quarter of the window, or than
  `MAX_HEADER_CHARACTERS`, keeps its innermost parts that fit, and none when even the last one
  does not (`header_of`).
- **A table's introduction** is the last sentence of the text element just before it in the same
  section (a Title, a table or page furniture is none; a sentence of fewer than three words with
  letters, a figure or a label, neither), or a `FigureCaption` just before it; at most a quarter
  of the window.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from partita.elements import (
    Element,
    FigureCaption,
    Footer,
    Header,
    PageBreak,
    PageNumber,
    Table,
    Title,
)
from partita.text.sentences import iter_sentence_spans
from partita.text.sizing import Sizer

__all__ = [
    "HEADER_SHARE",
    "MAX_HEADER_CHARACTERS",
    "PATH_JOINER",
    "header_of",
    "header_parts_of",
    "introduction_of",
    "iter_with_paths",
]

PATH_JOINER = " > "
"""What joins the parts of a heading path in a header ("Chapter > Section")."""

HEADER_SHARE = 4
"""A header takes at most 1/`HEADER_SHARE` of the window."""

MAX_HEADER_CHARACTERS = 150
"""A heading path header holds at most this many characters (its innermost parts that fit), so
two chunks of a section share at most that much of their start before their own text."""

_FURNITURE = (Header, Footer, PageBreak, PageNumber)
_INTRODUCTION_WORDS = 3
"""A sentence introducing a table has at least this many words with letters."""

Path = tuple[str, ...]


def iter_with_paths(elements: Iterable[Element]) -> Iterator[tuple[Element, Path]]:
    """Generate each element with its heading path (see the module docstring)."""
    headings: list[tuple[int, str]] = []
    for element in elements:
        if isinstance(element, Title):
            depth = element.metadata.category_depth or 0
            while headings and headings[-1][0] >= depth:
                headings.pop()
            headings.append((depth, element.text))
        given = element.metadata.section_path
        if given is not None:
            yield element, tuple(given)
        elif isinstance(element, _FURNITURE):
            yield element, ()
        else:
            yield element, tuple(text for _, text in headings)


def header_of(element: Element, path: Path, sizer: Sizer, window: int) -> str:
    """The header of a chunk whose first element is `element` (with heading path `path`): "" when
    there is none or none fits a quarter of `window`."""
    return PATH_JOINER.join(header_parts_of(element, path, sizer, window))


def header_parts_of(element: Element, path: Path, sizer: Sizer, window: int) -> list[str]:
    """The parts of `header_of`'s header, outermost first (none when it is "")."""
    parts = [" ".join(part.split()) for part in path]
    if isinstance(element, Title) and parts and parts[-1] == " ".join(element.text.split()):
        parts.pop()
    parts = [part for part in parts if part]
    budget = window // HEADER_SHARE
    while parts:
        joined = PATH_JOINER.join(parts)
        if len(joined) <= MAX_HEADER_CHARACTERS and sizer.fits(joined, budget):
            return parts
        parts.pop(0)
    return []


def introduction_of(before: Sequence[Element], sizer: Sizer, window: int) -> str:
    """The sentence introducing a table that follows `before` (the elements of its section
    before it): a caption just before it, else the last sentence of the text element just before
    it; "" when none fits a quarter of `window`."""
    if not before:
        return ""
    last = before[-1]
    if isinstance(last, (Title, Table, *_FURNITURE)) or not last.text.strip():
        return ""
    text = last.text
    if isinstance(last, FigureCaption):
        sentence = text.strip()
    else:
        spans = list(iter_sentence_spans(text))
        if not spans:
            return ""
        start, end = spans[-1]
        sentence = text[start:end]
        if sum(any(c.isalpha() for c in word) for word in sentence.split()) < _INTRODUCTION_WORDS:
            return ""  # -- a figure, a label: no sentence --
    sentence = " ".join(sentence.split())
    return sentence if sizer.fits(sentence, window // HEADER_SHARE) else ""
