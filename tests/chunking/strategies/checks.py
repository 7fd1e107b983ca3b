"""What every text strategy's chunks must satisfy: exact provenance, and no text lost."""

from __future__ import annotations

from partita.elements import CompositeElement, Element, Table

__all__ = ["check_coverage", "check_provenance"]


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
    chunks: list[Element], elements: list[Element], *, cut_characters: bool = False
) -> None:
    """Every non-whitespace character of every text element lies in some chunk's range, and
    the ranges advance in order (overlap aside); with `cut_characters` (token windows), but a
    character two windows cut between them (multi-byte, decoded as U+FFFD in each)."""
    position = {e.element_id: i for i, e in enumerate(elements)}
    covered: dict[str, set[int]] = {}
    last = (-1, -1)
    for c in chunks:
        extra = c.metadata.extra or {}
        for source in extra.get("sources", []):
            covered.setdefault(source["element_id"], set()).update(
                range(source["start"], source["end"])
            )
        if extra.get("sources"):
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
