"""The retrieval options as values: the profile fills what is unset, explicit options win,
invalid values are refused, and without them the reference pipeline runs."""

from __future__ import annotations

import pytest

from partita.chunking._options import ChunkingOptions
from partita.chunking._pipeline import pipeline_for
from partita.chunking._profiles import PROFILES, profile_values
from partita.chunking.strategies._by_title import ByTitleChunkingOptions


def test_no_retrieval_option_keeps_the_reference_pipeline() -> None:
    opts = ByTitleChunkingOptions(max_characters=1000, overlap=100, overlap_all=True)
    assert pipeline_for(opts) == "reference"


@pytest.mark.parametrize(
    ("options", "pipeline"),
    [
        ({"split_at": "sentences"}, "retrieval"),
        ({"split_at": "separators"}, "reference"),
        ({"overlap_unit": "sentences"}, "retrieval"),
        ({"overlap_unit": "characters"}, "reference"),
        ({"keep_titles_with_body": True}, "retrieval"),
        ({"heading_context": "prefix"}, "retrieval"),
        ({"heading_context": "metadata"}, "annotated"),
        ({"table_context": True}, "retrieval"),
        ({"page_range": True}, "annotated"),
        ({"table_text": "rows"}, "annotated"),
        ({"page_range": True, "table_context": True}, "retrieval"),
    ],
)
def test_each_option_says_which_pipeline_it_needs(
    options: dict[str, object], pipeline: str
) -> None:
    opts = ChunkingOptions(**options)  # type: ignore[arg-type]
    assert pipeline_for(opts) == pipeline


def test_the_profile_fills_the_unset_options() -> None:
    opts = ByTitleChunkingOptions(profile="retrieval")
    for name, value in profile_values("retrieval").items():
        assert getattr(opts, name) == value, name
    assert opts.hard_max == 128
    assert opts.sizing_tokenizer == "cl100k_base"


def test_options_given_win_over_the_profile() -> None:
    opts = ChunkingOptions(profile="retrieval", heading_context="metadata", overlap=40)
    assert opts.heading_context == "metadata"
    assert opts.overlap_len == 40
    assert opts.split_at == "sentences"


def test_a_window_given_replaces_the_profile_s_window() -> None:
    opts = ChunkingOptions(profile="retrieval", max_characters=800)
    assert (opts.hard_max, opts.max_tokens, opts.sizing_tokenizer) == (800, None, None)
    tokens = ChunkingOptions(profile="retrieval", max_tokens=100, tokenizer="cl100k_base")
    assert tokens.hard_max == 100


def test_an_unknown_profile_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="known profiles: retrieval"):
        ChunkingOptions(profile="fast")
    assert set(PROFILES) == {"retrieval"}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("split_at", "words"),
        ("overlap_unit", "paragraphs"),
        ("heading_context", "suffix"),
        ("table_text", "cells"),
    ],
)
def test_invalid_choices_are_refused(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=f"'{name}' must be one of"):
        ChunkingOptions(**{name: value})  # type: ignore[arg-type]


def test_text_strategies_refuse_the_retrieval_options() -> None:
    from partita.chunking.strategies._sentence import SentenceChunkingOptions

    with pytest.raises(TypeError, match="heading_context"):
        SentenceChunkingOptions(heading_context="prefix")
