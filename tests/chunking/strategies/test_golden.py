"""Golden files: the text strategies' chunks of the bundled sample document, whole, and the
"code" strategy's chunks of a small program in each language it outlines.

`fixtures/sample.docx` has headings (a custom heading style among them), a list, a table and a
Chinese section: each strategy's chunks of it, with token and character windows, overlap and a
metadata header, are kept as JSON under `golden/` (regenerate with `PARTITA_REGEN_GOLDEN=1` and
review the diff). A change in sentence segmentation, splitting, packing, provenance or ids
shows here as a readable diff.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import partita
from partita.partitioners.code import partition_code
from partita.partitioners.docx import partition_docx
from partita.text.code import language_named
from tests.partitioners.golden import assert_matches_golden
from tests.text.code.samples import SOURCES

SAMPLE = Path(__file__).resolve().parents[3] / "fixtures" / "sample.docx"
GOLDEN = Path(__file__).resolve().parent / "golden"

CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "sample-sentence-tokens": (
        "sentence",
        {
            "max_tokens": 64,
            "tokenizer": "cl100k_base",
            "overlap": 16,
            "metadata_template": "{filename} > {section_path}",
        },
    ),
    "sample-sentence-characters": ("sentence", {"max_characters": 120, "overlap": 30}),
    "sample-sentence-window": ("sentence_window", {"window_size": 1, "max_characters": 300}),
    "sample-recursive": ("recursive", {"max_characters": 200, "overlap": 40}),
    "sample-recursive-no-sections": (
        "recursive",
        {"max_tokens": 96, "tokenizer": "cl100k_base", "respect_sections": False},
    ),
    "sample-token": ("token", {"max_tokens": 48, "overlap": 8, "tokenizer": "cl100k_base"}),
    "sample-headings": ("headings", {"max_tokens": 64, "tokenizer": "cl100k_base"}),
}


@pytest.fixture(scope="module")
def elements() -> list[partita.Element]:
    with SAMPLE.open("rb") as f:  # -- no directory or modification time in the metadata --
        return partition_docx(file=f, metadata_filename=SAMPLE.name)


@pytest.mark.parametrize("name", sorted(CASES))
def test_sample_chunks_match_their_golden_file(name: str, elements: list[partita.Element]) -> None:
    strategy, options = CASES[name]
    chunks = partita.chunk(elements, strategy, **options)
    assert chunks
    assert_matches_golden(chunks, name, GOLDEN)


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_code_chunks_match_their_golden_file(language: str) -> None:
    known = language_named(language)
    assert known is not None
    elements = partition_code(
        text=SOURCES[language], metadata_filename="sample" + known.extensions[0]
    )
    chunks = partita.chunk(elements, "code", max_characters=160)
    assert len(chunks) > 2
    assert_matches_golden(chunks, f"code-{language}", GOLDEN)
