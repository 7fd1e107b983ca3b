"""What the pieces of a split element carry in `orig_elements`: the reference's rule, or partita's
bound.

The reference gives every piece of an element split across chunks (an oversized text, or a table
split into `TableChunk`s) the whole element in `orig_elements`, and the element's emphasis and
link lists in its own metadata. So the output grows with the square of the element's size: a
1 MB paragraph in 500-character chunks would repeat the megabyte 2,000 times.

**The reference's rule** (unstructured 0.27.35, the default, `split_orig_elements="reference"`):
the pieces of a pre-chunk made of one element whose text, HTML and image data (`payload_size`)
exceed `SPLIT_ORIG_ELEMENTS_MAX_CHARS` (1,000,000 characters), when there are two pieces or more,
carry no `orig_elements` at all; a warning is logged (`warn_orig_elements_omitted`). Below that
size the repetition is unbounded (a 999,999-character paragraph in 500-character chunks repeats
it 2,000 times); above it the element is in no chunk's `orig_elements`.

Where the reference's repetition would pass `REFERENCE_REPEAT_LIMIT` (256 Mi characters of one
element repeated: a paragraph with 100,000 links in 500-character chunks, gigabytes of output
and minutes of encoding), partita refuses rather than diverge from the reference's output:
`check_reference_repeat` raises `DocumentLimitError` (limit "orig_elements repeated") naming
`split_orig_elements="bounded"`, which chunks such an element in linear size.

**partita's bound** (`split_orig_elements="bounded"`): the pieces carry the whole element while
the repetition stays within `REPEAT_LIMIT`, while the number of pieces times the element's size
(`content_size`) is at most `REPEAT_LIMIT` characters. Past it, each piece carries its own part
of the element (`part_of`): `orig_elements` holds one copy of the element, of the same type and
id, with the piece's text (and, for a table chunk, the chunk's `text_as_html`); the first piece
and its copy keep the element's size-proportional metadata (`BULKY_FIELDS`), the later pieces and
copies leave it out. Nothing is lost (the first piece has it all, the pieces' copies have the
whole text) and the output is linear in the element's size, whatever its size.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, TypeVar

from partita.chunking._metadata import BULKY_FIELDS
from partita.elements import Element, metadata_from_fields, new_element
from partita.errors import DocumentLimitError

__all__ = [
    "BULKY_FIELDS",
    "REFERENCE_REPEAT_LIMIT",
    "REPEAT_LIMIT",
    "SPLIT_ORIG_ELEMENTS_MAX_CHARS",
    "check_reference_repeat",
    "content_size",
    "longest_element",
    "omits_orig_elements",
    "part_of",
    "payload_size",
    "read_pieces",
    "warn_orig_elements_omitted",
    "without_bulky_fields",
]

_logger = logging.getLogger("partita")

SPLIT_ORIG_ELEMENTS_MAX_CHARS = 1_000_000
"""The reference's limit: the pieces of an element whose `payload_size` exceeds it carry no
`orig_elements` (when it is split into two pieces or more, alone in its pre-chunk)."""

REFERENCE_REPEAT_LIMIT = 1 << 28
"""The most characters of one element that the reference's rule may repeat in its pieces'
`orig_elements` (pieces times `content_size`) before the chunking is refused."""

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


def payload_size(element: Element) -> int:
    """The characters of `element`'s text, `text_as_html` and `image_base64` (the reference's
    measure for `SPLIT_ORIG_ELEMENTS_MAX_CHARS`)."""
    metadata = element.metadata
    return (
        len(element.text or "")
        + len(metadata.text_as_html or "")
        + len(metadata.image_base64 or "")
    )


def omits_orig_elements(elements: Sequence[Element], include_orig: bool) -> bool:
    """True when the pieces of a pre-chunk of `elements`, if there are two or more, carry no
    `orig_elements` by the reference's rule: one element, larger than the limit."""
    return (
        include_orig
        and len(elements) == 1
        and payload_size(elements[0]) > SPLIT_ORIG_ELEMENTS_MAX_CHARS
    )


def warn_orig_elements_omitted(element: Element) -> None:
    """Log the reference's warning that the chunks split from `element` carry no
    `orig_elements`."""
    _logger.warning(
        "Omitting .metadata.orig_elements from chunks split from an element of %d characters,"
        " because each chunk would carry its own copy of the whole element.",
        payload_size(element),
    )


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


def check_reference_repeat(pieces: Iterator[_T], elements: Sequence[Element]) -> list[_T]:
    """Read the first pieces of a split whose pieces carry `elements` whole (the reference's
    rule): as many as may repeat them within `REFERENCE_REPEAT_LIMIT`; return them (`pieces`
    holds the rest). Raise `DocumentLimitError` when there are more."""
    size = content_size(elements)
    most = REFERENCE_REPEAT_LIMIT // max(size, 1)
    read = list(islice(pieces, most + 1))
    if len(read) > most:
        raise DocumentLimitError(
            f"an element of {size:,} characters (text and size-proportional metadata) splits"
            f" into more than {most:,} chunks, each carrying it whole in orig_elements as"
            f" unstructured does: more than {REFERENCE_REPEAT_LIMIT:,} characters; chunk with"
            " split_orig_elements='bounded' to keep the output linear in its size",
            filename=elements[0].metadata.filename,
            limit="orig_elements repeated",
        )
    return read


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
