"""`orig_elements` decoding: bounded per value, per document and in depth; repeats decoded once."""

from __future__ import annotations

import base64
import io
import json
import zlib
from hashlib import sha256
from pathlib import Path
from typing import Any

import pytest

import partita
from partita.chunking import chunk_by_title, chunk_elements
from partita.errors import DocumentLimitError, MalformedJSONError
from partita.serialization import elements_from_base64_json
from partita.serialization._from_dicts import ElementReader
from partita.serialization._orig_elements import (
    DOCUMENT_ALLOWANCE,
    ELEMENT_COST,
    MAX_EXPANSION,
    MAX_ORIG_ELEMENTS_DEPTH,
)
from tests.robustness.hostile_json import element, nested_orig_elements, orig_elements_value
from tests.shared import shared_corpus

_MIB = 1 << 20


def _whitespace(mebibytes: int, salt: int = 0) -> str:
    """A value of `mebibytes` MiB: an empty array padded with spaces (`salt` more of them)."""
    return orig_elements_value(b"[" + b" " * (mebibytes * _MIB - 2 + salt) + b"]")


def _chunk(value: str) -> dict[str, Any]:
    return element("chunk", "CompositeElement", orig_elements=value)


def test_the_values_of_a_document_share_one_budget() -> None:
    # -- each value is 3 MiB for about 4 KB of base64: two fit in the 8 MiB, the third does not --
    values = [_whitespace(3, salt) for salt in range(4)]
    assert all(MAX_EXPANSION * len(v) < 300 * 1024 for v in values)
    assert len(partita.elements_from_dicts([_chunk(v) for v in values[:2]])) == 2
    with pytest.raises(DocumentLimitError, match="plus 64 per character") as info:
        partita.elements_from_dicts([_chunk(v) for v in values])
    assert info.value.limit == "orig_elements decompressed size per document"
    assert str(info.value).endswith("(at element 2, metadata.orig_elements)")


def test_a_json_lines_stream_is_one_document(tmp_path: Path) -> None:
    path = tmp_path / "chunks.jsonl"
    path.write_text("".join(json.dumps(_chunk(_whitespace(3, salt))) + "\n" for salt in range(4)))
    elements = partita.iter_elements_from_jsonl(path)
    assert next(elements).text == "chunk"
    assert next(elements).text == "chunk"
    with pytest.raises(DocumentLimitError, match=r"\(at line 3, metadata.orig_elements\)") as info:
        next(elements)
    assert info.value.filename == str(path)


def test_the_budget_grows_with_the_document() -> None:
    # -- the same 3 MiB values, each beside a value of 1,000 elements with random text --
    padding = [
        orig_elements_value(
            json.dumps(
                [element(sha256(b"%d %d" % (salt, i)).hexdigest()) for i in range(1000)]
            ).encode()
        )
        for salt in range(4)
    ]
    items = []
    for salt in range(4):
        items += [_chunk(padding[salt]), _chunk(_whitespace(3, salt))]
    granted = MAX_EXPANSION * sum(len(p) for p in padding)
    assert granted > 4 * (3 * _MIB + 1000 * (200 + ELEMENT_COST)) - DOCUMENT_ALLOWANCE
    assert len(partita.elements_from_dicts(items)) == 8


def test_each_element_decoded_costs_its_share() -> None:
    def minimal(count: int) -> str:
        return orig_elements_value(b"[" + b",".join([b'{"type":"Title"}'] * count) + b"]")

    # -- 30,000 minimal elements: 510 KB of JSON plus 30,000 x 256 bytes, under 8 MiB --
    (chunk,) = partita.elements_from_dicts([_chunk(minimal(30_000))])
    orig = chunk.metadata.orig_elements
    assert orig is not None
    assert len(orig) == 30_000
    assert 30_000 * (17 + ELEMENT_COST) < DOCUMENT_ALLOWANCE < 40_000 * (17 + ELEMENT_COST)
    with pytest.raises(DocumentLimitError, match="each element counting 256 bytes more"):
        partita.elements_from_dicts([_chunk(minimal(40_000))])


def test_nested_values_draw_on_the_same_budget() -> None:
    # -- one value holding 12 elements whose own values are 1 MiB each (distinct) --
    inner = [_chunk(_whitespace(1, salt)) for salt in range(12)]
    outer = orig_elements_value(json.dumps(inner).encode())
    raw = len(zlib.decompress(base64.b64decode(outer)))
    left = DOCUMENT_ALLOWANCE + MAX_EXPANSION * len(outer) - raw - ELEMENT_COST * len(inner)
    failing = left // _MIB  # -- the first inner value past what is left (each is ~1 MiB) --
    assert failing < len(inner)
    with pytest.raises(DocumentLimitError) as info:
        partita.elements_from_dicts([_chunk(outer)])
    assert str(info.value).endswith(
        f"(at element 0, metadata.orig_elements[{failing}], metadata.orig_elements)"
    )


def test_nesting_is_bounded() -> None:
    assert MAX_ORIG_ELEMENTS_DEPTH == 8
    (chunk,) = partita.elements_from_dicts([_chunk(nested_orig_elements(8))])
    level = chunk
    for _ in range(8):
        assert level.metadata.orig_elements is not None
        (level,) = level.metadata.orig_elements
    assert level.text == "x"
    with pytest.raises(DocumentLimitError, match="nest more than 8 deep") as info:
        partita.elements_from_dicts([_chunk(nested_orig_elements(9))])
    assert info.value.limit == "orig_elements depth"
    assert str(info.value).endswith(
        "(at element 0" + ", metadata.orig_elements[0]" * 8 + ", metadata.orig_elements)"
    )


def test_a_repeated_value_is_decoded_once_and_shared() -> None:
    elements = [partita.Title("Intro"), partita.NarrativeText("word " * 400)]
    chunks = chunk_by_title(elements, max_characters=300)
    assert len(chunks) > 2
    text = partita.elements_to_json(chunks)
    values = [d["metadata"]["orig_elements"] for d in json.loads(text)]
    assert values[1] == values[2]  # -- the split pieces carry the same value --
    again = partita.elements_from_json(text=text)
    assert again == chunks
    assert again[1].metadata.orig_elements is again[2].metadata.orig_elements
    buffer = io.StringIO()
    partita.elements_to_jsonl(chunks, buffer)
    streamed = list(partita.iter_elements_from_jsonl(io.StringIO(buffer.getvalue())))
    assert streamed[1].metadata.orig_elements is streamed[2].metadata.orig_elements
    assert partita.elements_to_json(again) == text


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("é" + orig_elements_value(b"[]"), "orig_elements is not valid"),
        ("%%%", "orig_elements is not valid"),
        (base64.b64encode(zlib.compress(b"[]")[:-3]).decode(), "orig_elements is truncated"),
        (orig_elements_value(b'["\xff"]'), "orig_elements is not UTF-8 JSON"),
        (orig_elements_value(b"{}"), "must encode a JSON array, got an object"),
        (orig_elements_value(b"[1,"), "not valid JSON: Expecting value"),
    ],
)
def test_undecodable_values_are_malformed(value: str, message: str) -> None:
    with pytest.raises(MalformedJSONError, match=message) as info:
        elements_from_base64_json(value)
    assert info.value.position is not None
    assert info.value.position.startswith("orig_elements")


def _budget_used(text: str) -> tuple[int, int]:
    """(bytes of budget the document's orig_elements used, bytes they were granted)."""
    reader = ElementReader()
    items = json.loads(text)
    for i, item in enumerate(items):
        reader.element(item, f"element {i}")
    granted = MAX_EXPANSION * sum(len(d["metadata"].get("orig_elements", "")) for d in items)
    return DOCUMENT_ALLOWANCE + granted - reader.budget.remaining, granted


@pytest.mark.parametrize(
    "name",
    [
        "docling/unit_test_headers_numbered.docx",  # -- the fewest characters per element --
        "unstructured/korean-text-with-tables.pdf",  # -- the most compressible --
        "unstructured/example-list-items-multiple.docx",
    ],
)
def test_real_chunk_files_use_under_a_quarter_of_their_budget(name: str) -> None:
    elements = partita.partition(str(shared_corpus() / name))
    for chunks in (
        chunk_by_title(elements),
        chunk_by_title(elements, max_characters=100),
        chunk_elements(elements, max_characters=2000),
        chunk_by_title(chunk_by_title(elements), max_characters=2000),
    ):
        used, granted = _budget_used(partita.elements_to_json(chunks))
        assert 0 < used < granted / 4
