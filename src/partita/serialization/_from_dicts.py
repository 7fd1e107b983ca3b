"""Dicts in the reference's schema to elements, `orig_elements` decoding included.

Reading accepts the reference's type aliases ("Text", "Paragraph", "Section-header", ...).
Unknown types, values that are not element dicts, fields of the wrong type (see `_validation`)
and undecodable `orig_elements` raise `partita.errors` exceptions that name the position (the
element, and the field); nothing is dropped silently. Decoding `orig_elements` is bounded per
value and per document (see `_orig_elements`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from partita.elements import (
    CheckBox,
    CoordinatesMetadata,
    DataSourceMetadata,
    Element,
    ElementMetadata,
    Link,
    _metadata_from_fields,
    _new_element,
    document_key,
    element_id_for,
)
from partita.errors import DocumentLimitError, MalformedJSONError, UnknownElementTypeError
from partita.serialization._json_parsing import loads
from partita.serialization._orig_elements import MAX_ORIG_ELEMENTS_DEPTH, DecompressionBudget
from partita.serialization._schema import KNOWN_FIELDS, TYPE_TO_ELEMENT_CLASS
from partita.serialization._validation import (
    check_integer,
    check_json_value,
    check_number,
    field_value,
    json_type_name,
)

__all__ = [
    "ElementReader",
    "element_from_dict",
    "elements_from_base64_json",
    "elements_from_dicts",
    "metadata_from_dict",
]

_DATA_SOURCE_STRINGS = ("url", "version", "date_created", "date_modified", "date_processed")
_LINK_KEYS = frozenset({"text", "url", "start_index"})
_SEPARATORS = tuple(sep for sep in (os.sep, os.altsep) if sep)


def elements_from_dicts(element_dicts: Iterable[Any]) -> list[Element]:
    """Return the elements the dicts describe; raise `SerializationError` naming the index.

    The dicts are one document: their `orig_elements` share one decompression budget.
    """
    reader = ElementReader()
    return [reader.element(d, f"element {i}") for i, d in enumerate(element_dicts)]


def element_from_dict(item: Any, *, position: str | None = None) -> Element:
    """Return the element `item` describes.

    Raises `UnknownElementTypeError` for a type neither partita nor the reference knows,
    `MalformedJSONError` for a value that is not an element dict or a field of the wrong type,
    and `DocumentLimitError` past a bound of `orig_elements`; `position` is named in all.
    """
    return ElementReader().element(item, position)


def metadata_from_dict(meta: Mapping[str, Any], *, position: str | None = None) -> ElementMetadata:
    """Return the metadata a sparse metadata dict describes; unknown fields go to `extra`."""
    return ElementReader().metadata(meta, position, 0)


def elements_from_base64_json(encoded: str) -> list[Element]:
    """Return the elements of an `orig_elements` value (base64 of zlib-compressed JSON).

    Decompression is bounded as for a document holding that one value (see `orig_elements`).
    """
    return list(ElementReader().orig_elements(encoded, "orig_elements", 0))


class ElementReader:
    """Reads the element dicts of one document (a JSON array, a JSON Lines stream, ...).

    The document's `orig_elements` values share one `DecompressionBudget`, and a value that
    repeats is decoded once: the pieces of a split chunk carry the same value, and get the same
    tuple of elements. `cache_size` bounds how many decoded values are kept (None: all, for a
    document read whole; a stream keeps the last few, as split pieces are adjacent).
    """

    def __init__(self, *, filename: str | None = None, cache_size: int | None = None) -> None:
        self.budget = DecompressionBudget(filename=filename)
        self._decoded: dict[str, tuple[Element, ...]] = {}
        self._cache_size = cache_size

    def element(self, item: Any, position: str | None, depth: int = 0) -> Element:
        """Return the element `item` describes, `depth` levels of `orig_elements` down."""
        if not isinstance(item, Mapping):
            raise MalformedJSONError(
                f"an element must be a JSON object, got {json_type_name(item)}",
                position=position,
            )
        type_name = item.get("type")
        cls = TYPE_TO_ELEMENT_CLASS.get(type_name) if isinstance(type_name, str) else None
        if cls is None:
            raise UnknownElementTypeError(type_name, position=position)
        text = _optional_string(item, "text", "element text", position)
        raw_meta = item.get("metadata")
        if raw_meta is None:
            metadata = _metadata_from_fields({})
        elif isinstance(raw_meta, Mapping):
            metadata = self.metadata(raw_meta, position, depth)
        else:
            raise MalformedJSONError(
                f"element metadata must be a JSON object, got {json_type_name(raw_meta)}",
                position=_at(position, "metadata"),
            )
        element_id = _optional_string(item, "element_id", "element_id", position)
        embeddings = _embeddings(item.get("embeddings"), position)
        if cls is CheckBox:
            checked = item.get("checked")
            if checked is not None and not isinstance(checked, bool):
                raise MalformedJSONError(
                    f"checked must be a boolean, got {json_type_name(checked)}",
                    position=_at(position, "checked"),
                )
            return CheckBox(
                text,
                element_id=element_id,
                metadata=metadata,
                embeddings=embeddings,
                checked=bool(checked),
            )
        if embeddings is not None:
            return cls(text, element_id=element_id, metadata=metadata, embeddings=embeddings)
        if not element_id:
            key = document_key(metadata.file_directory, metadata.filename)
            element_id = element_id_for(metadata.filename, text, metadata.page_number, 0, key=key)
        # -- every value is checked and normal: skip the constructor's checks --
        return _new_element(cls, text, element_id, metadata)

    def metadata(
        self, meta: Mapping[str, Any], position: str | None, depth: int
    ) -> ElementMetadata:
        """Return the metadata a sparse metadata dict describes; unknown fields go to `extra`."""
        fields: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        prefix = _at(position, "metadata")
        for name, value in meta.items():
            if value is None or name == "detection_origin":
                continue
            if name not in KNOWN_FIELDS:
                if not isinstance(name, str):
                    raise MalformedJSONError(
                        f"has a key that is not a string ({name!r})", position=prefix
                    )
                extra[name] = check_json_value(value, f"{prefix}.{name}")
            elif name == "coordinates":
                fields[name] = _coordinates(value, f"{prefix}.coordinates")
            elif name == "data_source":
                fields[name] = _data_source(value, f"{prefix}.data_source")
            elif name == "links":
                fields[name] = _links(value, f"{prefix}.links")
            elif name == "orig_elements":
                fields[name] = self.orig_elements(value, f"{prefix}.orig_elements", depth)
            else:
                fields[name] = field_value(name, value, f"{prefix}.{name}")
        if extra:
            fields["extra"] = extra
        filename = fields.get("filename")
        if filename is not None and (filename == "" or any(s in filename for s in _SEPARATORS)):
            return ElementMetadata(**fields)  # -- splits a path into filename and directory --
        return _metadata_from_fields(fields)

    def orig_elements(self, encoded: Any, position: str, depth: int) -> tuple[Element, ...]:
        """Return the elements of `orig_elements` value `encoded`, found `depth` levels down."""
        if isinstance(encoded, str):
            if depth == 0:
                self.budget.grant(len(encoded))
            known = self._decoded.get(encoded)
            if known is not None:
                return known
        if depth >= MAX_ORIG_ELEMENTS_DEPTH:
            raise DocumentLimitError(
                f"orig_elements nest more than {MAX_ORIG_ELEMENTS_DEPTH} deep (at {position})",
                filename=self.budget.filename,
                limit="orig_elements depth",
            )
        raw = self.budget.inflate(encoded, position)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MalformedJSONError(
                f"orig_elements is not UTF-8 JSON: {exc}", position=position
            ) from exc
        del raw
        dicts = loads(text, where=position)
        del text
        if not isinstance(dicts, list):
            raise MalformedJSONError(
                f"orig_elements must encode a JSON array, got {json_type_name(dicts)}",
                position=position,
            )
        self.budget.charge_elements(len(dicts), position)
        elements = tuple(
            self.element(d, f"{position}[{i}]", depth + 1) for i, d in enumerate(dicts)
        )
        if self._cache_size is not None and len(self._decoded) >= self._cache_size:
            self._decoded.clear()
        self._decoded[encoded] = elements
        return elements


def _at(position: str | None, key: str) -> str:
    """The position of `key` of the element at `position`."""
    return f"{position}, {key}" if position else key


def _optional_string(item: Mapping[str, Any], key: str, label: str, position: str | None) -> str:
    """`item[key]`, a string; "" when it is absent or null. Any other value raises
    `MalformedJSONError` at `key` of `position`, naming the field `label`."""
    value = item.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise MalformedJSONError(
            f"{label} must be a string, got {json_type_name(value)}", position=_at(position, key)
        )
    return value


def _embeddings(value: Any, position: str | None) -> tuple[float, ...] | None:
    if value is None:
        return None
    where = _at(position, "embeddings")
    if not isinstance(value, (list, tuple)):
        raise MalformedJSONError(
            f"must be an array of numbers, got {json_type_name(value)}", position=where
        )
    for index, number in enumerate(value):
        check_number(number, f"{where}[{index}]")
    return tuple(value) or None


def _coordinates(value: Any, where: str) -> CoordinatesMetadata:
    if not isinstance(value, Mapping):
        raise MalformedJSONError(f"must be an object, got {json_type_name(value)}", position=where)
    points = value.get("points")
    if not isinstance(points, (list, tuple)):
        raise MalformedJSONError(
            f"points must be an array of points, got {json_type_name(points)}", position=where
        )
    pairs = []
    for index, point in enumerate(points):
        if not isinstance(point, (list, tuple)) or len(point) != 2:
            raise MalformedJSONError(
                f"a point must be an array of 2 numbers, got {json_type_name(point)}",
                position=f"{where}.points[{index}]",
            )
        pairs.append(
            (
                check_number(point[0], f"{where}.points[{index}][0]"),
                check_number(point[1], f"{where}.points[{index}][1]"),
            )
        )
    system = value.get("system")
    if not isinstance(system, str):
        raise MalformedJSONError(
            f"system must be a string, got {json_type_name(system)}", position=where
        )
    sizes = [value.get("layout_width"), value.get("layout_height")]
    for key, size in zip(("layout_width", "layout_height"), sizes, strict=True):
        if size is not None:
            check_number(size, f"{where}.{key}")
    return CoordinatesMetadata(
        points=tuple(pairs), system=system, layout_width=sizes[0], layout_height=sizes[1]
    )


def _data_source(value: Any, where: str) -> DataSourceMetadata:
    """The reference's `DataSourceMetadata.from_dict`: its fields, other keys ignored."""
    if not isinstance(value, Mapping):
        raise MalformedJSONError(f"must be an object, got {json_type_name(value)}", position=where)
    fields: dict[str, Any] = {}
    for key in _DATA_SOURCE_STRINGS:
        item = value.get(key)
        if item is not None:
            if not isinstance(item, str):
                raise MalformedJSONError(
                    f"must be a string, got {json_type_name(item)}", position=f"{where}.{key}"
                )
            fields[key] = item
    locator = value.get("record_locator")
    if locator is not None:
        if not isinstance(locator, Mapping):
            raise MalformedJSONError(
                f"must be an object, got {json_type_name(locator)}",
                position=f"{where}.record_locator",
            )
        fields["record_locator"] = check_json_value(locator, f"{where}.record_locator")
    permissions = value.get("permissions_data")
    if permissions is not None:
        at = f"{where}.permissions_data"
        if not isinstance(permissions, (list, tuple)) or not all(
            isinstance(p, Mapping) for p in permissions
        ):
            raise MalformedJSONError("must be an array of objects", position=at)
        fields["permissions_data"] = check_json_value(permissions, at)
    return DataSourceMetadata(**fields)


def _links(value: Any, where: str) -> tuple[Link, ...]:
    if not isinstance(value, (list, tuple)):
        raise MalformedJSONError(
            f"must be an array of links, got {json_type_name(value)}", position=where
        )
    links = []
    for index, link in enumerate(value):
        at = f"{where}[{index}]"
        if not isinstance(link, Mapping) or "url" not in link:
            raise MalformedJSONError("a link must be an object with a url", position=at)
        unknown = set(link) - _LINK_KEYS
        if unknown:
            raise MalformedJSONError(
                f"a link has unknown keys {sorted(map(str, unknown))}", position=at
            )
        text, url, start = link.get("text"), link["url"], link.get("start_index")
        if not isinstance(url, str):
            raise MalformedJSONError(
                f"url must be a string, got {json_type_name(url)}", position=at
            )
        if text is not None and not isinstance(text, str):
            raise MalformedJSONError(
                f"text must be a string, got {json_type_name(text)}", position=at
            )
        if start is not None:
            check_integer(start, f"{at}.start_index")
        links.append(Link(text=text, url=url, start_index=start))
    return tuple(links)
