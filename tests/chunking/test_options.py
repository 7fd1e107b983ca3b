"""Option validation: the reference's messages, in the reference's order, raised when called."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest
from unstructured.chunking.basic import chunk_elements as reference_chunk_elements
from unstructured.chunking.title import chunk_by_title as reference_chunk_by_title

from partita.chunking import (
    ByTitleChunkingOptions,
    ChunkingOptions,
    chunk_by_title,
    chunk_elements,
    iter_chunk_elements,
    iter_chunks_by_title,
)
from partita.chunking._run import ChunkingRun
from partita.elements import NarrativeText
from partita.text.sizing import Sizer
from partita.text.splitting import TextSplitter

INVALID: list[dict[str, Any]] = [
    {"max_tokens": 10, "max_characters": 10},
    {"max_tokens": 10, "max_characters": 10, "overlap": -1},
    {"max_tokens": 10},
    {"max_tokens": 10, "tokenizer": ""},
    {"max_tokens": 0, "tokenizer": "cl100k_base"},
    {"new_after_n_tokens": 5},
    {"max_tokens": 10, "tokenizer": "cl100k_base", "new_after_n_tokens": -1},
    {"max_characters": 0},
    {"max_characters": -5, "new_after_n_chars": -1},
    {"new_after_n_chars": -1},
    {"skip_table_chunking": True, "isolate_table": False},
    {"overlap": -1},
    {"overlap": 500},
    {"max_characters": 10, "overlap": 10},
    {"max_tokens": 10, "tokenizer": "cl100k_base", "overlap": 10},
    {"max_tokens": 10, "tokenizer": "no-such-encoding"},
]
BY_TITLE_INVALID: list[dict[str, Any]] = [
    {"combine_text_under_n_chars": -1},
    {"combine_text_under_n_chars": 501},
    {"max_characters": 100, "combine_text_under_n_chars": 101},
    {"max_tokens": 20, "tokenizer": "cl100k_base", "combine_text_under_n_chars": 21},
    {"overlap": -1, "combine_text_under_n_chars": -1},
    # -- the given value is reported, not the one capped at the soft maximum --
    {"max_characters": 100, "new_after_n_chars": 10, "combine_text_under_n_chars": 101},
    {"new_after_n_chars": 0, "combine_text_under_n_chars": -3},
]
VALID: list[dict[str, Any]] = [
    {"new_after_n_chars": 10_000},
    {"max_characters": 100, "combine_text_under_n_chars": 100, "new_after_n_chars": 50},
    {"tokenizer": "no-such-encoding"},  # -- ignored without max_tokens, as in the reference --
    {"max_tokens": 30, "tokenizer": "gpt-4", "new_after_n_tokens": 100},
]


def _message(fn: Any, **options: Any) -> str | None:
    try:
        fn([NarrativeText("x")] if fn in (chunk_elements, chunk_by_title) else [], **options)
    except ValueError as exc:
        return str(exc)
    return None


def _reference_message(fn: Any, **options: Any) -> str | None:
    try:
        fn([], **options)
    except ValueError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("options", INVALID, ids=str)
def test_invalid_options_raise_the_reference_message(options: dict[str, Any]) -> None:
    for ours, reference in (
        (chunk_elements, reference_chunk_elements),
        (chunk_by_title, reference_chunk_by_title),
    ):
        expected = _reference_message(reference, **options)
        assert expected is not None
        message = _message(ours, **options) or ""
        if options.get("tokenizer") == "no-such-encoding":
            # -- the reference's message, then the encodings available offline --
            assert message.startswith(expected)
            assert "o200k_base" in message[len(expected) :]
        else:
            assert message == expected


@pytest.mark.parametrize("options", BY_TITLE_INVALID, ids=str)
def test_by_title_options_raise_the_reference_message(options: dict[str, Any]) -> None:
    expected = _reference_message(reference_chunk_by_title, **options)
    assert expected is not None
    assert _message(chunk_by_title, **options) == expected


@pytest.mark.parametrize("options", VALID, ids=str)
def test_valid_options_are_accepted_like_the_reference(options: dict[str, Any]) -> None:
    assert _reference_message(reference_chunk_by_title, **options) is None
    assert _message(chunk_by_title, **options) is None


@pytest.mark.parametrize("lazy", [iter_chunk_elements, iter_chunks_by_title])
def test_lazy_forms_validate_eagerly(lazy: Any) -> None:
    with pytest.raises(ValueError, match="mutually exclusive"):
        lazy(iter(()), max_tokens=5, max_characters=5)
    with pytest.raises(ValueError, match="Unknown encoding"):
        lazy(iter(()), max_tokens=5, tokenizer="no-such-encoding")


def test_derived_values() -> None:
    opts = ByTitleChunkingOptions(max_characters=100, new_after_n_chars=500)
    assert (opts.hard_max, opts.soft_max, opts.combine_under) == (100, 100, 100)
    opts = ChunkingOptions(overlap=20, overlap_all=True)
    assert (opts.hard_max, opts.overlap_len, opts.inter_chunk_overlap) == (500, 20, 20)
    assert not hasattr(opts, "combine_under")  # -- by_title's, not basic's --
    opts = ByTitleChunkingOptions(max_tokens=64, tokenizer="cl100k_base")
    assert (opts.hard_max, opts.soft_max, opts.combine_under) == (64, 64, 64)
    assert opts.combine_in_tokens
    assert opts.sizing_tokenizer == "cl100k_base"
    run = ChunkingRun.of(opts)
    assert run.sizer.counts_tokens
    assert run.sizer.measure("hello world") == 2
    assert ChunkingOptions(tokenizer="cl100k_base").sizing_tokenizer is None


@pytest.mark.parametrize(
    ("options", "combine_under", "in_tokens"),
    [
        (
            {"max_characters": 300, "new_after_n_chars": 89, "combine_text_under_n_chars": 300},
            89,
            False,
        ),
        ({"max_characters": 300, "new_after_n_chars": 0}, 0, False),
        ({"max_characters": 300, "combine_text_under_n_chars": 40}, 40, False),
        ({"max_tokens": 20, "tokenizer": "cl100k_base", "new_after_n_tokens": 5}, 5, True),
        ({"max_tokens": 20, "tokenizer": "cl100k_base", "combine_unit": "characters"}, 20, False),
    ],
    ids=str,
)
def test_combining_is_capped_at_the_soft_maximum(
    options: dict[str, Any], combine_under: int, in_tokens: bool
) -> None:
    """Since unstructured 0.27.35: `combine_text_under_n_chars` is at most the soft maximum,
    and combining counts in the window's unit."""
    opts = ByTitleChunkingOptions(**options)
    assert (opts.combine_under, opts.combine_in_tokens) == (combine_under, in_tokens)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"max_characters": 300, "overlap": 20, "overlap_all": True, "multipage_sections": False},
        {"max_tokens": 64, "tokenizer": "cl100k_base", "new_after_n_tokens": 40},
        {"text_splitting_separators": ["\n", ". "], "include_orig_elements": False},
    ],
    ids=str,
)
def test_options_are_pure_comparable_hashable_picklable_data(options: dict[str, Any]) -> None:
    opts = ByTitleChunkingOptions(**options)
    again = ByTitleChunkingOptions(**options)
    assert opts == again
    assert hash(opts) == hash(again)
    assert pickle.loads(pickle.dumps(opts)) == opts
    assert copy.deepcopy(opts) == opts
    assert opts != ByTitleChunkingOptions(**{**options, "overlap": 3})
    basic = {k: v for k, v in options.items() if k != "multipage_sections"}
    assert ChunkingOptions(**basic) == ChunkingOptions(**basic)
    assert pickle.loads(pickle.dumps(ChunkingOptions(**basic))) == ChunkingOptions(**basic)
    # -- nothing with state: the sizer and splitter are the run's --
    assert not any(isinstance(getattr(opts, name), (Sizer, TextSplitter)) for name in _fields(opts))


def test_a_run_builds_its_sizer_and_splitter_from_the_options() -> None:
    opts = ChunkingOptions(max_characters=10, overlap=2, text_splitting_separators=("|",))
    run = ChunkingRun.of(opts)
    assert run.opts is opts
    assert run.sizer.unit == "characters"
    assert run.split("aaaa|bbbb|cccc") == ("aaaa|bbbb", "b cccc")
    assert run.window.fits("x" * 10)
    assert not run.window.fits("x" * 11)


def _fields(opts: ChunkingOptions) -> list[str]:
    return [field.name for field in dataclasses.fields(opts)]


# -- misuse: typed errors ---------------------------------------------------------------------


@pytest.mark.parametrize("fn", [chunk_elements, chunk_by_title, iter_chunk_elements])
def test_an_option_a_function_does_not_take_is_a_type_error(fn: Any) -> None:
    with pytest.raises(TypeError, match="bogus"):
        fn([NarrativeText("x")], bogus=1)
    with pytest.raises(TypeError, match="hard_max"):  # -- a derived value is no option --
        fn([NarrativeText("x")], hard_max=10)


def test_basic_does_not_take_by_title_s_options() -> None:
    with pytest.raises(TypeError, match="multipage_sections"):
        chunk_elements([NarrativeText("x")], multipage_sections=False)  # type: ignore[call-arg]


def test_a_plain_string_is_one_separator() -> None:
    opts = ChunkingOptions(text_splitting_separators=". ")
    assert opts.separators == (". ",)
    assert opts == ChunkingOptions(text_splitting_separators=[". "])
    text = "First part here. Second part here. Third"
    chunks = chunk_elements(
        [NarrativeText(text)], max_characters=20, text_splitting_separators=". "
    )
    assert [c.text for c in chunks] == ["First part here", "Second part here", "Third"]


@pytest.mark.parametrize(
    ("separators", "match"),
    [(["\n", 3], "strings only"), ([b"."], "strings only"), (5, "a string or a sequence")],
)
def test_separators_that_are_not_strings_are_a_type_error(separators: Any, match: str) -> None:
    with pytest.raises(TypeError, match=match):
        chunk_elements([NarrativeText("x")], text_splitting_separators=separators)
