"""Chunk metadata: consolidating the metadata of a chunk's elements, as the reference does.

Per field, the non-None values of the elements are collected in element order and combined:

- first value: `filename`, `file_directory`, `filetype`, `last_modified`, `page_number` (a chunk
  spanning pages reports its first), `url`, `data_source` and the e-mail fields, plus partita's
  `section_path` (the heading path of the chunk's first element that has one);
- concatenated lists: `emphasized_text_contents`, `emphasized_text_tags`, `link_texts`,
  `link_urls`; order-preserving union: `languages`; merged records: `enrichment_origins`;
- joined strings: `text_as_html` (stripped values joined by a space);
- dropped: positional and per-element fields (`parent_id`, `category_depth`, `coordinates`,
  `links`, `is_continuation`, table sequencing, image fields, ...) and undeclared (`extra`) fields
  (a table chunk keeps its table's, but those the reference declares and drops, such as
  `style_name`: `DROPPED_EXTRA_FIELDS`).

Each field's rule is declared with the field, on `ElementMetadata` (`partita.elements.
METADATA_FIELDS`), as the reference declares its consolidation strategies on its metadata class;
this module derives from it the consolidated fields (`CONSOLIDATED_FIELDS`, by one of the rules
above), the dropped ones (`DROPPED_FIELDS`) and `BULKY_FIELDS`, those whose size grows with the
element's content.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partita._metadata_fields import ChunkRule
from partita.elements import METADATA_FIELDS, Element, ElementMetadata, metadata_from_fields

__all__ = [
    "BULKY_FIELDS",
    "CONSOLIDATED_FIELDS",
    "DROPPED_EXTRA_FIELDS",
    "DROPPED_FIELDS",
    "consolidate_metadata",
    "orig_elements_of",
    "table_chunk_metadata",
]

DROPPED_FIELDS: tuple[str, ...] = tuple(
    sorted(name for name, field in METADATA_FIELDS.items() if field.chunk == "drop")
)
"""Fields a chunk never inherits from its elements."""

DROPPED_EXTRA_FIELDS: tuple[str, ...] = ("style_name",)
"""Fields the reference declares and drops from chunks that partita's metadata does not declare
(read from JSON, they are in `extra`): unstructured 0.27.35's `style_name` (the docx paragraph
style). A table chunk, which keeps the table's undeclared fields, leaves these out."""

_DROP_ALL = dict.fromkeys(DROPPED_FIELDS)

_FIRST_VALUE, _CONCATENATED, _UNIQUE, _JOINED, _MERGED = range(5)
_RULES: dict[ChunkRule, int] = {
    "first": _FIRST_VALUE,
    "concatenate": _CONCATENATED,
    "unique": _UNIQUE,
    "join": _JOINED,
    "merge": _MERGED,
}
_STRATEGIES: dict[str, int] = {
    name: _RULES[field.chunk] for name, field in METADATA_FIELDS.items() if field.chunk in _RULES
}
"""The consolidated fields, each with its rule (`ElementMetadata` declares each field's)."""

_STRATEGY_NAMES = _STRATEGIES.keys()

CONSOLIDATED_FIELDS: frozenset[str] = frozenset(_STRATEGIES)
"""Fields a chunk takes from its elements, each by its rule (first value, concatenated, unique,
joined or merged). With `DROPPED_FIELDS`, every declared metadata field, exactly once."""

BULKY_FIELDS = frozenset(name for name, field in METADATA_FIELDS.items() if field.bulky)
"""Metadata fields whose size grows with the element's content (see
`partita.chunking._split_origins`, which leaves them out of later pieces past its limit)."""


def consolidate_metadata(elements: Sequence[Element]) -> dict[str, Any]:
    """Return the consolidated metadata of `elements`: field name to (normalized) value."""
    strategies = _STRATEGIES
    if len(elements) == 1:
        return _consolidated_single(elements[0].metadata.set_fields_view())
    out: dict[str, Any] = {}
    gathered: dict[str, list[Any]] = {}
    for element in elements:
        for name, value in element.metadata.set_fields_view().items():
            strategy = strategies.get(name)
            if strategy is None:
                continue
            if strategy == _FIRST_VALUE:
                if name not in out:
                    out[name] = value
            elif name in gathered:
                gathered[name].append(value)
            else:
                gathered[name] = [value]
    for name, values in gathered.items():
        strategy = strategies[name]
        if strategy == _CONCATENATED:
            out[name] = values[0] if len(values) == 1 else tuple(x for v in values for x in v)
        elif strategy == _UNIQUE:
            out[name] = tuple(dict.fromkeys(x for v in values for x in v))
        elif strategy == _JOINED:
            out[name] = " ".join(v.strip() for v in values)
        else:
            out[name] = _merge_enrichment_origins(values)
    return out


def _consolidated_single(fields: Mapping[str, Any]) -> dict[str, Any]:
    if fields.keys() <= _STRATEGY_NAMES:  # -- nothing to drop: copied in C --
        out = dict(fields)
    else:
        out = {name: value for name, value in fields.items() if name in _STRATEGIES}
    languages = out.get("languages")
    if languages is not None and len(languages) > 1:
        out["languages"] = tuple(dict.fromkeys(languages))
    html = out.get("text_as_html")
    if html is not None:
        out["text_as_html"] = html.strip()
    origins = out.get("enrichment_origins")
    if origins is not None:
        out["enrichment_origins"] = _merge_enrichment_origins([origins])
    return out


def _merge_enrichment_origins(values: list[Any]) -> dict[str, list[Any]]:
    merged: dict[str, list[Any]] = {}
    seen: dict[str, set[tuple[Any, ...]]] = {}
    for value in values:
        for key, records in value.items():
            kept = merged.setdefault(key, [])
            ids = seen.setdefault(key, set())
            for record in records:
                record_id = tuple(sorted(record.items()))
                if record_id not in ids:
                    ids.add(record_id)
                    kept.append(record)
    return merged


def orig_elements_of(elements: Sequence[Element]) -> tuple[Element, ...]:
    """Return `elements` for a chunk's `orig_elements`: the same objects, except that an element
    that is itself a chunk is copied without its own `orig_elements` (nesting stays one deep)."""
    for element in elements:
        if element.metadata.orig_elements is not None:
            return tuple(
                e if e.metadata.orig_elements is None else _without_orig_elements(e)
                for e in elements
            )
    return tuple(elements)


def _without_orig_elements(element: Element) -> Element:
    import dataclasses

    return dataclasses.replace(element, metadata=element.metadata.replace(orig_elements=None))


def table_chunk_metadata(table: Element, *, include_orig: bool) -> ElementMetadata:
    """Return the base metadata of the chunks of `table`: its own metadata without the dropped
    fields, plus `orig_elements` (the table, without its own `orig_elements`) when asked."""
    # -- `table.metadata.replace(**_DROP_ALL, orig_elements=...)`, field order included --
    kept = "orig_elements" if include_orig else None
    fields = {
        name: value
        for name, value in table.metadata.set_fields_view().items()
        if name not in _DROP_ALL or name == kept
    }
    extra = fields.get("extra")
    if extra is not None and not extra.keys().isdisjoint(DROPPED_EXTRA_FIELDS):
        kept_extra = {k: v for k, v in extra.items() if k not in DROPPED_EXTRA_FIELDS}
        if kept_extra:
            fields["extra"] = kept_extra
        else:
            del fields["extra"]
    if include_orig:
        fields["orig_elements"] = orig_elements_of([table])
    return metadata_from_fields(fields)
