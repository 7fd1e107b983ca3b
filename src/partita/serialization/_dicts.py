"""Elements to JSON-ready dicts in the reference's schema, `orig_elements` encoding included.

Metadata is sparse: no None values, no empty lists or dicts. `orig_elements` is encoded in the
reference's form: the elements as a JSON array (sorted keys), a zlib stream (written by
`_payload_codec`'s encoder), base64-encoded.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from partita.elements import (
    CheckBox,
    CoordinatesMetadata,
    DataSourceMetadata,
    Element,
    ElementMetadata,
)
from partita.serialization._finite import non_finite_error
from partita.serialization._payload_codec import encode_payload
from partita.serialization._schema import (
    FIELD_RANK,
    PLAIN_FIELDS,
    SEQUENCE_FIELDS,
    SPECIAL_FIELDS,
)

__all__ = [
    "element_to_dict",
    "element_to_json_dict",
    "elements_to_base64_json",
    "elements_to_dicts",
    "metadata_to_dict",
]


def element_to_dict(
    element: Element,
    *,
    round_floats: bool = False,
    encoded: dict[int, tuple[tuple[Element, ...], str]] | None = None,
) -> dict[str, Any]:
    """Return `element` as a JSON-ready dict in the reference's schema.

    With `round_floats`, coordinates and `detection_class_prob` are rounded as the reference
    rounds them for JSON (1 decimal in PixelSpace, 2 otherwise; 5 decimals). `encoded`, when
    given, memoizes encoded `orig_elements` across calls (the pieces of a split chunk share them).
    """
    out: dict[str, Any] = {
        "type": element.category,
        "element_id": element.element_id,
        "text": element.text,
        "metadata": metadata_to_dict(element.metadata, round_floats=round_floats, encoded=encoded),
    }
    if element.embeddings:
        out["embeddings"] = list(element.embeddings)
    if isinstance(element, CheckBox):
        out["checked"] = element.checked
    return out


def metadata_to_dict(
    meta: ElementMetadata,
    *,
    round_floats: bool = False,
    encoded: dict[int, tuple[tuple[Element, ...], str]] | None = None,
) -> dict[str, Any]:
    """Return `meta` as a sparse JSON-ready dict (no None, no empty list or dict)."""
    out: dict[str, Any] = {}
    fields = meta.__dict__  # -- only the set fields: see ElementMetadata --
    for name in sorted(fields, key=FIELD_RANK.__getitem__) if len(fields) > 1 else fields:
        _put_field(out, name, fields[name], round_floats, encoded)
    if meta.extra:
        _put_extra(out, meta.extra)
    return out


def _put_field(
    out: dict[str, Any],
    name: str,
    value: Any,
    round_floats: bool,
    encoded: dict[int, tuple[tuple[Element, ...], str]] | None,
) -> None:
    """Set `out[name]` to the JSON-ready form of the field's `value`, unless it is left out."""
    if value is None or name == "extra" or name == "detection_origin":
        return
    if name in SEQUENCE_FIELDS:
        if value:
            out[name] = list(value)
    elif name in SPECIAL_FIELDS:
        if name == "coordinates":
            out[name] = _coordinates_to_dict(value, round_floats)
        elif name == "links":
            if value:
                out[name] = [
                    {"text": x.text, "url": x.url, "start_index": x.start_index} for x in value
                ]
        elif name == "orig_elements":
            if encoded is None:
                out[name] = elements_to_base64_json(value)
            else:
                # -- keyed by identity; the tuple is kept so its id cannot be reused --
                hit = encoded.get(id(value))
                if hit is None:
                    hit = encoded[id(value)] = (value, elements_to_base64_json(value))
                out[name] = hit[1]
        else:
            out[name] = {
                k: _plain(v)
                for k in DataSourceMetadata.__dataclass_fields__
                if (v := getattr(value, k)) is not None
            }
    elif name == "detection_class_prob" and round_floats:
        out[name] = round(value, 5)
    elif value != [] and value != {}:
        out[name] = _plain(value)


def _put_extra(out: dict[str, Any], extra: Mapping[str, Any]) -> None:
    for key, value in extra.items():
        if value is not None and value != [] and value != {}:
            out[key] = _plain(value)


# -- fields whose str, int, float or bool value goes into JSON as it is (`_plain` returns it) --
_AS_IS_FIELDS = PLAIN_FIELDS - {"detection_class_prob"}
_AS_IS_TYPES = frozenset({str, int, float, bool})


def element_to_json_dict(
    element: Element, encoded: dict[int, tuple[tuple[Element, ...], str]] | None
) -> dict[str, Any]:
    """`element_to_dict(element, round_floats=True, encoded=encoded)`, in another key order.

    For JSON writers that sort keys: the metadata's keys come in its own order, and the common
    field values are taken without the general per-field dispatch.
    """
    meta = element.metadata
    fields = meta.__dict__
    out_meta: dict[str, Any] = {}
    for name, value in fields.items():
        if type(value) in _AS_IS_TYPES and name in _AS_IS_FIELDS:
            out_meta[name] = value
        elif name in SEQUENCE_FIELDS and value is not None:
            if value:
                out_meta[name] = list(value)
        elif name == "orig_elements" and encoded is not None and value is not None:
            hit = encoded.get(id(value))
            if hit is None:
                hit = encoded[id(value)] = (value, elements_to_base64_json(value))
            out_meta[name] = hit[1]
        else:
            _put_field(out_meta, name, value, True, encoded)
    if meta.extra:
        _put_extra(out_meta, meta.extra)
    out: dict[str, Any] = {
        "type": element.category,
        "element_id": element.element_id,
        "text": element.text,
        "metadata": out_meta,
    }
    if element.embeddings:
        out["embeddings"] = list(element.embeddings)
    if isinstance(element, CheckBox):
        out["checked"] = element.checked
    return out


def _coordinates_to_dict(coords: CoordinatesMetadata, round_floats: bool) -> dict[str, Any]:
    points = coords.points
    if round_floats:
        digits = 1 if coords.system == "PixelSpace" else 2
        point_list = [[round(x, digits), round(y, digits)] for x, y in points]
    else:
        point_list = [[x, y] for x, y in points]
    return {
        "points": point_list,
        "system": coords.system,
        "layout_width": coords.layout_width,
        "layout_height": coords.layout_height,
    }


def _plain(value: Any) -> Any:
    """Return `value` with tuples and mappings turned into lists and dicts, for JSON."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def elements_to_dicts(elements: Iterable[Element]) -> list[dict[str, Any]]:
    """Return the elements as JSON-ready dicts (the reference's `elements_to_dicts`)."""
    return [element_to_dict(e) for e in elements]


def elements_to_base64_json(elements: Iterable[Element]) -> str:
    """Return `elements` in the reference's `orig_elements` form: JSON, a zlib stream, base64
    (decoding to the reference's JSON; the stream's bytes are `payload_codec`'s).

    Raises `SerializationError` naming the element and field of a NaN or an infinity, which JSON
    cannot hold (see `finite`).
    """
    elements = list(elements)
    try:
        payload = (
            "["
            + ", ".join(
                json.dumps(element_to_dict(e, round_floats=True), sort_keys=True, allow_nan=False)
                for e in elements
            )
            + "]"
        )
    except ValueError as exc:
        raise non_finite_error(elements) or exc from None
    return encode_payload(payload.encode("utf-8"))
