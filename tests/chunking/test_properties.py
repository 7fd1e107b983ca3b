"""Invariants of chunking, over generated element streams and options."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partita
from partita.chunking import (
    chunk_by_title,
    chunk_elements,
    iter_chunk_elements,
    iter_chunks_by_title,
    token_counter,
)
from partita.elements import CompositeElement, Element, Table
from tests.chunking.streams import chunking_options, element_streams

_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_WHITESPACE = re.compile(r"\s+")


def _chunk(items: list[dict[str, Any]], options: dict[str, Any], by_title: bool) -> Any:
    elements = partita.elements_from_dicts(items)
    chunks = (chunk_by_title if by_title else chunk_elements)(elements, **options)
    return elements, chunks


@_SETTINGS
@given(st.data(), st.booleans())
def test_every_chunk_fits_the_window_in_character_mode(data: st.DataObject, by_title: bool) -> None:
    items = data.draw(element_streams())
    options = data.draw(chunking_options(by_title=by_title, tokens=False))
    options.pop("skip_table_chunking", None)  # -- a passed-through table is not a chunk --
    _, chunks = _chunk(items, options, by_title)
    hard_max = options.get("max_characters", 500)
    assert all(len(c.text) <= hard_max for c in chunks)
    # -- a table fragment holding only an empty cell has no text, as in the reference --
    assert all(c.text for c in chunks if isinstance(c, CompositeElement))


@settings(_SETTINGS, max_examples=60)
@given(st.data(), st.booleans())
def test_every_text_chunk_fits_the_window_in_token_mode(
    data: st.DataObject, by_title: bool
) -> None:
    items = data.draw(element_streams(max_size=12))
    options = data.draw(chunking_options(by_title=by_title, tokens=True))
    _, chunks = _chunk(items, options, by_title)
    count = token_counter("cl100k_base")
    assert all(
        count(c.text) <= options["max_tokens"] for c in chunks if isinstance(c, CompositeElement)
    )


def _is_subsequence(needle: str, haystack: str) -> bool:
    chars = iter(haystack)
    return all(char in chars for char in needle)


@_SETTINGS
@given(st.data(), st.booleans())
def test_no_text_is_lost_or_reordered(data: st.DataObject, by_title: bool) -> None:
    items = data.draw(element_streams())
    options = data.draw(chunking_options(by_title=by_title, tokens=False))
    options.pop("overlap", None)
    options.pop("overlap_all", None)
    elements, chunks = _chunk(items, options, by_title)
    source = _WHITESPACE.sub("", "".join(e.text for e in elements))
    chunked = _WHITESPACE.sub("", "".join(c.text for c in chunks))
    if any(isinstance(e, Table) for e in elements):
        # -- split tables repeat header rows and spanning cells, so text can only be added --
        assert _is_subsequence(source, chunked)
    else:
        assert chunked == source


@_SETTINGS
@given(st.data(), st.booleans())
def test_orig_elements_recover_the_stream_in_order(data: st.DataObject, by_title: bool) -> None:
    items = data.draw(element_streams())
    options = data.draw(chunking_options(by_title=by_title, tokens=False))
    options["include_orig_elements"] = True
    options.pop("skip_table_chunking", None)
    elements, chunks = _chunk(items, options, by_title)
    recovered: list[Element] = []
    for c in chunks:
        if not c.metadata.is_continuation:
            assert c.metadata.orig_elements is not None
            recovered.extend(c.metadata.orig_elements)
    ids = [e.element_id for e in elements]
    positions = [ids.index(e.element_id) for e in recovered]
    assert positions == sorted(set(positions))
    kept = set(positions)
    assert all(i in kept for i, e in enumerate(elements) if e.text.strip())


@_SETTINGS
@given(st.data(), st.booleans())
def test_lazy_and_eager_forms_are_equal(data: st.DataObject, by_title: bool) -> None:
    items = data.draw(element_streams())
    options = data.draw(chunking_options(by_title=by_title, tokens=False))
    elements = partita.elements_from_dicts(items)
    eager = (chunk_by_title if by_title else chunk_elements)(elements, **options)
    lazy_fn: Any = iter_chunks_by_title if by_title else iter_chunk_elements
    lazy = list(lazy_fn(iter(elements), **options))
    assert lazy == eager


@_SETTINGS
@given(st.data())
def test_table_chunks_of_one_table_share_an_id_and_count_up(data: st.DataObject) -> None:
    items = data.draw(element_streams())
    options = data.draw(chunking_options(by_title=True, tokens=False))
    _, chunks = _chunk(items, options, True)
    by_table: dict[str, list[int]] = {}
    for c in chunks:
        if isinstance(c, Table) and c.metadata.table_id is not None:
            assert c.metadata.chunk_index is not None
            by_table.setdefault(c.metadata.table_id, []).append(c.metadata.chunk_index)
    assert all(indexes == list(range(len(indexes))) for indexes in by_table.values())
