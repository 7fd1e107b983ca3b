"""What split elements' chunks carry in `orig_elements` (`partita.chunking._split_origins`).

By default, the reference's rule, checked against the reference: the whole element on every
piece, none on the pieces of an element over 1,000,000 characters of text, HTML and image data.
With `split_orig_elements="bounded"`, partita's bound: the pieces carry the element whole up to
`REPEAT_LIMIT`, their own part past it, and the output stays linear in the element's size.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

import pytest
from unstructured.staging.base import elements_from_json as reference_elements_from_json

import partita
from partita.chunking import chunk_by_title
from partita.chunking import chunk_elements as chunk_elements_by_default
from partita.chunking._split_origins import (
    BULKY_FIELDS,
    REPEAT_LIMIT,
    SPLIT_ORIG_ELEMENTS_MAX_CHARS,
    content_size,
)
from partita.elements import ElementMetadata, NarrativeText, Table, TableChunk
from partita.serialization import element_to_dict
from tests.chunking.reference import comparable, run_both

_LINKS = {"link_texts": ["here"], "link_urls": ["https://example.com"]}
_MAX = SPLIT_ORIG_ELEMENTS_MAX_CHARS

chunk_elements = partial(chunk_elements_by_default, split_orig_elements="bounded")
"""partita's bound, the subject of most tests here."""


# -- the reference's rule (the default) ----------------------------------------------------------


def _same_as_reference(
    elements: list[Any], options: dict[str, Any], *, by_title: bool = False
) -> list[Any]:
    """partita's chunks of `elements`, checked equal to the reference's; returned."""
    items = [element_to_dict(e) for e in elements]
    reference, ours, _ = run_both(items, options, by_title=by_title, limit=60.0)
    assert comparable(ours, reference=False) == comparable(reference, reference=True)
    return list(ours)


@pytest.mark.parametrize(
    ("size", "carried"), [(_MAX, True), (_MAX + 1, False)], ids=["at-limit", "past-limit"]
)
def test_the_pieces_of_an_element_past_the_limit_carry_no_orig_elements(
    size: int, carried: bool, caplog: pytest.LogCaptureFixture
) -> None:
    element = NarrativeText("x " * (size // 2) + "x" * (size % 2), element_id="p1")
    assert len(element.text) == size
    with caplog.at_level(logging.WARNING, logger="partita"):
        chunks = _same_as_reference([element], {"max_characters": 400_000})
    assert len(chunks) == 3
    assert all((c.metadata.orig_elements is not None) is carried for c in chunks)
    assert ("Omitting .metadata.orig_elements" in caplog.text) is not carried


def test_html_and_image_data_count_toward_the_limit() -> None:
    metadata = ElementMetadata(text_as_html="<p>" + "h" * 500_000, image_base64="i" * 500_000)
    element = NarrativeText("word " * 40, element_id="p1", metadata=metadata)
    chunks = _same_as_reference([element], {"max_characters": 100})
    assert len(chunks) == 2
    assert all(c.metadata.orig_elements is None for c in chunks)


def test_an_element_past_the_limit_that_fits_keeps_its_orig_elements() -> None:
    element = NarrativeText("x", element_id="p1", metadata=ElementMetadata(image_base64="i" * _MAX))
    (chunk,) = _same_as_reference([element], {})
    assert chunk.metadata.orig_elements == (element,)


def test_an_overlap_prefix_is_no_element() -> None:
    """With `overlap_all`, the element after a chunk starts with that chunk's tail: still a
    pre-chunk of one element, whose pieces carry no `orig_elements` past the limit."""
    big = ElementMetadata(image_base64="i" * _MAX)
    elements = [
        NarrativeText("a small first paragraph", element_id="p0"),
        NarrativeText("word " * 40, element_id="p1", metadata=big),
    ]
    options = {"max_characters": 100, "overlap": 10, "overlap_all": True}
    first, *pieces = _same_as_reference(elements, options)
    assert [e.element_id for e in first.metadata.orig_elements or ()] == ["p0"]
    assert len(pieces) == 3
    assert pieces[0].text.startswith("paragraph")
    assert all(c.metadata.orig_elements is None for c in pieces)


@pytest.mark.parametrize("rows", [1, 3], ids=["one-chunk", "three-chunks"])
def test_a_table_past_the_limit_split_in_chunks_carries_no_orig_elements(rows: int) -> None:
    table = _table(rows)
    table = Table(
        table.text,
        element_id="t1",
        metadata=table.metadata.replace(image_base64="i" * _MAX),
    )
    chunks = _same_as_reference([table], {"max_characters": 20}, by_title=True)
    assert all(isinstance(c, TableChunk) for c in chunks)
    assert len(chunks) == rows
    assert all((c.metadata.orig_elements is None) is (rows > 1) for c in chunks)


def test_without_the_bound_a_split_element_repeats_whole() -> None:
    element = _paragraph(8193)
    chunks = chunk_elements_by_default([element], max_characters=8)
    assert len(chunks) == 1025
    assert all(c.metadata.orig_elements == (element,) for c in chunks)
    assert chunk_by_title([element], max_characters=8) == chunks


def test_split_orig_elements_takes_two_values() -> None:
    with pytest.raises(ValueError, match="'split_orig_elements' must be one of"):
        chunk_elements_by_default([_paragraph(10)], split_orig_elements="parts")  # type: ignore[arg-type]


# -- partita's bound (split_orig_elements="bounded") ---------------------------------------------


def _paragraph(size: int) -> NarrativeText:
    return NarrativeText("x" * size, element_id="p1", metadata=ElementMetadata(filename="a.txt"))


def test_the_limit_is_the_repeated_size() -> None:
    """8192 characters in 1024 pieces repeat exactly the limit; one character more, past it."""
    assert REPEAT_LIMIT == 8192 * 1024
    at_limit = chunk_elements([_paragraph(8192)], max_characters=8)
    assert len(at_limit) == 1024
    assert all(c.metadata.orig_elements == (_paragraph(8192),) for c in at_limit)

    past = chunk_elements([_paragraph(8193)], max_characters=8)
    assert len(past) == 1025
    parts = [c.metadata.orig_elements for c in past]
    assert all(len(p) == 1 for p in parts if p is not None)
    assert [p[0].text for p in parts if p is not None] == [c.text for c in past]
    assert all(
        type(p[0]) is NarrativeText and p[0].element_id == "p1" for p in parts if p is not None
    )
    assert all(p[0].metadata.filename == "a.txt" for p in parts if p is not None)


def test_past_the_limit_only_the_first_piece_keeps_bulky_metadata() -> None:
    metadata = ElementMetadata(
        filename="a.txt",
        emphasized_text_contents=["x"],
        emphasized_text_tags=["b"],
        text_as_html="<p>big</p>",
        **_LINKS,
    )
    element = NarrativeText("word " * 400_000, element_id="p1", metadata=metadata)
    chunks = chunk_elements([element])
    first, later = chunks[0], chunks[1:]
    assert first.metadata.link_texts == ("here",)
    assert first.metadata.emphasized_text_contents == ("x",)
    assert first.metadata.text_as_html == "<p>big</p>"
    first_part = first.metadata.orig_elements[0]  # type: ignore[index]
    assert first_part.metadata.link_urls == ("https://example.com",)
    assert first_part.metadata.text_as_html == "<p>big</p>"
    for chunk in later:
        assert chunk.metadata.is_continuation
        part = chunk.metadata.orig_elements[0]  # type: ignore[index]
        for name in BULKY_FIELDS:
            assert getattr(chunk.metadata, name) is None
            assert getattr(part.metadata, name) is None
        assert part.metadata.filename == "a.txt"
    assert "".join(c.text for c in chunks).replace(" ", "") == element.text.replace(" ", "")


def test_without_orig_elements_later_pieces_leave_bulky_metadata_out_too() -> None:
    element = NarrativeText("word " * 400_000, metadata=ElementMetadata(**_LINKS))
    chunks = chunk_elements([element], include_orig_elements=False)
    assert chunks[0].metadata.link_texts == ("here",)
    assert all(c.metadata.link_texts is None for c in chunks[1:])
    assert all(c.metadata.orig_elements is None for c in chunks)


def test_a_megabyte_paragraph_gives_json_linear_in_its_size() -> None:
    """The reference: 2,000 copies of the megabyte (1.5 GB of JSON). partita: about 2.6 MB."""
    element = NarrativeText(" ".join(f"w{i % 997}" for i in range(200_000)))
    size = len(element.text)
    chunks = chunk_elements([element])
    assert len(chunks) * content_size([element]) > REPEAT_LIMIT
    text = partita.elements_to_json(chunks)
    assert len(text) < 3 * size


def test_the_reference_reads_the_parts() -> None:
    element = _paragraph(20_000)
    chunks = chunk_elements([element], max_characters=10)
    read = reference_elements_from_json(text=partita.elements_to_json(chunks))
    assert [c.text for c in read] == [c.text for c in chunks]
    for ours, theirs in zip(chunks, read, strict=True):
        (part,) = theirs.metadata.orig_elements
        assert part.text == ours.text
        assert part.id == "p1"


def _table(rows: int) -> Table:
    cells = [[f"r{i}c{j}" for j in range(3)] for i in range(rows)]
    html = "<table>" + "".join(
        "<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in cells
    )
    text = " ".join(" ".join(row) for row in cells)
    return Table(text, element_id="t1", metadata=ElementMetadata(text_as_html=html + "</table>"))


def test_a_large_table_gives_chunks_carrying_their_own_rows() -> None:
    table = _table(20_000)
    chunks = chunk_elements([table])
    assert all(isinstance(c, TableChunk) for c in chunks)
    assert len(chunks) * content_size([table]) > REPEAT_LIMIT
    for chunk in chunks:
        (part,) = chunk.metadata.orig_elements  # type: ignore[misc]
        assert type(part) is Table
        assert part.element_id == "t1"
        assert part.text == chunk.text
        assert part.metadata.text_as_html == chunk.metadata.text_as_html
    size = len(table.text) + len(table.metadata.text_as_html or "")
    assert len(partita.elements_to_json(chunks)) < 4 * size


def test_a_small_table_keeps_the_reference_output() -> None:
    table = _table(200)
    chunks = chunk_elements([table])
    assert len(chunks) > 1
    assert all(c.metadata.orig_elements == (table,) for c in chunks)


def test_content_size_counts_text_and_bulky_fields() -> None:
    element = NarrativeText(
        "abcd", metadata=ElementMetadata(text_as_html="<p>abcd</p>", filename="long-name")
    )
    assert content_size([element]) == 4 + len("<p>abcd</p>")


@pytest.mark.parametrize("tokens", [False, True])
def test_a_repetition_past_the_reference_bound_is_refused_and_bounded_on_request(
    tokens: bool,
) -> None:
    from partita.errors import DocumentLimitError
    from tests.robustness.hostile_chunking import linked_paragraph

    # -- 100,000 linked words: 3 M characters with the link lists, repeated in each of its
    # -- 1,400 chunks by the reference's rule (4 G characters) --
    elements = linked_paragraph(100_000)
    options: dict[str, Any] = {"max_tokens": 128, "tokenizer": "cl100k_base"} if tokens else {}
    with pytest.raises(DocumentLimitError, match="split_orig_elements='bounded'") as caught:
        chunk_by_title(elements, **options)
    assert caught.value.limit == "orig_elements repeated"
    bounded = chunk_by_title(elements, split_orig_elements="bounded", **options)
    assert "".join(c.text for c in bounded).replace(" ", "") == elements[0].text.replace(" ", "")


def test_a_table_repeated_past_the_reference_bound_is_refused() -> None:
    from partita.errors import DocumentLimitError

    cells = "".join(f"<tr><td>r{i}</td><td>{'v' * 40}</td></tr>" for i in range(8_000))
    text = " ".join(f"r{i} {'v' * 40}" for i in range(8_000))
    links = [f"https://example.com/{i}" for i in range(60_000)]
    table = Table(
        text,
        element_id="t1",
        metadata=ElementMetadata(text_as_html=f"<table>{cells}</table>", link_urls=links),
    )
    with pytest.raises(DocumentLimitError, match="orig_elements"):
        chunk_by_title([table])
