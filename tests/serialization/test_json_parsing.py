"""JSON text: every failure of the parser is a `MalformedJSONError` with line and column."""

from __future__ import annotations

from pathlib import Path

import pytest

import partita
from partita.errors import MalformedJSONError
from partita.serialization._json_parsing import loads
from tests.robustness.hostile_json import deep_array


def _document(raw_metadata: str) -> str:
    return '[{"type": "Title", "text": "t", "metadata": {"custom": ' + raw_metadata + "}}]"


def test_text_nested_too_deep_for_the_parser_names_where_nesting_went_too_deep() -> None:
    with pytest.raises(MalformedJSONError, match="JSON nested more than 35") as info:
        partita.elements_from_json(text=deep_array(100_000))
    assert info.value.position == "line 1, column 36"
    text = _document(deep_array(50_000))
    with pytest.raises(MalformedJSONError) as info:
        partita.elements_from_json(text=text)
    # -- the 36th bracket: 3 of the document (array, element, metadata), 33 of the value --
    assert info.value.position == f"line 1, column {text.index('[', 10) + 33}"


def test_deep_nesting_in_strings_does_not_count() -> None:
    head = '[\n{"type": "Title", "text": "' + "[" * 5000 + '", "metadata": {"custom": '
    with pytest.raises(MalformedJSONError) as info:
        partita.elements_from_json(text=head + deep_array(3000) + "}}]")
    # -- the value's 33rd bracket, at offset len(head) + 32, on line 2 (which starts at 2) --
    assert info.value.position == f"line 2, column {len(head) + 32 - 1}"


def test_an_integer_beyond_python_text_conversion_is_malformed() -> None:
    text = _document("9" * 5000)
    with pytest.raises(MalformedJSONError, match="a number has more than 4300 digits") as info:
        partita.elements_from_json(text=text)
    assert info.value.position == f"line 1, column {text.index('9') + 1}"


def test_a_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    text = '[{"type": "Title", "text": "t"}]'
    assert partita.elements_from_json(text="\ufeff" + text) == [partita.Title("t")]
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert partita.elements_from_json(filename=path) == [partita.Title("t")]


@pytest.mark.parametrize(
    ("data", "offset"),
    [
        (b'[{"type": "Title", "text": "\xff"}]', 28),
        (b'\xef\xbb\xbf[{"type": "Title", "text": "\xc3("}]', 31),
        (b'[{"type": "Title", "text": "\xed\xa0\x80"}]', 28),  # -- an encoded surrogate --
    ],
)
def test_invalid_utf8_names_the_first_bad_byte(tmp_path: Path, data: bytes, offset: int) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    with pytest.raises(MalformedJSONError, match=r"bad\.json: not UTF-8") as info:
        partita.elements_from_json(filename=path)
    assert info.value.position == f"byte {offset}"


def test_lone_surrogates_read_and_write_back_as_the_reference_writes_them() -> None:
    text = '[{"type": "NarrativeText", "element_id": "a", "text": "x\\ud800y"}]'
    (element,) = partita.elements_from_json(text=text)
    assert element.text == "x\ud800y"
    written = partita.elements_to_json([element])
    assert '"text": "x\\ud800y"' in written
    assert partita.elements_to_json(partita.elements_from_json(text=written)) == written


def test_of_repeated_keys_the_last_wins() -> None:
    text = (
        '[{"type": "Title", "text": "a", "text": "b",'
        ' "metadata": {"page_number": 1, "page_number": 2}}]'
    )
    (element,) = partita.elements_from_json(text=text)
    assert element.text == "b"
    assert element.metadata.page_number == 2


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("1e400", "must be an integer, got a number"),  # -- parsed as infinity --
        ("1" + "0" * 4000, "is an integer beyond 64 bits"),
        ("-9223372036854775809", "is an integer beyond 64 bits"),
    ],
)
def test_numbers_too_large_for_an_integer_field_are_malformed(raw: str, message: str) -> None:
    text = '[{"type": "Title", "text": "t", "metadata": {"page_number": ' + raw + "}}]"
    with pytest.raises(MalformedJSONError, match=message) as info:
        partita.elements_from_json(text=text)
    assert info.value.position == "element 0, metadata.page_number"


def test_numbers_too_large_for_a_float_are_refused_in_number_fields() -> None:
    text = '[{"type": "Title", "text": "t", "metadata": {"detection_class_prob": -1e400}}]'
    with pytest.raises(MalformedJSONError, match="is -Infinity, which JSON cannot hold") as info:
        partita.elements_from_json(text=text)
    assert info.value.position == "element 0, metadata.detection_class_prob"


def test_loads_positions_within_a_line_of_a_stream() -> None:
    with pytest.raises(MalformedJSONError, match="Expecting value") as info:
        loads('{"type": }', line=7)
    assert info.value.position == "line 7, column 10"
    with pytest.raises(MalformedJSONError) as info:
        loads("[1, 2", where="element 3, metadata.orig_elements")
    assert info.value.position == "element 3, metadata.orig_elements, line 1, column 6"
