"""Each retrieval option on small documents: what it changes, beside what the reference does."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import partita
from partita.chunking import chunk_by_title, chunk_elements
from partita.cli import main
from partita.elements import Element, ElementMetadata, NarrativeText, Table, Title
from partita.text._splits import is_grapheme_extender, iter_splits
from partita.text.sizing._tokenizers import token_counter

SENTENCES = " ".join(
    f"Sentence number {n} tells of the {word} that sat by the river."
    for n, word in enumerate(
        ["heron", "otter", "beaver", "trout", "swan", "kingfisher", "vole", "newt"]
    )
)


def numbered(elements: list[Element]) -> list[Element]:
    return [dataclasses.replace(e, element_id=f"e{i}") for i, e in enumerate(elements)]


def test_oversized_text_is_cut_at_sentence_ends_not_wherever_a_space_falls() -> None:
    elements = numbered([NarrativeText(SENTENCES)])
    reference = chunk_elements(elements, max_characters=150)
    assert any(not c.text.endswith(".") for c in reference)  # -- the reference's cuts --
    chunks = chunk_elements(elements, max_characters=150, split_at="sentences")
    assert len(chunks) > 2
    assert all(c.text.endswith(".") and len(c.text) <= 150 for c in chunks)
    assert " ".join(c.text for c in chunks) == SENTENCES


def test_overlap_is_whole_sentences_between_whole_chunks() -> None:
    paragraphs = [SENTENCES[i : i + 120] for i in range(0, 240, 120)]
    del paragraphs
    first, second = SENTENCES.split(" Sentence number 4")
    elements = numbered([NarrativeText(first), NarrativeText("Sentence number 4" + second)])
    chunks = chunk_elements(
        elements,
        max_characters=300,
        overlap=70,
        overlap_all=True,
        overlap_unit="sentences",
        provenance=True,
    )
    last_sentence = first[first.rindex("Sentence number 3") :]
    assert chunks[1].text.startswith(last_sentence + "\n\nSentence number 4")
    assert all(len(c.text) <= 300 for c in chunks)
    reference = chunk_elements(elements, max_characters=300, overlap=70, overlap_all=True)
    assert not reference[1].text.startswith("Sentence")  # -- 70 characters, from mid-word --


def test_a_title_never_ends_a_chunk_whose_section_follows() -> None:
    elements = numbered(
        [Title("Birds"), NarrativeText("Herons wade."), Title("Fish"), NarrativeText(SENTENCES)]
    )
    reference = chunk_by_title(elements, max_characters=200)
    assert reference[0].text.endswith("Fish")  # -- the orphan the option removes --
    chunks = chunk_by_title(elements, max_characters=200, keep_titles_with_body=True)
    assert chunks[0].text == "Birds\n\nHerons wade."
    assert chunks[1].text.startswith("Fish\n\nSentence number 0")
    assert not any(c.text.endswith("Fish") for c in chunks)


def document_with_headings() -> list[Element]:
    return numbered(
        [
            Title("Field guide", metadata=ElementMetadata(category_depth=0)),
            Title("Rivers", metadata=ElementMetadata(category_depth=1)),
            NarrativeText(SENTENCES),
        ]
    )


def test_the_heading_path_prefixes_every_chunk_inside_the_window() -> None:
    elements = document_with_headings()
    chunks = chunk_by_title(elements, max_characters=200, heading_context="prefix", provenance=True)
    reference = chunk_by_title(elements, max_characters=200)
    assert chunks[0].text == reference[0].text == "Field guide\n\nRivers"  # -- no header --
    assert "text_offset" not in chunks[0].metadata.extra
    for chunk in chunks[1:]:
        assert chunk.text.startswith("Field guide > Rivers\n\n")
        assert chunk.metadata.extra["text_offset"] == len("Field guide > Rivers\n\n")
        assert chunk.metadata.extra["heading_path"] == "Field guide > Rivers"
        assert chunk.metadata.extra["sources"][0]["offset"] == len("Field guide > Rivers\n\n")
        assert len(chunk.text) <= 200


def test_a_chapter_title_joins_its_first_section() -> None:
    chunks = chunk_by_title(
        document_with_headings(), max_characters=200, keep_titles_with_body=True
    )
    assert chunks[0].text.startswith("Field guide\n\nRivers\n\nSentence number 0")


def test_tokens_count_the_prefix_too() -> None:
    count = token_counter("cl100k_base")
    chunks = chunk_by_title(
        document_with_headings(), max_tokens=40, tokenizer="cl100k_base", heading_context="prefix"
    )
    assert len(chunks) > 2
    assert all(count(c.text) <= 40 for c in chunks)
    assert all(c.text.startswith("Field guide > Rivers\n\n") for c in chunks[1:])


def test_heading_metadata_and_page_ranges_leave_the_reference_s_chunks() -> None:
    elements = numbered(
        [
            Title("Rivers", metadata=ElementMetadata(page_number=1)),
            NarrativeText("Herons wade.", metadata=ElementMetadata(page_number=1)),
            NarrativeText("Otters swim.", metadata=ElementMetadata(page_number=2)),
            NarrativeText(SENTENCES, metadata=ElementMetadata(page_number=3)),
        ]
    )
    reference = chunk_by_title(elements, max_characters=200)
    chunks = chunk_by_title(
        elements, max_characters=200, heading_context="metadata", page_range=True
    )
    assert [c.text for c in chunks] == [c.text for c in reference]
    assert chunks[0].metadata.page_number == 1
    assert chunks[0].metadata.extra["last_page_number"] == 2
    assert chunks[-1].metadata.extra == {"heading_path": "Rivers", "last_page_number": 3}


def table(rows: int) -> Table:
    cells = "".join(f"<tr><td>river {n}</td><td>{n * 7} km</td></tr>" for n in range(rows))
    text = " ".join(f"river {n} {n * 7} km" for n in range(rows))
    return Table(text, metadata=ElementMetadata(text_as_html=f"<table>{cells}</table>"))


def test_a_table_carries_its_heading_path_and_introducing_sentence() -> None:
    intro = "Rivers are long. The table below lists their lengths:"
    elements = numbered([Title("Rivers"), NarrativeText(intro), table(3)])
    chunks = chunk_by_title(elements, max_characters=500, table_context=True, provenance=True)
    header = "Rivers\n\nThe table below lists their lengths:\n\n"
    assert isinstance(chunks[-1], Table)
    assert chunks[-1].text == header + "river 0 0 km river 1 7 km river 2 14 km"
    assert chunks[-1].metadata.extra["text_offset"] == len(header)
    split = chunk_by_title(
        numbered([Title("Rivers"), NarrativeText(intro), table(30)]),
        max_characters=200,
        table_context=True,
    )
    pieces = [c for c in split if isinstance(c, Table)]
    assert len(pieces) > 2
    assert all(len(c.text) <= 200 for c in pieces)
    # -- the first piece has the context; later ones the title alone, not the introduction --
    assert pieces[0].text.startswith(header)
    for piece in pieces[1:]:
        assert piece.text.startswith("Rivers\n\nriver ")
        assert piece.metadata.extra["text_offset"] == len("Rivers\n\n")


def test_table_pieces_carry_title_unit_and_columns_and_no_long_common_start() -> None:
    head = "<tr><td></td><td>2023</td><td>2022</td></tr>"
    rows = "".join(f"<tr><td>Line {n}</td><td>{n},100</td><td>{n},050</td></tr>" for n in range(40))
    text = "2023 2022 " + " ".join(f"Line {n} {n},100 {n},050" for n in range(40))
    statement = Table(text, metadata=ElementMetadata(text_as_html=f"<table>{head}{rows}</table>"))
    intro = "The following table sets forth revenue by segment (in millions):"
    elements = numbered([Title("Segment Revenue"), NarrativeText(intro), statement])
    chunks = chunk_by_title(elements, profile="retrieval", max_tokens=96)
    pieces = [c for c in chunks if isinstance(c, Table)]
    assert len(pieces) > 2
    for piece in pieces[1:]:
        assert piece.text.startswith("Segment Revenue (in millions)\n2023 2022\n\nLine ")
        assert intro not in piece.text
    texts = [c.text for c in chunks]
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            assert not a.startswith(b[:60])
            assert not b.startswith(a[:60])


def test_rows_render_label_and_year_value_pairs() -> None:
    head = '<tr><td></td><td colspan="2">2023</td><td>2022</td></tr>'
    row = "<tr><td>Total revenue</td><td>$</td><td>5,100</td><td>4,800</td></tr>"
    statement = Table(
        "2023 2022 Total revenue $ 5,100 4,800",
        metadata=ElementMetadata(text_as_html=f"<table>{head}{row}</table>"),
    )
    (chunk,) = chunk_by_title(numbered([statement]), max_characters=500, table_text="rows")
    assert chunk.text == "Total revenue: 2023 = 5,100; 2022 = 4,800"


def test_a_title_just_before_a_table_goes_with_the_table() -> None:
    elements = numbered([NarrativeText("Herons wade."), Title("Lengths"), table(3)])
    reference = chunk_by_title(elements, max_characters=500)
    assert reference[0].text == "Herons wade.\n\nLengths"
    chunks = chunk_by_title(
        elements, max_characters=500, keep_titles_with_body=True, provenance=True
    )
    assert chunks[0].text == "Herons wade."
    assert chunks[1].text.startswith("Lengths\nriver 0")
    assert chunks[1].metadata.extra["sources"][0]["element_id"] == "e1"


@pytest.mark.parametrize("text", ["e\u0301" * 40, "👩\u200d💻" * 30, "a\u0308\u0301" * 20])
def test_no_split_falls_inside_a_grapheme_cluster(text: str) -> None:
    splits = list(iter_splits(text, len, 5))
    assert "".join(text[s.start : s.end] for s in splits) == text
    for split in splits[1:]:
        assert not is_grapheme_extender(text[split.start])
        assert text[split.start - 1] != "\u200d"


def test_the_command_line_takes_the_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "elements.jsonl"
    partita.elements_to_jsonl(document_with_headings(), path)
    assert main(["chunk", str(path), "--profile", "retrieval", "--max-tokens", "30"]) == 0
    chunks = json.loads(capsys.readouterr().out)
    assert len(chunks) > 2
    assert chunks[1]["text"].startswith("Field guide > Rivers\n\n")
    assert chunks[1]["metadata"]["heading_path"] == "Field guide > Rivers"


def test_combining_counts_the_window_s_unit_unless_asked_for_characters() -> None:
    paragraph = "River " * 60  # -- 360 characters, 60 tokens --
    elements = numbered(
        [Title("One"), NarrativeText(paragraph), Title("Two"), NarrativeText(paragraph)]
    )
    options = {"max_tokens": 200, "tokenizer": "cl100k_base"}
    by_tokens = chunk_by_title(elements, **options)  # type: ignore[arg-type]
    by_characters = chunk_by_title(elements, combine_unit="characters", **options)  # type: ignore[arg-type]
    assert len(by_characters) == 2  # -- 360 characters are past the threshold of 200 --
    assert len(by_tokens) == 1  # -- 62 tokens are not --
    assert chunk_by_title(elements, combine_unit="window", **options) == by_tokens  # type: ignore[arg-type]
    assert token_counter("cl100k_base")(by_tokens[0].text) <= 200
