"""Elements to and from JSON, in the reference library's (`unstructured`) schema.

An element is `{"type", "element_id", "text", "metadata"}` (plus `"embeddings"` when it has
some, and `"checked"` for a CheckBox). Metadata is sparse: no None values, no empty lists or
dicts. `orig_elements` is encoded as the reference encodes it: the elements as a JSON array
(sorted keys), zlib-compressed, base64-encoded. `elements_to_json` writes byte-for-byte what the
reference's `elements_to_json` writes for the same elements (4-space indent, sorted keys,
coordinates rounded to 1 decimal in PixelSpace and 2 otherwise).

Reading accepts the reference's type aliases ("Text", "Paragraph", "Section-header", ...).
Unknown types, malformed JSON and undecodable `orig_elements` raise `partita.errors` exceptions
that name the position; nothing is dropped silently. Decompression of `orig_elements` is bounded.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import os
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from json.encoder import encode_basestring_ascii
from typing import IO, Any

from partita import _json_writer
from partita._gc import collector_paused
from partita.elements import (
    Address,
    CheckBox,
    CodeSnippet,
    CompositeElement,
    CoordinatesMetadata,
    DataSourceMetadata,
    DocumentData,
    Element,
    ElementMetadata,
    EmailAddress,
    FigureCaption,
    Footer,
    Form,
    FormKeysValues,
    Formula,
    Header,
    Image,
    Link,
    ListItem,
    NarrativeText,
    PageBreak,
    PageNumber,
    Table,
    TableChunk,
    Text,
    Title,
)
from partita.errors import FileReadError, MalformedJSONError, SerializationError

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

MAX_DECOMPRESSED_SIZE = 200 * 1024 * 1024
"""The most bytes one `orig_elements` value may decompress to (the reference's limit)."""

TYPE_TO_ELEMENT_CLASS: Mapping[str, type[Element]] = {
    **{
        cls.category: cls
        for cls in (
            Address,
            CheckBox,
            CodeSnippet,
            CompositeElement,
            DocumentData,
            EmailAddress,
            FigureCaption,
            Footer,
            Form,
            FormKeysValues,
            Formula,
            Header,
            Image,
            ListItem,
            NarrativeText,
            PageBreak,
            PageNumber,
            Table,
            TableChunk,
            Text,
            Title,
        )
    },
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

_PLAIN_FIELDS = frozenset(
    {
        "attached_to_filename",
        "category_depth",
        "chunk_index",
        "detection_class_prob",
        "email_message_id",
        "enrichment_origins",
        "file_directory",
        "filename",
        "filetype",
        "header_footer_type",
        "image_base64",
        "image_mime_type",
        "image_path",
        "image_url",
        "is_continuation",
        "is_extracted",
        "key_value_pairs",
        "last_modified",
        "num_carried_over_header_rows",
        "page_name",
        "page_number",
        "parent_id",
        "routing",
        "routing_score",
        "segment_end_seconds",
        "segment_start_seconds",
        "signature",
        "subject",
        "table_as_cells",
        "table_extraction_method",
        "table_id",
        "text_as_html",
        "url",
    }
)
_SEQUENCE_FIELDS = frozenset(
    {
        "bcc_recipient",
        "cc_recipient",
        "emphasized_text_contents",
        "emphasized_text_tags",
        "languages",
        "link_start_indexes",
        "link_texts",
        "link_urls",
        "section_path",
        "sent_from",
        "sent_to",
    }
)
_SPECIAL_FIELDS = frozenset({"coordinates", "data_source", "links", "orig_elements"})
_KNOWN_FIELDS = _PLAIN_FIELDS | _SEQUENCE_FIELDS | _SPECIAL_FIELDS | {"detection_origin"}

# -- the fields written to dicts, in the order the reference's `ElementMetadata.__init__` assigns
# -- them (dict order matters only to readers of `elements_to_dicts`; JSON sorts keys) --
_FIELD_ORDER = tuple(
    name
    for name in [
        "attached_to_filename",
        "bcc_recipient",
        "category_depth",
        "cc_recipient",
        "coordinates",
        "data_source",
        "detection_class_prob",
        "enrichment_origins",
        "emphasized_text_contents",
        "emphasized_text_tags",
        "file_directory",
        "filename",
        "filetype",
        "header_footer_type",
        "image_base64",
        "image_mime_type",
        "image_url",
        "image_path",
        "is_continuation",
        "languages",
        "last_modified",
        "link_start_indexes",
        "link_texts",
        "link_urls",
        "links",
        "email_message_id",
        "orig_elements",
        "page_name",
        "page_number",
        "parent_id",
        "routing",
        "routing_score",
        "sent_from",
        "sent_to",
        "signature",
        "subject",
        "text_as_html",
        "table_as_cells",
        "table_extraction_method",
        "table_id",
        "chunk_index",
        "num_carried_over_header_rows",
        "url",
        "segment_end_seconds",
        "segment_start_seconds",
        "is_extracted",
        "key_value_pairs",
        "section_path",
    ]
)


_FIELD_RANK = {name: rank for rank, name in enumerate((*_FIELD_ORDER, "detection_origin", "extra"))}

# ------------------------------------------------------------------------------------------------
# elements to dicts
# ------------------------------------------------------------------------------------------------


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
    for name in sorted(fields, key=_FIELD_RANK.__getitem__) if len(fields) > 1 else fields:
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
    if name in _SEQUENCE_FIELDS:
        if value:
            out[name] = list(value)
    elif name in _SPECIAL_FIELDS:
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
_AS_IS_FIELDS = _PLAIN_FIELDS - {"detection_class_prob"}
_AS_IS_TYPES = frozenset({str, int, float, bool})


def _json_element_dict(
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
        elif name in _SEQUENCE_FIELDS and value is not None:
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
    """Return `elements` as the reference encodes `orig_elements`: JSON, zlib, base64."""
    payload = (
        "["
        + ", ".join(
            json.dumps(element_to_dict(e, round_floats=True), sort_keys=True) for e in elements
        )
        + "]"
    )
    return base64.b64encode(zlib.compress(payload.encode("utf-8"))).decode("ascii")


# ------------------------------------------------------------------------------------------------
# dicts to elements
# ------------------------------------------------------------------------------------------------


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
        if name not in _KNOWN_FIELDS:
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
        elif name in _SEQUENCE_FIELDS:
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
    if not isinstance(encoded, str):
        raise MalformedJSONError("orig_elements must be a base64 string", position=position)
    try:
        compressed = base64.b64decode(encoded, validate=True)
        inflater = zlib.decompressobj()
        raw = inflater.decompress(compressed, MAX_DECOMPRESSED_SIZE)
        if not inflater.eof:
            if len(raw) >= MAX_DECOMPRESSED_SIZE:
                raise SerializationError(
                    f"orig_elements decompresses to more than {MAX_DECOMPRESSED_SIZE} bytes",
                    position=position,
                )
            raise SerializationError("orig_elements is truncated", position=position)
        dicts = json.loads(raw.decode("utf-8"))
    except (binascii.Error, zlib.error, UnicodeDecodeError) as exc:
        raise MalformedJSONError(f"orig_elements is not valid: {exc}", position=position) from exc
    except json.JSONDecodeError as exc:
        raise MalformedJSONError(
            f"orig_elements is not valid JSON: {exc.msg}", position=position
        ) from exc
    if not isinstance(dicts, list):
        raise MalformedJSONError("orig_elements must encode a JSON array", position=position)
    return [element_from_dict(d, position=f"{position}[{i}]") for i, d in enumerate(dicts)]


# ------------------------------------------------------------------------------------------------
# JSON documents
# ------------------------------------------------------------------------------------------------


def elements_to_json(
    elements: Iterable[Element],
    filename: str | os.PathLike[str] | None = None,
    indent: int = 4,
) -> str:
    """Return the elements as a JSON array, and write it to `filename` when one is given.

    The text is what the reference's `elements_to_json` produces for the same elements.
    """
    elements = list(elements)
    with collector_paused():  # -- creates no cycles: see `partita._gc` --
        text = _fast_elements_to_json(elements, indent) if _json_writer.AVAILABLE else None
        if text is None:
            encoded: dict[int, tuple[tuple[Element, ...], str]] = {}
            dicts = [element_to_dict(e, round_floats=True, encoded=encoded) for e in elements]
            text = _dumps_indented(dicts, indent)
    if filename is not None:
        with open(filename, "w", encoding="utf-8") as f:
            f.write(text)
    return text


def elements_from_json(
    filename: str | os.PathLike[str] | None = None, text: str | None = None
) -> list[Element]:
    """Return the elements of a JSON array read from `filename` or given as `text` (one of them).

    Raises `FileReadError` for an unreadable file and `MalformedJSONError` (with line and column)
    for text that is not a JSON array of elements.
    """
    if (filename is None) == (text is None):
        raise ValueError("give exactly one of `filename` and `text`")
    if filename is not None:
        text = _read_text(filename)
    assert text is not None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedJSONError(
            f"not valid JSON: {exc.msg}", position=f"line {exc.lineno}, column {exc.colno}"
        ) from exc
    if not isinstance(data, list):
        raise MalformedJSONError("expected a JSON array of elements", position="top level")
    return elements_from_dicts(data)


def elements_to_jsonl(elements: Iterable[Element], file: str | os.PathLike[str] | IO[str]) -> int:
    """Write one element per line to `file` (a path or a text stream) as elements arrive.

    Return the number of elements written. Lines are what the reference's `elements_to_ndjson`
    writes for each element.
    """
    if isinstance(file, (str, os.PathLike)):
        with open(file, "w", encoding="utf-8") as f:
            return elements_to_jsonl(elements, f)
    count = 0
    encoded: dict[int, tuple[tuple[Element, ...], str]] = {}
    for element in elements:
        if len(encoded) > 64:  # -- split pieces are adjacent: a small memo suffices --
            encoded.clear()
        item = element_to_dict(element, round_floats=True, encoded=encoded)
        file.write(json.dumps(item, sort_keys=True))
        file.write("\n")
        count += 1
    return count


def iter_elements_from_jsonl(
    source: str | os.PathLike[str] | IO[str],
) -> Iterator[Element]:
    """Generate the elements of a JSON Lines file or stream, one line at a time.

    Blank lines are skipped. A bad line raises `MalformedJSONError` or `UnknownElementTypeError`
    naming its line number.
    """
    if isinstance(source, (str, os.PathLike)):
        try:
            stream: IO[str] = open(source, encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            raise FileReadError(f"cannot read {os.fspath(source)}: {exc.strerror}") from exc
        with stream:
            yield from iter_elements_from_jsonl(stream)
        return
    for lineno, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise MalformedJSONError(
                f"not valid JSON: {exc.msg}", position=f"line {lineno}, column {exc.colno}"
            ) from exc
        yield element_from_dict(item, position=f"line {lineno}")


def _read_text(filename: str | os.PathLike[str]) -> str:
    try:
        with open(filename, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError as exc:
        raise MalformedJSONError(
            f"{os.fspath(filename)} is not UTF-8", position=f"byte {exc.start}"
        ) from exc
    except OSError as exc:
        raise FileReadError(f"cannot read {os.fspath(filename)}: {exc.strerror}") from exc


def _dumps_indented(value: Any, indent: int) -> str:
    """Return `json.dumps(value, indent=indent, sort_keys=True)`, computed faster.

    The standard library falls back to its pure-Python encoder whenever `indent` is set; this
    writer leaves scalars and flat containers to the C encoder and indents only the nesting.
    """
    out = io.StringIO()
    _write_indented(value, out.write, "\n", " " * indent)
    return out.getvalue()


_compact = json.JSONEncoder(sort_keys=True, separators=(",", ": ")).encode


def _write_indented(value: Any, write: Any, newline: str, step: str) -> None:
    if isinstance(value, str):
        write(encode_basestring_ascii(value))
    elif isinstance(value, dict):
        if not value:
            write("{}")
            return
        inner = newline + step
        write("{")
        first = True
        for key in sorted(value):
            write(inner if first else "," + inner)
            first = False
            write(encode_basestring_ascii(key))
            write(": ")
            _write_indented(value[key], write, inner, step)
        write(newline + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            write("[]")
            return
        inner = newline + step
        write("[")
        first = True
        for item in value:
            write(inner if first else "," + inner)
            first = False
            _write_indented(item, write, inner, step)
        write(newline + "]")
    else:
        write(_compact(value))


# -- orig_elements payloads are encoded this many at a time, and compressed on worker threads
# -- (zlib releases the GIL) while the main thread goes on; below the threshold, inline --
_PAYLOAD_BATCH = 128
_ELEMENT_BATCH = 64
_THREADED_PAYLOAD_BYTES = 1 << 20
_WORKERS = 2


def _fast_elements_to_json(elements: Sequence[Element], indent: int) -> str | None:
    """`elements_to_json`'s text through `_json_writer`, or None to use the exact slow path.

    Each batch that `_json_writer` refuses is encoded by the standard library instead, so the
    text is the same either way.
    """
    if not isinstance(indent, int) or isinstance(indent, bool) or indent < 2:
        return None
    if not elements:
        return "[]"
    # -- the distinct orig_elements tuples (split pieces of a chunk share one), in order --
    origs: dict[int, tuple[Element, ...]] = {}
    for element in elements:
        orig = element.metadata.orig_elements
        if orig is not None and id(orig) not in origs:
            origs[id(orig)] = orig
    tuples = list(origs.values())
    # -- placeholders stand in for the encoded payloads until the workers are done --
    placeholders = [f"\x00{i}" for i in range(len(tuples))]
    encoded = {id(t): (t, p) for t, p in zip(tuples, placeholders, strict=True)}
    index_of = {id(p): i for i, p in enumerate(placeholders)}
    results: list[str] = []
    pool: ThreadPoolExecutor | None = None
    futures: list[Future[list[str]]] = []
    batches: list[_Batch] = []
    try:
        for start in range(0, len(tuples), _PAYLOAD_BATCH):
            batch = tuples[start : start + _PAYLOAD_BATCH]
            payloads = _payloads(batch)
            if pool is None and sum(map(len, payloads)) * len(tuples) > (
                _THREADED_PAYLOAD_BYTES * len(batch)
            ):
                pool = ThreadPoolExecutor(_WORKERS, thread_name_prefix="partita-zlib")
            if pool is None:
                results.extend(_compress(payloads))
            else:
                futures.append(pool.submit(_compress, payloads))
        # -- the text is written while the workers compress, the payloads spliced in after --
        for start in range(0, len(elements), _ELEMENT_BATCH):
            dicts = [
                _json_element_dict(e, encoded) for e in elements[start : start + _ELEMENT_BATCH]
            ]
            batches.append(_write_batch(dicts, indent, index_of))
        for future in futures:
            results.extend(future.result())
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    parts = ["["]
    marker = "\n" + " " * (3 * indent) + '"orig_elements": "'
    for number, (pieces, indices, late) in enumerate(batches):
        if number:
            parts.append(",")
        if late is not None:  # pragma: no cover -- see _write_batch
            for item in late:
                meta = item["metadata"]
                index = index_of.get(id(meta.get("orig_elements")))
                if index is not None:
                    meta["orig_elements"] = results[index]
            parts.append(_dumps_indented(late, indent)[1:-2])
            continue
        parts.append(pieces[0])
        for index, piece in zip(indices, pieces[1:], strict=True):
            parts.append(marker)
            parts.append(results[index])
            parts.append(piece)
    parts.append("\n]")
    return "".join(parts)


_Batch = tuple[list[str], list[int], "list[dict[str, Any]] | None"]


def _write_batch(dicts: list[dict[str, Any]], indent: int, index_of: dict[int, int]) -> _Batch:
    """The indented items of `dicts` cut where the payloads go, and the payloads' indices.

    The encoded payloads, a third or more of the text, are left out of the JSON writer: each is
    written as "" and spliced in after its key, which only the metadata of an element can hold
    at its depth (a JSON string holds no raw newline). When the layout is not the expected one,
    `dicts` is returned instead, to be written by the standard library once the payloads exist.
    """
    indices = []
    saved = []
    for item in dicts:
        meta = item["metadata"]
        placeholder = meta.get("orig_elements")
        if placeholder is not None:
            index = index_of.get(id(placeholder))
            if index is None:  # pragma: no cover -- an `extra` value under that name
                return [], [], dicts
            indices.append(index)
            saved.append((meta, placeholder))
    for meta, _ in saved:
        meta["orig_elements"] = ""
    body = _json_writer.indented_body(dicts, indent)
    if body is None:
        body = _dumps_indented(dicts, indent)[1:-2]
    pieces = body.split("\n" + " " * (3 * indent) + '"orig_elements": "')
    if len(pieces) != len(indices) + 1:  # pragma: no cover -- as above
        for meta, placeholder in saved:
            meta["orig_elements"] = placeholder
        return [], [], dicts
    return pieces, indices, None


def _payloads(tuples: Sequence[tuple[Element, ...]]) -> list[bytes]:
    """The uncompressed `orig_elements` JSON of each tuple, as `elements_to_base64_json` has it."""
    out = []
    for t in tuples:
        dicts = [_json_element_dict(e, None) for e in t]
        payload = _json_writer.compact(dicts)
        if payload is None:
            payload = json.dumps(dicts, sort_keys=True).encode("ascii")
        out.append(payload)
    return out


def _compress(payloads: Sequence[bytes]) -> list[str]:
    return [base64.b64encode(zlib.compress(p)).decode("ascii") for p in payloads]
