"""The fast writer gives orjson only small values: large ones go to the standard library."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from unstructured.staging import base as ustaging

import partita
from partita import _json_writer
from partita.elements import CompositeElement, ElementMetadata, NarrativeText, Table, Title
from partita.serialization import _fast_json as fast_json
from partita.serialization._dicts import element_to_dict
from partita.serialization._fast_json import MAX_FAST_CHARS, json_chars
from tests.payloads import payloads_decoded, same_decoded
from tests.strategies import element_dicts

pytestmark = pytest.mark.skipif(not _json_writer.AVAILABLE, reason="orjson or msgspec missing")


def _longest_string(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return max((max(len(k), _longest_string(v)) for k, v in value.items()), default=0)
    if isinstance(value, (list, tuple)):
        return max(map(_longest_string, value), default=0)
    return 0


@pytest.fixture
def orjson_inputs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The longest string of each value `_json_writer` is given, recorded."""
    seen: list[int] = []
    indented, compact = _json_writer.indented_body, _json_writer.compact

    def indented_body(values: Any, indent: int, **options: bool) -> str | None:
        seen.append(_longest_string(values))
        return indented(values, indent, **options)

    def compact_(value: Any, **options: bool) -> bytes | None:
        seen.append(_longest_string(value))
        return compact(value, **options)

    monkeypatch.setattr(_json_writer, "indented_body", indented_body)
    monkeypatch.setattr(_json_writer, "compact", compact_)
    return seen


def _mixed(big: int) -> list[partita.Element]:
    """A batch of 64 small elements, then large ones (text, html, an extra field) among small
    ones, and chunks whose `orig_elements` are small, or large."""
    large = NarrativeText("é" * big, metadata=ElementMetadata(page_number=2))
    table = Table("t", metadata=ElementMetadata(text_as_html="<td>" + "x" * big + "</td>"))
    odd = Title("odd", metadata=ElementMetadata(extra={"blob": {"k": ["\x01" * big]}}))
    small = [Title(f"heading {i}", metadata=ElementMetadata(languages=("eng",))) for i in range(70)]
    chunk = CompositeElement("c", metadata=ElementMetadata(orig_elements=(large, small[0])))
    plain = CompositeElement("p", metadata=ElementMetadata(orig_elements=tuple(small[:3])))
    return [*small[:64], large, table, *small[64:], odd, chunk, chunk, plain]


def test_large_values_are_written_by_the_standard_library_identically(
    monkeypatch: pytest.MonkeyPatch, orjson_inputs: list[int]
) -> None:
    monkeypatch.setattr(fast_json, "MAX_FAST_CHARS", 20_000)
    elements = _mixed(30_000)
    ours = partita.elements_to_json(elements)
    # -- the first batch and the small payload go to orjson, nothing large does --
    assert len(orjson_inputs) == 2
    assert max(orjson_inputs) < 20_000
    reference = ustaging.elements_to_json(ustaging.elements_from_dicts(json.loads(ours)))
    assert same_decoded(ours, reference)


def test_at_the_default_bound_typical_batches_go_to_orjson(orjson_inputs: list[int]) -> None:
    partita.elements_to_json(_mixed(1000))
    assert len(orjson_inputs) == 4  # -- two batches of elements, two payloads --


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(element_dicts(), min_size=1, max_size=4))
def test_the_estimate_is_never_below_the_json(items: list[dict[str, Any]]) -> None:
    for element in partita.elements_from_dicts(items):
        text = json.dumps(element_to_dict(element, round_floats=True), ensure_ascii=False)
        assert json_chars(element) >= len(text)


def test_an_element_orjson_cannot_allocate_for_is_written_under_a_memory_limit() -> None:
    # -- orjson reserves 8 bytes per byte of a string and crashes (SIGSEGV) when that fails:
    # -- 100 million characters ask for 1 GiB, more than the limit leaves --
    child = textwrap.dedent(
        """
        import resource
        import partita
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        text = partita.elements_to_json([partita.NarrativeText("x" * 100_000_000, element_id="a")])
        print(len(text), text[-60:].split()[-3:])
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.split()[0] == str(100_000_000 + 118)
    assert MAX_FAST_CHARS < 100_000_000


def _float_found(_: str) -> float:
    raise AssertionError("a float in the JSON of an element said to hold none")


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(element_dicts(), min_size=1, max_size=4))
def test_an_element_said_to_hold_no_float_holds_none(items: list[dict[str, Any]]) -> None:
    """`holds_no_float` may say False needlessly, never True wrongly; and the writer, told so,
    still writes the standard library's text."""
    for element in partita.elements_from_dicts(items):
        item = element_to_dict(element, round_floats=True)
        item["metadata"].pop("orig_elements", None)
        if fast_json.holds_no_float(element):
            text = json.dumps(item, sort_keys=True)
            json.loads(text, parse_float=_float_found, parse_constant=_float_found)
            assert _json_writer.compact(item, no_floats=True) == text.encode("ascii")


def test_floats_are_noticed() -> None:
    tiny = NarrativeText("t", metadata=ElementMetadata(extra={"p": 1e-6}))
    prob = NarrativeText("t", metadata=ElementMetadata(detection_class_prob=0.5))
    plain = NarrativeText("t", metadata=ElementMetadata(page_number=3, languages=("eng",)))
    assert not fast_json.holds_no_float(tiny)
    assert not fast_json.holds_no_float(prob)
    assert fast_json.holds_no_float(plain)
    chunk = CompositeElement("c", metadata=ElementMetadata(orig_elements=(tiny, plain)))
    assert fast_json.holds_no_float(chunk)  # -- its payload is written (and checked) apart --
    text = partita.elements_to_json([chunk])
    reference = ustaging.elements_to_json(ustaging.elements_from_dicts(json.loads(text)))
    assert same_decoded(text, reference)
    assert '"p": 1e-06' in payloads_decoded(text)
