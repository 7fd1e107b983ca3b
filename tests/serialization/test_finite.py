"""NaN and the infinities: refused when read, never written, on every path; the position named.

JSON (RFC 8259) has no NaN or Infinity. The reference writes them as bare words; partita refuses
them when reading (a `MalformedJSONError` naming the element and the field) and refuses to write
them (a `SerializationError` naming the element and the field), so what it writes is JSON.
"""

from __future__ import annotations

import base64
import io
import json
import math
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partita
from partita.elements import (
    CompositeElement,
    CoordinatesMetadata,
    DataSourceMetadata,
    Element,
    ElementMetadata,
    NarrativeText,
    Title,
)
from partita.errors import MalformedJSONError, SerializationError
from partita.serialization import elements_to_base64_json
from partita.serialization._fast_json import MAX_FAST_CHARS
from partita.serialization._finite import non_finite_path
from tests.strategies import element_dicts

NAN = float("nan")
INF = float("inf")


def _strict_loads(text: str) -> Any:
    """`json.loads` that refuses NaN, Infinity and -Infinity, as RFC 8259 does."""

    def refuse(word: str) -> Any:
        raise ValueError(f"not JSON: {word}")

    return json.loads(text, parse_constant=refuse)


def _coordinates_json(first: str) -> str:
    return (
        '[{"type": "Title", "text": "ok"},'
        ' {"type": "NarrativeText", "text": "x", "metadata": {"coordinates": {"points":'
        f' [[{first}, 1.0], [2.0, 3.0]], "system": "PixelSpace"}}}}}}]'
    )


# -- reading --


@pytest.mark.parametrize(
    ("word", "shown"),
    [("NaN", "NaN"), ("Infinity", "Infinity"), ("-Infinity", "-Infinity"), ("1e400", "Infinity")],
)
def test_reading_text_refuses_a_non_finite_coordinate(word: str, shown: str) -> None:
    with pytest.raises(MalformedJSONError, match=f"is {shown}, which JSON cannot hold") as info:
        partita.elements_from_json(text=_coordinates_json(word))
    assert info.value.position == "element 1, metadata.coordinates.points[0][0]"


def test_reading_a_file_names_the_file_and_the_field(tmp_path: Path) -> None:
    path = tmp_path / "nan.json"
    path.write_text(_coordinates_json("NaN"), encoding="utf-8")
    with pytest.raises(MalformedJSONError) as info:
        partita.elements_from_json(filename=path)
    assert str(info.value).startswith(f"{path}: is NaN")
    assert info.value.position == "element 1, metadata.coordinates.points[0][0]"


def test_reading_json_lines_names_the_line_and_the_field(tmp_path: Path) -> None:
    lines = (
        '{"type": "Title", "text": "a"}\n'
        '{"type": "Title", "text": "b", "embeddings": [0.5, -Infinity]}\n'
    )
    stream = partita.iter_elements_from_jsonl(io.StringIO(lines))
    assert next(stream).text == "a"
    with pytest.raises(MalformedJSONError, match="is -Infinity") as info:
        next(stream)
    assert info.value.position == "line 2, embeddings[1]"
    path = tmp_path / "nan.jsonl"
    path.write_text(lines, encoding="utf-8")
    with pytest.raises(MalformedJSONError) as info:
        list(partita.iter_elements_from_jsonl(path))
    assert str(info.value).startswith(f"{path}: is -Infinity")


@pytest.mark.parametrize(
    ("metadata", "where"),
    [
        ({"detection_class_prob": NAN}, "metadata.detection_class_prob"),
        ({"segment_end_seconds": INF}, "metadata.segment_end_seconds"),
        (
            {"coordinates": {"points": [], "system": "PixelSpace", "layout_height": -INF}},
            "metadata.coordinates.layout_height",
        ),
        ({"custom": {"scores": [1.0, [2, NAN]]}}, "metadata.custom.scores[1][1]"),
        ({"custom": INF}, "metadata.custom"),
        (
            {"data_source": {"record_locator": {"offset": NAN}}},
            "metadata.data_source.record_locator.offset",
        ),
        (
            {"enrichment_origins": {"text": [{"score": INF}]}},
            "metadata.enrichment_origins.text[0].score",
        ),
    ],
)
def test_reading_dicts_refuses_every_non_finite_field(metadata: dict[str, Any], where: str) -> None:
    with pytest.raises(MalformedJSONError, match="which JSON cannot hold") as info:
        partita.elements_from_dicts([{"type": "Title", "text": "t", "metadata": metadata}])
    assert info.value.position == f"element 0, {where}"


def test_reading_refuses_a_nan_inside_orig_elements() -> None:
    inner = '[{"type": "Title", "text": "t", "embeddings": [NaN]}]'
    encoded = base64.b64encode(zlib.compress(inner.encode())).decode()
    text = json.dumps(
        [{"type": "CompositeElement", "text": "t", "metadata": {"orig_elements": encoded}}]
    )
    with pytest.raises(MalformedJSONError, match="is NaN") as info:
        partita.elements_from_json(text=text)
    assert info.value.position == "element 0, metadata.orig_elements[0], embeddings[0]"


def test_finite_extremes_still_read_and_write_back() -> None:
    text = _coordinates_json("-1.7976931348623157e308")
    elements = partita.elements_from_json(text=text)
    assert elements[1].metadata.coordinates is not None
    assert elements[1].metadata.coordinates.points[0][0] == -1.7976931348623157e308
    written = partita.elements_to_json(elements)
    assert (
        _strict_loads(written)[1]["metadata"]["coordinates"]["points"][0][0]
        == -1.7976931348623157e308
    )


# -- writing --


def _with_nan_coordinates(text: str = "x") -> Element:
    coordinates = CoordinatesMetadata(((0.0, 1.0), (2.0, NAN)), "PixelSpace", 10, 10)
    return NarrativeText(text, metadata=ElementMetadata(coordinates=coordinates))


@pytest.mark.parametrize("indent", [4, 2, 1, 0])
def test_writing_json_refuses_a_nan_coordinate_on_the_fast_and_the_slow_path(indent: int) -> None:
    # -- indent 4 and 2 go through orjson (which would write null), 1 and 0 the standard library --
    with pytest.raises(SerializationError, match="cannot write NaN as JSON") as info:
        partita.elements_to_json([Title("t"), _with_nan_coordinates()], indent=indent)
    assert type(info.value) is SerializationError
    assert info.value.position == "element 1, metadata.coordinates.points[1][1]"


def test_writing_a_batch_too_large_for_orjson_refuses_too() -> None:
    big = _with_nan_coordinates("x" * (MAX_FAST_CHARS + 1))
    with pytest.raises(SerializationError) as info:
        partita.elements_to_json([big])
    assert info.value.position == "element 0, metadata.coordinates.points[1][1]"


def test_writing_to_a_file_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    with pytest.raises(SerializationError):
        partita.elements_to_json([_with_nan_coordinates()], filename=path)
    assert not path.exists()


@pytest.mark.parametrize(
    ("element", "where", "shown"),
    [
        (NarrativeText("e", embeddings=(0.1, -INF)), "embeddings[1]", "-Infinity"),
        (
            NarrativeText("p", metadata=ElementMetadata(detection_class_prob=NAN)),
            "metadata.detection_class_prob",
            "NaN",
        ),
        (
            NarrativeText("x", metadata=ElementMetadata(extra={"scores": {"a": [1, INF]}})),
            "metadata.scores.a[1]",
            "Infinity",
        ),
        (
            NarrativeText(
                "d",
                metadata=ElementMetadata(data_source=DataSourceMetadata(record_locator={"o": NAN})),
            ),
            "metadata.data_source.record_locator.o",
            "NaN",
        ),
        (
            CompositeElement(
                "c", metadata=ElementMetadata(orig_elements=(Title("t"), _with_nan_coordinates()))
            ),
            "metadata.orig_elements[1], metadata.coordinates.points[1][1]",
            "NaN",
        ),
    ],
)
def test_every_writer_names_the_element_and_field(element: Element, where: str, shown: str) -> None:
    elements = [Title("first"), element]
    with pytest.raises(SerializationError, match=f"cannot write {shown} as JSON") as info:
        partita.elements_to_json(elements)
    assert info.value.position == f"element 1, {where}"
    stream = io.StringIO()
    with pytest.raises(SerializationError, match=f"cannot write {shown} as JSON") as info:
        partita.elements_to_jsonl(elements, stream)
    assert info.value.position == f"element 1, {where}"
    assert [json.loads(line)["text"] for line in stream.getvalue().splitlines()] == ["first"]
    with pytest.raises(SerializationError) as info:
        elements_to_base64_json(elements)
    assert info.value.position == f"element 1, {where}"


# -- the property: whatever is written is JSON --

_ANY_FLOAT = st.floats(allow_nan=True, allow_infinity=True)
_FEW_FLOATS = st.lists(_ANY_FLOAT, max_size=3)


@st.composite
def _python_elements(draw: st.DrawFn, depth: int = 0) -> Element:
    """An element built in Python, where nothing stops a NaN or an infinity; its
    `orig_elements` nest at most 3 deep (elements JSON refuses past 8 when read back)."""
    fields: dict[str, Any] = {}
    if draw(st.booleans()):
        points = draw(st.lists(st.tuples(_ANY_FLOAT, _ANY_FLOAT), min_size=1, max_size=3))
        system = draw(st.sampled_from(["PixelSpace", "PointSpace"]))
        fields["coordinates"] = CoordinatesMetadata(tuple(points), system, draw(_ANY_FLOAT))
    if draw(st.booleans()):
        fields["detection_class_prob"] = draw(_ANY_FLOAT)
    if draw(st.booleans()):
        fields["extra"] = {"custom": draw(st.dictionaries(st.sampled_from("ab"), _FEW_FLOATS))}
    embeddings = tuple(draw(_FEW_FLOATS)) or None
    if depth < 3 and draw(st.booleans()):
        orig = tuple(draw(st.lists(_python_elements(depth + 1), min_size=1, max_size=2)))
        fields["orig_elements"] = orig
        return CompositeElement("c", metadata=ElementMetadata(**fields), embeddings=embeddings)
    return NarrativeText("n", metadata=ElementMetadata(**fields), embeddings=embeddings)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.lists(_python_elements(), max_size=4),
    st.lists(element_dicts(with_orig=False), max_size=3),
    st.sampled_from([4, 2, 0]),
)
def test_what_elements_to_json_writes_is_always_json(
    built: list[Element], items: list[dict[str, Any]], indent: int
) -> None:
    elements = built + partita.elements_from_dicts(items)
    has_non_finite = any(non_finite_path(e) is not None for e in elements)
    stream = io.StringIO()
    if has_non_finite:
        with pytest.raises(SerializationError) as info:
            partita.elements_to_json(elements, indent=indent)
        assert str(info.value.position).startswith("element ")
        with pytest.raises(SerializationError):
            partita.elements_to_jsonl(elements, stream)
    else:
        text = partita.elements_to_json(elements, indent=indent)
        assert len(_strict_loads(text)) == len(elements)
        again = partita.elements_to_json(partita.elements_from_json(text=text), indent=indent)
        assert again == text
        assert partita.elements_to_jsonl(elements, stream) == len(elements)
    for line in stream.getvalue().splitlines():
        _strict_loads(line)


def test_the_search_finds_nothing_in_finite_elements() -> None:
    element = NarrativeText(
        "x",
        embeddings=(0.0, -0.0, 1e308),
        metadata=ElementMetadata(
            coordinates=CoordinatesMetadata(((1.5, 2.5),), "PixelSpace"),
            extra={"a": [1, "NaN", None, {"b": math.pi}]},
        ),
    )
    assert non_finite_path(element) is None
