"""`CachedEmbedder`: each text embedded once per model id, its vector kept in SQLite on disk."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sqlite3
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from partita.embeddings._vectors import RawEmbedder, Vectors, check_texts, embed
from partita.errors import PartitaWarning

__all__ = ["CacheStats", "CachedEmbedder", "EmbeddingCacheWarning", "default_cache_directory"]


class EmbeddingCacheWarning(PartitaWarning):
    """The embedding cache found a damaged file and rebuilt it (its vectors are embedded again)."""


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
        check_texts(texts)
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
