"""Regression tests on the hostile chunking inputs (`tests/robustness/hostile_chunking.py`).

The robustness suite runs those cases at full size in worker processes under 20 s and 3 GiB;
here the same builders, at sizes the reference still finishes, check the exact outcome: the
reference's chunks, and the size of the output, with the reference's rule for `orig_elements`
(the default) and with partita's bound (`split_orig_elements="bounded"`).
"""

from __future__ import annotations

from typing import Any

import pytest
from unstructured.chunking.basic import chunk_elements as reference_chunk_elements
from unstructured.staging.base import elements_from_dicts as reference_from_dicts

import partita
from partita.chunking import chunk_by_title, chunk_elements, token_counter
from partita.chunking._split_origins import REPEAT_LIMIT, content_size
from partita.elements import Element
from partita.serialization import element_to_dict
from tests.robustness.hostile_chunking import (
    chinese,
    huge_cell_table,
    letters,
    linked_paragraph,
    long_table,
    overlap_loop,
    paragraph,
    spaced_code,
    words,
)

_TOKENS = {"max_tokens": 256, "tokenizer": "cl100k_base"}


def _reference_texts(elements: list[Element], **options: Any) -> list[str]:
    reference_elements = reference_from_dicts([element_to_dict(e) for e in elements])
    chunks = reference_chunk_elements(reference_elements, include_orig_elements=False, **options)
    return [chunk.text for chunk in chunks]


def _texts(elements: list[Element], **options: Any) -> list[str]:
    return [c.text for c in chunk_elements(elements, include_orig_elements=False, **options)]


@pytest.mark.parametrize(
    ("elements", "options"),
    [
        (paragraph(words(1_000_000)), {}),
        (paragraph(letters(1_000_000)), {}),
        (paragraph(chinese(200_000)), {"max_characters": 300, "overlap": 40}),
        (paragraph(letters(32_000)), _TOKENS),
        (paragraph(chinese(16_000)), _TOKENS),
        (paragraph(words(3_000)), _TOKENS),
        (paragraph(words(3_000)), {**_TOKENS, "overlap": 20}),
    ],
    ids=[
        "characters-words",
        "characters-letters",
        "characters-chinese-overlap",
        "tokens-letters",
        "tokens-chinese",
        "tokens-words",
        "tokens-words-overlap",
    ],
)
def test_oversized_elements_chunk_as_the_reference(
    elements: list[Element], options: dict[str, Any]
) -> None:
    assert _texts(elements, **options) == _reference_texts(elements, **options)


def test_the_former_overlap_loop_chunks_as_the_reference() -> None:
    """unstructured 0.27.32 handed back its input forever here ("a " then x's, 10 tokens,
    overlap 3); since 0.27.35 a fragment counts more than the overlap."""
    options = {"max_tokens": 10, "overlap": 3, "tokenizer": "cl100k_base"}
    count = token_counter("cl100k_base")
    texts = _texts(overlap_loop(20_000), **options)
    assert texts == _reference_texts(overlap_loop(20_000), **options)
    assert all(count(text) <= 10 for text in texts)


def test_a_whitespace_run_in_code_costs_nothing() -> None:
    assert _texts(spaced_code(200_000), **_TOKENS) == ["begin", "end"]


def test_a_megabyte_paragraph_past_the_limit_carries_no_orig_elements() -> None:
    elements = paragraph(words(1_000_001))
    chunks = chunk_by_title(elements)
    assert all(c.metadata.orig_elements is None for c in chunks)
    assert len(partita.elements_to_json(chunks)) < 2 * 1_000_001


def test_a_megabyte_paragraph_with_bounded_orig_elements_gives_linear_json() -> None:
    elements = paragraph(words(1_000_000))
    chunks = chunk_by_title(elements, split_orig_elements="bounded")
    assert len(chunks) * content_size(elements) > REPEAT_LIMIT
    assert len(partita.elements_to_json(chunks)) < 3 * 1_000_000
    assert [c.metadata.orig_elements[0].text for c in chunks] == [c.text for c in chunks]  # type: ignore[index]


def test_links_are_kept_once_not_repeated_per_piece() -> None:
    elements = linked_paragraph(100_000)
    chunks = chunk_by_title(elements, split_orig_elements="bounded")
    assert chunks[0].metadata.link_texts == elements[0].metadata.link_texts
    assert all(c.metadata.link_texts is None for c in chunks[1:])
    assert len(partita.elements_to_json(chunks)) < 4 * content_size(elements)


@pytest.mark.parametrize("options", [{}, _TOKENS], ids=["characters", "tokens"])
def test_a_long_table_gives_linear_json(options: dict[str, Any]) -> None:
    elements = long_table(30_000)
    assert all(c.metadata.orig_elements is None for c in chunk_by_title(elements, **options))
    chunks = chunk_by_title(elements, split_orig_elements="bounded", **options)
    assert len(chunks) > 1_000
    for chunk in chunks:
        (part,) = chunk.metadata.orig_elements  # type: ignore[misc]
        assert part.text == chunk.text
        assert part.metadata.text_as_html == chunk.metadata.text_as_html
    assert len(partita.elements_to_json(chunks)) < 3 * content_size(elements)


@pytest.mark.parametrize(
    ("cell", "options"),
    [(words(400_000), {}), (letters(100_000), _TOKENS)],
    ids=["characters-words", "tokens-letters"],
)
def test_a_huge_cell_is_split_into_pieces_that_fit(cell: str, options: dict[str, Any]) -> None:
    chunks = chunk_by_title(huge_cell_table(cell), include_orig_elements=False, **options)
    count = token_counter("cl100k_base") if options else len
    assert all(count(c.text) <= options.get("max_tokens", 500) for c in chunks)
    joined = "".join(c.text for c in chunks).replace(" ", "")
    assert joined == (cell + "small").replace(" ", "")
