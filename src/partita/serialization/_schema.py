"""The reference's (`unstructured`) element schema: type names and metadata field tables.

`TYPE_TO_ELEMENT_CLASS` maps a JSON `type` to its element class, the reference's aliases
included, and partita's own type "Navigation" (which the reference's reader skips, as it skips
every type it does not know). The field tables sort the declared metadata fields by how they are
written and read: plain values, sequences (stored as tuples) and the fields with their own
encoding.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from partita.elements import (
    ELEMENT_TYPES,
    METADATA_FIELDS,
    Element,
    ElementMetadata,
    FigureCaption,
    Footer,
    Header,
    Image,
    ListItem,
    NarrativeText,
    Title,
)

__all__ = [
    "FIELD_ORDER",
    "FIELD_RANK",
    "KNOWN_FIELDS",
    "PLAIN_FIELDS",
    "SEQUENCE_FIELDS",
    "SPECIAL_FIELDS",
    "TYPE_TO_ELEMENT_CLASS",
]

TYPE_TO_ELEMENT_CLASS: Mapping[str, type[Element]] = {
    **{cls.category: cls for cls in ELEMENT_TYPES},
    # -- the reference's aliases, from layout models and older versions --
    "Text": NarrativeText,
    "Paragraph": NarrativeText,
    "Abstract": NarrativeText,
    "Threading": NarrativeText,
    "Value": NarrativeText,
    "Link": NarrativeText,
    "Section-header": Title,
    "Headline": Title,
    "Subheadline": Title,
    "Field-Name": Title,
    "BulletedText": ListItem,
    "List-item": ListItem,
    "Page-header": Header,
    "Page-footer": Footer,
    "Footnote": Footer,
    "Caption": FigureCaption,
    "Figure": Image,
    "Picture": Image,
}
"""JSON `type` to element class, including the reference's aliases."""

_OWN_ENCODINGS = frozenset({"coordinates", "data_source", "links", "orig_elements"})
_SEQUENCES = frozenset({"strs", "ints"})

SEQUENCE_FIELDS = frozenset(n for n, f in METADATA_FIELDS.items() if f.json in _SEQUENCES)
"""Fields holding a sequence (a tuple), written as a JSON array when not empty."""
SPECIAL_FIELDS = frozenset(n for n, f in METADATA_FIELDS.items() if f.json in _OWN_ENCODINGS)
"""Fields with their own encoding: `coordinates`, `data_source`, `links`, `orig_elements`."""
PLAIN_FIELDS = frozenset(
    n
    for n, f in METADATA_FIELDS.items()
    if f.json not in _SEQUENCES and f.json not in _OWN_ENCODINGS and f.json != "unwritten"
)
"""Fields whose value is written as it is (a scalar, or an object or array kept as read)."""
KNOWN_FIELDS = frozenset(METADATA_FIELDS)
"""Every declared field; a field read from JSON that is not one goes to `extra`."""

FIELD_ORDER = tuple(n for n, f in METADATA_FIELDS.items() if f.json != "unwritten")
"""The fields written to dicts, in the order the reference's `ElementMetadata.__init__` assigns
them (`ElementMetadata`'s declaration order; dict order matters only to readers of
`elements_to_dicts`; JSON sorts keys)."""

FIELD_RANK = {f.name: rank for rank, f in enumerate(dataclasses.fields(ElementMetadata))}
"""Every metadata field's rank in the written order: the written fields first, then
`detection_origin`, then `extra`."""
