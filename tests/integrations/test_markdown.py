"""Elements as Markdown, pages kept beside the text and read back (`integrations._markdown`)."""

from __future__ import annotations

import pytest

import partita
from partita.elements import Element, NarrativeText, Title
from partita.elements import ElementMetadata as Meta
from partita.integrations._markdown import (
    PageStart,
    elements_to_markdown,
    elements_to_paged_markdown,
    with_pages,
)
from tests.shared import shared_corpus


def partition_markdown(text: str) -> list[Element]:
    return partita.partition(text=text, content_type="text/markdown")


def read_back(markdown: str, starts: tuple[PageStart, ...]) -> list[tuple[str, str, int | None]]:
    elements = with_pages(partition_markdown(markdown), markdown, starts, partition_markdown)
    return [(e.category, e.text, e.metadata.page_number) for e in elements]


def test_a_pdf_reads_back_with_its_pages() -> None:
    elements = partita.partition(shared_corpus() / "docling" / "normal_4pages.pdf")
    expected = [(e.text, e.metadata.page_number) for e in elements if e.text.strip()]
    paged = elements_to_paged_markdown(elements)
    assert paged.text == elements_to_markdown(elements)
    # -- kinds Markdown has not (a Header) read back as paragraphs: texts and pages are kept --
    read = read_back(paged.text, paged.page_starts)
    assert [(text, page) for _, text, page in read] == expected
    assert {page for _, page in expected} == {1, 2, 3, 4}


def test_a_page_starts_at_its_first_block_and_the_text_holds_no_mark() -> None:
    elements = [
        Title("Rivers", metadata=Meta(page_number=1)),
        NarrativeText("Silt.", metadata=Meta(page_number=1)),
        NarrativeText("No page known."),
        NarrativeText("Herons.", metadata=Meta(page_number=3)),
    ]
    paged = elements_to_paged_markdown(elements)
    assert paged.text == "# Rivers\n\nSilt.\n\nNo page known.\n\nHerons."
    assert paged.page_starts == (PageStart(0, 1), PageStart(paged.text.index("Herons."), 3))
    # -- an element takes the page of the start above it --
    assert [page for _, _, page in read_back(paged.text, paged.page_starts)] == [1, 1, 1, 3]


def test_one_page_from_the_start_needs_no_second_reading() -> None:
    markdown = "# Ducks\n\nDucks swim."

    def unused(text: str) -> list[Element]:
        raise AssertionError("the pieces were partitioned")

    elements = with_pages(partition_markdown(markdown), markdown, [PageStart(0, 5)], unused)
    assert [e.metadata.page_number for e in elements] == [5, 5]


@pytest.mark.parametrize(
    ("markdown", "cut_before"),
    [
        ("# Code\n\n```\nx = 1\n\ny = 2\n```\n", "y = 2"),  # -- inside a code block --
        ("Text with a [link][ref].\n\n[ref]: https://example.com\n", "[ref]:"),
        ("- one\n\n  more\n- two\n", "  more"),  # -- inside a list item --
        ("# Ducks\n\nDucks swim.", "swim"),  # -- not after a blank line --
    ],
)
def test_a_page_start_that_is_not_between_blocks_gives_no_page(
    markdown: str, cut_before: str
) -> None:
    starts = (PageStart(0, 1), PageStart(markdown.index(cut_before), 2))
    elements = partition_markdown(markdown)
    assert with_pages(elements, markdown, starts, partition_markdown) == elements
    assert all(page is None for _, _, page in read_back(markdown, starts))


@pytest.mark.parametrize(
    "starts",
    [
        (PageStart(9, 2), PageStart(0, 1)),  # -- not in order --
        (PageStart(0, 1), PageStart(99, 2)),  # -- past the text --
    ],
)
def test_page_starts_that_do_not_fit_the_text_give_no_page(
    starts: tuple[PageStart, ...],
) -> None:
    markdown = "# Ducks\n\nDucks swim."
    elements = partition_markdown(markdown)
    assert with_pages(elements, markdown, starts, partition_markdown) is elements


def test_text_without_page_starts_is_left_as_it_is() -> None:
    elements = partition_markdown("# Ducks\n\nDucks swim.")
    assert with_pages(elements, "# Ducks\n\nDucks swim.", (), partition_markdown) is elements
