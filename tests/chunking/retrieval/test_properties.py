"""Every retrieval option, alone and as the profile, in "basic" and "by_title", in characters and
tokens: the hard maximum holds, no text is lost, provenance is exact, lazy equals eager."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partita
from partita.chunking._options import ChunkingOptions
from partita.chunking._registry import iter_chunks, strategy_named
from partita.chunking._run import ChunkingRun
from partita.chunking.retrieval._tables import packs_with_text
from partita.elements import Element, ListItem, NarrativeText, Table, Title
from partita.text.sizing._tokenizers import token_counter
from tests.chunking.strategies.checks import check_coverage, check_provenance

OPTION_SETS: list[dict[str, Any]] = [
    {"split_at": "sentences"},
    {"split_at": "sentences", "overlap": 40},
    {"overlap_unit": "sentences", "overlap": 40, "overlap_all": True},
    {"keep_titles_with_body": True},
    {"heading_context": "prefix"},
    {"heading_context": "metadata"},
    {"table_context": True},
    {"page_range": True},
    {"table_text": "rows"},
    {"table_text": "rows", "table_context": True, "keep_titles_with_body": True},
    {"profile": "retrieval"},
    {"combine_unit": "characters", "keep_titles_with_body": True},
]

WORDS = st.sampled_from(
    [
        "alpha",
        "beta.",
        "gamma,",
        "delta!",
        "épée",
        "naïve",
        "データ。",
        "中文，",
        "e\u0301",
        "👩\u200d💻",
        "x" * 30,
    ]
)


@st.composite
def documents(draw: st.DrawFn) -> list[Element]:
    """Titles at two depths, paragraphs, list items and small tables, on pages 1..3."""
    kinds = st.sampled_from(["title1", "title2", "text", "text", "item", "table"])
    elements: list[Element] = []
    page = 1
    for index in range(draw(st.integers(1, 9))):
        kind = draw(kinds)
        words = draw(st.lists(WORDS, min_size=0, max_size=80))
        text = " ".join(words)
        page = min(3, page + draw(st.integers(0, 1)))
        meta = partita.ElementMetadata(page_number=page)
        element: Element
        if kind.startswith("title"):
            element = Title(text[:40], metadata=meta.replace(category_depth=int(kind[-1]) - 1))
        elif kind == "table":
            cells = words[:6] or ["x"]
            html = (
                "<table>"
                + "".join(f"<tr><td>{c}</td><td>{c}</td></tr>" for c in cells)
                + "</table>"
            )
            element = Table(
                " ".join(f"{c} {c}" for c in cells), metadata=meta.replace(text_as_html=html)
            )
        elif kind == "item":
            element = ListItem(text, metadata=meta)
        else:
            element = NarrativeText(text, metadata=meta)
        elements.append(dataclasses.replace(element, element_id=f"e{index}"))
    return elements


CL100K = token_counter("cl100k_base")


@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
@pytest.mark.parametrize("strategy", ["basic", "by_title"])
@pytest.mark.parametrize("unit", ["characters", "tokens"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(elements=documents(), window=st.integers(30, 160))
def test_the_window_holds_and_no_text_is_lost(
    options: dict[str, Any], strategy: str, unit: str, elements: list[Element], window: int
) -> None:
    if strategy == "basic" and "combine_unit" in options:
        return  # -- a "by_title" option --
    given_options = dict(options, provenance=True)
    if unit == "tokens":
        given_options.update(max_tokens=max(12, window // 4), tokenizer="cl100k_base")
        measure, limit = CL100K, max(12, window // 4)
    else:
        given_options["max_characters"] = window
        measure, limit = len, window
    if given_options.get("overlap", 0) >= limit:
        given_options["overlap"] = limit // 2
    chunks = partita.chunk(elements, strategy, **given_options)
    for chunk in chunks:
        assert measure(chunk.text) <= limit or len(chunk.text.strip()) <= 1, chunk.text
    text_chunks = [c for c in chunks if not isinstance(c, Table)]
    check_provenance(text_chunks, elements)
    # -- rows re-rendered are recorded where their words are found, maybe an earlier repeat --
    check_coverage(chunks, elements, ordered=options.get("table_text") != "rows")
    known = {f.name for f in dataclasses.fields(ChunkingOptions) if f.init}
    run = ChunkingRun.of(ChunkingOptions(**{k: v for k, v in given_options.items() if k in known}))
    # -- with `table_context` a one-row table of a few words is packed with the text around it --
    tables = [
        e
        for e in elements
        if isinstance(e, Table) and e.text.strip() and not packs_with_text(e, run)
    ]
    table_chunks = [c for c in chunks if isinstance(c, Table)]
    assert bool(tables) == bool(table_chunks)
    registry = strategy_named(strategy)
    value = registry.validated(**given_options)
    assert isinstance(value, ChunkingOptions)
    assert list(iter_chunks(elements, value)) == chunks
