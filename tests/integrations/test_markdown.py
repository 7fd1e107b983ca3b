"""Elements as Markdown, pages kept as comments and read back (`partita.integrations._markdown`)."""

from __future__ import annotations

import pytest

import partita
from partita.elements import Element, NarrativeText, Title
from partita.elements import ElementMetadata as Meta
from partita.integrations._markdown import elements_to_markdown, with_marked_pages
from tests.shared import shared_corpus


def partition_markdown(text: str) -> list[Element]:
    return partita.partition(text=text, content_type="text/markdown")


def read_back(markdown: str) -> list[tuple[str, str, int | None]]:
    elements = with_marked_pages(partition_markdown(markdown), markdown, partition_markdown)
    return [(e.category, e.text, e.metadata.page_number) for e in elements]


def test_a_pdf_reads_back_with_its_pages() -> None:
    elements = partita.partition(shared_corpus() / "docling" / "normal_4pages.pdf")
    expected = [(e.text, e.metadata.page_number) for e in elements if e.text.strip()]
    # -- kinds Markdown has not (a Header) read back as paragraphs: texts and pages are kept --
    assert [(text, page) for _, text, page in read_back(elements_to_markdown(elements))] == expected
    assert {page for _, page in expected} == {1, 2, 3, 4}


def test_a_marker_precedes_each_page_first_block() -> None:
    elements = [
        Title("Rivers", metadata=Meta(page_number=1)),
        NarrativeText("Silt.", metadata=Meta(page_number=1)),
        NarrativeText("No page known."),
        NarrativeText("Herons.", metadata=Meta(page_number=3)),
    ]
    assert elements_to_markdown(elements) == (
        "<!-- page 1 -->\n\n# Rivers\n\nSilt.\n\nNo page known.\n\n<!-- page 3 -->\n\nHerons."
    )
    assert elements_to_markdown(elements, page_markers=False) == (
        "# Rivers\n\nSilt.\n\nNo page known.\n\nHerons."
    )
    # -- an element takes the page of the marker above it --
    assert [page for _, _, page in read_back(elements_to_markdown(elements))] == [1, 1, 1, 3]


@pytest.mark.parametrize(
    "markdown",
    [
        "# Code\n\n```\nx = 1\n<!-- page 2 -->\ny = 2\n```\n",  # -- inside a code block --
        "Text with a [link][ref].\n\n<!-- page 2 -->\n\n[ref]: https://example.com\n",
        "- one\n  <!-- page 2 -->\n- two\n",  # -- inside a list item --
    ],
)
def test_a_marker_that_is_not_between_blocks_gives_no_page(markdown: str) -> None:
    elements = partition_markdown(markdown)
    assert with_marked_pages(elements, markdown, partition_markdown) == elements
    assert all(page is None for _, _, page in read_back(markdown))


def test_text_without_markers_is_left_as_it_is() -> None:
    elements = partition_markdown("# Ducks\n\nDucks swim.")
    assert with_marked_pages(elements, "# Ducks\n\nDucks swim.", partition_markdown) is elements
