"""`skip_table_chunking=True` passes a table through unchanged, however large: without a profile
(the reference's pipeline) and, as the option promises, under `profile="retrieval"` too."""

from __future__ import annotations

from pathlib import Path

import pytest

import partita
from partita.elements import Element, Table

SAMPLE = Path(__file__).resolve().parents[3] / "fixtures" / "sample.docx"


def _elements_and_table() -> tuple[list[Element], Table]:
    """The sample document's elements and its one table (a real 4-row, 3-column Word table)."""
    elements = partita.partition(SAMPLE)
    tables = [e for e in elements if isinstance(e, Table)]
    assert len(tables) == 1
    return elements, tables[0]


def _table_chunks(chunks: list[Element], table: Table) -> list[Element]:
    """The chunks holding any of `table`'s text."""
    return [c for c in chunks if isinstance(c, Table) or table.text[:40] in c.text]


@pytest.mark.parametrize("strategy", ["basic", "by_title"])
def test_without_a_profile_the_table_is_passed_through_as_it_is(strategy: str) -> None:
    elements, table = _elements_and_table()
    chunks = partita.chunk(elements, strategy, max_characters=40, skip_table_chunking=True)
    assert _table_chunks(chunks, table) == [table]
    assert next(c for c in chunks if isinstance(c, Table)) is table
    # -- and it is the option that does it: without it the table is split in this window --
    split = partita.chunk(elements, strategy, max_characters=40)
    assert len(_table_chunks(split, table)) > 1


@pytest.mark.xfail(
    strict=True,
    reason="the retrieval pipeline chunks tables in context whatever skip_table_chunking says"
    " (partita.chunking.retrieval: iter_retrieval_chunks and tables.iter_table_chunks_in_context"
    " never read opts.skip_tables)",
)
@pytest.mark.parametrize("strategy", ["basic", "by_title"])
@pytest.mark.parametrize("window", [{}, {"max_tokens": 16}])
def test_under_the_retrieval_profile_the_table_is_passed_through_unchanged(
    strategy: str, window: dict[str, int]
) -> None:
    elements, table = _elements_and_table()
    chunks = partita.chunk(
        elements, strategy, profile="retrieval", skip_table_chunking=True, **window
    )
    found = _table_chunks(chunks, table)
    # -- one chunk, the table's own: its class, id and text, with no context before it and no
    # -- element of the text before it (the list item that introduces it) taken in --
    assert len(found) == 1
    (passed,) = found
    assert type(passed) is Table
    assert passed.element_id == table.element_id
    assert passed.text == table.text
    assert passed.metadata.text_as_html == table.metadata.text_as_html
