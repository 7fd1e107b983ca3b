"""The vocabulary of metadata field specs: what `ElementMetadata` says of each of its fields.

`partita.elements.ElementMetadata` declares every field with `spec(json, chunk)`, so that the
table of fields is written once, on the class, and the modules that treat fields by kind derive
their lists from it (`partita.elements.METADATA_FIELDS`) instead of keeping their own:

- `json`, the field's JSON form (`JsonForm`): how it is stored, type-checked when read
  (`partita.serialization._validation`) and written (`partita.serialization._dicts`);
- `chunk`, how a chunk's metadata takes the field from its elements (`ChunkRule`,
  `partita.chunking._metadata`), the reference's consolidation strategy for the field;
- `bulky`, whether the value's size grows with the element's content (`partita.chunking.
  split_origins`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["ChunkRule", "FieldSpec", "JsonForm", "field_specs", "spec"]

JsonForm = Literal[
    "str",
    "int",
    "number",
    "bool",
    "strs",
    "ints",
    "objects",
    "cells",
    "origins",
    "coordinates",
    "data_source",
    "links",
    "orig_elements",
    "unwritten",
]
"""A field's JSON form: a string, an integer within 64 bits, a finite number, a boolean; an array
of strings or of integers (stored as a tuple); an array of objects (`key_value_pairs`), an object
or an array (`table_as_cells`), an object of arrays of records (`enrichment_origins`), all kept as
they are; a value with its own encoding ("coordinates", "data_source", "links",
"orig_elements"); or "unwritten", never serialized (`detection_origin`)."""

ChunkRule = Literal["first", "concatenate", "unique", "join", "merge", "drop"]
"""How a chunk takes a field from its elements' values (non-None, in element order): the first
value, the lists concatenated, the lists' order-preserving union, the stripped strings joined by
a space, the records merged as sets, or not at all."""


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """What is known of one declared metadata field besides its name and Python type."""

    json: JsonForm
    chunk: ChunkRule
    bulky: bool = False


_KEY = "partita"
"""The key of a field's spec in its `dataclasses.Field.metadata`."""


def spec(json: JsonForm, chunk: ChunkRule, *, bulky: bool = False) -> Any:
    """Return a dataclass field defaulting to None whose spec is `FieldSpec(json, chunk, bulky)`."""
    return dataclasses.field(default=None, metadata={_KEY: FieldSpec(json, chunk, bulky)})


def field_specs(cls: type) -> dict[str, FieldSpec]:
    """Return the specs of dataclass `cls`'s fields declared with `spec`, in declaration order."""
    return {f.name: f.metadata[_KEY] for f in dataclasses.fields(cls) if _KEY in f.metadata}
