"""Dicts in the reference's schema to elements, `orig_elements` decoding included.

Reading accepts the reference's type aliases ("Text", "Paragraph", "Section-header", ...).
Unknown types, values that are not element dicts and undecodable `orig_elements` raise
`partita.errors` exceptions that name the position; nothing is dropped silently.
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
    Link,
)
from partita.errors import MalformedJSONError
from partita.serialization.orig_elements import inflate
from partita.serialization.schema import KNOWN_FIELDS, SEQUENCE_FIELDS, TYPE_TO_ELEMENT_CLASS

__all__ = [
    "element_from_dict",
    "elements_from_base64_json",
    "elements_from_dicts",
    "metadata_from_dict",
]


def elements_from_dicts(element_dicts: Iterable[Any]) -> list[Element]:
    """Return the elements the dicts describe; raise `SerializationError` naming the index."""
    return [element_from_dict(d, position=f"element {i}") for i, d in enumerate(element_dicts)]


def element_from_dict(item: Any, *, position: str | None = None) -> Element:
    """Return the element `item` describes.

    Raises `UnknownElementTypeError` for a type neither partita nor the reference knows and
    `MalformedJSONError` for a value that is not an element dict; `position` is named in both.
    """
    if not isinstance(item, Mapping):
        raise MalformedJSONError(
            f"an element must be a JSON object, got {type(item).__name__}", position=position
        )
    type_name = item.get("type")
    cls = TYPE_TO_ELEMENT_CLASS.get(type_name) if isinstance(type_name, str) else None
    if cls is None:
        from partita.errors import UnknownElementTypeError

        raise UnknownElementTypeError(type_name, position=position)
    text = item.get("text", "")
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise MalformedJSONError("element text must be a string", position=position)
    raw_meta = item.get("metadata")
    if raw_meta is None:
        metadata = ElementMetadata()
    elif isinstance(raw_meta, Mapping):
        metadata = metadata_from_dict(raw_meta, position=position)
    else:
        raise MalformedJSONError("element metadata must be a JSON object", position=position)
    element_id = item.get("element_id") or ""
    if not isinstance(element_id, str):
        raise MalformedJSONError("element_id must be a string", position=position)
    embeddings = item.get("embeddings") or None
    if cls is CheckBox:
        return CheckBox(
            text,
            element_id=element_id,
            metadata=metadata,
            embeddings=embeddings,
            checked=bool(item.get("checked", False)),
        )
    return cls(text, element_id=element_id, metadata=metadata, embeddings=embeddings)


def metadata_from_dict(meta: Mapping[str, Any], *, position: str | None = None) -> ElementMetadata:
    """Return the metadata a sparse metadata dict describes; unknown fields go to `extra`."""
    kwargs: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for name, value in meta.items():
        if value is None or name == "detection_origin":
            continue
        if name not in KNOWN_FIELDS:
            extra[name] = value
        elif name == "coordinates":
            kwargs[name] = _coordinates_from_dict(value, position)
        elif name == "data_source":
            if not isinstance(value, Mapping):
                raise MalformedJSONError("data_source must be an object", position=position)
            known = DataSourceMetadata.__dataclass_fields__
            kwargs[name] = DataSourceMetadata(**{k: v for k, v in value.items() if k in known})
        elif name == "orig_elements":
            where = f"{position}, metadata.orig_elements" if position else "orig_elements"
            kwargs[name] = tuple(_elements_from_base64_json(value, where))
        elif name == "links":
            kwargs[name] = tuple(_link_from_dict(x, position) for x in value)
        elif name in SEQUENCE_FIELDS:
            if not isinstance(value, (list, tuple)):
                raise MalformedJSONError(f"metadata.{name} must be a list", position=position)
            kwargs[name] = tuple(value)
        else:
            kwargs[name] = value
    if extra:
        kwargs["extra"] = extra
    try:
        return ElementMetadata(**kwargs)
    except (TypeError, ValueError) as exc:
        raise MalformedJSONError(f"invalid metadata: {exc}", position=position) from exc


def _coordinates_from_dict(value: Any, position: str | None) -> CoordinatesMetadata:
    try:
        points = tuple((float(p[0]), float(p[1])) for p in value["points"])
        return CoordinatesMetadata(
            points=points,
            system=str(value["system"]),
            layout_width=value.get("layout_width"),
            layout_height=value.get("layout_height"),
        )
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise MalformedJSONError(f"invalid coordinates: {exc!r}", position=position) from exc


def _link_from_dict(value: Any, position: str | None) -> Link:
    if not isinstance(value, Mapping) or "url" not in value:
        raise MalformedJSONError("a link must be an object with a url", position=position)
    unknown = set(value) - {"text", "url", "start_index"}
    if unknown:
        raise MalformedJSONError(f"a link has unknown keys {sorted(unknown)}", position=position)
    return Link(text=value.get("text"), url=value["url"], start_index=value.get("start_index"))


def elements_from_base64_json(encoded: str) -> list[Element]:
    """Return the elements of an `orig_elements` value (base64 of zlib-compressed JSON).

    Decompression stops at `MAX_DECOMPRESSED_SIZE` bytes with a `SerializationError`.
    """
    return _elements_from_base64_json(encoded, "orig_elements")


def _elements_from_base64_json(encoded: Any, position: str) -> list[Element]:
    raw = inflate(encoded, position)
    try:
        dicts = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise MalformedJSONError(f"orig_elements is not valid: {exc}", position=position) from exc
    except json.JSONDecodeError as exc:
        raise MalformedJSONError(
            f"orig_elements is not valid JSON: {exc.msg}", position=position
        ) from exc
    if not isinstance(dicts, list):
        raise MalformedJSONError("orig_elements must encode a JSON array", position=position)
    return [element_from_dict(d, position=f"{position}[{i}]") for i, d in enumerate(dicts)]
