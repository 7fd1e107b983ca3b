"""What every text strategy's chunks must satisfy: exact provenance, and no text lost."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

import partita
from partita.cli import main
from partita.elements import CompositeElement, Element, NarrativeText, Table, Title

__all__ = ["check_command_line", "check_coverage", "check_provenance", "elements_of"]


def elements_of(words: st.SearchStrategy[str]) -> st.SearchStrategy[list[Element]]:
    """Lists of 1 to 6 titles and paragraphs of up to 60 `words`, with ids e0, e1, ..."""
    texts = st.lists(words, min_size=0, max_size=60).map(" ".join)
    return st.lists(
        st.tuples(st.booleans(), texts).map(
            lambda pair: Title(pair[1][:30]) if pair[0] else NarrativeText(pair[1])
        ),
        min_size=1,
        max_size=6,
    ).map(lambda els: [dataclasses.replace(e, element_id=f"e{i}") for i, e in enumerate(els)])


def check_command_line(
    elements: list[Element],
    name: str,
    options: dict[str, Any],
    expected: list[Element],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`partita chunk --strategy name` with `options` as flags, on `elements` as JSON Lines,
    prints `expected`, with provenance."""
    path = tmp_path / "elements.jsonl"
    partita.elements_to_jsonl(elements, path)
    args = ["chunk", str(path), "--strategy", name]
    for key, value in options.items():
        args += ["--" + key.replace("_", "-"), str(value)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert partita.elements_from_json(text=out) == expected
    assert json.loads(out)[0]["metadata"]["sources"]


def check_provenance(chunks: list[Element], elements: list[Element]) -> None:
    """Every record holds exactly (`chunk.text[offset:offset + end - start]` is the element's
    `text[start:end]`), records are in order and disjoint in the chunk's text, and the text
    outside them is the header, whitespace joining elements, or (token windows) the U+FFFD a
    cut character decodes to."""
    by_id = {e.element_id: e for e in elements}
    for c in chunks:
        if not isinstance(c, CompositeElement):
            continue
        extra = c.metadata.extra or {}
        records = extra["sources"]
        assert records
        position = extra.get("text_offset", 0)
        for record in records:
            start, end, offset = record["start"], record["end"], record["offset"]
            assert offset >= position
            assert (
                c.text[offset : offset + end - start] == by_id[record["element_id"]].text[start:end]
            )
            assert not c.text[position:offset].strip(" \n\ufffd")
            position = offset + end - start
        assert not c.text[position:].strip(" \n\ufffd")


def check_coverage(
    chunks: list[Element],
    elements: list[Element],
    *,
    cut_characters: bool = False,
    ordered: bool = True,
) -> None:
    """Every non-whitespace character of every text element lies in some chunk's range, and
    (`ordered`) the ranges advance in order (overlap aside); with `cut_characters` (token
    windows), but a character two windows cut between them (multi-byte, decoded as U+FFFD in
    each)."""
    position = {e.element_id: i for i, e in enumerate(elements)}
    covered: dict[str, set[int]] = {}
    last = (-1, -1)
    for c in chunks:
        extra = c.metadata.extra or {}
        for source in extra.get("sources", []):
            covered.setdefault(source["element_id"], set()).update(
                range(source["start"], source["end"])
            )
        if extra.get("sources") and ordered:
            first = extra["sources"][0]
            now = (position[first["element_id"]], first["start"])
            assert now >= last, "chunks go backwards"
            last = now
    for e in elements:
        if isinstance(e, Table):
            continue
        want = {i for i, ch in enumerate(e.text) if not ch.isspace()}
        missing = want - covered.get(e.element_id, set())
        if cut_characters:
            missing = {i for i in missing if e.text[i].isascii()}
        assert not missing, e.text
