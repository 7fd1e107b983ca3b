"""The chunk window: the one value that knows the window's unit."""

from __future__ import annotations

import pytest

from partita.chunking._options import ChunkingOptions
from partita.chunking._run import ChunkingRun
from partita.chunking._window import ChunkWindow
from partita.text.sizing._sizer import CHARACTERS, sizer_for


def test_a_character_window_fits_by_length() -> None:
    window = ChunkWindow(5, CHARACTERS)
    assert not window.in_tokens
    assert window.option_name == "max_characters"
    assert window.fits("12345")
    assert not window.fits("123456")
    # -- characters are always known: a token count plays no part --
    assert window.is_known_to_fit("12345", None)
    assert not window.is_known_to_fit("123456", 1)


def test_a_token_window_fits_by_tokens_not_characters() -> None:
    window = ChunkWindow(3, sizer_for("cl100k_base"))
    assert window.in_tokens
    assert window.option_name == "max_tokens"
    assert window.fits("alpha beta gamma")  # -- 16 characters, 3 tokens --
    assert not window.fits("alpha beta gamma delta")
    # -- only a known count says a text fits without counting it --
    assert not window.is_known_to_fit("alpha", None)
    assert window.is_known_to_fit("alpha beta gamma delta", 3)
    assert not window.is_known_to_fit("alpha", 4)


def test_a_span_s_size_is_in_the_window_s_unit() -> None:
    text = "xx alpha beta gamma delta yy"
    assert ChunkWindow(100, CHARACTERS).span_size(text, 3, 25) == 22
    tokens = ChunkWindow(100, sizer_for("cl100k_base"))
    assert tokens.span_size(text, 3, 25) == 4  # -- "alpha beta gamma delta" --
    # -- past the window a token count stops early, above the window --
    assert ChunkWindow(2, sizer_for("cl100k_base")).span_size(text, 3, 25) > 2


def test_the_smallest_html_window_is_per_unit() -> None:
    assert ChunkWindow(10, CHARACTERS).min_html_size == 50
    assert ChunkWindow(10, sizer_for("cl100k_base")).min_html_size == 15


@pytest.mark.parametrize(
    ("options", "unit", "size"),
    [
        ({}, "max_characters", 500),
        ({"max_characters": 80}, "max_characters", 80),
        ({"max_tokens": 64, "tokenizer": "cl100k_base"}, "max_tokens", 64),
    ],
)
def test_a_run_s_window_is_its_hard_maximum_in_its_unit(
    options: dict[str, object], unit: str, size: int
) -> None:
    window = ChunkingRun.of(ChunkingOptions(**options)).window  # type: ignore[arg-type]
    assert (window.option_name, window.size) == (unit, size)


def test_a_window_in_characters_keeps_its_size() -> None:
    window = ChunkWindow(7, sizer_for("cl100k_base")).in_characters()
    assert (window.size, window.in_tokens) == (7, False)
    assert window.fits("1234567")
    assert not window.fits("alpha beta")  # -- 2 tokens, but 10 characters --


def test_pieces_are_bounded_by_the_length_only_in_characters() -> None:
    assert ChunkWindow(5, CHARACTERS).piece_count_bound("abcdefgh") == 8
    assert ChunkWindow(5, sizer_for("cl100k_base")).piece_count_bound("abcdefgh") is None
