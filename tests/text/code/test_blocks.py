"""Code cut into blocks at blank and comment lines, then lines, then words."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from partita.text.code import language_named
from partita.text.code._blocks import iter_code_splits, line_starts

PYTHON = language_named("python")
SOURCE = """def f(x):
    a = 1
    b = 2

    # then the sum
    c = a + b
    return c
"""


def texts(source: str, limit: int) -> list[str]:
    return [
        source[s.start : s.end]
        for s in iter_code_splits(source, 0, len(source), len, limit, PYTHON)
    ]


def test_blocks_end_at_blank_lines_and_before_comment_lines() -> None:
    assert texts(SOURCE, 100) == [
        "def f(x):\n    a = 1\n    b = 2",
        "    # then the sum\n    c = a + b\n    return c",
    ]


def test_a_block_over_the_budget_is_cut_at_line_ends_and_only_its_last_line_ends_it() -> None:
    splits = list(iter_code_splits(SOURCE, 0, len(SOURCE), len, 30, PYTHON))
    assert [SOURCE[s.start : s.end] for s in splits] == [
        "def f(x):\n    a = 1\n    b = 2",
        "    # then the sum",
        "    c = a + b",
        "    return c",
    ]
    assert [s.ends_sentence for s in splits] == [True, False, False, True]


def test_a_line_over_the_budget_is_cut_at_spaces_then_characters() -> None:
    source = "x = aaaa + bbbb + cccccccccccc"
    pieces = texts(source, 8)
    assert all(len(p) <= 8 for p in pieces)
    assert "".join(pieces).replace(" ", "") == source.replace(" ", "")


def test_line_starts_count_lines_by_line_feeds() -> None:
    assert line_starts("a\nbc\n\nd") == [0, 2, 5, 6]
    assert line_starts("") == [0]


@given(
    st.lists(st.sampled_from(["", "x = 1", "    y = f(x)", "# note", "  ", "z" * 40]), max_size=30),
    st.integers(min_value=1, max_value=50),
)
def test_splits_hold_every_non_blank_character_in_order_within_the_budget(
    lines: list[str], limit: int
) -> None:
    source = "\n".join(lines)
    splits = list(iter_code_splits(source, 0, len(source), len, limit, PYTHON))
    kept = "".join(source[s.start : s.end] for s in splits)
    assert kept.replace(" ", "").replace("\n", "") == source.replace(" ", "").replace("\n", "")
    assert all(s.size == s.end - s.start <= limit for s in splits)
    assert all(a.end <= b.start for a, b in itertools.pairwise(splits))
