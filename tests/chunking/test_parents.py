"""Small-to-big parents: every child in exactly one parent, parents in order, ids stable."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import partita
from partita.chunking.parents import (
    PARENT_ID_KEY,
    parent_id_of,
    take_ranked,
    with_parents,
)
from partita.chunking.provenance import rebuilds
from partita.elements import CompositeElement, ElementMetadata, Table
from partita.text.sizing._tokenizers import token_counter

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "evaluation"
count = token_counter("cl100k_base")


def _chunk(number: int, heading: str, body: str, prefixed: bool) -> CompositeElement:
    prefix = f"{heading}\n\n" if prefixed and heading else ""
    extra = {"heading_path": heading, "text_offset": len(prefix)} if heading else {}
    metadata = ElementMetadata(filename="doc.pdf", page_number=1 + number // 3, extra=extra)
    return CompositeElement(prefix + body, element_id=f"{number:032x}", metadata=metadata)


def _first(pair: tuple[str, object]) -> str:
    return pair[0]


chunk_specs = st.lists(
    st.tuples(
        st.sampled_from(["", "A", "A > B", "C"]),
        st.text(alphabet="abc xyz.\n", min_size=1, max_size=80).filter(str.strip),
        st.booleans(),
    ),
    max_size=30,
)


@settings(max_examples=150, deadline=None)
@given(chunk_specs, st.integers(min_value=1, max_value=60))
def test_every_child_has_exactly_one_parent_and_parents_cover_children_in_order(
    specs: list[tuple[str, str, bool]], budget: int
) -> None:
    chunks = [_chunk(i, *spec) for i, spec in enumerate(specs)]
    children, parents = with_parents(chunks, budget)

    # -- children unchanged but for the parent they name, in order --
    assert [c.element_id for c in children] == [c.element_id for c in chunks]
    assert [c.text for c in children] == [c.text for c in chunks]
    parent_ids = [p.element_id for p in parents]
    assert len(set(parent_ids)) == len(parent_ids)
    named = [c.metadata.extra[PARENT_ID_KEY] for c in children]
    assert all(name in parent_ids for name in named)

    # -- consecutive runs of children, one per parent, in the parents' order --
    pairs = zip(named, children, strict=True)
    runs = [(name, [c for _, c in group]) for name, group in itertools.groupby(pairs, key=_first)]
    assert [name for name, _ in runs] == parent_ids
    for (name, group), parent in zip(runs, parents, strict=True):
        assert name == parent_id_of([c.element_id for c in group])
        keys = {(c.metadata.extra or {}).get("heading_path", "") for c in group}
        assert len(keys) == 1  # -- one section --
        own = [c.text[(c.metadata.extra or {}).get("text_offset", 0) :] for c in group[1:]]
        assert parent.text == "\n\n".join([group[0].text, *own])
        assert len(group) == 1 or count(parent.text) <= budget

    # -- deterministic --
    again = with_parents(chunks, budget)
    assert [p.element_id for p in again.parents] == parent_ids
    assert [p.text for p in again.parents] == [p.text for p in parents]


def test_real_profile_chunks_make_parents_whose_provenance_holds() -> None:
    elements = partita.partition(FIXTURES / "volcanoes.md")
    chunks = partita.chunk(
        elements, "by_title", profile="retrieval", max_tokens=32, provenance=True
    )
    children, parents = with_parents(chunks, 96)
    assert len(parents) < len(chunks)
    by_id = {e.element_id: e for e in elements}
    assert all(rebuilds(parent, by_id) for parent in parents)
    for parent in parents:
        assert (
            count(parent.text) <= 96
            or sum(c.metadata.extra[PARENT_ID_KEY] == parent.element_id for c in children) == 1
        )
        # -- the heading path is said once, at the start --
        heading = (parent.metadata.extra or {}).get("heading_path")
        if heading and " > " in heading:
            assert parent.text.count(heading + "\n\n") <= 1


def test_a_parent_of_one_child_keeps_its_class_and_pages_span_the_children() -> None:
    table = Table("a | b", element_id="t" * 32, metadata=ElementMetadata(page_number=4))
    first = _chunk(0, "A", "one two", True)
    second = CompositeElement(
        "A\n\nthree",
        element_id="2" * 32,
        metadata=ElementMetadata(
            filename="doc.pdf", page_number=2,
            extra={"heading_path": "A", "text_offset": 3, "last_page_number": 3},
        ),
    )  # fmt: skip
    _, parents = with_parents([first, second, table], 512)
    assert [type(p).__name__ for p in parents] == ["CompositeElement", "Table"]
    assert parents[0].text == "A\n\none two\n\nthree"
    assert parents[0].metadata.page_number == 1
    assert parents[0].metadata.extra["last_page_number"] == 3
    assert PARENT_ID_KEY not in (parents[1].metadata.extra or {})


def _section(children: int) -> list[CompositeElement]:
    """`children` chunks of one section ("Revenue"), each about 100 tokens of its own text."""
    body = " ".join(["Quarterly revenue rose on higher volumes."] * 14)
    return [_chunk(i, "Revenue", body, True) for i in range(children)]


def test_the_default_parent_size_is_768_tokens() -> None:
    # -- a section of about 700 tokens stays one parent when no size is given --
    seven = _section(7)
    _, parents = with_parents(seven)
    assert len(parents) == 1
    assert 512 < count(parents[0].text) <= 768
    assert len(with_parents(seven, 512).parents) == 2  # -- what the old default did --
    # -- one over 768 tokens is split, each parent within 768 --
    nine = _section(9)
    assert count(with_parents(nine, 10_000).parents[0].text) > 768
    children, parents = with_parents(nine)
    assert len(parents) == 2
    assert all(count(p.text) <= 768 for p in parents)
    assert [c.metadata.extra[PARENT_ID_KEY] for c in children].count(parents[0].element_id) == 7


def test_parent_tokens_must_be_positive() -> None:
    with pytest.raises(ValueError, match="parent_tokens"):
        with_parents([], 0)


def test_take_ranked_deduplicates_and_keeps_k_or_a_budget() -> None:
    ranked = ["a", "b", "a", "cc", "d"]
    assert take_ranked(ranked, key=str) == ["a", "b", "cc", "d"]
    assert take_ranked(ranked, key=str, k=2) == ["a", "b"]
    assert take_ranked(ranked, key=str, budget=3, size=len) == ["a", "b"]
    assert take_ranked(ranked, key=str, budget=4, size=len) == ["a", "b", "cc"]
    # -- the first is always taken; taking stops at the first that does not fit --
    assert take_ranked(["long", "a"], key=str, budget=1, size=len) == ["long"]
    assert take_ranked(["a", "long", "b"], key=str, budget=2, size=len) == ["a"]
    with pytest.raises(ValueError, match="size"):
        take_ranked(ranked, key=str, budget=3)


@settings(max_examples=100, deadline=None)
@given(chunk_specs, st.integers(min_value=1, max_value=60))
def test_document_scope_packs_across_sections_keeping_a_new_sections_heading(
    specs: list[tuple[str, str, bool]], budget: int
) -> None:
    chunks = [_chunk(i, *spec) for i, spec in enumerate(specs)]
    children, parents = with_parents(chunks, budget, scope="document")
    named = [c.metadata.extra[PARENT_ID_KEY] for c in children]
    runs = [[c for _, c in group] for _, group in
            itertools.groupby(zip(named, children, strict=True), key=_first)]  # fmt: skip
    assert len(runs) == len(parents) <= len(with_parents(chunks, budget).parents)
    for group, parent in zip(runs, parents, strict=True):
        pieces = [group[0].text]
        for before, child in itertools.pairwise(group):
            extra = child.metadata.extra or {}
            same = extra.get("heading_path", "") == (before.metadata.extra or {}).get(
                "heading_path", ""
            )
            pieces.append(child.text[extra.get("text_offset", 0) :] if same else child.text)
        assert parent.text == "\n\n".join(pieces)
        assert len(group) == 1 or count(parent.text) <= budget
    with pytest.raises(ValueError, match="scope"):
        with_parents(chunks, budget, scope="page")
