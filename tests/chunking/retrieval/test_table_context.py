"""`table_context` never repeats a chunk whole: the chunk that would hold only a table's
introducing sentence goes with the table, or the context drops what it would repeat."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partita
from partita.chunking.retrieval import RECENT_CHUNKS
from partita.elements import Element, ElementMetadata, NarrativeText, Table, TableChunk, Title
from tests.chunking.strategies.checks import check_coverage, check_provenance
from tests.shared import needs_corpus


def repeated_in_context(chunks: list[Element]) -> list[tuple[int, int]]:
    """The `(chunk, table chunk)` pairs where a table chunk's context (its text before
    `extra["text_offset"]`) holds the whole text of one of the `RECENT_CHUNKS` chunks before
    it, since the table before it."""
    found: list[tuple[int, int]] = []
    since: list[int] = []
    for index, chunk in enumerate(chunks):
        if not isinstance(chunk, Table):
            since.append(index)
            continue
        offset = (chunk.metadata.extra or {}).get("text_offset", 0)
        context = chunk.text[:offset]
        found += [(j, index) for j in since[-RECENT_CHUNKS:] if chunks[j].text in context]
        following = chunks[index + 1] if index + 1 < len(chunks) else None
        same_table = (
            isinstance(following, TableChunk)
            and isinstance(chunk, TableChunk)
            and following.metadata.table_id == chunk.metadata.table_id
        )
        if not same_table:
            since = []
    return found


def _rows(count: int) -> Table:
    cells = [(f"Row {i}", f"{i * 7} km") for i in range(count)]
    html = "<table><tr><th>Name</th><th>Length</th></tr>" + "".join(
        f"<tr><td>{a}</td><td>{b}</td></tr>" for a, b in cells
    )
    text = "Name Length " + " ".join(f"{a} {b}" for a, b in cells)
    return Table(text, metadata=ElementMetadata(text_as_html=html + "</table>"))


def _field_guide(rows: int) -> list[Element]:
    elements = [
        Title("Field guide", metadata=ElementMetadata(category_depth=0)),
        NarrativeText("Herons wade in the shallows. Otters fish at dusk. Beavers build dams."),
        Title("Rivers", metadata=ElementMetadata(category_depth=1)),
        NarrativeText(
            "Rivers carry silt to the sea. Many of them are long and slow, and their deltas"
            " hold fertile land. Floods renew the soil of their plains every spring."
        ),
        NarrativeText("The table below lists the longest rivers:"),
        _rows(rows),
    ]
    return [dataclasses.replace(e, element_id=f"e{i}") for i, e in enumerate(elements)]


def test_a_lone_introduction_goes_before_the_table_s_text() -> None:
    elements = _field_guide(2)
    chunks = partita.chunk(
        elements, "by_title", profile="retrieval", max_characters=200, provenance=True
    )
    table = chunks[-1]
    assert isinstance(table, Table)
    assert table.text.startswith(
        "Field guide > Rivers\n\nThe table below lists the longest rivers:\nName Length"
    )
    assert table.metadata.extra is not None
    assert table.metadata.extra["text_offset"] == len("Field guide > Rivers\n\n")
    assert not any(c.text.endswith("rivers:") for c in chunks[:-1])
    assert repeated_in_context(chunks) == []
    check_coverage(chunks, elements)


def test_a_split_table_keeps_the_introduction_s_chunk_and_drops_it_from_its_context() -> None:
    elements = _field_guide(30)
    chunks = partita.chunk(
        elements, "by_title", profile="retrieval", max_characters=200, provenance=True
    )
    tables = [c for c in chunks if isinstance(c, TableChunk)]
    assert len(tables) > 1
    introduction = next(c for c in chunks if c.text.endswith("longest rivers:"))
    assert not isinstance(introduction, Table)
    assert all(t.text.startswith("Field guide > Rivers\n\nName Length") for t in tables[:1])
    assert all("longest rivers" not in t.text for t in tables)
    assert repeated_in_context(chunks) == []
    check_coverage(chunks, elements)


def test_the_last_sentence_of_a_cut_paragraph_alone_is_not_repeated() -> None:
    long = " ".join(f"Sentence {i} says a few words about rivers." for i in range(4))
    elements = [Title("Rivers"), NarrativeText(long + " The table below lists them:"), _rows(2)]
    chunks = partita.chunk(elements, "by_title", profile="retrieval", max_characters=100)
    assert [c.text for c in chunks[-2:]] == [
        "Rivers\n\nThe table below lists them:",
        "Rivers\n\nName Length Row 0 0 km Row 1 7 km",  # -- the sentence dropped, not the path --
    ]
    assert repeated_in_context(chunks) == []


WORDS = st.sampled_from(["alpha", "beta.", "gamma,", "delta!", "épée", "データ。", "x" * 20])


@st.composite
def documents_with_tables(draw: st.DrawFn) -> list[Element]:
    """Sections of titles, paragraphs and short introducing sentences before tables."""
    elements: list[Element] = []
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            depth = draw(st.integers(0, 1))
            elements.append(
                Title(f"Part {len(elements)}", metadata=ElementMetadata(category_depth=depth))
            )
        for _ in range(draw(st.integers(0, 2))):
            words = draw(st.lists(WORDS, min_size=1, max_size=40))
            elements.append(NarrativeText(" ".join(words)))
        if draw(st.booleans()):
            elements.append(NarrativeText(f"Table {len(elements)} lists the figures:"))
        elements.append(_rows(draw(st.integers(1, 12))))
    return [dataclasses.replace(e, element_id=f"e{i}") for i, e in enumerate(elements)]


OPTION_SETS: list[dict[str, Any]] = [
    {"profile": "retrieval"},
    {"table_context": True},
    {"table_context": True, "keep_titles_with_body": True},
    {"table_context": True, "heading_context": "prefix", "split_at": "sentences"},
    {"profile": "retrieval", "table_text": "rows"},
]


@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
@pytest.mark.parametrize("strategy", ["basic", "by_title"])
@pytest.mark.parametrize("unit", ["characters", "tokens"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(elements=documents_with_tables(), window=st.integers(40, 240))
def test_no_table_context_holds_a_chunk_whole(
    options: dict[str, Any], strategy: str, unit: str, elements: list[Element], window: int
) -> None:
    given_options = dict(options, provenance=True)
    if unit == "tokens":
        given_options.update(max_tokens=max(16, window // 4), tokenizer="cl100k_base")
    else:
        given_options["max_characters"] = window
    chunks = partita.chunk(elements, strategy, **given_options)
    assert repeated_in_context(chunks) == []
    check_provenance([c for c in chunks if not isinstance(c, Table)], elements)
    check_coverage(chunks, elements, ordered=options.get("table_text") != "rows")


CORPUS_DOCUMENTS = [
    "docling/word_sample.docx",
    "docling/word_tables.docx",
    "docling/docx_rich_tables_01.docx",
    "unstructured/docx-tables.docx",
    "markitdown/test.docx",
    "mineru/demo1.docx",
    "unstructured/example-10k-1p.html",
    "unstructured/example-steelJIS-datasheet.html",
    "docling/redp5110_sampled.pdf",
    "pdfplumber/chelsea_pdta.pdf",
]


@needs_corpus
@pytest.mark.parametrize("relative", CORPUS_DOCUMENTS)
def test_no_table_context_holds_a_chunk_whole_in_the_corpus(
    relative: str, corpus_dir: Path
) -> None:
    elements = partita.partition(corpus_dir / relative)
    for strategy in ("by_title", "basic"):
        for window in ({}, {"max_characters": 300}, {"max_tokens": 64}):
            chunks = partita.chunk(elements, strategy, profile="retrieval", **window)
            assert repeated_in_context(chunks) == [], (strategy, window)


@needs_corpus
def test_word_sample_has_no_chunk_without_content_of_its_own(corpus_dir: Path) -> None:
    elements = partita.partition(corpus_dir / "docling/word_sample.docx")
    chunks = partita.chunk(elements, "by_title", profile="retrieval")
    introduction = "Here are some interesting things a respectful duck could eat:"
    holding = [c for c in chunks if introduction in c.text]
    assert len(holding) == 1
    assert isinstance(holding[0], Table)
    offset = (holding[0].metadata.extra or {})["text_offset"]
    assert holding[0].text[offset:].startswith(introduction + "\nFood Calories per portion")
    assert repeated_in_context(chunks) == []
