"""Fuzzing the readers: values of every JSON type in every field, and mutated corpus JSON.

Whatever the input, reading gives elements or a `PartitaError`; whatever reads also chunks
(by_title, basic in characters and in tokens) and exports (JSON, JSON Lines, dicts) without an
exception, and its JSON reads back as the same JSON.
"""

from __future__ import annotations

import base64
import io
import json
import random
import zlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partita
from partita.chunking import chunk_by_title, chunk_elements
from partita.errors import PartitaError
from partita.serialization._schema import FIELD_ORDER
from tests.shared import shared_corpus
from tests.strategies import element_dicts

_ELEMENT_KEYS = ("type", "element_id", "text", "embeddings", "checked", "metadata")
_METADATA_KEYS = (*FIELD_ORDER, "detection_origin", "custom")

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([2**63 - 1, 2**63, -(2**63) - 1, 10**4000]),
    st.floats(),
    st.text(max_size=8),
    st.sampled_from(["PixelSpace", "https://x.org", "<table><tr><td>a</td></tr></table>", "eng"]),
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(["text", "url", "start_index", "points", "system", "type", "k"]),
            inner,
            max_size=3,
        ),
    ),
    max_leaves=8,
)


def _orig_elements(items: list[dict[str, Any]]) -> str:
    return base64.b64encode(zlib.compress(json.dumps(items).encode())).decode()


@st.composite
def _corrupted_elements(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Valid element dicts in which one to three keys (or metadata fields) get any JSON value."""
    items = draw(st.lists(element_dicts(), min_size=1, max_size=4))
    for item in items:
        orig = item.pop("orig", None)
        if orig is not None:
            item["metadata"]["orig_elements"] = _orig_elements(orig)
    for _ in range(draw(st.integers(1, 3))):
        item = draw(st.sampled_from(items))
        value = draw(_JSON)
        if draw(st.booleans()):
            item[draw(st.sampled_from(_ELEMENT_KEYS))] = value
        elif isinstance(item.get("metadata"), dict):
            name = draw(st.sampled_from(_METADATA_KEYS))
            if name == "orig_elements" and draw(st.booleans()):
                value = _orig_elements([{"type": "Title", "text": "t", "metadata": {"k": value}}])
            item["metadata"][name] = value
    return items


def _exercise(elements: list[partita.Element]) -> None:
    """Chunk and export `elements`; the JSON must read back as itself."""
    text = partita.elements_to_json(elements)
    again = partita.elements_from_json(text=text)
    assert partita.elements_to_json(again) == text
    stream = io.StringIO()
    partita.elements_to_jsonl(elements, stream)
    assert list(partita.iter_elements_from_jsonl(io.StringIO(stream.getvalue()))) == again
    partita.elements_to_dicts(elements)
    for chunks in (
        chunk_by_title(elements, max_characters=60, overlap=10),
        chunk_elements(elements, max_characters=40),
        chunk_elements(elements, max_tokens=12, tokenizer="cl100k_base"),
    ):
        partita.elements_to_json(chunks)
        partita.elements_to_dicts(chunks)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(_corrupted_elements())
def test_any_value_in_any_field_reads_or_is_a_typed_error(items: list[dict[str, Any]]) -> None:
    try:
        text = json.dumps(items)
    except ValueError:  # -- an integer json.dumps cannot write: only the dicts path sees it --
        text = None
    for read in (
        lambda: partita.elements_from_dicts(items),
        lambda: partita.elements_from_json(text=text) if text is not None else None,
    ):
        try:
            elements = read()
        except PartitaError:
            continue
        if elements is not None:
            _exercise(elements)


_SEEDS = (
    "unstructured/example-10k-1p.html",
    "unstructured/docx-tables.docx",
    "pdfplumber/scotus-transcript-p1.pdf",
    "docling/wiki.md",
)
_TOKENS = (
    b"0",
    b"-1",
    b"1e400",
    b"NaN",
    b"null",
    b"true",
    b"[]",
    b"{}",
    b'""',
    b"[[[[",
    b"\\ud800",
)


@pytest.fixture(scope="module")
def corpus_json() -> list[tuple[bytes, bool]]:
    """JSON of corpus documents' elements and of their chunks (with `orig_elements`), and the
    chunks as JSON Lines: (bytes, is JSON Lines)."""
    seeds = []
    for name in _SEEDS:
        elements = partita.partition(str(shared_corpus() / name))
        chunks = chunk_by_title(elements, max_characters=300)
        seeds.append((partita.elements_to_json(elements).encode(), False))
        seeds.append((partita.elements_to_json(chunks).encode(), False))
        stream = io.StringIO()
        partita.elements_to_jsonl(chunks, stream)
        seeds.append((stream.getvalue().encode(), True))
    return seeds


def _mutate(data: bytes, rng: random.Random) -> bytes:
    """Flip bits, delete spans, duplicate spans elsewhere, or insert JSON tokens."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(out) or 1)
        operation = rng.randrange(4)
        if operation == 0 and out:
            out[at] ^= 1 << rng.randrange(8)
        elif operation == 1:
            del out[at : at + rng.randint(1, 64)]
        elif operation == 2:
            out[rng.randrange(len(out) or 1) : 0] = out[at : at + rng.randint(1, 256)]
        else:
            out[at:at] = rng.choice(_TOKENS)
    return bytes(out)


@pytest.mark.parametrize("batch", range(4))
def test_mutated_corpus_json_reads_or_is_a_typed_error(
    batch: int, corpus_json: list[tuple[bytes, bool]], tmp_path: Any
) -> None:
    outcomes = {"read": 0, "typed error": 0}
    for trial in range(batch * 100, batch * 100 + 100):
        rng = random.Random(f"serialization:{trial}")
        data, is_jsonl = rng.choice(corpus_json)
        path = tmp_path / ("mutant.jsonl" if is_jsonl else "mutant.json")
        path.write_bytes(_mutate(data, rng))
        try:
            if is_jsonl:
                elements = list(partita.iter_elements_from_jsonl(path))
            else:
                elements = partita.elements_from_json(filename=path)
        except PartitaError:
            outcomes["typed error"] += 1
            continue
        outcomes["read"] += 1
        _exercise(elements)
    assert outcomes["read"] > 0
    assert outcomes["typed error"] > 0


def test_a_table_whose_id_holds_a_lone_surrogate_chunks() -> None:
    # -- "\ud800" is a valid JSON escape, which the reference reads too --
    text = '[{"type": "Table", "element_id": "t\\ud800", "text": "' + "cell " * 40 + '"}]'
    (table,) = partita.elements_from_json(text=text)  # -- too long for one chunk: split --
    assert table.element_id == "t\ud800"
    _exercise([table])
