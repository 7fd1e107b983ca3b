"""The "semantic" strategy on elements: planted topic shifts, the decay, the hard maximum, no
text lost, sections, tables, Chinese, the embedder's calls, the ways in."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
import tiktoken
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partita
from partita.chunking import chunk
from partita.chunking.strategies.semantic import (
    SemanticChunkingOptions,
    chunk_by_semantic,
    iter_chunks_by_semantic,
)
from partita.elements import CompositeElement, Element, NarrativeText, Table, Title
from tests.chunking.strategies.checks import (
    check_command_line,
    check_coverage,
    check_provenance,
    elements_of,
)
from tests.chunking.strategies.semantic.fakes import TopicEmbedder, topic_sentences

ENCODING = tiktoken.get_encoding("cl100k_base")
BIG = {"max_characters": 100_000, "decay": "off"}


def paragraph(*runs: tuple[str, int]) -> tuple[str, list[int]]:
    """A paragraph of `count` sentences per `(topic, count)` run, and where each run starts."""
    sentences: list[str] = []
    shifts: list[int] = []
    for topic, count in runs:
        if sentences:
            shifts.append(len(sentences))
        sentences += topic_sentences(topic, count, start=len(sentences))
    return " ".join(sentences), shifts


def sentence_counts(chunks: list[Element]) -> list[int]:
    return [len(partita.split_sentences(c.text)) for c in chunks]


def test_breakpoints_land_exactly_on_planted_topic_shifts() -> None:
    # -- 61 sentences, 3 shifts: the 95th percentile of 60 distances leaves exactly the 3 --
    text, _shifts = paragraph(("tea", 16), ("volcano", 15), ("bicycle", 15), ("violin", 15))
    chunks = chunk_by_semantic([NarrativeText(text)], embedder=TopicEmbedder(), **BIG)
    assert sentence_counts(chunks) == [16, 15, 15, 15]
    assert [c.text.split()[1] for c in chunks] == ["tea", "volcano", "bicycle", "violin"]
    # -- adjacent sentences and an absolute threshold find them too; so does std (iqr, whose
    # -- range is about 0 here, and gradient, which peaks a boundary early, do not) --
    for options in (
        {"window": 0, "breakpoint": "absolute", "breakpoint_amount": 0.5},
        {"breakpoint": "std", "breakpoint_amount": 3},
    ):
        found = chunk_by_semantic([NarrativeText(text)], embedder=TopicEmbedder(), **BIG, **options)
        assert sentence_counts(found) == [16, 15, 15, 15], options


def test_chinese_sentences_and_shifts() -> None:
    text, _ = paragraph(("茶", 20), ("火山", 20))
    chunks = chunk_by_semantic(
        [NarrativeText(text)], embedder=TopicEmbedder(), breakpoint="absolute", window=0, **BIG
    )
    assert [c.text[:4] for c in chunks] == ["关于茶的", "关于火山"]
    assert sentence_counts(chunks) == [20, 20]
    assert all(c.text.endswith("。") for c in chunks)


def test_the_decay_caps_chunk_length_without_a_topic_shift() -> None:
    text, _ = paragraph(("tea", 120))

    def without_breakpoints(**options: Any) -> list[int]:
        """The sentences per chunk when no boundary is a breakpoint: only the decay cuts."""
        chunks = chunk_by_semantic(
            [NarrativeText(text)],
            embedder=TopicEmbedder(noise=0.3),
            max_characters=100_000,
            breakpoint="absolute",
            breakpoint_amount=-1,
            **options,
        )
        return sentence_counts(chunks)

    assert without_breakpoints(decay="off") == [120]
    # -- window similarities of one topic with this noise are about 0.97 to 0.99: seed 003's
    # -- e^(-1/j) passes them within some tens of sentences --
    counts = without_breakpoints(window=1, window_sides=False, decay="exp")
    assert len(counts) > 2
    assert max(counts) < 120
    assert sum(counts) == 120
    # -- a stronger decay caps harder --
    assert without_breakpoints(decay=lambda j: 1.0 if j >= 5 else 0.0) == [5] * 24


def test_the_hard_maximum_holds_and_cuts_at_the_weakest_boundary() -> None:
    text, _ = paragraph(("tea", 6), ("volcano", 6))
    limit = len(text) * 3 // 4
    chunks = chunk_by_semantic(
        [NarrativeText(text)],
        embedder=TopicEmbedder(),
        max_characters=limit,
        decay="off",
        breakpoint="absolute",
        breakpoint_amount=-1,
    )
    assert sentence_counts(chunks) == [6, 6]
    assert all(len(c.text) <= limit for c in chunks)


def test_a_long_sentence_is_cut_only_by_the_hard_maximum_and_packed() -> None:
    clauses = ", ".join(f"{topic} clause {i}" for i in range(8) for topic in ("tea", "volcano"))
    text = f"The tea is short. {clauses[0].upper()}{clauses[1:]}. The violin is short."
    limit = 120
    chunks = chunk_by_semantic(
        [NarrativeText(text)],
        embedder=TopicEmbedder(),
        max_characters=limit,
        window=0,
        breakpoint="absolute",
        breakpoint_amount=1.0,  # -- every eligible boundary is a breakpoint --
    )
    assert chunks[0].text == "The tea is short."
    assert chunks[-1].text == "The violin is short."
    pieces = [c.text for c in chunks[1:-1]]
    long_sentence = text[len("The tea is short. ") : -len(" The violin is short.")]
    assert "".join(pieces).replace(" ", "") == long_sentence.replace(" ", "")
    assert all(len(piece) <= limit for piece in pieces)
    # -- packed to the window, not cut at each of its topic changes: no two neighbours fit --
    assert len(pieces) > 1
    assert all(len(a) + len(b) + 1 > limit for a, b in itertools.pairwise(pieces))


def test_sections_are_never_merged_and_titles_stay_with_their_text() -> None:
    elements: list[Element] = [
        Title("Tea"),
        NarrativeText(paragraph(("tea", 5))[0]),
        Title("Volcano"),
        NarrativeText(paragraph(("volcano", 3), ("bicycle", 3))[0]),
        Table("a b"),
        NarrativeText(paragraph(("violin", 3))[0]),
    ]
    chunks = chunk_by_semantic(
        elements, embedder=TopicEmbedder(), window=0, breakpoint="absolute", **BIG
    )
    assert [type(c).__name__ for c in chunks] == ["CompositeElement"] * 3 + [
        "Table",
        "CompositeElement",
    ]
    assert chunks[0].text.startswith("Tea\n\nThe tea fact")
    assert chunks[1].text.startswith("Volcano\n\nThe volcano fact")
    assert "bicycle" not in chunks[1].text
    assert chunks[2].text.startswith("The bicycle fact")
    check_provenance(chunks, elements)
    check_coverage(chunks, elements)


def test_overlap_repeats_whole_sentences_within_the_window() -> None:
    text, _ = paragraph(("tea", 4), ("volcano", 4), ("bicycle", 4))
    options: dict[str, Any] = {"window": 0, "breakpoint": "absolute", **BIG}
    plain = chunk_by_semantic([NarrativeText(text)], embedder=TopicEmbedder(), **options)
    overlapped = chunk_by_semantic(
        [NarrativeText(text)], embedder=TopicEmbedder(), overlap_sentences=2, **options
    )
    assert sentence_counts(overlapped) == [4, 6, 6]
    for before, after in zip(plain[:-1], overlapped[1:], strict=True):
        assert after.text.startswith(" ".join(partita.split_sentences(before.text)[-2:]))
    tight = chunk_by_semantic(
        [NarrativeText(text)],
        embedder=TopicEmbedder(),
        overlap_sentences=2,
        **{**options, "max_characters": len(plain[1].text) + 20},
    )
    assert all(len(c.text) <= len(plain[1].text) + 20 for c in tight)


def test_each_distinct_sentence_is_embedded_once_in_one_batch() -> None:
    text, _ = paragraph(("tea", 10), ("volcano", 10))
    repeated = text + " " + topic_sentences("tea", 1)[0]
    embedder = TopicEmbedder()
    elements: list[Element] = [NarrativeText(repeated), Title("Tea"), NarrativeText(text)]
    chunk_by_semantic(elements, embedder=embedder, **BIG)
    assert embedder.calls == 1
    assert sorted(embedder.texts) == sorted(set(partita.split_sentences(repeated)) | {"Tea"})


def test_named_embedders_are_cached_on_disk(tmp_path: Path) -> None:
    from partita.embeddings import hashing_embedder

    text, _ = paragraph(("tea", 5), ("volcano", 5))
    first = chunk_by_semantic(
        [NarrativeText(text)], embedder=hashing_embedder(), embedding_cache=tmp_path
    )
    assert list(tmp_path.glob("*.sqlite3"))
    again = chunk_by_semantic(
        [NarrativeText(text)], embedder=hashing_embedder(), embedding_cache=tmp_path
    )
    assert again == first
    off = chunk_by_semantic(
        [NarrativeText(text)], embedder=hashing_embedder(), embedding_cache="off"
    )
    assert off == first


def test_the_default_window_is_1000_characters() -> None:
    # -- an embedder given: the default one (minilm) is checked for the embed extra --
    assert SemanticChunkingOptions(embedder=TopicEmbedder()).hard_max == 1000
    assert SemanticChunkingOptions(embedder=TopicEmbedder(), max_characters=300).hard_max == 300
    text, _ = paragraph(("tea", 60))
    chunks = chunk_by_semantic([NarrativeText(text)], embedder=TopicEmbedder())
    assert max(len(c.text) for c in chunks) <= 1000 < len(text)
    assert max(len(c.text) for c in chunks) > 500


def test_options_are_validated() -> None:
    with pytest.raises(ValueError, match="breakpoint"):
        SemanticChunkingOptions(breakpoint="median")
    with pytest.raises(ValueError, match="percentile breakpoint_amount"):
        SemanticChunkingOptions(breakpoint_amount=120)
    with pytest.raises(ValueError, match="window"):
        SemanticChunkingOptions(window=-1)
    with pytest.raises(ValueError, match="decay"):
        SemanticChunkingOptions(decay="linear", embedder=TopicEmbedder())
    with pytest.raises(TypeError, match="overlap"):
        SemanticChunkingOptions(overlap=10)
    with pytest.raises(TypeError, match="embedder"):
        SemanticChunkingOptions(embedder=42)
    with pytest.raises(ValueError, match="expected minilm or module:function"):
        SemanticChunkingOptions(embedder="bogus")


def test_a_bad_embedder_name_is_a_usage_error_before_any_file(tmp_path: Path) -> None:
    import subprocess
    import sys

    document = tmp_path / "notes.txt"
    document.write_text("One sentence. Another one.\n")
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from partita.cli import main; sys.exit(main())",
            "chunk",
            str(document),
            "--strategy",
            "semantic",
            "--embedder",
            "bogus",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "partita chunk: error: embedder 'bogus': expected minilm or module:function"
        " (see partita chunk --help)"
    ]


def test_without_the_embed_extra_the_strategy_names_it() -> None:
    import subprocess
    import sys

    blocked = "import sys; sys.modules.update(dict.fromkeys(['numpy', 'torch'], None)); "
    code = blocked + (
        "import partita\n"
        "try:\n    partita.chunk([partita.NarrativeText('a b')], 'semantic')\n"
        "except ValueError as exc:\n    print(exc)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip().startswith(
        "the semantic strategy with all-MiniLM-L6-v2 needs the 'embed' extra (numpy, torch"
    )
    assert done.stdout.strip().endswith("not installed): pip install 'partita[embed]'")


def test_three_ways_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, _ = paragraph(("tea", 5), ("volcano", 5))
    elements: list[Element] = [Title("Facts"), NarrativeText(text)]
    spec = "partita.embeddings:hashing_embedder"
    options: dict[str, Any] = {"max_characters": 300, "embedder": spec, "embedding_cache": "off"}
    expected = chunk_by_semantic(elements, **options)
    assert len(expected) > 1
    assert list(iter_chunks_by_semantic(elements, **options)) == expected
    assert chunk(elements, "semantic", **options) == expected
    check_command_line(elements, "semantic", options, expected, tmp_path, capsys)


WORDS = st.sampled_from(
    [
        "tea",
        "Volcano.",
        "bicycle!",
        "violin,",
        "茶。",
        "火山。",
        "x",
        "   ",
        "\n",
        "\n\n",
        "3.14",
        "e.g.",
    ]
)
ELEMENTS = elements_of(WORDS)
OPTIONS = st.fixed_dictionaries(
    {
        "window": st.integers(0, 2),
        "breakpoint": st.sampled_from(["percentile", "std", "iqr", "gradient", "absolute"]),
        "decay": st.sampled_from(["exp", "off"]),
        "overlap_sentences": st.integers(0, 2),
        "respect_sections": st.booleans(),
    }
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(elements=ELEMENTS, limit=st.integers(5, 150), min_size=st.integers(0, 60), options=OPTIONS)
def test_character_windows_hold_and_nothing_is_lost(
    elements: list[Element], limit: int, min_size: int, options: dict[str, Any]
) -> None:
    chunks = chunk(
        elements,
        "semantic",
        embedder=TopicEmbedder(),
        max_characters=limit,
        min_size=min_size,
        **options,
    )
    assert all(len(c.text) <= limit for c in chunks)
    assert all(isinstance(c, CompositeElement) for c in chunks)
    check_provenance(chunks, elements)
    check_coverage(chunks, elements)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(elements=ELEMENTS, limit=st.integers(2, 50), options=OPTIONS)
def test_token_windows_hold_and_nothing_is_lost(
    elements: list[Element], limit: int, options: dict[str, Any]
) -> None:
    chunks = chunk(
        elements,
        "semantic",
        embedder=TopicEmbedder(),
        max_tokens=limit,
        tokenizer="cl100k_base",
        **options,
    )
    assert all(len(ENCODING.encode_ordinary(c.text)) <= limit or len(c.text) == 1 for c in chunks)
    check_provenance(chunks, elements)
    check_coverage(chunks, elements)
