"""What the pieces of a split element carry: the whole element, or, past a limit, their own part.

The reference gives every piece of an element split across chunks (an oversized text, or a table
split into `TableChunk`s) the whole element in `orig_elements`, and the element's emphasis and
link lists in its own metadata. So the output grows with the square of the element's size: a
1 MB paragraph in 500-character chunks repeats the megabyte 2,000 times (1.5 GB of JSON).

partita does the same while the repetition stays within `REPEAT_LIMIT`: while the number of
pieces times the element's size (`content_size`) is at most `REPEAT_LIMIT` characters. Past it,
each piece carries its own part of the element (`part_of`): `orig_elements` holds one copy of the
element, of the same type and id, with the piece's text (and, for a table chunk, the chunk's
`text_as_html`); the first piece and its copy keep the element's size-proportional metadata
(`BULKY_FIELDS`), the later pieces and copies leave it out. Nothing is lost (the first piece has
it all, the pieces' copies have the whole text) and the output is linear in the element's size.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, TypeVar

from partita.chunking.metadata import BULKY_FIELDS
from partita.elements import Element, metadata_from_fields, new_element

__all__ = [
    "BULKY_FIELDS",
    "REPEAT_LIMIT",
    "content_size",
    "longest_element",
    "part_of",
    "read_pieces",
    "without_bulky_fields",
]

REPEAT_LIMIT = 1 << 23
"""The most characters (8 Mi) of one element that its pieces may repeat: pieces times
`content_size`. Past it, each piece carries its own part of the element."""

_T = TypeVar("_T")


def content_size(elements: Sequence[Element]) -> int:
    """The characters of the elements' text and of their `BULKY_FIELDS` values."""
    size = 0
    for element in elements:
        size += len(element.text)
        fields = element.metadata.set_fields_view()
        if not BULKY_FIELDS.isdisjoint(fields):
            size += sum(_value_size(fields[name]) for name in BULKY_FIELDS if name in fields)
    return size


def _value_size(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, Mapping):
        return sum(_value_size(item) for item in value.values())
    if isinstance(value, list | tuple):
        return sum(_value_size(item) for item in value)
    return 1


def read_pieces(pieces: Iterator[_T], size: int) -> tuple[list[_T], bool]:
    """Read the first pieces of a split element of `content_size` `size`: as many as may repeat
    it within `REPEAT_LIMIT`, and one more. Return them, and whether that one more was there
    (then the pieces carry their own parts; `pieces` holds the rest)."""
    most = REPEAT_LIMIT // max(size, 1)
    read = list(islice(pieces, most + 1))
    return read, len(read) > most


def without_bulky_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """`fields` without the `BULKY_FIELDS`."""
    return {name: value for name, value in fields.items() if name not in BULKY_FIELDS}


def part_of(element: Element, text: str, *, first: bool, html: str | None = None) -> Element:
    """The part of `element` that a piece with `text` (and `html`, a table chunk's) carries.

    A copy of `element`, its type and id, with `text` and, when given, `html` as `text_as_html`;
    the first piece's copy keeps the other `BULKY_FIELDS`, the later ones leave them out.
    """
    fields = element.metadata.set_fields()
    fields.pop("orig_elements", None)
    if not first:
        fields = without_bulky_fields(fields)
    if html is not None:
        fields["text_as_html"] = html
    return new_element(type(element), text, element.element_id, metadata_from_fields(fields))


def longest_element(elements: Sequence[Element]) -> Element:
    """The element with the longest text (the first of those): the one a split divides."""
    return max(elements, key=lambda element: len(element.text))
