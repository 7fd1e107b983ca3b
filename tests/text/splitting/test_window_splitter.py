"""Token-mode splitting from windows: the plain path's splits, with work linear in the text.

The windowed splitter (`split_window`, `window_splitter`, `token_bound`) must make exactly the plain
path's decisions (the plain path measures every candidate, as the reference does, and is checked
against the reference in `test_splitter.py`), on texts built to exercise it: long stretches
without cuts (letters or Chinese without spaces, whitespace and punctuation runs), lone
surrogates, separators that overlap themselves. Its work is counted, not timed: the characters
handed to the tokenizer grow linearly with the text.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from partita.chunking import chunk_elements
from partita.elements import NarrativeText
from partita.text.sizing._sizer import sizer_for
from partita.text.sizing._token_bound import vocabulary_bound
from partita.text.sizing._tokenizers import token_counter
from partita.text.splitting._splitter import DEFAULT_SEPARATORS, TextSplitter

COUNT = token_counter("cl100k_base")
SIZER = sizer_for("cl100k_base")
ENCODING = SIZER.tiktoken.encoding  # type: ignore[union-attr]


def _plain(text: str) -> int:
    """A counter that is not tiktoken-backed, so the splitter takes the plain path."""
    return COUNT(text)


def _steps(split: Callable[[str], tuple[str, str]], text: str) -> list[tuple[str, str]]:
    steps = []
    remainder = text
    while remainder:
        fragment, remainder = split(remainder)
        steps.append((fragment, remainder))
        assert len(steps) <= 4 * len(text) + 10, "splitting does not end"
    return steps


_CJK = (
    "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对"
)
_runs = st.one_of(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=200, max_size=900),
    st.text(alphabet=_CJK, min_size=60, max_size=400),
    st.builds(
        lambda c, n: c * n,
        st.sampled_from(["a", " ", "\n", "=", "7", "中", ".."]),
        st.integers(100, 700),
    ),
    st.sampled_from(["the quick brown fox ", "don't stop. ", "\n", "  ", "x..y", "\ud800", "😀"]),
)
long_texts = st.lists(_runs, min_size=1, max_size=5).map("".join)
separator_sets = st.sampled_from(
    (DEFAULT_SEPARATORS, ("\n",), (" ",), ("..", " "), ("中", "\n"), (". ", "=="))
)


@st.composite
def windows(draw: st.DrawFn) -> tuple[int, int]:
    maxlen = draw(st.integers(1, 60))
    overlap = draw(st.one_of(st.just(0), st.integers(0, maxlen - 1)))
    return maxlen, overlap


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=long_texts, window=windows(), separators=separator_sets)
@example(text="a" * 3000, window=(8, 0), separators=DEFAULT_SEPARATORS)
@example(text="中" * 900, window=(5, 2), separators=DEFAULT_SEPARATORS)
@example(text="a " + "x" * 2000, window=(10, 3), separators=DEFAULT_SEPARATORS)
@example(text="ab\ud800" * 300 + " end", window=(7, 3), separators=DEFAULT_SEPARATORS)
@example(text="x" * 700 + ".." * 400 + "y", window=(6, 0), separators=("..", " "))
@example(text=" " * 2000 + "word " * 40, window=(12, 4), separators=DEFAULT_SEPARATORS)
def test_windowed_splits_equal_the_plain_ones(
    text: str, window: tuple[int, int], separators: tuple[str, ...]
) -> None:
    maxlen, overlap = window
    windowed = TextSplitter(maxlen, overlap, sizer=SIZER, separators=separators)
    plain = TextSplitter(maxlen, overlap, sizer=sizer_for(_plain), separators=separators)
    steps = _steps(windowed, text)
    assert steps == _steps(plain, text)
    assert list(windowed.iter_pieces(text)) == [fragment for fragment, _ in steps]


@settings(max_examples=60, deadline=None)
@given(text=long_texts.map(lambda t: t[:500]))
def test_the_vocabulary_bound_is_a_lower_bound(text: str) -> None:
    """No prefix of a text counts fewer tokens than the bound allows for its bytes."""
    bound = vocabulary_bound(ENCODING)
    counted = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    data = counted.encode()
    for k in range(1, len(counted) + 1, 19):
        prefix = counted[:k]
        tokens = len(ENCODING.encode_ordinary(prefix))
        assert len(prefix.encode()) <= bound.reach(data, tokens)


def test_the_bound_is_tight_on_letters_and_chinese() -> None:
    """Within 25 % of the real count: the windows it gives stay close to the pieces' size."""
    rng = random.Random(7)
    bound = vocabulary_bound(ENCODING)
    for text in (
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(3000)),
        "".join(chr(rng.randint(0x4E00, 0x9FA5)) for _ in range(1000)),
    ):
        tokens = len(ENCODING.encode_ordinary(text))
        reach = bound.reach(text.encode(), int(tokens * 0.75))
        assert reach < len(text.encode())


# ------------------------------------------------------------------------------------------------
# work: characters handed to the tokenizer
# ------------------------------------------------------------------------------------------------


@pytest.fixture
def tokenized(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The lengths of the texts handed to tiktoken while the test runs."""
    lengths: list[int] = []
    encode = ENCODING.encode_ordinary

    def counting_encode(text: str) -> list[int]:
        lengths.append(len(text))
        return encode(text)

    monkeypatch.setattr(ENCODING, "encode_ordinary", counting_encode)
    return lengths


def _letters(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(n))


def _chinese(rng: random.Random, n: int) -> str:
    return "".join(chr(rng.randint(0x4E00, 0x9FA5)) for _ in range(n))


def _words(rng: random.Random, n: int) -> str:
    return " ".join(_letters(rng, rng.randint(1, 9)) for _ in range(n // 6))[:n]


@pytest.mark.parametrize("make", [_letters, _chinese, _words], ids=["letters", "chinese", "words"])
def test_tokenized_characters_grow_linearly(
    make: Callable[[random.Random, int], str], tokenized: list[int]
) -> None:
    """At n, 2n, 4n and 8n characters, the tokenizer sees at most 16 characters per character
    of the element (the reference: on the order of n per character, its splitter being
    quadratic), and the ratio does not grow with n."""
    ratios = []
    for n in (5_000, 10_000, 20_000, 40_000):
        text = make(random.Random(n), n)
        tokenized.clear()
        chunks = chunk_elements([NarrativeText(text)], max_tokens=256, tokenizer="cl100k_base")
        assert len(chunks) > n // 2_000
        ratios.append(sum(tokenized) / n)
    assert max(ratios) <= 16
    assert ratios[-1] <= ratios[0] * 1.1
