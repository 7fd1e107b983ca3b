"""`TextSplitter` splits exactly as the reference library's `_TextSplitter`, and fast.

Differential tests run both splitters on the same text and compare the whole sequence of
`(fragment, remainder)` pairs, splitting each remainder until none is left. Character mode and
token mode (cl100k_base) are covered, the token mode both through the fast path (counts derived
from one tokenization) and the plain path (every candidate measured, as for any counter). Texts
include long runs of one letter and of whitespace, where the token-mode rules of unstructured
0.27.35 (`partita.text.splitting._token_rules`) decide. Every split must end, with every piece
within the window and no character lost.
"""

from __future__ import annotations

import gc
import itertools
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from unstructured.chunking.base import ChunkingOptions, _TextSplitter

from partita.text.sizing._sizer import Sizer, sizer_for
from partita.text.sizing._token_cuts import CLASSES, CUT
from partita.text.sizing._tokenizers import token_counter
from partita.text.splitting._char_pieces import iter_char_pieces
from partita.text.splitting._splitter import DEFAULT_SEPARATORS, TextSplitter

Split = Callable[[str], tuple[str, str]]
Steps = list[tuple[str, str]]

COUNT = token_counter("cl100k_base")
SIZER = sizer_for("cl100k_base")
ENCODING = SIZER.tiktoken.encoding  # type: ignore[union-attr]


def _plain(text: str) -> int:
    """A counter that is not tiktoken-backed, so the splitter takes the plain path."""
    return COUNT(text)


PLAIN = sizer_for(_plain)


class _Hang(Exception):
    """The reference did not finish in time."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise `_Hang` in the block after `seconds`, and again every 50 ms until it ends.

    The garbage collector is paused meanwhile: an exception raised inside one of its callbacks
    (hypothesis installs one) would be swallowed.
    """

    def on_alarm(signum: int, frame: object) -> None:
        raise _Hang

    previous = signal.signal(signal.SIGALRM, on_alarm)
    gc_was_enabled = gc.isenabled()
    gc.disable()
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.05)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if gc_was_enabled:
            gc.enable()


def _steps(split: Split, text: str, max_steps: int | None = None) -> Steps:
    """Every `(fragment, remainder)` from splitting `text`, then each remainder, to the end."""
    limit = 4 * len(text) + 10 if max_steps is None else max_steps
    steps: Steps = []
    remainder = text
    while remainder:
        fragment, remainder = split(remainder)
        steps.append((fragment, remainder))
        assert len(steps) <= limit, "splitting does not end"
    return steps


def _reference(max_len: int, overlap: int, *, tokens: bool, separators: Sequence[str]) -> Split:
    kwargs: dict[str, Any] = {"overlap": overlap, "text_splitting_separators": separators}
    if tokens:
        kwargs.update(max_tokens=max_len, tokenizer="cl100k_base")
    else:
        kwargs["max_characters"] = max_len
    return _TextSplitter(ChunkingOptions.new(**kwargs))


def _reference_steps(split: Split, text: str, seconds: float = 1.0) -> Steps | None:
    """The reference's steps, or None when it runs out of time."""
    try:
        with _time_limit(seconds):
            return _steps(split, text, max_steps=10 * len(text) + 10)
    except (_Hang, AssertionError):
        return None


def _is_subsequence(needle: str, haystack: str) -> bool:
    it = iter(haystack)
    return all(ch in it for ch in needle)


def _assert_sound(steps: Steps, text: str, maxlen: int) -> None:
    """Every piece fits when every code point does, and no non-whitespace character is lost."""
    if all(COUNT(ch) <= maxlen for ch in set(text)):
        assert all(COUNT(fragment) <= maxlen for fragment, _ in steps)
    kept = "".join("".join(fragment.split()) for fragment, _ in steps)
    assert _is_subsequence("".join(text.split()), kept)


# ------------------------------------------------------------------------------------------------
# texts
# ------------------------------------------------------------------------------------------------

_WORDS = ("the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "a", "I", "of", "to")
_WORDS += ("in", "is", "on", "data", "report", "Naïve", "café", "façade", "coöperate", "straße")
_WORDS += ("Ωmega", "İstanbul", "ﬁnal")
_CJK = (
    "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对"
    "可里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同"
    "三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名"
)
_EMOJI = ("😀", "👍🏽", "🇫🇷", "👨\u200d👩\u200d👧", "🧑🏿\u200d🚀")

_pieces = st.one_of(
    st.sampled_from(_WORDS),
    st.sampled_from(("don't", "it's", "we're", "I'LL", "they've", "'s", "'d", "O'Neil", "'")),
    st.sampled_from((".", ",", "!", "?", ";", "...", "—", '"', "(", ")", "-", "/", "#", "$%")),
    st.sampled_from((".\n", "!\r\n", "?\n\n", ":\n  ", ")\n", ".\n \n", "-\r")),
    st.sampled_from((" ", "  ", "\t", "\n", "\n\n", " \n ", "\r\n", "\u00a0", "\u3000", "   \t ")),
    st.integers(0, 10**12).map(str),
    st.builds(lambda c, n: c * n, st.sampled_from("xq9.-é中"), st.integers(15, 160)),
    st.builds(
        lambda c, n: c * n, st.sampled_from(("a", " ", "\n", "\n    ")), st.integers(20, 300)
    ),
    st.text(alphabet=_CJK, min_size=1, max_size=40).map(lambda t: t + "。"),
    st.sampled_from(_EMOJI),
    st.text(max_size=4),
)
texts = st.lists(_pieces, min_size=1, max_size=30).map("".join)
separator_sets = st.sampled_from(
    (DEFAULT_SEPARATORS, ("\n\n", "\n", " "), (" ",), ("\t", " \n", " "), ("\n",))
)


def _settings(max_examples: int) -> settings:
    return settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@st.composite
def windows(draw: st.DrawFn, low: int, high: int) -> tuple[int, int]:
    """A window size and an overlap smaller than it (often none)."""
    maxlen = draw(st.integers(low, high))
    overlap = draw(st.one_of(st.just(0), st.integers(0, maxlen - 1)))
    return maxlen, overlap


# ------------------------------------------------------------------------------------------------
# differential: partita against the reference
# ------------------------------------------------------------------------------------------------


@_settings(1000)
@given(text=texts, window=windows(1, 120), separators=separator_sets)
def test_characters_match_the_reference(
    text: str, window: tuple[int, int], separators: tuple[str, ...]
) -> None:
    maxlen, overlap = window
    ours = _steps(TextSplitter(maxlen, overlap, separators=separators), text)
    reference = _reference_steps(
        _reference(maxlen, overlap, tokens=False, separators=separators), text
    )
    assert reference is not None
    assert ours == reference


@_settings(600)
@given(text=texts, window=windows(1, 120), separators=separator_sets)
def test_character_pieces_in_one_loop_match_the_splitter(
    text: str, window: tuple[int, int], separators: tuple[str, ...]
) -> None:
    maxlen, overlap = window
    steps = _steps(TextSplitter(maxlen, overlap, separators=separators), text)
    pieces = list(iter_char_pieces(text, maxlen, overlap, separators))
    assert pieces == [fragment for fragment, _ in steps]


@_settings(600)
@given(text=texts, window=windows(1, 40), separators=separator_sets)
@example(text="a " + "x" * 300, window=(10, 3), separators=DEFAULT_SEPARATORS)
@example(text="Hello.\n\nWorld " * 20, window=(7, 2), separators=DEFAULT_SEPARATORS)
@example(text="\U0001f468\u200d\U0001f469\u200d\U0001f467", window=(12, 10), separators=("\n", " "))
@example(text="a" * 300, window=(16, 6), separators=DEFAULT_SEPARATORS)
@example(text=" " * 600 + "x", window=(5, 2), separators=DEFAULT_SEPARATORS)
@example(text="key of\n\nhandling " * 6, window=(6, 3), separators=DEFAULT_SEPARATORS)
def test_tokens_match_the_reference(
    text: str, window: tuple[int, int], separators: tuple[str, ...]
) -> None:
    maxlen, overlap = window
    fast = _steps(TextSplitter(maxlen, overlap, sizer=SIZER, separators=separators), text)
    plain = _steps(TextSplitter(maxlen, overlap, sizer=PLAIN, separators=separators), text)
    assert fast == plain
    reference = _reference_steps(
        _reference(maxlen, overlap, tokens=True, separators=separators), text, seconds=5.0
    )
    assert reference is not None, "the reference did not finish in time"
    assert fast == reference
    _assert_sound(fast, text, maxlen)


# ------------------------------------------------------------------------------------------------
# the fast token path against the plain one (any counter), on more and longer texts
# ------------------------------------------------------------------------------------------------

long_texts = st.lists(_pieces, min_size=1, max_size=120).map("".join)
any_separators = st.one_of(
    separator_sets,
    st.lists(st.sampled_from(("\n", " ", ".", ". ", "\n\n", "中", "xx", "-")), max_size=3).map(
        tuple
    ),
)


@_settings(600)
@given(text=long_texts, window=windows(1, 300), separators=any_separators)
@example(text="\u0802", window=(2, 1), separators=DEFAULT_SEPARATORS)  # -- overlap + 1 > len --
def test_fast_token_path_matches_the_plain_one(
    text: str, window: tuple[int, int], separators: tuple[str, ...]
) -> None:
    maxlen, overlap = window
    fast = _steps(TextSplitter(maxlen, overlap, sizer=SIZER, separators=separators), text)
    plain = _steps(TextSplitter(maxlen, overlap, sizer=PLAIN, separators=separators), text)
    assert fast == plain
    if all(sep.isspace() for sep in separators):  # -- other separators are dropped on purpose --
        _assert_sound(fast, text, maxlen)


@_settings(300)
@given(text=long_texts.map(lambda t: t * 4), window=windows(1, 40), separators=any_separators)
def test_character_pieces_of_long_texts_match_the_splitter(
    text: str, window: tuple[int, int], separators: tuple[str, ...]
) -> None:
    """Long enough that `iter_char_pieces` holds the remainder as a tail, then as a string."""
    maxlen, overlap = window
    steps = _steps(TextSplitter(maxlen, overlap, separators=separators), text)
    pieces = list(iter_char_pieces(text, maxlen, overlap, separators))
    assert pieces == [fragment for fragment, _ in steps]


@_settings(300)
@given(text=long_texts)
def test_a_cut_splits_the_tokenization(text: str) -> None:
    """The exactness lemma: at every cut, the tokens are those of the two sides."""
    tokens = ENCODING.encode_ordinary(text)
    for match in CUT.finditer(text.translate(CLASSES)):
        q = match.start()
        assert ENCODING.encode_ordinary(text[:q]) + ENCODING.encode_ordinary(text[q:]) == tokens


@_settings(300)
@given(
    left=long_texts,
    separator=st.sampled_from(("\n\n", "", " ", "\n", ".", "x", "中")),
    right=long_texts,
)
@example(left="end.", separator="\n\n", right="Next")
@example(left="\ud83d", separator="", right="\ude00")  # -- a surrogate pair once joined --
def test_a_joined_text_counts_from_its_parts(left: str, separator: str, right: str) -> None:
    expected = COUNT(left + separator + right)
    assert SIZER.measure_joined(left, separator, right) == expected
    given_sizes = {"left_size": COUNT(left), "right_size": COUNT(right)}
    assert SIZER.measure_joined(left, separator, right, **given_sizes) == expected
    assert PLAIN.measure_joined(left, separator, right) == expected


def test_the_fast_path_is_taken_for_cl100k_only() -> None:
    assert TextSplitter(10, sizer=SIZER)._windowed is not None
    assert TextSplitter(10, sizer=PLAIN)._windowed is None
    assert TextSplitter(10)._windowed is None


def test_a_long_text_is_tokenized_about_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Splitting a long text encodes little more than the text itself (the reference: O(n²))."""
    encoded: list[int] = []
    encode = ENCODING.encode_ordinary

    def counting_encode(text: str) -> list[int]:
        encoded.append(len(text))
        return encode(text)

    monkeypatch.setattr(ENCODING, "encode_ordinary", counting_encode)
    text = " ".join(f"w{i} and the rest. Then\n" for i in range(2000))
    steps = _steps(TextSplitter(64, 8, sizer=SIZER), text)
    assert len(steps) > 50
    assert sum(encoded) < 2 * len(text)


def test_lone_surrogates_take_the_plain_path() -> None:
    text = "abc \ud800 def " * 30
    fast = _steps(TextSplitter(7, 2, sizer=SIZER), text)
    assert fast == _steps(TextSplitter(7, 2, sizer=PLAIN), text)
    assert fast == _reference_steps(
        _reference(7, 2, tokens=True, separators=DEFAULT_SEPARATORS), text
    )


def test_a_remainder_seen_again_is_split_the_same() -> None:
    """The index handed from one call to the next is only used for that very remainder."""
    split = TextSplitter(12, 3, sizer=SIZER)
    text = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu " * 4
    first, remainder = split(text)
    other = "something else entirely, " * 10
    assert split(other) == TextSplitter(12, 3, sizer=PLAIN)(other)
    assert split(remainder) == TextSplitter(12, 3, sizer=PLAIN)(remainder)
    assert split(text) == (first, remainder)


# ------------------------------------------------------------------------------------------------
# the reference's documented examples
# ------------------------------------------------------------------------------------------------

FOX = "The quick brown fox jumps over the lazy dog. " * 3


def _fragments(split: Split, text: str) -> list[str]:
    return [fragment for fragment, _ in _steps(split, text)]


def test_characters_at_separators() -> None:
    assert _fragments(TextSplitter(40), FOX) == [
        "The quick brown fox jumps over the lazy",
        "dog. The quick brown fox jumps over the",
        "lazy dog. The quick brown fox jumps over",
        "the lazy dog. ",
    ]


def test_characters_at_separators_with_overlap() -> None:
    assert _fragments(TextSplitter(40, 10), FOX) == [
        "The quick brown fox jumps over the lazy",
        "the lazy dog. The quick brown fox jumps",
        "fox jumps over the lazy dog. The quick",
        "The quick brown fox jumps over the lazy",
        "the lazy dog. ",
    ]


def test_characters_without_a_separator() -> None:
    assert _fragments(TextSplitter(20), "a" * 50) == ["a" * 20, "a" * 20, "a" * 10]
    assert _fragments(TextSplitter(20, 5), "a" * 50) == ["a" * 20] * 3


def test_an_overlap_of_one_adds_nothing_at_a_separator() -> None:
    assert _steps(TextSplitter(40, 1), FOX) == _steps(TextSplitter(40), FOX)


@pytest.mark.parametrize("sizer", [SIZER, PLAIN], ids=["fast", "plain"])
def test_tokens_with_overlap(sizer: Sizer) -> None:
    text = (
        "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        " fifteen sixteen seventeen eighteen nineteen twenty"
    )
    assert _fragments(TextSplitter(8, 2, sizer=sizer), text) == [
        "one two three four five six seven eight",
        "seven eight nine ten eleven twelve thirteen fourteen",
        "fourteen fifteen sixteen seventeen eighteen nineteen twenty",
    ]


@pytest.mark.parametrize("sizer", [SIZER, PLAIN], ids=["fast", "plain"])
def test_every_remainder_is_shorter_than_its_text(sizer: Sizer) -> None:
    """Where unstructured 0.27.32 looped forever, a fragment must count more than the overlap,
    and a remainder must be shorter than the text it was cut from (so since 0.27.35)."""
    text = "a " + "x" * 2000
    steps = _steps(TextSplitter(10, 3, sizer=sizer), text)
    _assert_sound(steps, text, 10)
    texts = [text, *(remainder for _, remainder in steps)]
    assert all(len(after) < len(before) for before, after in itertools.pairwise(texts))
    assert steps == _reference_steps(
        _reference(10, 3, tokens=True, separators=DEFAULT_SEPARATORS), text
    )


@pytest.mark.parametrize("sizer", [SIZER, PLAIN], ids=["fast", "plain"])
def test_an_all_whitespace_prefix_is_content(sizer: Sizer) -> None:
    """Indentation longer than the window is cut into whitespace pieces, and the whitespace
    after such a piece stays in the remainder."""
    text = "\n    " * 30 + "return x"
    steps = _steps(TextSplitter(3, 0, sizer=sizer), text)
    assert steps == _reference_steps(
        _reference(3, 0, tokens=True, separators=DEFAULT_SEPARATORS), text
    )
    assert [fragment.isspace() for fragment, _ in steps] == [True] * 4 + [False]
    assert "".join(fragment for fragment, _ in steps) == text


@pytest.mark.parametrize("sizer", [SIZER, PLAIN], ids=["fast", "plain"])
def test_an_overlap_tail_joins_a_cut_word_without_a_space(sizer: Sizer) -> None:
    """A cut inside a run of one letter discards no whitespace: the overlap tail is joined to the
    rest directly."""
    text = "a" * 300
    steps = _steps(TextSplitter(16, 6, sizer=sizer), text)
    assert steps == _reference_steps(
        _reference(16, 6, tokens=True, separators=DEFAULT_SEPARATORS), text
    )
    assert all(" " not in remainder for _, remainder in steps)
