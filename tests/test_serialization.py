"""JSON in the reference's schema, checked against the real `unstructured` in both directions."""

from __future__ import annotations

import base64
import io
import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from unstructured.chunking.title import chunk_by_title as u_chunk_by_title
from unstructured.documents import elements as U
from unstructured.documents.coordinates import PixelSpace, PointSpace
from unstructured.staging import base as ustaging

import partita
from partita import serialization
from partita.elements import CompositeElement, ElementMetadata, Link, NarrativeText, Table, Title
from partita.errors import (
    DocumentLimitError,
    FileReadError,
    MalformedJSONError,
    SerializationError,
    UnknownElementTypeError,
)
from partita.serialization import _orig_elements as orig_elements
from tests.payloads import same_decoded
from tests.strategies import element_dicts


def _resolve_orig(items: list[dict[str, Any]], encode: Any) -> list[dict[str, Any]]:
    """Replace each item's unencoded "orig" list by an encoded `orig_elements` value."""
    out = []
    for item in items:
        item = dict(item)
        orig = item.pop("orig", None)
        if orig is not None:
            item["metadata"] = {**item["metadata"], "orig_elements": encode(orig)}
        out.append(item)
    return out


def _u_encode(orig: list[dict[str, Any]]) -> str:
    return ustaging.elements_to_base64_gzipped_json(ustaging.elements_from_dicts(orig))


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(element_dicts(), max_size=6))
def test_json_is_the_references_with_payloads_decoded(items: list[dict[str, Any]]) -> None:
    items = _resolve_orig(items, _u_encode)
    reference = ustaging.elements_to_json(
        ustaging.elements_from_dicts(json.loads(json.dumps(items)))
    )
    ours = partita.elements_to_json(partita.elements_from_dicts(items))
    assert same_decoded(ours, reference)


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(element_dicts(), max_size=6))
def test_the_reference_reads_our_json_with_every_field_intact(
    items: list[dict[str, Any]],
) -> None:
    items = _resolve_orig(
        items, lambda orig: serialization.elements_to_base64_json(partita.elements_from_dicts(orig))
    )
    ours = partita.elements_to_json(partita.elements_from_dicts(items))
    read_back = ustaging.elements_from_json(text=ours)
    assert len(read_back) == len(items)
    assert same_decoded(ustaging.elements_to_json(read_back), ours)
    for element, item in zip(read_back, items, strict=True):
        assert element.text == item["text"]
        assert element.id == item["element_id"]
        assert element.metadata.page_number == item["metadata"].get("page_number")
        assert element.metadata.parent_id == item["metadata"].get("parent_id")
        assert element.metadata.links == item["metadata"].get("links")


def test_dicts_equal_the_reference_dicts() -> None:
    items = [
        {"type": "Title", "element_id": "a", "text": "T", "metadata": {"languages": ["eng"]}},
        {"type": "Table", "element_id": "b", "text": "x", "metadata": {"text_as_html": "<t/>"}},
    ]
    assert partita.elements_to_dicts(partita.elements_from_dicts(items)) == items
    assert ustaging.elements_to_dicts(ustaging.elements_from_dicts(items)) == items


def _rich_reference_elements() -> list[U.Element]:
    meta = U.ElementMetadata(
        filename="/docs/report.pdf",
        page_number=3,
        languages=["eng", "fra"],
        category_depth=2,
        emphasized_text_contents=["bold", "it"],
        emphasized_text_tags=["b", "i"],
        link_texts=["here"],
        link_urls=["https://x.org"],
        links=[{"text": "here", "url": "https://x.org", "start_index": 4}],
        coordinates=U.CoordinatesMetadata(
            points=((10.123, 20.456), (30.789, 40.012)), system=PointSpace(612, 792)
        ),
        detection_class_prob=0.987654321,
        parent_id="parent",
        last_modified="2024-02-03T04:05:06",
        data_source=U.DataSourceMetadata(url="s3://bucket/report.pdf", version="7"),
    )
    table_meta = U.ElementMetadata(
        text_as_html='<table><tr><th>a</th></tr><tr><td rowspan="2">b</td></tr></table>',
        coordinates=U.CoordinatesMetadata(points=((1.26, 2.21),), system=PixelSpace(100, 100)),
    )
    return [
        U.Title("Results", element_id="t1", metadata=meta),
        U.NarrativeText("Read here for more.", element_id="n1", metadata=meta),
        U.Table("a b", element_id="tb1", metadata=table_meta),
        U.Text("Paragraph", element_id="x1"),
        U.CheckBox(checked=True, element_id="c1"),
    ]


def test_we_read_reference_json_without_loss() -> None:
    reference = _rich_reference_elements()
    chunks = u_chunk_by_title(reference[:4], max_characters=30)
    text = ustaging.elements_to_json(reference + chunks)
    ours = partita.elements_from_json(text=text)
    assert same_decoded(partita.elements_to_json(ours), text)
    title = ours[0]
    assert isinstance(title, Title)
    assert title.metadata.coordinates is not None
    assert title.metadata.coordinates.points == ((10.12, 20.46), (30.79, 40.01))
    assert title.metadata.coordinates.system == "PointSpace"
    assert title.metadata.links == (Link(text="here", url="https://x.org", start_index=4),)
    assert title.metadata.emphasized_text_tags == ("b", "i")
    assert title.metadata.category_depth == 2
    table = ours[2]
    assert isinstance(table, Table)
    assert table.metadata.text_as_html == reference[2].metadata.text_as_html
    composite = ours[5]
    assert isinstance(composite, CompositeElement)
    orig = composite.metadata.orig_elements
    assert orig is not None
    assert [type(e).__name__ for e in orig] == ["Title", "NarrativeText"]
    assert orig[0].metadata.links == title.metadata.links


@pytest.mark.parametrize("alias", sorted(U.TYPE_TO_TEXT_ELEMENT_MAP))
def test_type_aliases_map_like_the_reference(alias: str) -> None:
    (element,) = partita.elements_from_dicts([{"type": alias, "text": "x", "metadata": {}}])
    assert element.category == U.TYPE_TO_TEXT_ELEMENT_MAP[alias].category


def test_ad_hoc_metadata_fields_survive_the_round_trip() -> None:
    items = [{"type": "Title", "element_id": "a", "text": "T", "metadata": {"custom": {"k": [1]}}}]
    (element,) = partita.elements_from_dicts(items)
    assert element.metadata.extra == {"custom": {"k": [1]}}
    assert partita.elements_to_dicts([element]) == items


def test_orig_elements_encoding_is_zlib_json_base64() -> None:
    orig = [Title("A", element_id="1"), NarrativeText("b", element_id="2")]
    encoded = serialization.elements_to_base64_json(orig)
    assert base64.b64decode(encoded)[0] == 0x78  # -- a zlib stream: deflate, 32 KiB window --
    decoded = json.loads(zlib.decompress(base64.b64decode(encoded)))
    assert [d["text"] for d in decoded] == ["A", "b"]
    assert serialization.elements_from_base64_json(encoded) == orig


def test_jsonl_round_trip_streams_line_by_line(tmp_path: Path) -> None:
    elements = [Title("A"), NarrativeText("b", metadata=ElementMetadata(page_number=2))]
    path = tmp_path / "out.jsonl"
    assert partita.elements_to_jsonl(elements, path) == 2
    lines = path.read_text().splitlines()
    assert len(lines) == 2
    assert (
        lines[0]
        == ustaging.elements_to_ndjson(ustaging.elements_from_dicts([json.loads(lines[0])])).strip()
    )
    assert list(partita.iter_elements_from_jsonl(path)) == elements

    stream = io.StringIO(lines[0] + "\n\n{not json}\n")
    iterator = partita.iter_elements_from_jsonl(stream)
    assert next(iterator) == elements[0]
    with pytest.raises(MalformedJSONError, match="line 3"):
        next(iterator)


def test_json_file_round_trip(tmp_path: Path) -> None:
    elements = [Title("A"), NarrativeText("b")]
    path = tmp_path / "out.json"
    text = partita.elements_to_json(elements, filename=path)
    assert path.read_text() == text
    assert partita.elements_from_json(filename=path) == elements


# -- errors ---------------------------------------------------------------------------------------


def test_malformed_json_names_line_and_column() -> None:
    with pytest.raises(MalformedJSONError, match=r"line 2, column 14") as info:
        partita.elements_from_json(text='[\n    {"type": }]')
    assert info.value.position == "line 2, column 14"


def test_json_that_is_not_an_array_is_rejected() -> None:
    with pytest.raises(MalformedJSONError, match="array"):
        partita.elements_from_json(text='{"type": "Title"}')


def test_unknown_type_names_the_element() -> None:
    text = json.dumps(
        [{"type": "Title", "text": "a", "metadata": {}}, {"type": "Hologram", "text": "b"}]
    )
    with pytest.raises(UnknownElementTypeError, match="element 1") as info:
        partita.elements_from_json(text=text)
    assert info.value.type_name == "Hologram"


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ([1, 2], "JSON object"),
        ({"type": "Title", "text": 5}, "text"),
        ({"type": "Title", "text": "a", "metadata": []}, "metadata"),
        ({"type": "Title", "text": "a", "metadata": {"coordinates": {"points": 1}}}, "coordinates"),
        ({"type": "Title", "text": "a", "metadata": {"links": [{"text": "x"}]}}, "link"),
        ({"type": "Title", "text": "a", "metadata": {"orig_elements": "%%%"}}, "orig_elements"),
        ({"type": "Title", "text": "a", "metadata": {"languages": "eng"}}, "languages"),
    ],
)
def test_malformed_elements_raise_with_position(item: Any, message: str) -> None:
    with pytest.raises(MalformedJSONError, match=message) as info:
        partita.elements_from_dicts([{"type": "Title", "text": "ok"}, item])
    assert info.value.position is not None
    assert info.value.position.startswith("element 1")


def test_orig_elements_decompression_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(orig_elements, "MAX_DECOMPRESSED_SIZE", 1000)
    bomb = base64.b64encode(zlib.compress(b"[" + b" " * 100_000 + b"]")).decode()
    with pytest.raises(DocumentLimitError, match="more than 1000 bytes") as info:
        serialization.elements_from_base64_json(bomb)
    assert info.value.limit == "orig_elements decompressed size per value"


def test_truncated_orig_elements_is_an_error() -> None:
    whole = zlib.compress(b'[{"type": "Title", "text": "a"}]')
    truncated = base64.b64encode(whole[:-6]).decode()
    with pytest.raises(SerializationError, match="truncated"):
        serialization.elements_from_base64_json(truncated)


def test_unreadable_files_raise_file_read_error(tmp_path: Path) -> None:
    with pytest.raises(FileReadError, match=r"missing\.json"):
        partita.elements_from_json(filename=tmp_path / "missing.json")
    with pytest.raises(FileReadError):
        partita.elements_from_json(filename=tmp_path)
    with pytest.raises(FileReadError):
        list(partita.iter_elements_from_jsonl(tmp_path / "missing.jsonl"))


def test_non_utf8_json_file_is_malformed(tmp_path: Path) -> None:
    path = tmp_path / "latin.json"
    path.write_bytes(b'[{"type": "Title", "text": "\xe9"}]')
    with pytest.raises(MalformedJSONError, match="UTF-8"):
        partita.elements_from_json(filename=path)


def test_exactly_one_source() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        partita.elements_from_json()
    with pytest.raises(ValueError, match="exactly one"):
        partita.elements_from_json(filename="a", text="[]")
