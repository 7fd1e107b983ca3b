"""JSON Lines: lines read with a bound, bad bytes named by line and column."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import partita
from partita.errors import DocumentLimitError, MalformedJSONError
from partita.serialization import _jsonl as jsonl

_LINE = '{"type": "Title", "text": "a"}'


def test_a_line_longer_than_the_bound_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jsonl, "MAX_LINE_LENGTH", len(_LINE))
    path = tmp_path / "long.jsonl"
    longer = _LINE[:-1] + ', "metadata": {}}'
    path.write_text(f"{_LINE}\n{_LINE}\n{longer}\n")
    elements = partita.iter_elements_from_jsonl(path)
    assert [next(elements).text, next(elements).text] == ["a", "a"]
    with pytest.raises(DocumentLimitError, match=f"longer than {len(_LINE)} characters") as info:
        next(elements)
    assert str(info.value).endswith("(at line 3)")
    assert info.value.filename == str(path)
    assert info.value.limit == "JSON Lines line length"


def test_the_last_line_may_end_without_a_newline_at_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jsonl, "MAX_LINE_LENGTH", len(_LINE))
    stream = io.StringIO(f"{_LINE}\n{_LINE}")
    assert [e.text for e in partita.iter_elements_from_jsonl(stream)] == ["a", "a"]
    with pytest.raises(DocumentLimitError):
        list(partita.iter_elements_from_jsonl(io.StringIO(_LINE + " ")))


def test_invalid_utf8_is_named_by_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(f"{_LINE}\n".encode() + b'{"type": "Title", "text": "\xc3("}\n')
    elements = partita.iter_elements_from_jsonl(path)
    assert next(elements).text == "a"
    with pytest.raises(MalformedJSONError, match="not UTF-8") as info:
        next(elements)
    assert info.value.position == "line 2, column 28"
    assert str(info.value) == f"{path}: not UTF-8 (at line 2, column 28)"


def test_a_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + f"{_LINE}\n\n{_LINE}\r\n".encode())
    assert [e.text for e in partita.iter_elements_from_jsonl(path)] == ["a", "a"]


def test_a_stream_that_cannot_decode_is_malformed_at_its_line() -> None:
    stream = io.TextIOWrapper(io.BytesIO(f"{_LINE}\n".encode() + b"\xff\n"), encoding="utf-8")
    elements = partita.iter_elements_from_jsonl(stream)
    with pytest.raises(MalformedJSONError, match="not UTF-8: invalid start byte") as info:
        next(elements)
    # -- the stream decodes ahead: the error surfaces at the first line read --
    assert info.value.position == "line 1"


def test_any_iterable_of_lines_is_read() -> None:
    lines = [_LINE + "\n", "\n", '{"type": "ListItem", "text": "b"}']
    assert [e.text for e in partita.iter_elements_from_jsonl(lines)] == ["a", "b"]  # type: ignore[arg-type]


def test_a_syntax_error_names_line_and_column() -> None:
    stream = io.StringIO(f"{_LINE}\n\n" + '{"type": "Title", "text": }\n')
    with pytest.raises(MalformedJSONError, match="Expecting value") as info:
        list(partita.iter_elements_from_jsonl(stream))
    assert info.value.position == "line 3, column 27"


def test_a_field_error_names_the_line() -> None:
    stream = io.StringIO(f"{_LINE}\n" + '{"type": "Title", "metadata": {"page_number": "2"}}\n')
    with pytest.raises(MalformedJSONError, match="must be an integer") as info:
        list(partita.iter_elements_from_jsonl(stream))
    assert info.value.position == "line 2, metadata.page_number"
