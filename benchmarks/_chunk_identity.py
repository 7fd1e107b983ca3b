"""Whether partita's chunks are the reference's, as `bench_chunking.py` checks them.

Both libraries' chunks are compared as dicts, each from its own serialization, less what
deliberately differs: the chunk's `element_id`, `metadata.table_id` (random UUIDs in the
reference, deterministic ids in partita; chunks sharing one in one output must share one in the
other) and partita's `metadata.section_path`. `metadata.orig_elements` is compared decoded
(base64, then zlib, then JSON: the element dicts it holds), not byte for byte: partita may
compress it with another zlib-compatible codec.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Sequence
from typing import Any

__all__ = ["decoded_orig_elements", "first_difference", "json_identity_note"]

ElementDict = dict[str, Any]
DIFFERING_METADATA = frozenset({"table_id", "section_path"})
SET_ASIDE_METADATA = DIFFERING_METADATA | {"orig_elements"}


def decode_orig_elements(encoded: str) -> list[ElementDict]:
    """The element dicts of an `orig_elements` value (base64 of zlib-compressed JSON)."""
    decoded: list[ElementDict] = json.loads(zlib.decompress(base64.b64decode(encoded)))
    return decoded


def decoded_orig_elements(chunk_dict: ElementDict) -> list[ElementDict]:
    """Return a chunk's `orig_elements` decoded to element dicts (empty when absent)."""
    encoded = (chunk_dict.get("metadata") or {}).get("orig_elements")
    return decode_orig_elements(encoded) if encoded else []


def comparable(chunk_dict: ElementDict) -> ElementDict:
    """The chunk dict less its id, the metadata that differs, and `orig_elements`."""
    out = {k: v for k, v in chunk_dict.items() if k != "element_id"}
    metadata = out.get("metadata") or {}
    out["metadata"] = {k: v for k, v in metadata.items() if k not in SET_ASIDE_METADATA}
    return out


def same_orig_elements(ref: ElementDict, ours: ElementDict) -> bool:
    ref_encoded = (ref.get("metadata") or {}).get("orig_elements")
    our_encoded = (ours.get("metadata") or {}).get("orig_elements")
    if ref_encoded == our_encoded:
        return True
    if ref_encoded is None or our_encoded is None:
        return False
    return decode_orig_elements(ref_encoded) == decode_orig_elements(our_encoded)


def table_id_mismatch(ref_dicts: Sequence[ElementDict], our_dicts: Sequence[ElementDict]) -> str:
    """Say where chunks sharing a `table_id` in one output do not share it in the other, or ""."""
    forward: dict[Any, Any] = {}
    backward: dict[Any, Any] = {}
    for i, (ref, ours) in enumerate(zip(ref_dicts, our_dicts, strict=True)):
        ref_tid = (ref.get("metadata") or {}).get("table_id")
        our_tid = (ours.get("metadata") or {}).get("table_id")
        if (ref_tid is None) != (our_tid is None):
            return f"chunk {i}: table_id {ref_tid!r} (reference) vs {our_tid!r} (partita)"
        if ref_tid is None:
            continue
        if forward.setdefault(ref_tid, our_tid) != our_tid:
            return f"chunk {i}: reference table_id {ref_tid!r} maps to two partita ids"
        if backward.setdefault(our_tid, ref_tid) != ref_tid:
            return f"chunk {i}: partita table_id {our_tid!r} maps to two reference ids"
    return ""


def source_elements(chunk_dict: ElementDict) -> str:
    """Name the input elements a chunk came from, or ""."""
    origs = decoded_orig_elements(chunk_dict)
    return ", ".join(f"{d['type']} {d['element_id']} {d['text'][:40]!r}" for d in origs)


def readable(chunk_dict: ElementDict) -> str:
    """A chunk dict as one line of JSON, type and text first, `orig_elements` shortened."""
    metadata = {k: v for k, v in chunk_dict["metadata"].items() if k not in DIFFERING_METADATA}
    if "orig_elements" in metadata:
        metadata["orig_elements"] = f"<{len(metadata['orig_elements'])} chars of base64>"
    shown = {"type": chunk_dict.get("type"), "text": chunk_dict.get("text"), "metadata": metadata}
    return json.dumps(shown, ensure_ascii=False)


def orig_elements_difference(ref: ElementDict, ours: ElementDict) -> str:
    ref_origs, our_origs = decoded_orig_elements(ref), decoded_orig_elements(ours)
    for i, (a, b) in enumerate(zip(ref_origs, our_origs, strict=False)):
        if a != b:
            return f"\n  orig element {i}: reference {a}\n  orig element {i}: partita   {b}"
    return f"\n  orig elements: {len(ref_origs)} (reference) vs {len(our_origs)} (partita)"


def describe_difference(index: int, ref: ElementDict, ours: ElementDict) -> str:
    """Say how chunk `index` differs, with its input elements and both chunk dicts."""
    ref_meta, our_meta = comparable(ref)["metadata"], comparable(ours)["metadata"]
    keys = sorted(k for k in set(ref_meta) | set(our_meta) if ref_meta.get(k) != our_meta.get(k))
    fields = [k for k in ("type", "text") if ref.get(k) != ours.get(k)]
    fields += [f"metadata.{k}" for k in keys]
    orig_differs = not same_orig_elements(ref, ours)
    if orig_differs:
        fields.append("metadata.orig_elements (decoded)")
    text = (
        f"chunk {index} differs in {', '.join(fields)}\n"
        f"  input elements: {source_elements(ref) or source_elements(ours) or '(not recorded)'}\n"
        f"  reference: {readable(ref)}\n"
        f"  partita:   {readable(ours)}"
    )
    return text + (orig_elements_difference(ref, ours) if orig_differs else "")


def first_difference(ref_dicts: Sequence[ElementDict], our_dicts: Sequence[ElementDict]) -> str:
    """Return a description of the first difference between two chunk-dict lists, or ""."""
    counts = ""
    if len(ref_dicts) != len(our_dicts):
        counts = f"{len(ref_dicts)} chunks (reference) vs {len(our_dicts)} chunks (partita); "
    for i, (ref, ours) in enumerate(zip(ref_dicts, our_dicts, strict=False)):
        if comparable(ref) != comparable(ours) or not same_orig_elements(ref, ours):
            return counts + describe_difference(i, ref, ours)
    if counts:
        return counts + f"the first {min(len(ref_dicts), len(our_dicts))} chunks agree"
    return table_id_mismatch(ref_dicts, our_dicts)


ID_VALUE = re.compile(r'("(?:element_id|table_id)": )"[^"]*"')
ORIG_ELEMENTS_VALUE = re.compile(r'("orig_elements": )"([^"]*)"')
SECTION_PATH = re.compile(r',\n\s*"section_path": \[[^\]]*\]')


def json_identity_note(ref_json: str, our_json: str) -> str:
    """Whether the JSON texts are identical apart from ids, `section_path` and `orig_elements`
    values, and whether the `orig_elements` values are byte-identical too (they are compared
    decoded by `first_difference`)."""

    def masked(text: str) -> str:
        text = ORIG_ELEMENTS_VALUE.sub(r'\1"*"', SECTION_PATH.sub("", text))
        return ID_VALUE.sub(r'\1"*"', text)

    raw = "identical" if masked(ref_json) == masked(our_json) else "differ"
    ref_origs = [m.group(2) for m in ORIG_ELEMENTS_VALUE.finditer(ref_json)]
    our_origs = [m.group(2) for m in ORIG_ELEMENTS_VALUE.finditer(our_json)]
    payloads = "identical" if ref_origs == our_origs else "differ (compared decoded)"
    return f"raw JSON {raw} (ids, orig_elements masked); orig_elements bytes {payloads}"
