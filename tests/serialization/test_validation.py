"""Metadata fields of the wrong type are refused at load, naming the element and the field."""

from __future__ import annotations

from typing import Any

import pytest

import partita
from partita.elements import CoordinatesMetadata, DataSourceMetadata, Link
from partita.errors import MalformedJSONError
from partita.serialization._validation import MAX_NESTING_DEPTH, check_json_value


def _load_metadata(metadata: dict[str, Any]) -> partita.Element:
    (_, element) = partita.elements_from_dicts(
        [
            {"type": "Title", "text": "t"},
            {"type": "NarrativeText", "text": "x", "metadata": metadata},
        ]
    )
    return element


@pytest.mark.parametrize(
    ("metadata", "message", "where"),
    [
        ({"links": 5}, "must be an array of links, got an integer", "metadata.links"),
        ({"text_as_html": 5}, "must be a string, got an integer", "metadata.text_as_html"),
        (
            {"detection_class_prob": "0.9"},
            "must be a number, got a string",
            "metadata.detection_class_prob",
        ),
        ({"page_number": "3"}, "must be an integer, got a string", "metadata.page_number"),
        ({"page_number": 3.0}, "must be an integer, got a number", "metadata.page_number"),
        ({"page_number": True}, "must be an integer, got a boolean", "metadata.page_number"),
        ({"page_number": 2**63}, "is an integer beyond 64 bits", "metadata.page_number"),
        ({"category_depth": [1]}, "must be an integer, got an array", "metadata.category_depth"),
        ({"routing_score": -(2**63) - 1}, "is an integer beyond 64 bits", "metadata.routing_score"),
        ({"is_continuation": 1}, "must be a boolean, got an integer", "metadata.is_continuation"),
        ({"filename": {"a": 1}}, "must be a string, got an object", "metadata.filename"),
        ({"languages": "eng"}, "must be an array of strings, got a string", "metadata.languages"),
        (
            {"languages": ["eng", {"a": 1}]},
            "must be a string, got an object",
            "metadata.languages[1]",
        ),
        (
            {"link_start_indexes": [0, "1"]},
            "must be an integer, got a string",
            "metadata.link_start_indexes[1]",
        ),
        (
            {"key_value_pairs": [1]},
            "must be an object, got an integer",
            "metadata.key_value_pairs[0]",
        ),
        ({"table_as_cells": "cells"}, "must be an object or an array", "metadata.table_as_cells"),
        (
            {"enrichment_origins": []},
            "must be an object of arrays of records",
            "metadata.enrichment_origins",
        ),
        (
            {"enrichment_origins": {"text": [{"type": ["x"]}]}},
            "must be a string, got an array",
            "metadata.enrichment_origins.text[0].type",
        ),
        ({"coordinates": [1, 2]}, "must be an object, got an array", "metadata.coordinates"),
        (
            {"coordinates": {"points": [[1, "2"]], "system": "PixelSpace"}},
            "must be a number, got a string",
            "metadata.coordinates.points[0][1]",
        ),
        (
            {"coordinates": {"points": [[1, 2, 3]], "system": "PixelSpace"}},
            "a point must be an array of 2 numbers",
            "metadata.coordinates.points[0]",
        ),
        (
            {"coordinates": {"points": [[1, 2]], "system": 5}},
            "system must be a string, got an integer",
            "metadata.coordinates",
        ),
        (
            {"coordinates": {"points": [], "system": "PixelSpace", "layout_width": "9"}},
            "must be a number, got a string",
            "metadata.coordinates.layout_width",
        ),
        (
            {"data_source": {"url": 5}},
            "must be a string, got an integer",
            "metadata.data_source.url",
        ),
        (
            {"data_source": {"record_locator": [1]}},
            "must be an object, got an array",
            "metadata.data_source.record_locator",
        ),
        (
            {"data_source": {"permissions_data": {"a": 1}}},
            "must be an array of objects",
            "metadata.data_source.permissions_data",
        ),
        ({"links": [{"url": 5}]}, "url must be a string, got an integer", "metadata.links[0]"),
        ({"links": [{"url": "u", "text": 1}]}, "text must be a string", "metadata.links[0]"),
        (
            {"links": [{"url": "u", "start_index": "4"}]},
            "must be an integer, got a string",
            "metadata.links[0].start_index",
        ),
        (
            {"orig_elements": ["x"]},
            "orig_elements must be a base64 string",
            "metadata.orig_elements",
        ),
    ],
)
def test_a_field_of_the_wrong_type_is_refused_naming_element_and_field(
    metadata: dict[str, Any], message: str, where: str
) -> None:
    with pytest.raises(MalformedJSONError, match=message) as info:
        _load_metadata(metadata)
    assert info.value.position == f"element 1, {where}"


@pytest.mark.parametrize(
    ("item", "message", "where"),
    [
        ({"type": "Title", "text": 5}, "element text must be a string", "text"),
        (
            {"type": "Title", "element_id": 7},
            "element_id must be a string, got an integer",
            "element_id",
        ),
        (
            {"type": "Title", "embeddings": "abc"},
            "must be an array of numbers, got a string",
            "embeddings",
        ),
        (
            {"type": "Title", "embeddings": [0.5, None]},
            "must be a number, got null",
            "embeddings[1]",
        ),
        (
            {"type": "CheckBox", "checked": "no"},
            "checked must be a boolean, got a string",
            "checked",
        ),
        (
            {"type": "Title", "metadata": [1]},
            "metadata must be a JSON object, got an array",
            "metadata",
        ),
    ],
)
def test_an_element_key_of_the_wrong_type_is_refused(
    item: dict[str, Any], message: str, where: str
) -> None:
    with pytest.raises(MalformedJSONError, match=message) as info:
        partita.elements_from_dicts([item])
    assert info.value.position == f"element 0, {where}"


def test_values_of_the_schema_types_are_kept_as_the_reference_keeps_them() -> None:
    element = _load_metadata(
        {
            "page_number": 2**63 - 1,
            "detection_class_prob": 1,  # -- an integer is a number: kept, as the reference does
            "routing_score": 0.25,
            "segment_start_seconds": -1.5e300,
            "coordinates": {"points": [[1, 2.5]], "system": "Custom", "layout_width": 10},
            "data_source": {"url": "s3://b", "record_locator": {"k": [1, {"x": None}]}, "other": 1},
            "links": [{"text": None, "url": "u"}],
            "languages": ["eng"],
            "link_start_indexes": [0, -(2**63)],
            "enrichment_origins": {"text": [{"type": "x", "provider": None, "score": 1.5}]},
            "table_as_cells": [{"x": 0, "content": "a"}],
            "key_value_pairs": [{"key": {"text": "k"}, "value": None}],
            "is_continuation": False,
        }
    )
    meta = element.metadata
    assert meta.page_number == 2**63 - 1
    assert meta.detection_class_prob == 1
    assert type(meta.detection_class_prob) is int
    assert meta.routing_score == 0.25
    assert meta.segment_start_seconds == -1.5e300
    assert meta.coordinates == CoordinatesMetadata(((1, 2.5),), "Custom", 10, None)
    assert type(meta.coordinates.points[0][0]) is int
    # -- the reference's DataSourceMetadata.from_dict ignores keys it does not declare --
    assert meta.data_source == DataSourceMetadata(
        url="s3://b", record_locator={"k": [1, {"x": None}]}
    )
    assert meta.links == (Link(text=None, url="u"),)
    assert meta.languages == ("eng",)
    assert meta.link_start_indexes == (0, -(2**63))
    assert meta.is_continuation is False
    assert meta.table_as_cells == [{"x": 0, "content": "a"}]
    text = partita.elements_to_json([element])
    assert partita.elements_to_json(partita.elements_from_json(text=text)) == text


def test_integer_coordinates_are_written_as_the_reference_writes_them() -> None:
    from unstructured.staging import base as ustaging

    items = [
        {
            "type": "Title",
            "element_id": "a",
            "text": "t",
            "metadata": {
                "coordinates": {
                    "points": [[1, 2], [3, 4]],
                    "system": "PixelSpace",
                    "layout_width": 10,
                    "layout_height": 20,
                }
            },
        }
    ]
    reference = ustaging.elements_to_json(ustaging.elements_from_dicts(items))
    assert partita.elements_to_json(partita.elements_from_dicts(items)) == reference


def test_undeclared_fields_may_hold_any_json_value_nesting_up_to_the_bound() -> None:
    value: Any = "leaf"
    for _ in range(MAX_NESTING_DEPTH):
        value = [value]
    element = _load_metadata({"custom": value, "other": {"n": 10**4000, "f": -1e308}})
    assert element.metadata.extra == {"custom": value, "other": {"n": 10**4000, "f": -1e308}}
    with pytest.raises(MalformedJSONError, match=f"nests more than {MAX_NESTING_DEPTH}") as info:
        _load_metadata({"custom": {"a": [value]}})
    # -- the path names the first array nested too deep: the 33rd --
    assert info.value.position == "element 1, metadata.custom.a" + "[0]" * (MAX_NESTING_DEPTH - 1)


def test_a_cycle_in_dicts_is_refused_as_too_deep() -> None:
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    with pytest.raises(MalformedJSONError, match="nests more than"):
        _load_metadata({"custom": cyclic})


@pytest.mark.parametrize(
    ("value", "message", "path"),
    [
        ({1: "a"}, "has a key that is not a string", ""),
        ([{"a": {1, 2}}], r"is not a JSON value \(a Python set\)", "[0].a"),
        ({"a": [b"x"]}, r"is not a JSON value \(a Python bytes\)", ".a[0]"),
        ([10**4301], "is an integer of more than 4300 digits", "[0]"),
        ({"a": [1.5, float("nan")]}, "is NaN, which JSON cannot hold", ".a[1]"),
        (float("-inf"), "is -Infinity, which JSON cannot hold", ""),
    ],
)
def test_values_json_cannot_hold_are_refused(value: Any, message: str, path: str) -> None:
    with pytest.raises(MalformedJSONError, match=message) as info:
        check_json_value(value, "here")
    assert info.value.position == "here" + path
