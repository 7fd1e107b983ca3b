"""The fast JSON writer against the standard library and the reference, byte for byte."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from unstructured.staging import base as ustaging

import partita
from partita import _json_writer
from partita.elements import CompositeElement, ElementMetadata, NarrativeText, Title
from partita.serialization import _fast_json as fast_json
from partita.serialization import _indented_json as indented_json
from partita.serialization._dicts import element_to_dict
from tests.payloads import same_decoded

pytestmark = pytest.mark.skipif(not _json_writer.AVAILABLE, reason="orjson or msgspec missing")

# -- CJK, emoji (astral), control characters, DEL, quotes, backslashes, lone surrogates --
_ALPHABET = st.one_of(
    st.characters(codec="utf-8"),
    st.sampled_from(list('\x00\x1f\x7f"\\/\n\t\u2028\ud800\udfff中文字\U0001f600\U0010ffff é')),
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
)
_TEXTS = st.text(alphabet=_ALPHABET, max_size=12)
_FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e-4, 9.99e-5, 1e-5, 1e-7, 1e16, 1e-10, 0.1, 123.456]),
)
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=2**63), _FLOATS, _TEXTS
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(_TEXTS, inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(_VALUES, min_size=1, max_size=4), st.integers(min_value=1, max_value=6))
def test_indented_body_is_json_dumps_or_refused(values: list[Any], indent: int) -> None:
    body = _json_writer.indented_body(values, indent)
    if body is not None:
        assert "[" + body + "\n]" == json.dumps(values, indent=indent, sort_keys=True)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(_VALUES)
def test_compact_is_json_dumps_or_refused(value: Any) -> None:
    text = _json_writer.compact(value)
    if text is not None:
        assert text == json.dumps(value, sort_keys=True).encode("ascii")


@pytest.mark.parametrize(
    "value",
    [
        ['中文 \U0001f600 é \x7f \x00 "q" \\ /', {"b": [], "a": {}, "c": [1, [2, {"d": True}]]}],
        [{"\uffff": 1, "\U00010000": 2, "a": 3}],
        [1.5, 0.0001, 1e16, 2.5e300, -0.0, 10**18],
        [[[[[[[["deep"]]]]]]]],
    ],
)
def test_known_shapes_are_written_fast_and_identically(value: list[Any]) -> None:
    assert _json_writer.indented_body(value, 4) is not None
    assert "[" + str(_json_writer.indented_body(value, 4)) + "\n]" == json.dumps(
        value, indent=4, sort_keys=True
    )
    assert _json_writer.compact(value) == json.dumps(value, sort_keys=True).encode()


@pytest.mark.parametrize(
    "value",
    [
        [float("nan")],
        [1e-5],
        [0.00001234],
        [2.5e-300],
        [float("-inf")],
        [2**64],
        ["\ud800"],
        [{1: "a"}],
    ],
)
def test_values_orjson_would_write_differently_are_refused(value: list[Any]) -> None:
    assert _json_writer.indented_body(value, 4) is None
    assert _json_writer.compact(value) is None


def _chunks(n: int, extra: dict[str, Any]) -> list[CompositeElement]:
    """Chunks whose `orig_elements` are shared by split pieces and hold odd metadata."""
    chunks = []
    for i in range(n):
        orig = (
            Title(f"标题 {i} \U0001f600", metadata=ElementMetadata(page_number=i, extra=extra)),
            NarrativeText(
                f"text {i}\x7f\x01",
                metadata=ElementMetadata(
                    languages=("zho", "eng"), detection_class_prob=0.123456789
                ),
            ),
        )
        nested = CompositeElement("inner", metadata=ElementMetadata(orig_elements=orig[:1]))
        for piece in range(1 + i % 3):
            chunks.append(
                CompositeElement(
                    f"{i}.{piece} 中文",
                    metadata=ElementMetadata(
                        filename="f.txt",
                        orig_elements=(*orig, nested),
                        is_continuation=piece > 0 or None,
                        extra=extra,
                    ),
                )
            )
    return chunks


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"score": 0.5, "tiny": 1e-6, "huge": 1e300, "empty": [], "words": ["ü", "\U0001f600"]},
        {"negative_zero": -0.0, "none_inside": [None, 1]},  # -- NaN: tests/serialization --
    ],
)
def test_elements_to_json_matches_the_reference_across_batches_and_threads(
    extra: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fast_json, "_PAYLOAD_BATCH", 3)
    monkeypatch.setattr(fast_json, "_ELEMENT_BATCH", 5)
    monkeypatch.setattr(fast_json, "_THREADED_PAYLOAD_BYTES", 0)
    chunks = _chunks(20, extra)
    ours = partita.elements_to_json(chunks)
    dicts = json.loads(ours)
    reference = ustaging.elements_to_json(ustaging.elements_from_dicts(dicts))
    assert same_decoded(ours, reference)
    assert ours == indented_json.dumps_indented(
        [element_to_dict(e, round_floats=True) for e in chunks], 4
    )


@pytest.mark.parametrize("indent", [2, 3, 4, 8])
def test_elements_to_json_indents_like_the_reference(indent: int) -> None:
    chunks = _chunks(4, {"k": [1, {"v": "x"}]})
    ours = partita.elements_to_json(chunks, indent=indent)
    reference = ustaging.elements_to_json(
        ustaging.elements_from_dicts(json.loads(ours)), indent=indent
    )
    assert same_decoded(ours, reference)


def test_empty_and_unthreaded() -> None:
    assert partita.elements_to_json([]) == ustaging.elements_to_json([])
    plain = [NarrativeText("a", metadata=ElementMetadata(page_number=1))]
    assert partita.elements_to_json(plain) == ustaging.elements_to_json(
        ustaging.elements_from_dicts(json.loads(partita.elements_to_json(plain)))
    )
