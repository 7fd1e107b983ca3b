"""Provenance of the "basic" and "by_title" chunks (`provenance=True`), and its helpers.

Every record must hold exactly (`rebuilds`), on examples whose records are written out and on
generated element streams and options; and recording must change nothing else: with
`provenance` off (False or not given) the chunks are those of the default run, and with it on
they are the same chunks plus `extra["sources"]`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partita
from partita.chunking import ChunkingOptions, chunk_by_title, chunk_elements
from partita.chunking.provenance import (
    SourceText,
    iter_source_texts,
    rebuilds,
    source_record,
    sources_of,
)
from partita.cli import main
from partita.elements import (
    CodeSnippet,
    CompositeElement,
    Element,
    ElementMetadata,
    NarrativeText,
    Table,
    TableChunk,
    Title,
)
from tests.chunking.streams import (
    chunking_options,
    element_streams,
    hostile_options,
    hostile_streams,
)

Chunker = Callable[..., list[Element]]
STRATEGIES = pytest.mark.parametrize("chunker", [chunk_elements, chunk_by_title])


def by_id(elements: Sequence[Element]) -> dict[str, Element]:
    return {e.element_id: e for e in elements}


def spans(chunk: Element) -> list[tuple[str, int, int, int]]:
    return [(r["element_id"], r["start"], r["end"], r["offset"]) for r in sources_of(chunk)]


def assert_rebuilt(chunks: Sequence[Element], elements: Sequence[Element]) -> None:
    index = by_id(elements)
    for chunk in chunks:
        assert rebuilds(chunk, index), (chunk.text, sources_of(chunk))


def without_sources(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for item in items:
        item["metadata"].pop("sources", None)
    return items


# ------------------------------------------------------------------------------------------------
# the option
# ------------------------------------------------------------------------------------------------


def test_provenance_is_off_by_default_for_basic_and_by_title() -> None:
    assert ChunkingOptions().record_sources is False
    assert ChunkingOptions(provenance=None).record_sources is False
    assert ChunkingOptions(provenance=True).record_sources is True


def test_the_command_line_has_provenance_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["chunk", "--help"])
    assert "--provenance, --no-provenance" in capsys.readouterr().out
    elements = tmp_path / "elements.json"
    elements.write_text(partita.elements_to_json([NarrativeText("One  two.", element_id="a")]))
    for flags, expected in ((["--provenance"], True), (["--no-provenance"], False), ([], False)):
        assert main(["chunk", str(elements), *flags]) == 0
        (chunk,) = partita.elements_from_json(text=capsys.readouterr().out)
        assert bool(sources_of(chunk)) is expected


@STRATEGIES
@pytest.mark.parametrize("provenance", [None, False])
def test_without_provenance_the_chunks_are_the_default_ones(
    chunker: Chunker, provenance: bool | None
) -> None:
    elements = [
        Title("Intro"),
        NarrativeText("Hello   world\nfoo bar " * 30),
        Table("a b", metadata=ElementMetadata(text_as_html="<table><tr><td>a b</td></tr></table>")),
    ]
    for options in ({}, {"max_characters": 50, "overlap": 10, "overlap_all": True}):
        default = partita.elements_to_dicts(chunker(elements, **options))
        chunks = chunker(elements, provenance=provenance, **options)
        assert partita.elements_to_dicts(chunks) == default
        assert all(not sources_of(c) for c in chunks)


# ------------------------------------------------------------------------------------------------
# examples, records written out
# ------------------------------------------------------------------------------------------------


@STRATEGIES
def test_a_chunk_records_a_range_per_element(chunker: Chunker) -> None:
    elements = [NarrativeText("One.", element_id="a"), NarrativeText("Two.", element_id="b")]
    (chunk,) = chunker(elements, provenance=True)
    assert chunk.text == "One.\n\nTwo."
    assert sources_of(chunk) == [source_record("a", 0, 4, 0), source_record("b", 0, 4, 6)]


def test_normalized_whitespace_gives_a_record_per_run_of_single_spaced_words() -> None:
    text = "  Hello   world\nfoo bar  "
    (chunk,) = chunk_elements([NarrativeText(text, element_id="a")], provenance=True)
    assert chunk.text == "Hello world foo bar"
    assert spans(chunk) == [("a", 2, 7, 0), ("a", 10, 15, 6), ("a", 16, 23, 12)]


def test_a_code_snippet_is_recorded_whole() -> None:
    code = "  x = 1\n\n  y = 2\n"
    (chunk,) = chunk_elements(
        [Title("Code", element_id="t"), CodeSnippet(code, element_id="c")], provenance=True
    )
    assert spans(chunk) == [("t", 0, 4, 0), ("c", 0, len(code), 6)]


@STRATEGIES
def test_the_overlap_prefix_points_at_the_element_it_came_from(chunker: Chunker) -> None:
    elements = [
        NarrativeText("alpha beta gamma delta", element_id="a"),
        NarrativeText("epsilon zeta", element_id="b"),
    ]
    first, second = chunker(
        elements, max_characters=30, overlap=11, overlap_all=True, provenance=True
    )
    assert (first.text, second.text) == ("alpha beta gamma delta", "gamma delta\n\nepsilon zeta")
    assert spans(first) == [("a", 0, 22, 0)]
    assert spans(second) == [("a", 11, 22, 0), ("b", 0, 12, 13)]


def test_a_split_piece_s_overlap_tail_points_back_into_the_element() -> None:
    text = " ".join(f"w{i}" for i in range(30))
    chunks = chunk_elements(
        [NarrativeText(text, element_id="a")], max_characters=40, overlap=10, provenance=True
    )
    assert len(chunks) > 2
    assert_rebuilt(chunks, [NarrativeText(text, element_id="a")])
    for before, after in pairwise(chunks):
        # -- the piece starts with the end of the one before, where that stands in the text --
        first = sources_of(after)[0]
        assert first["offset"] == 0
        assert first["start"] < sources_of(before)[-1]["end"]
        assert before.text.endswith(text[first["start"] : sources_of(before)[-1]["end"]])


@STRATEGIES
def test_records_need_no_orig_elements(chunker: Chunker) -> None:
    elements = [Title("Intro", element_id="t"), NarrativeText("word " * 200, element_id="n")]
    chunks = chunker(elements, include_orig_elements=False, max_characters=100, provenance=True)
    assert all(c.metadata.orig_elements is None for c in chunks)
    assert all(sources_of(c) for c in chunks)
    assert_rebuilt(chunks, elements)


def test_an_oversized_element_s_pieces_cover_it_once_without_overlap() -> None:
    text = "\n".join(" ".join(f"l{i}w{j}" for j in range(i % 7 + 1)) for i in range(200))
    element = NarrativeText(text, element_id="a")
    chunks = chunk_elements([element], max_characters=60, provenance=True)
    assert_rebuilt(chunks, [element])
    covered = [(r["start"], r["end"]) for c in chunks for r in sources_of(c)]
    assert covered == sorted(covered)
    assert all(a[1] <= b[0] for a, b in pairwise(covered))
    recorded = "".join(text[s:e] for s, e in covered)
    assert "".join(recorded.split()) == "".join(text.split())  # -- all of it, once --


HTML = (
    "<table><thead><tr><th>Name</th><th>Score</th></tr></thead><tbody>"
    + "".join(f"<tr><td>player {i}</td><td>{i * 7}</td></tr>" for i in range(12))
    + "</tbody></table>"
)
TABLE_TEXT = "Name Score " + " ".join(f"player {i} {i * 7}" for i in range(12))


def test_a_table_that_fits_records_its_stripped_text() -> None:
    table = Table(f"  {TABLE_TEXT}\n", element_id="t", metadata=ElementMetadata(text_as_html=HTML))
    (chunk,) = chunk_elements([table], max_characters=1000, provenance=True)
    assert isinstance(chunk, Table)
    assert spans(chunk) == [("t", 2, 2 + len(TABLE_TEXT), 0)]


def test_table_chunks_from_html_record_their_rows_and_repeated_headers() -> None:
    table = Table(TABLE_TEXT, element_id="t", metadata=ElementMetadata(text_as_html=HTML))
    chunks = chunk_elements([table], max_characters=60, provenance=True)
    assert len(chunks) > 2
    assert all(isinstance(c, TableChunk) for c in chunks)
    assert_rebuilt(chunks, [table])
    for chunk in chunks[1:]:
        assert chunk.text.startswith("Name Score ")
        assert spans(chunk)[0][1:3] == (0, len("Name Score"))  # -- the header, at the start --
    # -- the body rows are found in order, each where it stands --
    body = [r for c in chunks for r in sources_of(c) if r["start"] > len("Name Score")]
    assert [r["start"] for r in body] == sorted(r["start"] for r in body)


def test_table_chunks_from_text_alone_are_traced_like_pieces() -> None:
    table = Table(TABLE_TEXT, element_id="t")  # -- no HTML: split by text --
    chunks = chunk_elements([table], max_characters=40, overlap=8, provenance=True)
    assert len(chunks) > 2
    assert_rebuilt(chunks, [table])


def test_a_table_s_overlap_prefix_is_recorded_before_it() -> None:
    elements = [
        NarrativeText("lead text here", element_id="n"),
        Table(TABLE_TEXT[:30], element_id="t"),
    ]
    chunks = chunk_elements(
        elements,
        max_characters=40,
        overlap=9,
        overlap_all=True,
        isolate_table=False,
        provenance=True,
    )
    table_chunk = chunks[-1]
    assert isinstance(table_chunk, Table)
    assert table_chunk.text == f"text here\n{TABLE_TEXT[:30]}"
    assert spans(table_chunk) == [("n", 5, 14, 0), ("t", 0, 30, 10)]


@pytest.mark.parametrize(
    ("strategy", "options"),
    [
        ("basic", {"max_characters": 40}),
        ("by_title", {"profile": "retrieval", "max_tokens": 8}),
        ("sentence", {"max_characters": 40}),
        ("recursive", {"max_characters": 40}),
        ("token", {"max_tokens": 8}),
        ("headings", {"max_characters": 40}),
    ],
)
def test_a_passed_through_table_records_itself(strategy: str, options: dict[str, Any]) -> None:
    table = Table(TABLE_TEXT, element_id="t", metadata=ElementMetadata(text_as_html=HTML))
    (chunk,) = partita.chunk(
        [table], strategy, skip_table_chunking=True, provenance=True, **options
    )
    assert (chunk.text, chunk.element_id) == (table.text, "t")
    assert spans(chunk) == [("t", 0, len(TABLE_TEXT), 0)]
    assert chunk.metadata.replace(extra=None) == table.metadata


def test_token_mode_pieces_are_traced() -> None:
    text = " ".join(f"token{i}" for i in range(300))
    element = NarrativeText(text, element_id="a")
    chunks = chunk_elements(
        [element], max_tokens=20, tokenizer="cl100k_base", overlap=5, provenance=True
    )
    assert len(chunks) > 3
    assert_rebuilt(chunks, [element])


@pytest.mark.parametrize(
    ("text", "window", "overlap"),
    [
        # -- unstructured 0.27.32 looped here: a fragment now counts more than the overlap --
        ("a " + "x" * 2000, 10, 3),
        # -- an overlapped remainder would not be shorter than its text: the tail is dropped --
        (
            "of 👍🏽 end.\nend. foxfox\nalpha\nbeta gamma  end. 中文没有空格的句子"
            "\nend.\tbeta beta",
            10,
            9,
        ),
        # -- a cut inside a run of one letter: the tail joins the rest without a space --
        ("a" * 300, 16, 6),
        # -- indentation cut as content: whitespace pieces, the whitespace after them kept --
        ("def f():\n" + "\n    " * 30 + "return x", 3, 1),
    ],
)
def test_token_pieces_at_every_kind_of_cut_are_traced(text: str, window: int, overlap: int) -> None:
    element = CodeSnippet(text, element_id="a")
    chunks = chunk_elements(
        [element], max_tokens=window, tokenizer="cl100k_base", overlap=overlap, provenance=True
    )
    assert len(chunks) > 1
    assert_rebuilt(chunks, [element])


def test_records_round_trip_through_json() -> None:
    elements = [Title("Intro"), NarrativeText("word " * 200)]
    chunks = chunk_by_title(elements, max_characters=100, overlap=20, provenance=True)
    again = partita.elements_from_json(text=partita.elements_to_json(chunks))
    assert [sources_of(c) for c in again] == [sources_of(c) for c in chunks]


def test_iter_source_texts_resolves_the_records() -> None:
    elements = [Title("Intro", element_id="t"), NarrativeText("Some  text.", element_id="n")]
    (chunk,) = chunk_by_title(elements, provenance=True)
    resolved = list(iter_source_texts(chunk, by_id(elements)))
    assert resolved == [
        SourceText(elements[0], 0, 5, 0),
        SourceText(elements[1], 0, 4, 7),
        SourceText(elements[1], 6, 11, 12),
    ]
    assert [r.text for r in resolved] == ["Intro", "Some", "text."]
    with pytest.raises(KeyError):
        list(iter_source_texts(chunk, {}))


@pytest.mark.parametrize(
    ("records", "expected"),
    [
        ([source_record("a", 0, 3, 0), source_record("b", 0, 3, 5)], True),
        ([source_record("a", 0, 3, 0)], False),  # -- "def" left out --
        ([source_record("a", 0, 3, 0), source_record("b", 0, 3, 4)], False),  # -- misplaced --
        ([source_record("b", 0, 3, 5), source_record("a", 0, 3, 0)], False),  # -- out of order --
        ([source_record("a", 0, 3, 0), source_record("x", 0, 3, 5)], False),  # -- unknown id --
        ([source_record("a", 0, 9, 0)], False),  # -- past the element's end --
    ],
)
def test_rebuilds_checks_every_record(records: list[Any], expected: bool) -> None:
    elements = [NarrativeText("abc", element_id="a"), NarrativeText("def", element_id="b")]
    chunk = CompositeElement("abc\n\ndef", metadata=ElementMetadata(extra={"sources": records}))
    assert rebuilds(chunk, by_id(elements)) is expected


def test_the_runs_kept_by_normalization_use_str_split_s_whitespace() -> None:
    # -- `\s` in a str pattern is exactly what `str.split()` splits on --
    space = re.compile(r"\s")
    assert all(bool(space.match(chr(c))) == chr(c).isspace() for c in range(sys.maxunicode + 1))


# ------------------------------------------------------------------------------------------------
# properties
# ------------------------------------------------------------------------------------------------

_SETTINGS = settings(
    deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def _chunk_both(
    items: list[dict[str, Any]], options: dict[str, Any], by_title: bool
) -> tuple[list[Element], list[Element], list[Element]]:
    elements = partita.elements_from_dicts(items)
    chunker = chunk_by_title if by_title else chunk_elements
    return elements, chunker(elements, **options), chunker(elements, provenance=True, **options)


@settings(_SETTINGS, max_examples=300)
@given(st.data(), st.booleans())
def test_records_rebuild_every_chunk_in_character_mode(data: st.DataObject, by_title: bool) -> None:
    items = data.draw(element_streams())
    options = data.draw(chunking_options(by_title=by_title, tokens=False))
    elements, default, traced = _chunk_both(items, options, by_title)
    assert_rebuilt(traced, elements)
    assert without_sources(partita.elements_to_dicts(traced)) == partita.elements_to_dicts(default)


@settings(_SETTINGS, max_examples=100)
@given(st.data(), st.booleans())
def test_records_rebuild_every_chunk_in_token_mode(data: st.DataObject, by_title: bool) -> None:
    items = data.draw(element_streams(max_size=12))
    options = data.draw(chunking_options(by_title=by_title, tokens=True))
    elements, default, traced = _chunk_both(items, options, by_title)
    assert_rebuilt(traced, elements)
    assert without_sources(partita.elements_to_dicts(traced)) == partita.elements_to_dicts(default)


@settings(_SETTINGS, max_examples=80)
@given(st.data(), st.booleans(), st.booleans())
def test_records_rebuild_the_pieces_of_hostile_texts(
    data: st.DataObject, by_title: bool, tokens: bool
) -> None:
    items = data.draw(hostile_streams())
    options = data.draw(hostile_options(by_title=by_title, tokens=tokens))
    elements, default, traced = _chunk_both(items, options, by_title)
    assert_rebuilt(traced, elements)
    assert [c.text for c in traced] == [c.text for c in default]


_GAPS = st.sampled_from([" ", " ", " ", "\n", "  ", "\t ", "\n\n"])


@st.composite
def numbered_texts(draw: st.DrawFn) -> str:
    """A text of distinct words (`w3`, `w4x`, ...) with irregular whitespace: a word is found
    at one place only, so an exact record is a record at the true place."""
    n = draw(st.integers(1, 80))
    longer = st.sampled_from(["", "", "xyz", "q" * 30])
    return "".join(f"w{i}{draw(longer)}{draw(_GAPS)}" for i in range(n))


@settings(_SETTINGS, max_examples=150)
@given(
    st.lists(numbered_texts(), min_size=1, max_size=6),
    st.sampled_from([20, 40, 75, 200]),
    st.booleans(),
)
def test_without_overlap_each_character_is_recorded_once_in_place(
    texts: list[str], max_characters: int, by_title: bool
) -> None:
    elements = [NarrativeText(text, element_id=f"e{i}") for i, text in enumerate(texts)]
    chunker = chunk_by_title if by_title else chunk_elements
    chunks = chunker(elements, max_characters=max_characters, provenance=True)
    assert_rebuilt(chunks, elements)
    for element in elements:
        ranges = [
            (r["start"], r["end"])
            for c in chunks
            for r in sources_of(c)
            if r["element_id"] == element.element_id
        ]
        assert all(a[1] <= b[0] for a, b in pairwise(ranges))
        recorded = "".join(element.text[s:e] for s, e in ranges)
        assert "".join(recorded.split()) == "".join(element.text.split())


@st.composite
def unique_character_elements(draw: st.DrawFn) -> list[Element]:
    """Elements whose texts never repeat a character but whitespace (CJK ideographs, each used
    once): a record holding a character holds exactly at one place, the true one."""
    elements: list[Element] = []
    next_char = 0x4E00
    for i in range(draw(st.integers(1, 5))):
        words = []
        for _ in range(draw(st.integers(1, 60))):
            size = draw(st.sampled_from([1, 2, 3, 5, 8, 40]))
            words.append("".join(map(chr, range(next_char, next_char + size))) + draw(_GAPS))
            next_char += size
        kind = draw(st.sampled_from([NarrativeText, NarrativeText, Title, CodeSnippet]))
        elements.append(kind("".join(words), element_id=f"e{i}"))
    return elements


@settings(_SETTINGS, max_examples=150)
@given(unique_character_elements(), st.booleans(), st.booleans(), st.data())
def test_records_point_at_the_true_place_with_overlap_and_tokens(
    elements: list[Element], by_title: bool, tokens: bool, data: st.DataObject
) -> None:
    options: dict[str, Any]
    if tokens:
        window = data.draw(st.sampled_from([5, 10, 20, 50]))
        options = {"max_tokens": window, "tokenizer": "cl100k_base"}
    else:
        window = data.draw(st.sampled_from([10, 20, 40, 100]))
        options = {"max_characters": window}
    if data.draw(st.booleans()):
        options["overlap"] = data.draw(st.integers(0, window - 1))
        options["overlap_all"] = data.draw(st.booleans())
    chunker = chunk_by_title if by_title else chunk_elements
    chunks = chunker(elements, provenance=True, **options)
    assert_rebuilt(chunks, elements)
    index = by_id(elements)
    for chunk in chunks:
        assert all(source.text.strip() for source in iter_source_texts(chunk, index))
