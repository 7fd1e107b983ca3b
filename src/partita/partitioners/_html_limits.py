"""Bounds on the work one HTML, Markdown or plain-text document may cost, and their checks.

These formats are read whole, and a small file can be made to cost without limit: libxml2
builds a node of 120-220 bytes for every few bytes of markup (about 45 bytes of memory per byte
of a dense tag flood) and compares every attribute of a tag with every other (quadratic time),
every paragraph becomes an element of about 1 KB, and one string of the input can be repeated
into every element (a link's URL across many blocks, a Markdown reference's URL at every use,
the front matter in every element's metadata). A document past a bound raises
`DocumentLimitError` naming the bound (`limit`); the bounds are far above what real documents
need (the shared corpus's largest HTML, a 10-K filing of 2.4 MB, gives 474 elements).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from partita.elements import Link
from partita.errors import DocumentLimitError
from partita.partitioners._build import Draft

__all__ = [
    "MAX_ATTRIBUTES",
    "MAX_DOCUMENT_BYTES",
    "MAX_ELEMENTS",
    "MAX_HTML_DEPTH",
    "MAX_OUTPUT_CHARS",
    "check_attribute_counts",
    "iter_within_budget",
]

MAX_DOCUMENT_BYTES = 48 * 1024 * 1024
"""Bytes (or characters, for text given as a string) of one HTML, Markdown or text document
(limit "document size"). libxml2 needs up to about 45 bytes of memory and 0.4 µs per byte of
the densest markup (a flood of tags or attributes), so 48 MiB stays within about 2 GiB and
20 s; plain text costs far less. A text node or a `data:` URI may be as large as the document
(libxml2's own limit, without `huge_tree`, is 10 MB)."""

MAX_HTML_DEPTH = 2048
"""Elements nested in one another (limit "nesting depth"): libxml2's limit with `huge_tree`.
Deeper content would be dropped by the parser, so the document is refused instead."""

MAX_ATTRIBUTES = 256
"""Attributes of one HTML tag (limit "attributes per tag"). libxml2 compares each attribute of a
tag with all the ones before it: a tag of 32,000 attributes (200 KB) takes 3 s, one of 128,000
a minute, and a document of tags of 600 attributes 0.4 µs per byte. At 256, the densest flood
costs about 0.13 µs per byte. Real tags have a few dozen."""

MAX_ELEMENTS = 200_000
"""Elements one document may give (limit "elements"), as for docx: each costs about 25 µs
(60 µs in Markdown) and 1 KB in partitioning, and several times that when exported and
chunked."""

MAX_OUTPUT_CHARS = 256 * 1024 * 1024
"""Characters of text and metadata one document may give (limit "output size"): text,
`text_as_html`, link texts and URLs, emphasized texts, image data and URLs, and the front matter
each element carries. Text is bounded by the document's size; this bounds what repeats one
string of the input in many elements."""

_TAG_NAME = re.compile(rb"<[^\s/>]*")
_ATTRIBUTE = re.compile(rb"""[\s/]*(?:=?[^\s/>=]+)(?:\s*=\s*(?:"[^"]*"?|'[^']*'?|[^\s>]*))?""")
"""An attribute as the HTML tokenizer reads one: a name (any characters but whitespace, `/`,
`>` and `=`), then maybe `=` and a value; a quoted value may hold `>` and runs to the end of
the document when its quote is not closed."""
_WINDOW = 384
"""A tag of more than `MAX_ATTRIBUTES` distinct attributes is longer than 2 * `_WINDOW` bytes
(beyond the 64 one-letter names, a name and the space before it take at least 3 bytes), so some
aligned window of `_WINDOW` bytes inside it holds no `>` (unless quoted values hold them: see
the README's note on this bound)."""


def check_attribute_counts(data: bytes, name: str | None) -> None:
    """Raise `DocumentLimitError` when a tag of the markup `data` has more than
    `MAX_ATTRIBUTES` attributes.

    Only the windows of `_WINDOW` bytes without a `>` are looked at (long text, long attribute
    values, long tags), so well-formed documents cost a `bytes.find` per window. For each, the
    tag it may sit in (from the last `<` and a letter before it) is read with quotes respected.
    """
    size = len(data)
    pos = 0
    scanned = 0  # -- every tag opening before this offset has been counted --
    while pos < size:
        if data.find(b">", pos, pos + _WINDOW) >= 0:
            pos += _WINDOW
            continue
        start = data.rfind(b"<", scanned, pos)
        while start >= 0 and not data[start + 1 : start + 2].isalpha():
            start = data.rfind(b"<", scanned, start)
        scanned = pos
        if start >= 0:
            count, scanned = _count_attributes(data, start)
            if count > MAX_ATTRIBUTES:
                raise DocumentLimitError(
                    f"a tag has more than {MAX_ATTRIBUTES:,} attributes (libxml2's time grows"
                    " with the square of a tag's attributes)",
                    filename=name,
                    limit="attributes per tag",
                )
        pos = max(pos + _WINDOW, scanned)


def _count_attributes(data: bytes, start: int) -> tuple[int, int]:
    """Return the number of attributes (at most `MAX_ATTRIBUTES` + 1) of the tag opening at
    `start`, and where the counting stopped."""
    pos = _TAG_NAME.match(data, start).end()  # type: ignore[union-attr]
    count = 0
    while count <= MAX_ATTRIBUTES:
        match = _ATTRIBUTE.match(data, pos)
        if match is None:
            break
        count += 1
        pos = match.end()
    return count, pos


def iter_within_budget(drafts: Iterable[Draft], name: str | None) -> Iterator[Draft]:
    """Generate `drafts`, raising `DocumentLimitError` naming `name` once they pass
    `MAX_ELEMENTS` elements or `MAX_OUTPUT_CHARS` characters of text and metadata."""
    chars = 0
    sizes: dict[int, int] = {}
    for elements, draft in enumerate(drafts, 1):
        if elements > MAX_ELEMENTS:
            raise DocumentLimitError(
                f"the document gives more than {MAX_ELEMENTS:,} elements",
                filename=name,
                limit="elements",
            )
        chars += len(draft.text)
        for value in draft.meta.values():
            chars += _size(value, sizes)
        if chars > MAX_OUTPUT_CHARS:
            raise DocumentLimitError(
                f"the document gives more than {MAX_OUTPUT_CHARS:,} characters of text and"
                " metadata",
                filename=name,
                limit="output size",
            )
        yield draft


def _size(value: Any, sizes: dict[int, int]) -> int:
    """Return the characters `value` (a metadata value) adds to the output. The size of a
    mapping (the front matter, shared by every element) is computed once, by identity."""
    kind = type(value)
    if kind is str:
        return len(value)
    if kind is tuple:
        return sum(len(item) if type(item) is str else _size(item, sizes) for item in value)
    if kind is Link:
        return len(value.text or "") + len(value.url)
    if kind is dict:
        size = sizes.get(id(value))
        if size is None:
            size = sizes[id(value)] = len(repr(value))
        return size
    return 0
