"""The worked examples of the reference's behaviour (its description, section 2), as named tests."""

from __future__ import annotations

import pytest

from partita.chunking import chunk, chunk_by_title, chunk_elements, iter_chunks_by_title
from partita.elements import (
    CodeSnippet,
    CompositeElement,
    Element,
    ElementMetadata,
    Link,
    ListItem,
    NarrativeText,
    PageBreak,
    Table,
    TableChunk,
    Title,
)


def _worked_example() -> list[Element]:
    return [
        Title(
            "Intro  to\tthings",
            metadata=ElementMetadata(page_number=1, filename="a.docx", languages=["eng"]),
        ),
        NarrativeText(
            "  Some   text\nhere.  ",
            metadata=ElementMetadata(
                page_number=1, emphasized_text_contents=["text"], emphasized_text_tags=["b"]
            ),
        ),
        PageBreak(""),
        NarrativeText(
            "Page two text.",
            metadata=ElementMetadata(
                page_number=2,
                languages=["fra", "eng"],
                link_texts=["two"],
                link_urls=["https://two"],
                links=[Link(text="two", url="https://two", start_index=5)],
                category_depth=1,
                parent_id="abc",
            ),
        ),
        Title("Second", metadata=ElementMetadata(page_number=2)),
        ListItem("item one", metadata=ElementMetadata(page_number=2)),
    ]


ALL_IN_ONE = "Intro to things\n\nSome text here.\n\nPage two text.\n\nSecond\n\nitem one"


def test_worked_example_basic_makes_one_chunk() -> None:
    elements = _worked_example()
    (only,) = chunk_elements(elements)
    assert isinstance(only, CompositeElement)
    assert only.text == ALL_IN_ONE
    meta = only.metadata
    assert meta.filename == "a.docx"
    assert meta.page_number == 1
    assert meta.languages == ("eng", "fra")
    assert meta.emphasized_text_contents == ("text",)
    assert meta.link_texts == ("two",)
    assert meta.link_urls == ("https://two",)
    assert (meta.links, meta.parent_id, meta.category_depth) == (None, None, None)
    assert meta.orig_elements == tuple(elements)
    assert all(o is e for o, e in zip(meta.orig_elements, elements, strict=True))


def test_worked_example_by_title_combines_everything() -> None:
    assert [c.text for c in chunk_by_title(_worked_example())] == [ALL_IN_ONE]


def test_worked_example_without_combining() -> None:
    chunks = chunk_by_title(_worked_example(), combine_text_under_n_chars=0)
    assert [(c.text, c.metadata.page_number) for c in chunks] == [
        ("Intro to things\n\nSome text here.\n\nPage two text.", 1),
        ("Second\n\nitem one", 2),
    ]


def test_worked_example_with_page_boundaries() -> None:
    chunks = chunk_by_title(
        _worked_example(), combine_text_under_n_chars=0, multipage_sections=False
    )
    assert [c.text for c in chunks] == [
        "Intro to things\n\nSome text here.",
        "Page two text.",
        "Second\n\nitem one",
    ]
    first_orig = chunks[0].metadata.orig_elements
    assert first_orig is not None
    assert [type(e) for e in first_orig] == [Title, NarrativeText, PageBreak]


def test_worked_example_one_element_per_chunk() -> None:
    chunks = chunk_elements(_worked_example(), new_after_n_chars=0)
    assert [c.text for c in chunks] == [
        "Intro to things",
        "Some text here.",
        "Page two text.",
        "Second",
        "item one",
    ]
    third_orig = chunks[2].metadata.orig_elements
    assert third_orig is not None
    assert [type(e) for e in third_orig] == [PageBreak, NarrativeText]


def test_soft_max_is_exceeded_only_when_strictly_greater() -> None:
    elements = [NarrativeText("a" * 10), NarrativeText("b" * 10), NarrativeText("c" * 10)]
    chunks = chunk_elements(elements, max_characters=100, new_after_n_chars=10)
    assert [c.text for c in chunks] == ["a" * 10 + "\n\n" + "b" * 10, "c" * 10]


def test_fit_is_measured_on_raw_text() -> None:
    elements = [NarrativeText("x" * 10), NarrativeText("y   y   y   y")]
    chunks = chunk_elements(elements, max_characters=22)
    assert [c.text for c in chunks] == ["x" * 10, "y y y y"]


def test_title_before_an_oversized_element_is_alone() -> None:
    chunks = chunk_by_title([Title("T"), NarrativeText("word " * 30)], max_characters=50)
    assert chunks[0].text == "T"
    assert len(chunks) > 2


@pytest.mark.parametrize(
    ("overlap", "expected"),
    [
        (
            None,
            [
                "The quick brown fox jumps over the lazy",
                "dog. The quick brown fox jumps over the",
                "lazy dog. The quick brown fox jumps over",
                "the lazy dog.",
            ],
        ),
        (10, None),
    ],
)
def test_oversized_text_splits_on_spaces(overlap: int | None, expected: list[str] | None) -> None:
    text = "The quick brown fox jumps over the lazy dog. " * 3
    chunks = chunk_elements([NarrativeText(text)], max_characters=40, overlap=overlap)
    assert all(len(c.text) <= 40 for c in chunks)
    if expected is not None:
        assert [c.text for c in chunks] == expected
    else:
        assert chunks[1].text.startswith("the lazy dog. The quick")
    assert [c.metadata.is_continuation for c in chunks] == [None] + [True] * (len(chunks) - 1)


@pytest.mark.parametrize(("overlap", "sizes"), [(None, [20, 20, 10]), (5, [20, 20, 20])])
def test_unbreakable_text_is_cut_hard(overlap: int | None, sizes: list[int]) -> None:
    chunks = chunk_elements([NarrativeText("a" * 50)], max_characters=20, overlap=overlap)
    assert [len(c.text) for c in chunks] == sizes


def test_code_snippets_keep_their_whitespace() -> None:
    code = "def f():\n    return 1\n"
    (only,) = chunk_elements([NarrativeText("Before\n  it:"), CodeSnippet(code)])
    assert only.text == "Before it:\n\n" + code


def test_overlap_all_crosses_section_boundaries() -> None:
    elements = [
        Title("T1"),
        NarrativeText("alpha bravo."),
        Title("T2"),
        NarrativeText("charlie."),
    ]
    chunks = chunk_by_title(elements, combine_text_under_n_chars=0, overlap=10, overlap_all=True)
    assert chunks[1].text == "pha bravo.\n\nT2\n\ncharlie."


def test_tables_are_isolated_and_keep_compacted_html() -> None:
    html = '<table class="x"><thead><tr><th>A</th></tr></thead><tr><td> 1 </td></tr></table>'
    elements = [
        NarrativeText("before"),
        Table("A 1", metadata=ElementMetadata(text_as_html=html, parent_id="p")),
        NarrativeText("after"),
    ]
    chunks = chunk_by_title(elements)
    assert [type(c) for c in chunks] == [CompositeElement, Table, CompositeElement]
    table = chunks[1]
    assert table.metadata.text_as_html == "<table><tr><td>A</td></tr><tr><td>1</td></tr></table>"
    assert table.metadata.parent_id is None
    assert table.metadata.orig_elements == (elements[1],)


def test_large_table_repeats_its_header() -> None:
    rows = "".join(f"<tr><td>Item{i}</td><td>{i}</td><td>{i}.00</td></tr>" for i in range(1, 9))
    html = f"<table><thead><tr><th>Name</th><th>Qty</th><th>Price</th></tr></thead>{rows}</table>"
    text = "Name Qty Price " + " ".join(f"Item{i} {i} {i}.00" for i in range(1, 9))
    chunks = chunk_elements(
        [Table(text, metadata=ElementMetadata(text_as_html=html))], max_characters=60
    )
    assert all(isinstance(c, TableChunk) for c in chunks)
    assert chunks[0].text == "Name Qty Price Item1 1 1.00 Item2 2 2.00 Item3 3 3.00"
    assert chunks[1].text.startswith("Name Qty Price Item4")
    html1 = chunks[1].metadata.text_as_html
    assert html1 is not None
    assert html1.startswith("<table><thead><tr><th>Name</th>")
    assert [c.metadata.chunk_index for c in chunks] == list(range(len(chunks)))
    assert [c.metadata.num_carried_over_header_rows for c in chunks] == [0] + [1] * (
        len(chunks) - 1
    )
    assert len({c.metadata.table_id for c in chunks}) == 1


def test_table_chunk_input_becomes_a_table_when_it_fits() -> None:
    (out,) = chunk_elements([TableChunk("a b", metadata=ElementMetadata(text_as_html=None))])
    assert type(out) is Table


def test_skip_table_chunking_passes_the_table_through() -> None:
    big = Table("x " * 400, metadata=ElementMetadata(parent_id="p", category_depth=1))
    (out,) = chunk_elements([big], skip_table_chunking=True)
    assert out is big


def test_empty_pre_chunks_make_no_chunk() -> None:
    assert chunk_elements([PageBreak(""), NarrativeText("   "), Table("  ")]) == []


def test_lazy_form_validates_when_called() -> None:
    with pytest.raises(ValueError, match="max_characters"):
        iter_chunks_by_title([], max_characters=0)


def test_dispatch_filters_options_and_rejects_unknown_strategies() -> None:
    elements = [NarrativeText("a"), NarrativeText("b")]
    assert chunk(elements, "basic", multipage_sections=False) == chunk_elements(elements)
    with pytest.raises(ValueError, match="unrecognized chunking strategy 'by_page'"):
        chunk(elements, "by_page")
    with pytest.raises(TypeError, match="'foo'"):
        chunk(elements, "basic", multipage_sections=False, foo=1)
    with pytest.raises(TypeError):
        chunk_elements(elements, multipage_sections=False)  # type: ignore[call-arg]


def test_chunk_ids_are_deterministic_and_unique() -> None:
    elements = [NarrativeText("word " * 60), NarrativeText("other"), NarrativeText("word " * 60)]
    first = chunk_elements(elements, max_characters=50)
    second = chunk_elements(elements, max_characters=50)
    assert [c.element_id for c in first] == [c.element_id for c in second]
    assert len({c.element_id for c in first}) == len(first)


def test_chunks_carry_the_section_path_of_their_first_element() -> None:
    elements = [
        Title("A", metadata=ElementMetadata(section_path=["A"])),
        NarrativeText("text", metadata=ElementMetadata(section_path=["A"])),
        Title("B", metadata=ElementMetadata(section_path=["A", "B"])),
        NarrativeText("more", metadata=ElementMetadata(section_path=["A", "B"])),
    ]
    chunks = chunk_by_title(elements, combine_text_under_n_chars=0)
    assert [c.metadata.section_path for c in chunks] == [("A",), ("A", "B")]


def test_custom_separators_are_literal_and_lose_no_character() -> None:
    # -- the reference compiles "." as a regular expression and drops the "k" here --
    text = "abcdefghijklmnop"
    chunks = chunk_elements(
        [NarrativeText(text)], max_characters=10, text_splitting_separators=["."]
    )
    assert "".join(c.text for c in chunks) == text
    chunks = chunk_elements(
        [NarrativeText("one. two. three. four. five.")],
        max_characters=12,
        text_splitting_separators=[". ", " "],
    )
    assert [c.text for c in chunks] == ["one. two", "three. four", "five."]


# -- unstructured 0.27.35 -----------------------------------------------------------------------


def test_combining_stops_at_the_soft_maximum() -> None:
    """`combine_text_under_n_chars` is capped at `new_after_n_chars`: a combined section of 101
    characters takes no further section under 89, though 300 were asked."""
    sections = [
        ("One", "alpha beta gamma delta " * 2),
        ("Two", "epsilon zeta eta theta " * 2),
        ("Three", "iota kappa lambda mu " * 2),
        ("Four", "nu xi omicron pi"),
    ]
    elements: list[Element] = []
    for title, body in sections:
        elements += [Title(title), NarrativeText(body)]
    options = {"new_after_n_chars": 89, "combine_text_under_n_chars": 300, "overlap": 16}
    chunks = chunk_by_title(elements, max_characters=300, **options)  # type: ignore[arg-type]
    assert [c.text for c in chunks] == [
        "One\n\nalpha beta gamma delta alpha beta gamma delta\n\n"
        "Two\n\nepsilon zeta eta theta epsilon zeta eta theta",
        "Three\n\niota kappa lambda mu iota kappa lambda mu\n\nFour\n\nnu xi omicron pi",
    ]


def test_token_mode_combining_counts_tokens() -> None:
    """A section of 20 characters and a few tokens takes the next one under a window of 20
    tokens (unstructured 0.27.32 compared its 20 characters with the 20 and kept them apart)."""
    elements = [Title("T1"), NarrativeText("Seventeen chars."), Title("T2"), NarrativeText("More.")]
    chunks = chunk_by_title(elements, max_tokens=20, tokenizer="cl100k_base")
    assert [c.text for c in chunks] == ["T1\n\nSeventeen chars.\n\nT2\n\nMore."]


def test_a_run_of_one_letter_is_cut_at_the_window_s_end() -> None:
    """No whitespace to cut at: the probed window's end; the overlap tail joins the rest without
    a space, since the cut discarded none."""
    chunks = chunk_elements(
        [NarrativeText("a" * 200)], max_tokens=16, overlap=6, tokenizer="cl100k_base"
    )
    assert [c.text for c in chunks] == ["a" * 124, "a" * 120]


def test_indentation_longer_than_the_window_is_cut_as_content() -> None:
    code = "\n    " * 30 + "return x"
    chunks = chunk_elements([CodeSnippet(code)], max_tokens=3, tokenizer="cl100k_base")
    assert [len(c.text) for c in chunks] == [31, 45, 45, 28, 9]
    assert all(c.text.isspace() for c in chunks[:-1])
    assert "".join(c.text for c in chunks) == code
