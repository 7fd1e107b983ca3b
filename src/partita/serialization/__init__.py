"""Elements to and from JSON, in the reference library's (`unstructured`) schema.

An element is `{"type", "element_id", "text", "metadata"}` (plus `"embeddings"` when it has
some, and `"checked"` for a CheckBox). Metadata is sparse: no None values, no empty lists or
dicts. `orig_elements` is encoded in the reference's form: the elements as a JSON array (sorted
keys, the reference's JSON byte for byte), a zlib stream (written by ISA-L: `_payload_codec`),
base64-encoded. `elements_to_json` writes byte-for-byte what the reference's `elements_to_json`
writes for the same elements (4-space indent, sorted keys, coordinates rounded to 1 decimal in
PixelSpace and 2 otherwise), apart from those compressed bytes.

Reading accepts the reference's type aliases ("Text", "Paragraph", "Section-header", ...).
Every field is checked against the reference's types. Unknown types, malformed JSON, fields of
the wrong type and undecodable `orig_elements` raise `MalformedJSONError` or
`UnknownElementTypeError` naming the position (the element and the field, or the line and
column); read from a file, the error names the file too. Nothing is dropped silently.

Hostile input meets bounds (each raises `DocumentLimitError` naming it): `orig_elements`
decompression per value and per document, and its nesting (`_orig_elements`); the nesting of a
metadata value (`_validation`); the length of a JSON Lines line (`_jsonl`). Reading is linear in
the input. Writing never gives orjson a value it might fail to allocate for (`_fast_json`).

The modules, in the order data flows through them when writing:

- `_schema`: type names and the metadata field tables;
- `_dicts`: elements to dicts, `orig_elements` encoding included (`_payload_codec` compresses);
- `_json_text`, `_jsonl`: dicts to a JSON document or JSON Lines, and back;
- `_fast_json`, `_indented_json`: the two writers behind `elements_to_json`;
- `_json_parsing`: JSON text to values, every failure a `MalformedJSONError` with its position;
- `_from_dicts`: dicts to elements, with `_validation` (the fields' types) and `_orig_elements`
  (bounded decoding of `orig_elements`);
- `_finite`: the NaN or infinity that keeps elements from being written, found and named;
- `_sources`: the form of one provenance record (`metadata.extra["sources"]`);
- `records`: a chunk as a vector-store record, an id, its text and flat scalar metadata.
"""

from __future__ import annotations

from partita.serialization._dicts import (
    element_to_dict,
    elements_to_base64_json,
    elements_to_dicts,
)
from partita.serialization._dicts import (
    metadata_to_dict as metadata_to_dict,
)
from partita.serialization._from_dicts import (
    element_from_dict,
    elements_from_base64_json,
    elements_from_dicts,
)
from partita.serialization._from_dicts import (
    metadata_from_dict as metadata_from_dict,
)
from partita.serialization._json_text import elements_from_json, elements_to_json
from partita.serialization._jsonl import elements_to_jsonl, iter_elements_from_jsonl
from partita.serialization._orig_elements import MAX_DECOMPRESSED_SIZE
from partita.serialization._schema import TYPE_TO_ELEMENT_CLASS

__all__ = [
    "MAX_DECOMPRESSED_SIZE",
    "TYPE_TO_ELEMENT_CLASS",
    "element_from_dict",
    "element_to_dict",
    "elements_from_base64_json",
    "elements_from_dicts",
    "elements_from_json",
    "elements_to_base64_json",
    "elements_to_dicts",
    "elements_to_json",
    "elements_to_jsonl",
    "iter_elements_from_jsonl",
]
