"""A document under evaluation: its elements, the text answers are located in, and where each
chunk lies in that text.

Principles:

- **One text per document** carries the answers' spans and the chunks' spans, so retrieval is
  scored by character overlap as Chroma's evaluation scores it. For Markdown and plain text (as
  their extension says: `partitioners._detect.format_for_extension`) it is the file's own text
  (as Python reads it, so Chroma's `start_index`/`end_index` apply); for every other format
  (docx, PDF, HTML, element JSON) it is the elements' texts joined by "\\n\\n".
- **Chunks are placed by their provenance** (`metadata.extra["sources"]`, which evaluation turns
  on for every strategy): in the joined text a record maps exactly; in a file's own text each
  element is aligned to the file word by word (`\\w+` runs, in order, each looked for within the
  next `LOOKAHEAD` words of the file), and a record's range maps through the words it covers. A
  chunk's span runs from its first mapped character to its last. Markup the partitioner left out
  (link targets, `#`, table pipes) lies inside spans; text it added maps nowhere.
- `DocumentText.coverage` is the share of element words found in the file: below 0.95 says the
  alignment is poor (reported, never silent).
- **A page is a region of the text** (`page_regions`): from where its first element's text
  starts to where its last one's ends, so a chunk lies on a page when its span shares a
  character with the page's region.
"""

from __future__ import annotations

import bisect
import os
import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field

from partita.elements import Element
from partita.evaluation._questions import document_key
from partita.partitioners._detect import format_for_extension

__all__ = ["LOOKAHEAD", "DocumentText", "document_text"]

LOOKAHEAD = 64
"""File words searched for the next element word: how much left-out markup the alignment skips."""

_WORD = re.compile(r"\w+")
_JOINER = "\n\n"
_OWN_TEXT_FORMATS = ("md", "text")
"""The formats (`partitioners._detect`, told by extension) whose file's own text spans refer to."""


@dataclass
class _Words:
    """An element's words: their starts and ends in the element, and in the document text (-1
    where not found)."""

    starts: array[int]
    ends: array[int]
    mapped_starts: array[int]
    mapped_ends: array[int]


@dataclass
class DocumentText:
    """A document's `name` (its key), `elements`, the `text` spans refer to, and the words of
    each element placed in it."""

    name: str
    elements: list[Element]
    text: str
    coverage: float = 1.0
    _words: dict[str, _Words] = field(default_factory=dict, repr=False)
    _offsets: dict[str, int] = field(default_factory=dict, repr=False)

    def span_of(self, element_id: str, start: int, end: int) -> tuple[int, int] | None:
        """Where `element_id`'s `text[start:end]` lies in `text`, or None if nowhere."""
        offset = self._offsets.get(element_id)
        if offset is not None:
            return offset + start, offset + end
        words = self._words.get(element_id)
        if words is None:
            return None
        first = bisect.bisect_right(words.ends, start)  # -- the first word ending after start --
        last = bisect.bisect_left(words.starts, end) - 1  # -- the last word starting before end --
        while first <= last and words.mapped_starts[first] < 0:
            first += 1
        while last >= first and words.mapped_starts[last] < 0:
            last -= 1
        if first > last:
            return None
        a = words.mapped_starts[first] + max(0, start - words.starts[first])
        b = words.mapped_ends[last] - max(0, words.ends[last] - end)
        return (a, b) if a < b else None

    def page_regions(self) -> dict[int, tuple[int, int]]:
        """Each page number (1-based) to the region of `text` its elements span (see the
        module docstring); pages with no placed text are absent."""
        regions: dict[int, tuple[int, int]] = {}
        for element in self.elements:
            page = element.metadata.page_number
            if page is None or not element.text:
                continue
            span = self.span_of(element.element_id, 0, len(element.text))
            if span is None:
                continue
            low, high = regions.get(page, span)
            regions[page] = (min(low, span[0]), max(high, span[1]))
        return regions

    def chunk_span(self, chunk: Element) -> tuple[int, int] | None:
        """The span of `chunk` in `text`, from its provenance records, or None."""
        low, high = -1, -1
        for record in (chunk.metadata.extra or {}).get("sources", ()):
            span = self.span_of(record["element_id"], record["start"], record["end"])
            if span is None:
                continue
            low = span[0] if low < 0 else min(low, span[0])
            high = max(high, span[1])
        return (low, high) if low >= 0 else None


def document_text(
    path: str | os.PathLike[str], elements: Sequence[Element], name: str | None = None
) -> DocumentText:
    """The `DocumentText` of the document at `path`, partitioned into `elements`."""
    path = os.fspath(path)
    key = name or document_key(path)
    elements = list(elements)
    if format_for_extension(path) in _OWN_TEXT_FORMATS:
        with open(path, encoding="utf-8", errors="replace") as f:
            return _aligned(key, elements, f.read())
    return joined_text(key, elements)


def joined_text(name: str, elements: Sequence[Element]) -> DocumentText:
    """The `DocumentText` whose text is `elements`' texts joined by "\\n\\n"."""
    offsets: dict[str, int] = {}
    parts: list[str] = []
    position = 0
    for element in elements:
        if element.element_id in offsets:
            continue
        offsets[element.element_id] = position
        parts.append(element.text)
        position += len(element.text) + len(_JOINER)
    return DocumentText(name, list(elements), _JOINER.join(parts), 1.0, {}, offsets)


def _aligned(name: str, elements: list[Element], text: str) -> DocumentText:
    file_words = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]
    cursor = 0
    total = found = 0
    placed: dict[str, _Words] = {}
    for element in elements:
        words = _Words(array("q"), array("q"), array("q"), array("q"))
        for match in _WORD.finditer(element.text):
            word = match.group()
            words.starts.append(match.start())
            words.ends.append(match.end())
            total += 1
            for index in range(cursor, min(cursor + LOOKAHEAD, len(file_words))):
                if file_words[index][2] == word:
                    words.mapped_starts.append(file_words[index][0])
                    words.mapped_ends.append(file_words[index][1])
                    cursor = index + 1
                    found += 1
                    break
            else:
                words.mapped_starts.append(-1)
                words.mapped_ends.append(-1)
        placed.setdefault(element.element_id, words)
    coverage = found / total if total else 1.0
    return DocumentText(name, elements, text, coverage, placed, {})
