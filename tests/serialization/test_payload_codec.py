"""`orig_elements` payloads: zlib streams written by ISA-L, read by zlib and by the reference."""

from __future__ import annotations

import base64
import json
import zlib

from hypothesis import given, settings
from hypothesis import strategies as st
from unstructured.staging import base as ustaging

import partita
from partita.elements import CompositeElement, ElementMetadata, NarrativeText, Title
from partita.serialization import elements_from_base64_json, elements_to_base64_json
from partita.serialization._payload_codec import compress_payload, encode_payload, payload_encoder


def test_the_encoder_is_isal() -> None:
    assert (
        payload_encoder() == "isal"
    )  # -- a core dependency: its absence would be a packaging error --


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=20_000) | st.text(max_size=5_000).map(str.encode))
def test_zlib_reads_every_payload_and_output_is_deterministic(data: bytes) -> None:
    stream = compress_payload(data)
    assert zlib.decompress(stream) == data
    assert compress_payload(data) == stream
    assert base64.b64decode(encode_payload(data)) == stream


def test_the_reference_reads_our_payloads() -> None:
    orig = [
        Title("Rivers", metadata=ElementMetadata(page_number=1, languages=("eng",))),
        NarrativeText("长江是中国最长的河流。" * 40, metadata=ElementMetadata(page_number=2)),
    ]
    encoded = elements_to_base64_json(orig)
    theirs = ustaging.elements_from_base64_gzipped_json(encoded)
    assert [e.text for e in theirs] == [e.text for e in orig]
    # -- the JSON inside is the reference's own encoding of the same elements --
    reference = ustaging.elements_to_base64_gzipped_json(theirs)
    ours_json = zlib.decompress(base64.b64decode(encoded))
    assert ours_json == zlib.decompress(base64.b64decode(reference))
    assert elements_from_base64_json(encoded) == orig


def test_payloads_compress_about_as_well_as_zlib_level_6() -> None:
    """ISA-L's level 2 against zlib's level 6 on a chunk's JSON: at most 15 % more bytes."""
    words = [
        "the",
        "river",
        "basin",
        "flood",
        "plain",
        "water",
        "level",
        "season",
        "report",
        "table",
    ]
    texts = [" ".join(words[(i * 7 + j) % len(words)] for j in range(60)) for i in range(40)]
    orig = tuple(
        NarrativeText(t, metadata=ElementMetadata(page_number=i)) for i, t in enumerate(texts)
    )
    chunk = CompositeElement("c", metadata=ElementMetadata(orig_elements=orig))
    data = json.dumps(json.loads(partita.elements_to_json([chunk]))).encode()
    assert len(compress_payload(data)) <= 1.15 * len(zlib.compress(data, 6))
