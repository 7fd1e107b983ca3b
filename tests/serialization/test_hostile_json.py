"""Each hostile elements file of `tests/robustness/hostile_json.py`, read: the exact outcome.

The robustness suite runs the same cases in worker processes under 20 s and 3 GiB (and chunks
and exports what loads); here each is read in process and its error, or its elements, checked.
The two cases of several hundred megabytes (an element beyond orjson's allocation, a JSON Lines
line beyond the bound) run only there; `test_fast_json` and `test_jsonl` cover them small.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

import partita
from partita.errors import DocumentLimitError, MalformedJSONError, PartitaError
from tests.robustness.hostile_json import CASES

_PER_DOCUMENT = "orig_elements decompressed size per document"

# -- name: (error type, `limit` or None, the end of the message); None for a result --
_EXPECTED: dict[str, tuple[type[PartitaError], str | None, str] | None] = {
    "json/orig-elements-whitespace-bomb": (
        DocumentLimitError,
        _PER_DOCUMENT,
        "(at element 0, metadata.orig_elements)",
    ),
    "json/orig-elements-element-flood": (
        DocumentLimitError,
        _PER_DOCUMENT,
        "(at element 0, metadata.orig_elements)",
    ),
    "json/orig-elements-many-values": (
        DocumentLimitError,
        _PER_DOCUMENT,
        "(at element 0, metadata.orig_elements)",
    ),
    "json/orig-elements-nested-bomb": (
        DocumentLimitError,
        _PER_DOCUMENT,
        "(at element 0, metadata.orig_elements)",
    ),
    "json/orig-elements-deep-nesting": (
        DocumentLimitError,
        "orig_elements depth",
        "(at element 0" + ", metadata.orig_elements[0]" * 8 + ", metadata.orig_elements)",
    ),
    "json/links-number": (
        MalformedJSONError,
        None,
        "must be an array of links, got an integer (at element 1, metadata.links)",
    ),
    "json/text-as-html-number": (
        MalformedJSONError,
        None,
        "must be a string, got an integer (at element 1, metadata.text_as_html)",
    ),
    "json/detection-class-prob-string": (
        MalformedJSONError,
        None,
        "must be a number, got a string (at element 1, metadata.detection_class_prob)",
    ),
    "json/embeddings-string": (
        MalformedJSONError,
        None,
        "must be an array of numbers, got a string (at element 0, embeddings)",
    ),
    "json/languages-objects": (
        MalformedJSONError,
        None,
        "must be a string, got an object (at element 1, metadata.languages[0])",
    ),
    "json/enrichment-origins-lists": (
        MalformedJSONError,
        None,
        "must be a string, got an array (at element 1, metadata.enrichment_origins.text[0].type)",
    ),
    "json/page-number-string": (
        MalformedJSONError,
        None,
        "must be an integer, got a string (at element 1, metadata.page_number)",
    ),
    "json/checked-string": (
        MalformedJSONError,
        None,
        "checked must be a boolean, got a string (at element 0, checked)",
    ),
    "json/deep-array": (
        MalformedJSONError,
        None,
        "JSON nested more than 35 arrays or objects deep (at line 1, column 36)",
    ),
    "json/deep-data-source": (
        MalformedJSONError,
        None,
        "JSON nested more than 35 arrays or objects deep (at line 1, column 132)",
    ),
    "json/deep-extra-field": (
        MalformedJSONError,
        None,
        "JSON nested more than 35 arrays or objects deep (at line 1, column 110)",
    ),
    "json/nested-500-extra-field": (
        MalformedJSONError,
        None,
        "nests more than 32 arrays or objects (at element 0, metadata.custom" + "[0]" * 32 + ")",
    ),
    "json/deep-in-orig-elements": (
        MalformedJSONError,
        None,
        "JSON nested more than 35 arrays or objects deep"
        " (at element 0, metadata.orig_elements, line 1, column 36)",
    ),
    "json/invalid-utf8": (MalformedJSONError, None, ": not UTF-8 (at byte 127)"),
    "json/encoded-surrogate": (MalformedJSONError, None, ": not UTF-8 (at byte 127)"),
    "json/page-number-1e400": (
        MalformedJSONError,
        None,
        "must be an integer, got a number (at element 0, metadata.page_number)",
    ),
    "json/page-number-10e4000": (
        MalformedJSONError,
        None,
        "is an integer beyond 64 bits (at element 0, metadata.page_number)",
    ),
    "json/number-5000-digits": (
        MalformedJSONError,
        None,
        "a number has more than 4300 digits (at line 1, column 78)",
    ),
    "json/jsonl-invalid-utf8": (MalformedJSONError, None, "not UTF-8 (at line 2, column 25)"),
    # -- JSON has no NaN or Infinity: the first one read is named (the reference reads both) --
    "json/nan-infinity": (
        MalformedJSONError,
        None,
        "is NaN, which JSON cannot hold (RFC 8259 has no NaN or Infinity)"
        " (at element 0, metadata.detection_class_prob)",
    ),
    "json/float-field-1e400": (
        MalformedJSONError,
        None,
        "is -Infinity, which JSON cannot hold (RFC 8259 has no NaN or Infinity; a number beyond"
        " a double's range, such as 1e400, reads as one) (at element 0,"
        " metadata.detection_class_prob)",
    ),
    "json/utf8-bom": None,
    "json/lone-surrogate-escapes": None,
    "json/duplicate-keys": None,
    "json/jsonl-bom": None,
}
_LARGE = {"json/huge-text-element", "json/jsonl-long-line"}


def _read(path: Path) -> list[partita.Element]:
    if path.suffix == ".jsonl":
        return list(partita.iter_elements_from_jsonl(path))
    return partita.elements_from_json(filename=path)


def test_every_case_has_an_expectation() -> None:
    assert {case.name for case in CASES} == _EXPECTED.keys() | _LARGE


@pytest.mark.parametrize(
    "case", [c for c in CASES if c.name not in _LARGE], ids=lambda case: case.name
)
def test_hostile_case(case: Any, tmp_path: Path) -> None:
    path = tmp_path / case.filename
    path.write_bytes(case.build())
    expected = _EXPECTED[case.name]
    if expected is None:
        elements = _read(path)
        text = partita.elements_to_json(elements)
        assert partita.elements_to_json(partita.elements_from_json(text=text)) == text
        return
    kind, limit, ending = expected
    with pytest.raises(kind) as info:
        _read(path)
    assert type(info.value) is kind
    assert str(info.value).startswith(f"{path}: ")  # -- errors name the file --
    assert str(info.value).endswith(ending)
    if limit is not None:
        assert isinstance(info.value, DocumentLimitError)
        assert info.value.limit == limit
        assert info.value.filename == str(path)


def test_what_the_accepted_cases_read() -> None:
    results = {}
    for case in CASES:
        if case.name in _EXPECTED and _EXPECTED[case.name] is None:
            text = case.build().decode("utf-8-sig")
            if case.filename.endswith(".jsonl"):
                results[case.name] = list(partita.iter_elements_from_jsonl(io.StringIO(text)))
            else:
                results[case.name] = partita.elements_from_json(text=text)
    assert [e.text for e in results["json/utf8-bom"]] == ["Intro", "Body text."]
    assert results["json/lone-surrogate-escapes"][1].text == "B\udfff\ud800dy text."
    (duplicate,) = results["json/duplicate-keys"]
    assert (duplicate.text, duplicate.metadata.page_number) == ("b", 2)
    assert [e.text for e in results["json/jsonl-bom"]] == ["a"]
