"""Comparing JSON whose `orig_elements` payloads may be compressed differently.

partita writes `orig_elements` as base64 of a zlib stream, like the reference, but with a faster
encoder (`partita.serialization._payload_codec`): the compressed bytes differ while the JSON they
hold is the reference's. Parity tests compare JSON with each payload replaced by the JSON it
decompresses to, nested payloads included: everything else byte for byte, and each payload's
JSON byte for byte.
"""

from __future__ import annotations

import base64
import re
import zlib
from typing import Any

__all__ = ["decoded_dict", "decoded_payload", "payloads_decoded", "same_decoded"]

_PAYLOAD = re.compile(r'("orig_elements": ?")([A-Za-z0-9+/=]*)(")')


def decoded_payload(value: str) -> str:
    """The JSON an `orig_elements` value holds (base64, then zlib), its own payloads decoded."""
    return payloads_decoded(zlib.decompress(base64.b64decode(value)).decode("utf-8"))


def payloads_decoded(text: str) -> str:
    """`text` (JSON) with every `orig_elements` value replaced by a marker and its JSON."""
    return _PAYLOAD.sub(lambda m: f"{m[1]}<decoded {decoded_payload(m[2])!r}>{m[3]}", text)


def same_decoded(ours: str, reference: str) -> bool:
    """Whether two JSON texts are equal once their `orig_elements` payloads are decoded."""
    return payloads_decoded(ours) == payloads_decoded(reference)


def decoded_dict(item: Any) -> Any:
    """An element dict (or a list of them) with its `orig_elements` value replaced by the JSON
    it holds (as text, its own payloads decoded)."""
    if isinstance(item, list):
        return [decoded_dict(x) for x in item]
    if not isinstance(item, dict):
        return item
    metadata = item.get("metadata")
    if not isinstance(metadata, dict) or not isinstance(metadata.get("orig_elements"), str):
        return item
    decoded = decoded_payload(metadata["orig_elements"])
    return {**item, "metadata": {**metadata, "orig_elements": f"<decoded {decoded}>"}}
