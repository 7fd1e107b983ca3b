"""`read_elements`: an elements file read back, or a document partitioned, by format or name."""

from __future__ import annotations

from pathlib import Path

import partita
from partita.partitioners._reading import elements_format_of, read_elements


def test_the_name_tells_an_elements_file(tmp_path: Path) -> None:
    document = tmp_path / "notes.md"
    document.write_text("# Title\n\nSome text.\n", encoding="utf-8")
    elements = read_elements(document)
    assert [e.text for e in elements] == ["Title", "Some text."]
    (tmp_path / "notes.JSON").write_text(partita.elements_to_json(elements), encoding="utf-8")
    partita.elements_to_jsonl(elements, tmp_path / "notes.jsonl")
    for name in ("notes.JSON", "notes.jsonl"):
        assert _ids(read_elements(tmp_path / name)) == _ids(elements)
    assert [elements_format_of(n) for n in ("a.JSON", "b.jsonl", "c.md")] == ["json", "jsonl", None]


def test_the_format_given_wins_and_bytes_are_read_as_a_file(tmp_path: Path) -> None:
    elements = partita.partition(text="One sentence here.")
    data = partita.elements_to_json(elements).encode()
    assert _ids(read_elements(data, input_format="json")) == _ids(elements)
    # -- without a format, bytes are a document; with elements_by_name off, so is a .json --
    assert read_elements(data)[0].text != "One sentence here."
    path = tmp_path / "elements.json"
    path.write_bytes(data)
    assert read_elements(path, elements_by_name=False)[0].text != "One sentence here."


def _ids(elements: list[partita.Element]) -> list[tuple[str, str]]:
    return [(e.element_id, e.text) for e in elements]
