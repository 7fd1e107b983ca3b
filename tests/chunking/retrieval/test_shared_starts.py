"""Under the retrieval profile no two chunks of a document share a long start (`tables`,
`table_headers`): a table's later pieces carry its title, unit and columns, not its
introduction, so their common start is that short header; text chunks share at most their
heading path.

The bound checked, `SHARED_START_LIMIT` (200 characters), holds for documents whose elements
start differently (by more than 48 characters past a header): a continuation header is at most
`MAX_CONTINUATION_CHARACTERS` (150) characters, a heading path header at most
`MAX_HEADER_CHARACTERS` (150), each followed by "\n\n" and the chunk's own text. A document
that repeats its own text (the same paragraph on two pages) gives chunks that share a start
whatever the chunking; the generated documents do not."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partita
from partita.chunking.retrieval._context import MAX_HEADER_CHARACTERS
from partita.chunking.retrieval._table_headers import MAX_CONTINUATION_CHARACTERS
from partita.elements import Element, ElementMetadata, NarrativeText, Table, Title

SHARED_START_LIMIT = 200

_WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9)


def _longest_shared_start(texts: list[str]) -> int:
    longest = 0
    ordered = sorted(texts)
    for a, b in itertools.pairwise(ordered):
        n = 0
        for x, y in zip(a, b, strict=False):
            if x != y:
                break
            n += 1
        longest = max(longest, n)
    return longest


@st.composite
def filings(draw: Any) -> list[Element]:
    """Headings, paragraphs and statements (tables with a year header row, a unit in their
    introduction, up to 60 rows); every element starts with a word of its own."""
    counter = itertools.count()
    elements: list[Element] = []

    def words(low: int, high: int) -> str:
        own = f"w{next(counter)}"
        return " ".join([own, *draw(st.lists(_WORDS, min_size=low, max_size=high))])

    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["title", "text", "long", "table"]))
        if kind == "title":
            depth = draw(st.integers(0, 1))
            elements.append(
                Title(words(1, 4).title(), metadata=ElementMetadata(category_depth=depth))
            )
        elif kind in ("text", "long"):
            elements.append(NarrativeText(words(5, 200 if kind == "long" else 30) + "."))
        else:
            elements.append(NarrativeText(words(4, 12) + " (in millions):"))
            rows = draw(st.integers(1, 60))
            label = f"w{next(counter)}"
            cells = [
                (f"{label} {i} {draw(_WORDS)}", f"{i},{draw(st.integers(100, 999))}")
                for i in range(rows)
            ]
            html = "<table><tr><td></td><td>2023</td></tr>" + "".join(
                f"<tr><td>{a}</td><td>{b}</td></tr>" for a, b in cells
            )
            text = "2023 " + " ".join(f"{a} {b}" for a, b in cells)
            elements.append(Table(text, metadata=ElementMetadata(text_as_html=html + "</table>")))
    return elements


@pytest.mark.parametrize("options", [{}, {"max_tokens": 256}, {"table_text": "rows"}])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(elements=filings())
def test_no_two_chunks_share_a_long_start(options: dict[str, Any], elements: list[Element]) -> None:
    chunks = partita.chunk(elements, "by_title", profile="retrieval", **options)
    assert _longest_shared_start([c.text for c in chunks]) < SHARED_START_LIMIT


def test_the_bound_leaves_room_for_the_headers() -> None:
    assert MAX_CONTINUATION_CHARACTERS + len("\n\n") < SHARED_START_LIMIT
    assert MAX_HEADER_CHARACTERS + len("\n\n") < SHARED_START_LIMIT


def test_the_profile_window_takes_max_tokens_in_the_profile_s_tokenizer() -> None:
    text = " ".join(f"word{i} is here." for i in range(400))
    elements = [Title("Heading"), NarrativeText(text)]
    from partita.text.sizing._tokenizers import token_counter

    count = token_counter("cl100k_base")
    for window in (96, 128, 256):
        chunks = partita.chunk_by_title(elements, profile="retrieval", max_tokens=window)
        sizes = [count(c.text) for c in chunks]
        assert max(sizes) <= window
        assert max(sizes) > window * 0.75  # -- the window given is the one used --
