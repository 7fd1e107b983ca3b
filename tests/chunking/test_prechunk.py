"""Pre-chunking helpers of `partita.chunking._prechunk`."""

from __future__ import annotations

import sys

from hypothesis import example, given
from hypothesis import strategies as st

from partita.chunking._prechunk import normalize_whitespace

_SPLIT_WHITESPACE = [chr(c) for c in range(sys.maxunicode + 1) if len(f"a{chr(c)}a".split()) == 2]


def test_each_whitespace_character_is_normalized() -> None:
    """The fast path lists the ASCII white space; every other kind must take the slow path."""
    for c in _SPLIT_WHITESPACE:
        for text in (f"a{c}b", f"{c}a", f"a{c}", f"a {c}b", c):
            assert normalize_whitespace(text) == " ".join(text.split()), repr(text)


@given(st.text(alphabet=st.sampled_from([*_SPLIT_WHITESPACE, "a", "中", "é", "\u200b", "\x00"])))
@example("")
@example("已经 正常")
def test_normalize_whitespace_is_split_and_join(text: str) -> None:
    assert normalize_whitespace(text) == " ".join(text.split())


@given(st.text())
def test_normalize_whitespace_on_any_text(text: str) -> None:
    assert normalize_whitespace(text) == " ".join(text.split())
