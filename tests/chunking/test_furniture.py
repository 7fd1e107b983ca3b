"""What chunks leave out (`partita.chunking._furniture`): navigation in every strategy, page
furniture in the retrieval profile and the text strategies, and nothing the reference keeps in
the default "basic" and "by_title"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import partita
from partita.chunking import chunking_strategies
from partita.chunking._furniture import FURNITURE_TYPES
from partita.elements import (
    Element,
    ElementMetadata,
    Footer,
    Header,
    NarrativeText,
    Navigation,
    PageNumber,
    Title,
)
from partita.serialization import element_to_dict
from tests.chunking.reference import comparable, run_both
from tests.shared import needs_corpus

TEXT_STRATEGIES = [s.name for s in chunking_strategies() if s.name not in ("basic", "by_title")]

_FURNITURE_TEXTS = ("Acme annual report", "Page 7 of 9", "Confidential draft", "Home\nAbout us")


def _document() -> list[Element]:
    """Two pages with a running head, a page number and a footer each, and a menu."""
    elements: list[Element] = [Navigation("Home\nAbout us")]
    for page in (1, 2):
        meta = ElementMetadata(page_number=page)
        elements += [
            Header("Acme annual report", metadata=meta),
            Title(f"Part {page}", metadata=meta.replace(category_depth=0)),
            NarrativeText(f"Revenue grew in quarter {page}. Costs fell again.", metadata=meta),
            PageNumber("Page 7 of 9", metadata=meta),
            Footer("Confidential draft", metadata=meta),
        ]
    return elements


def _options(strategy: str) -> dict[str, Any]:
    if strategy == "semantic":
        from tests.chunking.strategies.semantic.fakes import TopicEmbedder

        return {"embedder": TopicEmbedder()}
    return {}


def _sources(chunk: Element) -> list[Element]:
    return list(chunk.metadata.orig_elements or ())


@pytest.mark.parametrize("strategy", [s.name for s in chunking_strategies()])
def test_navigation_is_in_no_chunk_of_any_strategy(strategy: str) -> None:
    chunks = partita.chunk(_document(), strategy, **_options(strategy))
    assert chunks
    for chunk in chunks:
        assert "About us" not in chunk.text
        assert not any(isinstance(e, Navigation) for e in _sources(chunk))


@pytest.mark.parametrize("strategy", TEXT_STRATEGIES)
def test_text_strategies_leave_page_furniture_out_unless_told(strategy: str) -> None:
    chunks = partita.chunk(_document(), strategy, **_options(strategy))
    text = "\n".join(c.text for c in chunks)
    assert "Revenue grew" in text
    assert not any(furniture in text for furniture in _FURNITURE_TEXTS)
    assert not any(isinstance(e, FURNITURE_TYPES) for c in chunks for e in _sources(c))
    kept = partita.chunk(_document(), strategy, skip_furniture=False, **_options(strategy))
    kept_text = "\n".join(c.text for c in kept)
    assert "Acme annual report" in kept_text
    assert "Home" not in kept_text  # -- navigation stays out --


@pytest.mark.parametrize("strategy", ["basic", "by_title"])
def test_the_retrieval_profile_leaves_page_furniture_out(strategy: str) -> None:
    for options in ({"profile": "retrieval"}, {"skip_furniture": True}):
        chunks = partita.chunk(_document(), strategy, **options)
        text = "\n".join(c.text for c in chunks)
        assert "Revenue grew in quarter 2" in text
        assert not any(furniture in text for furniture in _FURNITURE_TEXTS)
    explicit = partita.chunk(_document(), strategy, profile="retrieval", skip_furniture=False)
    assert "Confidential draft" in "\n".join(c.text for c in explicit)


@pytest.mark.parametrize("by_title", [False, True], ids=["basic", "by_title"])
def test_skip_furniture_alone_is_the_reference_chunking_of_the_rest(by_title: bool) -> None:
    elements = _document()
    strategy = "by_title" if by_title else "basic"
    content = [e for e in elements if not isinstance(e, (*FURNITURE_TYPES, Navigation))]
    skipped = partita.chunk(elements, strategy, skip_furniture=True, max_characters=60)
    assert skipped == partita.chunk(content, strategy, max_characters=60)


@pytest.mark.parametrize("by_title", [False, True], ids=["basic", "by_title"])
@pytest.mark.parametrize(
    "options", [{}, {"max_characters": 60}, {"max_characters": 60, "overlap": 10}]
)
def test_default_chunks_are_the_reference_s_of_the_same_json(
    by_title: bool, options: dict[str, Any]
) -> None:
    """The reference, reading partita's elements JSON, skips the Navigation type it does not know
    and keeps Header, Footer and PageNumber in its chunks: partita's default chunks equal its."""
    items = [element_to_dict(e) for e in _document()]
    reference, ours, _ = run_both(items, options, by_title=by_title)
    assert comparable(ours, reference=False) == comparable(reference, reference=True)
    text = "\n".join(c.text for c in ours)
    assert "Confidential draft" in text
    assert "Page 7 of 9" in text
    assert "About us" not in text


def _corpus_chunks(path: Path, **options: Any) -> list[Element]:
    return partita.chunk(partita.partition(path), "by_title", **options)


@needs_corpus
def test_a_pdf_running_head_and_page_number_leave_the_profile_chunks(corpus_dir: Path) -> None:
    path = corpus_dir / "unstructured/layout-parser-paper-with-table.pdf"
    elements = partita.partition(path)
    furniture = [(e.category, e.text) for e in elements if isinstance(e, FURNITURE_TYPES)]
    assert furniture == [
        ("Header", "LayoutParser: A Unified Toolkit for DL-Based DIA"),
        ("PageNumber", "5"),
    ]
    for chunks in (
        partita.chunk(elements, "by_title", profile="retrieval"),
        *(partita.chunk(elements, name, **_options(name)) for name in TEXT_STRATEGIES),
    ):
        text = "\n".join(c.text for c in chunks)
        assert "Unified Toolkit" not in text
        assert "\n5\n" not in text
        assert "Table 1: Current layout detection models" in text
    # -- the default keeps them where the reference does --
    reference, ours, _ = run_both([element_to_dict(e) for e in elements], {}, by_title=True)
    assert comparable(ours, reference=False) == comparable(reference, reference=True)
    assert ours[0].text.startswith("LayoutParser: A Unified Toolkit for DL-Based DIA\n\n5\n\n")


@needs_corpus
def test_a_docx_footer_page_number_leaves_the_profile_chunks(corpus_dir: Path) -> None:
    path = corpus_dir / "docling/word_sample.docx"
    elements = partita.partition(path)
    assert [(e.category, e.text) for e in elements if isinstance(e, FURNITURE_TYPES)] == [
        ("PageNumber", "2")
    ]
    profile = partita.chunk(elements, "by_title", profile="retrieval")
    assert profile[-1].text.endswith("3. Grain")
    for name in TEXT_STRATEGIES:
        chunks = partita.chunk(elements, name, **_options(name))
        assert not chunks[-1].text.endswith("\n2"), name
    reference, ours, _ = run_both([element_to_dict(e) for e in elements], {}, by_title=True)
    assert comparable(ours, reference=False) == comparable(reference, reference=True)
    assert ours[-1].text.endswith("3. Grain\n\n2")


@needs_corpus
def test_the_wikipedia_language_menu_leaves_the_profile_chunks(corpus_dir: Path) -> None:
    elements = partita.partition(corpus_dir / "docling/wiki_duck.html")
    menus = [e for e in elements if isinstance(e, Navigation)]
    languages = next(m for m in menus if m.text.startswith("Acèh\nAfrikaans"))
    for strategy in ("by_title", "basic"):
        chunks = partita.chunk(elements, strategy, profile="retrieval")
        assert chunks[0].text.startswith("Duck\n\n")
        for chunk in chunks:
            assert "Afrikaans" not in chunk.text
            assert not any(e.element_id == languages.element_id for e in _sources(chunk))
