"""Hostile elements JSON and JSON Lines, built in code: bombs, deep nesting, wrong types, bad text.

Each builder returns the bytes of a `.json` (an array of elements) or `.jsonl` file. They attack
the readers' bounds (`orig_elements` decompression per value and per document, nesting of
`orig_elements`, JSON nesting, JSON Lines line length), the schema's types (every metadata field
has one), the text layer (byte order marks, invalid UTF-8, lone surrogates, NaN, huge numbers)
and the writer (an element too large for orjson's output buffer). The serialization tests
(`tests/serialization/`) read the same bytes and assert the exact error or result.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Iterable
from typing import Any

from tests.robustness.cases import HostileCase

__all__ = [
    "CASES",
    "deep_array",
    "element",
    "elements_json",
    "nested_orig_elements",
    "orig_elements_value",
]

_MIB = 1 << 20


def element(text: str = "x", type_name: str = "NarrativeText", **metadata: Any) -> dict[str, Any]:
    """Return an element dict in the reference's schema."""
    return {"type": type_name, "element_id": "", "text": text, "metadata": metadata}


def elements_json(items: Iterable[Any]) -> bytes:
    """Return `items` as a compact JSON array (UTF-8), as any JSON writer may write them."""
    return json.dumps(list(items), separators=(",", ":")).encode()


def orig_elements_value(payload: bytes | Iterable[bytes]) -> str:
    """Return an `orig_elements` value encoding `payload` (JSON bytes, or pieces of it):
    zlib at level 9, then base64. Pieces are compressed as they come, so a payload of hundreds
    of megabytes is never held whole."""
    pieces = [payload] if isinstance(payload, bytes) else payload
    compressor = zlib.compressobj(9)
    out = [compressor.compress(piece) for piece in pieces]
    out.append(compressor.flush())
    return base64.b64encode(b"".join(out)).decode("ascii")


def _repeated(
    unit: bytes, count: int, *, head: bytes = b"[", tail: bytes = b"]"
) -> Iterable[bytes]:
    """Generate `head`, `unit` `count` times (in blocks of about a mebibyte), then `tail`."""
    yield head
    per_block = max(1, _MIB // len(unit))
    block = unit * per_block
    whole, rest = divmod(count, per_block)
    for _ in range(whole):
        yield block
    yield unit * rest
    yield tail


def _whitespace_bomb(values: int, mebibytes: int) -> bytes:
    """`values` elements, each with an `orig_elements` value of `mebibytes` MiB: "[", spaces,
    "]" (an empty array, highly compressible: 1,000 to 1)."""
    value = orig_elements_value(_repeated(b" " * 1024, mebibytes * 1024 - 1))
    return elements_json(
        element(f"chunk {i}", "CompositeElement", orig_elements=value) for i in range(values)
    )


def _element_flood(values: int, count: int) -> bytes:
    """`values` elements whose `orig_elements` each hold `count` minimal elements (17 bytes of
    JSON each, about 500 bytes once built); each value differs from the others by its first
    element, so that none is decoded once for all."""
    items = []
    for i in range(values):
        head = b'[{"type":"Title","text":"%d"},' % i
        pieces = _repeated(b'{"type":"Title"},', count - 2, head=head, tail=b'{"type":"Title"}]')
        items.append(
            element(f"chunk {i}", "CompositeElement", orig_elements=orig_elements_value(pieces))
        )
    return elements_json(items)


def nested_orig_elements(depth: int, innermost: str = "x") -> str:
    """Return an `orig_elements` value nested `depth` levels deep: each level holds one element
    whose own `orig_elements` is the next level."""
    value = orig_elements_value(elements_json([element(innermost)]))
    for _ in range(depth - 1):
        value = orig_elements_value(
            elements_json([element("level", "CompositeElement", orig_elements=value)])
        )
    return value


def _nested_bomb(copies: int, inner_mebibytes: int) -> bytes:
    """One element whose `orig_elements` holds `copies` elements that each carry the same
    `orig_elements` value of `inner_mebibytes` MiB of whitespace: the outer value compresses the
    repeated inner one (about 1 KB) to almost nothing, so each level multiplies."""
    inner = orig_elements_value(_repeated(b" " * 1024, inner_mebibytes * 1024 - 1))
    unit = json.dumps(
        element("x", "CompositeElement", orig_elements=inner), separators=(",", ":")
    ).encode()
    pieces = [b"[", *(unit + b"," for _ in range(copies - 1)), unit, b"]"]
    return elements_json(
        [element("outer", "CompositeElement", orig_elements=orig_elements_value(pieces))]
    )


def deep_array(depth: int) -> str:
    """Return JSON text: `depth` nested arrays."""
    return "[" * depth + "]" * depth


def _with_metadata(**metadata: Any) -> bytes:
    return elements_json([element("text", "Title"), element("body", **metadata)])


def _raw_metadata(field: str, raw_value: str) -> bytes:
    """An element whose metadata `field` is the JSON text `raw_value`, written verbatim."""
    return (
        '[{"type":"NarrativeText","element_id":"a","text":"body","metadata":{"'
        + field
        + '":'
        + raw_value
        + "}}]"
    ).encode()


def _huge_text(characters: int) -> bytes:
    return (
        b'[{"type":"NarrativeText","element_id":"a","text":"'
        + b"x" * characters
        + b'","metadata":{}}]'
    )


def _jsonl_long_line(characters: int) -> bytes:
    good = json.dumps(element("first")).encode()
    return good + b"\n" + b'{"type":"NarrativeText","text":"' + b"y" * characters + b'"}\n'


_SAMPLE = elements_json(
    [element("Intro", "Title", page_number=1), element("Body text.", page_number=1)]
)

CASES: list[HostileCase] = [
    # -- orig_elements decompression, per value and per document --
    HostileCase(
        "json/orig-elements-whitespace-bomb",
        "whitespace-bomb.json",
        lambda: _whitespace_bomb(4, 199),
    ),
    HostileCase(
        "json/orig-elements-element-flood",
        "element-flood.json",
        lambda: _element_flood(1, 8_000_000),
    ),
    HostileCase(
        "json/orig-elements-many-values", "many-values.json", lambda: _element_flood(400, 60_000)
    ),
    HostileCase(
        "json/orig-elements-nested-bomb", "nested-bomb.json", lambda: _nested_bomb(100_000, 1)
    ),
    HostileCase(
        "json/orig-elements-deep-nesting",
        "deep-orig.json",
        lambda: elements_json(
            [element("chunk", "CompositeElement", orig_elements=nested_orig_elements(400))]
        ),
    ),
    # -- fields of the wrong type --
    HostileCase("json/links-number", "links-number.json", lambda: _with_metadata(links=5)),
    HostileCase(
        "json/text-as-html-number", "html-number.json", lambda: _with_metadata(text_as_html=5)
    ),
    HostileCase(
        "json/detection-class-prob-string",
        "prob-string.json",
        lambda: _with_metadata(detection_class_prob="0.9"),
    ),
    HostileCase(
        "json/embeddings-string",
        "embeddings.json",
        lambda: elements_json([{**element(), "embeddings": "abc"}]),
    ),
    HostileCase(
        "json/languages-objects", "languages.json", lambda: _with_metadata(languages=[{"a": 1}])
    ),
    HostileCase(
        "json/enrichment-origins-lists",
        "enrichment.json",
        lambda: _with_metadata(enrichment_origins={"text": [{"type": ["x"]}]}),
    ),
    HostileCase(
        "json/page-number-string", "page-string.json", lambda: _with_metadata(page_number="3")
    ),
    HostileCase(
        "json/checked-string",
        "checked.json",
        lambda: elements_json([{**element("", "CheckBox"), "checked": "no"}]),
    ),
    # -- deep nesting --
    HostileCase("json/deep-array", "deep-array.json", lambda: deep_array(100_000).encode()),
    HostileCase(
        "json/deep-data-source",
        "deep-data-source.json",
        lambda: _raw_metadata("data_source", '{"record_locator":' + deep_array(50_000) + "}"),
    ),
    HostileCase(
        "json/deep-extra-field",
        "deep-extra.json",
        lambda: _raw_metadata("custom", deep_array(50_000)),
    ),
    HostileCase(
        "json/nested-500-extra-field",
        "nested-500.json",
        lambda: _raw_metadata("custom", deep_array(500)),
    ),
    HostileCase(
        "json/deep-in-orig-elements",
        "deep-in-orig.json",
        lambda: elements_json(
            [
                element(
                    "c",
                    "CompositeElement",
                    orig_elements=orig_elements_value(deep_array(50_000).encode()),
                )
            ]
        ),
    ),
    # -- the writer: an element beyond orjson's reach under the memory limit --
    HostileCase(
        "json/huge-text-element",
        "huge-text.json",
        lambda: _huge_text(260_000_000),
        {"chunking_strategy": "basic", "max_characters": 1 << 30, "include_orig_elements": False},
    ),
    # -- text and numbers --
    HostileCase("json/utf8-bom", "bom.json", lambda: b"\xef\xbb\xbf" + _SAMPLE),
    HostileCase(
        "json/invalid-utf8", "invalid-utf8.json", lambda: _SAMPLE.replace(b"Body", b"B\xff\xfedy")
    ),
    HostileCase(
        "json/encoded-surrogate", "cesu.json", lambda: _SAMPLE.replace(b"Body", b"B\xed\xa0\x80dy")
    ),
    HostileCase(
        "json/lone-surrogate-escapes",
        "surrogates.json",
        lambda: _SAMPLE.replace(b"Body", b"B\\udfff\\ud800dy"),
    ),
    HostileCase(
        "json/nan-infinity",
        "nan.json",
        lambda: _raw_metadata("detection_class_prob", "NaN").replace(
            b'"a"', b'"a","embeddings":[Infinity,-Infinity,NaN]'
        ),
    ),
    HostileCase(
        "json/duplicate-keys",
        "duplicate-keys.json",
        lambda: _raw_metadata("page_number", '1,"page_number":2').replace(
            b'"text":"body"', b'"text":"a","text":"b"'
        ),
    ),
    HostileCase(
        "json/page-number-1e400", "page-1e400.json", lambda: _raw_metadata("page_number", "1e400")
    ),
    HostileCase(
        "json/page-number-10e4000",
        "page-10e4000.json",
        lambda: _raw_metadata("page_number", "1" + "0" * 4000),
    ),
    HostileCase(
        "json/number-5000-digits", "digits.json", lambda: _raw_metadata("custom", "9" * 5000)
    ),
    HostileCase(
        "json/float-field-1e400",
        "prob-1e400.json",
        lambda: _raw_metadata("detection_class_prob", "-1e400"),
    ),
    HostileCase(
        "json/jsonl-invalid-utf8",
        "invalid-utf8.jsonl",
        lambda: b'{"type":"Title","text":"a"}\n{"type":"Title","text":"\xc3\x28"}\n',
    ),
    HostileCase("json/jsonl-long-line", "long-line.jsonl", lambda: _jsonl_long_line(300_000_000)),
    HostileCase(
        "json/jsonl-bom", "bom.jsonl", lambda: b'\xef\xbb\xbf{"type":"Title","text":"a"}\n'
    ),
]
