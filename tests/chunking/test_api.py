"""The public names of chunking and of the text layer's sizing and splitting: each `__all__`
names only what exists and every public class and function its module defines (ruff keeps it
sorted), and `partita.chunking`'s is pinned."""

from __future__ import annotations

import importlib
import inspect

import pytest

MODULES = [
    "partita.chunking",
    "partita.chunking._options",
    "partita.chunking._registry",
    "partita.chunking._run",
    "partita.chunking._strategy",
    "partita.chunking.strategies._basic",
    "partita.chunking.strategies._by_title",
    "partita.chunking.strategies._sentence",
    "partita.chunking.strategies._sentence_window",
    "partita.chunking.strategies._recursive",
    "partita.chunking.strategies._token",
    "partita.chunking._text_chunks",
    "partita.text.sizing",
    "partita.text.sizing._sizer",
    "partita.text.sizing._tokenizers",
    "partita.text.splitting",
    "partita.text.splitting._splitter",
]


@pytest.mark.parametrize("name", MODULES)
def test_all_names_what_the_module_defines(name: str) -> None:
    module = importlib.import_module(name)
    names = module.__all__
    assert len(set(names)) == len(names)
    assert all(hasattr(module, n) for n in names)
    public = {
        n
        for n, value in vars(module).items()
        if not n.startswith("_")
        and (inspect.isclass(value) or inspect.isfunction(value))
        and value.__module__ == name
    }
    assert public <= set(names), f"public but not in __all__: {sorted(public - set(names))}"


def test_the_chunking_api_is_pinned() -> None:
    import partita.chunking

    assert set(partita.chunking.__all__) == {
        "BasicOptions",
        "ByTitleChunkingOptions",
        "ByTitleOptions",
        "ChunkingOptions",
        "ChunkingStrategy",
        "Help",
        "HeadingsOptions",
        "chunk_by_headings",
        "iter_chunks_by_headings",
        "CodeOptions",
        "chunk_code",
        "iter_chunks_of_code",
        "SemanticOptions",
        "chunk_by_semantic",
        "iter_chunks_by_semantic",
        "SentenceOptions",
        "SentenceWindowOptions",
        "chunk_by_sentence",
        "chunk_by_sentence_window",
        "chunk_by_tokens",
        "chunk_recursively",
        "iter_chunks_by_sentence",
        "iter_chunks_by_sentence_window",
        "iter_chunks_by_tokens",
        "iter_chunks_recursively",
        "replace_with_windows",
        "chunk",
        "chunk_by_title",
        "chunk_elements",
        "chunking_strategies",
        "iter_chunk_elements",
        "iter_chunks",
        "iter_chunks_by_title",
        "register_chunking_strategy",
        "iter_source_texts",
        "rebuilds",
        "sources_of",
        "token_counter",
    }
