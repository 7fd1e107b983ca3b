"""How `orig_elements` payloads are compressed: zlib streams, written by the fastest encoder.

The reference stores `orig_elements` as base64 of a zlib stream of the elements' JSON, written by
zlib at level 6. Any valid zlib stream decodes to the same elements: `zlib.decompress` reads it,
and so does the reference. So partita writes the stream with ISA-L (the `isal` package, a core
dependency with wheels for every major platform) at its level 2, where it compressed the
benchmark's payloads about three times as fast as zlib at level 6 for about 2 % more bytes
(`benchmarks/README.md`). Without `isal` (a platform it has no wheel for), zlib at level 6
writes them, and the bytes are then the reference's.

The compressed bytes are therefore not the reference's, byte for byte: the elements they hold
are (the parity tests compare decoded payloads). Output stays deterministic: the same payload
compresses to the same bytes with the same encoder.
"""

from __future__ import annotations

import base64
import functools
import zlib
from collections.abc import Callable

__all__ = ["compress_payload", "encode_payload", "payload_encoder"]


@functools.cache
def _fastest_compressor() -> tuple[str, Callable[[bytes], bytes]]:
    """The encoder's name and function, found on first use (`import partita` stays light)."""
    try:
        from isal import isal_zlib
    except ImportError:  # pragma: no cover -- isal is a dependency where it has wheels
        return "zlib", zlib.compress
    compress = isal_zlib.compress

    def isal_level_2(data: bytes) -> bytes:
        return compress(data, 2)

    return "isal", isal_level_2


def payload_encoder() -> str:
    """The name of the encoder that writes payloads: "isal", or "zlib" without `isal`."""
    return _fastest_compressor()[0]


def compress_payload(data: bytes) -> bytes:
    """A zlib stream of `data`, which `zlib.decompress` reads; the same bytes for the same data
    with the same encoder."""
    return _fastest_compressor()[1](data)


def encode_payload(data: bytes) -> str:
    """The `orig_elements` value of an encoded JSON payload: base64 of its zlib stream."""
    return base64.b64encode(compress_payload(data)).decode("ascii")
