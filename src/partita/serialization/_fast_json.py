"""`elements_to_json`'s fast path: `_json_writer` in batches, `orig_elements` compressed on threads.

The text is the one the standard library writes; a batch `_json_writer` refuses is written by
the standard library instead. So is a batch (or a payload) of more than `MAX_FAST_CHARS`
characters, because of how orjson (under `_json_writer`) allocates: before writing a string it
reserves 8 bytes per UTF-8 byte of it, doubling its buffer until that fits, and it does not check
that the reallocation succeeded (`BytesWriter::grow` ignores `_PyBytes_Resize` failing), so it
writes through a null pointer and the process dies of SIGSEGV. A string of 270 million ASCII
characters asks for 4 GiB (150 million CJK characters too): without a memory limit the
untouched pages cost nothing and the text is written; under a 3 GiB address-space limit the
process dies. The standard library's encoder raises `MemoryError` instead, which the caller
survives, and writes large strings faster than orjson plus the layout pass do.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from partita import _json_writer
from partita.elements import CoordinatesMetadata, DataSourceMetadata, Element, Link
from partita.serialization._dicts import element_to_json_dict
from partita.serialization._indented_json import dumps_indented
from partita.serialization._payload_codec import encode_payload

__all__ = ["MAX_FAST_CHARS", "fast_elements_to_json", "holds_no_float", "json_chars"]

# -- orig_elements payloads are encoded this many at a time, and compressed on worker threads
# -- (the codec releases the GIL) while the main thread goes on; below the threshold, inline --
_PAYLOAD_BATCH = 128
_ELEMENT_BATCH = 64
_THREADED_PAYLOAD_BYTES = 1 << 20
_WORKERS = 2

MAX_FAST_CHARS = 1024 * 1024
"""The most characters (estimated from the elements' strings) a batch of elements or an
`orig_elements` payload may have for orjson to write it; larger ones go to the standard library.
orjson's buffer then stays under about 80 MiB (8 bytes reserved per UTF-8 byte, up to 4 bytes a
character, doubled); a batch of 64 typical elements has about 100,000 characters."""


def fast_elements_to_json(elements: Sequence[Element], indent: int) -> str | None:
    """`elements_to_json`'s text through `_json_writer`, or None to use the exact slow path.

    Each batch that `_json_writer` refuses is encoded by the standard library instead, so the
    text is the same either way. A NaN or an infinity raises `ValueError`: orjson writes it as
    null, which refuses the batch, and the standard library is called with `allow_nan=False`.
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
            batch_elements = elements[start : start + _ELEMENT_BATCH]
            dicts = [element_to_json_dict(e, encoded) for e in batch_elements]
            chars, no_floats = _batch_extent(batch_elements, with_orig_elements=False)
            batches.append(
                _write_batch(
                    dicts, indent, index_of, fast=chars <= MAX_FAST_CHARS, no_floats=no_floats
                )
            )
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
            parts.append(dumps_indented(late, indent)[1:-2])
            continue
        parts.append(pieces[0])
        for index, piece in zip(indices, pieces[1:], strict=True):
            parts.append(marker)
            parts.append(results[index])
            parts.append(piece)
    parts.append("\n]")
    return "".join(parts)


_Batch = tuple[list[str], list[int], "list[dict[str, Any]] | None"]


def _write_batch(
    dicts: list[dict[str, Any]],
    indent: int,
    index_of: dict[int, int],
    *,
    fast: bool,
    no_floats: bool = False,
) -> _Batch:
    """The indented items of `dicts` cut where the payloads go, and the payloads' indices.

    The encoded payloads, a third or more of the text, are left out of the JSON writer: each is
    written as "" and spliced in after its key, which only the metadata of an element can hold
    at its depth (a JSON string holds no raw newline). When the layout is not the expected one,
    `dicts` is returned instead, to be written by the standard library once the payloads exist.
    Unless `fast`, the standard library writes the batch. `no_floats`: the dicts hold no float
    (`holds_no_float`), so the writer need not look for the floats orjson writes differently.
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
    body = _json_writer.indented_body(dicts, indent, no_floats=no_floats) if fast else None
    if body is None:
        body = dumps_indented(dicts, indent)[1:-2]
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
        dicts = [element_to_json_dict(e, None) for e in t]
        chars, no_floats = _batch_extent(t, with_orig_elements=True)
        payload = (
            _json_writer.compact(dicts, no_floats=no_floats) if chars <= MAX_FAST_CHARS else None
        )
        if payload is None:
            payload = json.dumps(dicts, sort_keys=True, allow_nan=False).encode("ascii")
        out.append(payload)
    return out


def _compress(payloads: Sequence[bytes]) -> list[str]:
    return [encode_payload(p) for p in payloads]


def holds_no_float(element: Element) -> bool:
    """True when the JSON of `element`, its `orig_elements` aside (they are written apart), holds
    no float: no embeddings, no `extra`, and every metadata value a string, an integer, a boolean
    or a tuple of those. False whenever unsure (coordinates, links, data source, ...)."""
    return extent(element, with_orig_elements=False)[1]


def json_chars(element: Element, *, with_orig_elements: bool = True) -> int:
    """An estimate of the characters of `element`'s JSON, which may exceed it but not fall short
    by more than the escapes of its strings (up to 6 characters each).

    Strings count their length; numbers, keys and layout a few characters each; `orig_elements`
    (unless left out: the batch writer splices them in) twice their elements' estimate, as they
    are written compressed, in base64.
    """
    return extent(element, with_orig_elements=with_orig_elements)[0]


def extent(element: Element, *, with_orig_elements: bool) -> tuple[int, bool]:
    """`(json_chars(element), holds_no_float(element))`, in one pass over the metadata."""
    meta = element.metadata
    fields = meta.__dict__
    size = 256 + len(element.text) + 32 * len(fields)
    no_floats = True
    if element.embeddings:
        size += 32 * len(element.embeddings)
        no_floats = False
    for name, value in fields.items():
        kind = type(value)
        if kind is str:
            size += len(value)
        elif kind is tuple:
            if name != "orig_elements":
                try:  # -- the common tuple of strings, summed in C --
                    size += sum(map(len, value)) + 4 * len(value)
                except TypeError:
                    size += _value_chars(value, 0)
                if no_floats and not _NO_FLOAT_TYPES.issuperset(map(type, value)):
                    no_floats = False
            elif with_orig_elements:
                size += 64 + 2 * sum(map(json_chars, value))
        elif kind is int or kind is bool:
            pass
        elif kind is float:
            no_floats = False
        elif value is None:
            size += 32
        else:  # -- coordinates, links, data source, extra: walked, and not promised float-free --
            size += _value_chars(value, 0)
            no_floats = False
    return size, no_floats


_NO_FLOAT_TYPES = frozenset({str, int, bool})


def _batch_extent(elements: Sequence[Element], *, with_orig_elements: bool) -> tuple[int, bool]:
    """The `extent` of several elements: their estimates summed, and whether none holds a float."""
    total, all_float_free = 0, True
    for element in elements:
        chars, no_floats = extent(element, with_orig_elements=with_orig_elements)
        total += chars
        all_float_free = all_float_free and no_floats
    return total, all_float_free


def _value_chars(value: Any, depth: int) -> int:
    """`json_chars` for a metadata value: strings by length, containers walked (not too deep)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, (int, float)) or value is None:
        return 32
    if depth > _MAX_WALK:  # -- values read from JSON nest less; a deeper one is written slowly --
        return MAX_FAST_CHARS + 1
    if isinstance(value, Mapping):
        return sum(8 + len(str(k)) + _value_chars(v, depth + 1) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return sum(4 + _value_chars(v, depth + 1) for v in value)
    if isinstance(value, CoordinatesMetadata):
        return 96 + 64 * len(value.points) + len(value.system)
    if isinstance(value, (DataSourceMetadata, Link)):
        return sum(
            16 + _value_chars(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value)
        )
    return 32


_MAX_WALK = 40
