"""The inspector's page in a real browser: headless Chromium (Debian's) driven by Playwright.

The DOM is checked for what the page promises: the elements of the first view in order, a pill
where each chunk starts, overlaps striped, tables drawn as tables (sanitized), the summary's chunk
count, sizes on hover and on click, paging. A corpus document's page is screenshotted to
/tmp/partita-inspect-*.png for a person to look at. Skipped without Chromium or Playwright (failed
under `PARTITA_REQUIRE_ALL=1`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from partita import ElementMetadata, NarrativeText, Table, Title
from partita.chunking import chunk
from partita.elements import Element
from partita.inspection import inspection_model, model_to_html, write_page
from partita.text.sizing._tokenizers import token_counter
from tests.shared import CORPUS, needs_corpus, require_module, require_program, unavailable


def test_the_page_refers_to_nothing_outside_itself() -> None:
    elements = [Title("T"), NarrativeText("Text " * 30)]
    page = model_to_html(
        inspection_model(elements, chunk(elements, "basic", provenance=True), count_tokens=len)
    )
    assert not re.search(r"""(src|href)\s*=|https?://|@import|url\(""", page)
    assert page.count("<script") == 2


def test_per_view_must_be_positive() -> None:
    model = inspection_model([], [], count_tokens=len)
    with pytest.raises(ValueError, match="per_view"):
        model_to_html(model, per_view=0)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = require_module("playwright.sync_api", extra="test")
    chromium = require_program("chromium", "chromium-browser", install="apt-get install chromium")
    with sync_api.sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        except Exception as exc:  # -- a Chromium that cannot start here is an absent one --
            unavailable(f"Chromium does not start: {exc}")
        yield launched
        launched.close()


def open_page(browser: Any, path: Path, width: int = 1280) -> Any:
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("requestfailed", lambda request: errors.append(f"request: {request.url}"))
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready]")
    page.errors = errors
    return page


def document() -> list[Element]:
    body = "Ducks are birds of the family Anatidae, smaller than swans and geese. " * 5
    table_html = (
        '<table onclick="x()"><thead><tr><th>name</th><th colspan="2">size</th></tr></thead>'
        "<tr><td>mallard</td><td>58 cm</td><td>1.2 kg<script>bad()</script></td></tr></table>"
    )
    elements: list[Element] = [
        Title("Duck", metadata=ElementMetadata(page_number=1, section_path=["Duck"])),
        NarrativeText(body, metadata=ElementMetadata(page_number=1, section_path=["Duck"])),
        Title("Sizes", metadata=ElementMetadata(page_number=2, section_path=["Duck", "Sizes"])),
        Table(
            "name size mallard 58 cm 1.2 kg",
            metadata=ElementMetadata(
                page_number=2, section_path=["Duck", "Sizes"], text_as_html=table_html
            ),
        ),
    ]
    elements += [
        NarrativeText(f"Paragraph {n} of the long tail.", metadata=ElementMetadata(page_number=3))
        for n in range(30)
    ]
    return elements


def test_the_page_shows_elements_chunks_overlaps_and_tables(browser: Any, tmp_path: Path) -> None:
    elements = document()
    chunks = chunk(elements, "by_title", max_characters=120, overlap=30, provenance=True)
    model = inspection_model(elements, chunks, count_tokens=token_counter("cl100k_base"))
    page = open_page(browser, write_page(model, tmp_path / "page.html", per_view=20))

    assert page.errors == []
    assert page.locator("#chunk-count").inner_text() == str(len(chunks))
    assert page.locator("#element-count").inner_text() == str(len(elements))
    sections = page.locator("#doc section.el")
    assert sections.count() == 20
    assert sections.first.get_attribute("data-type") == "Title"
    assert page.locator("#doc section.el[data-type=Table] .tbl table td").count() == 3
    assert page.locator("#doc .tbl [onclick], #doc .tbl script").count() == 0
    assert page.locator("#doc .tbl td[colspan]").count() == 0  # -- the span is on the th --
    assert page.locator("#doc .tbl th[colspan='2']").count() == 1
    # -- a pill where each chunk of the view starts; overlaps striped --
    starting = {c.index for c in model.chunks if c.extents and min(c.extents)[0] < 20}
    pills = page.locator("#doc .pill")
    assert {int(pills.nth(i).inner_text()) - 1 for i in range(pills.count())} == starting
    assert page.locator("#doc .s.ov").count() >= len(model.overlaps) > 0
    assert page.locator("#overlap-count").inner_text() == str(len(model.overlaps))
    assert page.locator(".histogram").count() == 2
    assert page.locator(".histogram svg rect title").count() > 0

    # -- hover: the chunk's sizes, heading path and pages --
    overlapped = page.locator("#doc .s.ov").first
    overlapped.hover()
    tip = page.locator("#tip")
    assert tip.is_visible()
    shared = [int(c) for c in (overlapped.get_attribute("data-c") or "").split()]
    assert len(shared) == 2
    for number in shared:
        view = model.chunks[number]
        assert f"{view.characters} characters · {view.tokens} tokens" in tip.inner_text()
    assert "Duck" in tip.inner_text()
    assert "page 1" in tip.inner_text()

    # -- click: the chunk pinned in the side panel, its ranges outlined --
    overlapped.click()
    detail = page.locator("#chunk-detail")
    pinned = int(detail.get_attribute("data-chunk") or "-1")
    assert pinned == shared[0]
    size = f"{model.chunks[pinned].characters} characters"
    assert size in detail.locator(".size").inner_text()
    assert page.locator(f"#doc .s.sel.c{pinned}").count() >= 1
    overlapped.click()  # -- a second click on a shared range pins its next chunk --
    assert page.locator("#chunk-detail").get_attribute("data-chunk") == str(shared[1])

    # -- paging, and jumping to a chunk in a later view --
    page.locator("#next").click()
    assert sections.count() == len(elements) - 20
    assert sections.first.get_attribute("id") == "e20"
    page.locator("#chunk-input").fill("1")
    page.locator("#chunk-form button").click()
    assert page.locator("#e0").count() == 1
    assert page.locator("#chunk-detail").get_attribute("data-chunk") == "0"
    page.close()


@needs_corpus
@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("docling/wiki_duck.html", {"max_characters": 600, "overlap": 60}),
        ("docling/word_sample.docx", {"max_characters": 300, "overlap": 40}),
    ],
)
def test_a_corpus_document_page_renders_and_is_screenshotted(
    browser: Any, tmp_path: Path, name: str, options: dict[str, Any]
) -> None:
    source = CORPUS / name
    from partita.partitioners import partition

    elements = partition(str(source))
    chunks = chunk(elements, "by_title", provenance=True, **options)
    model = inspection_model(
        elements,
        chunks,
        count_tokens=token_counter("cl100k_base"),
        title=source.name,
        settings={"strategy": "by_title", **options, "provenance": True},
    )
    page = open_page(browser, write_page(model, tmp_path / "page.html"))
    assert page.errors == []
    assert page.locator("#chunk-count").inner_text() == f"{len(chunks):,}"
    assert page.locator("#doc section.el").count() == min(200, len(elements))
    tables = sum(1 for e in model.elements[:200] if e.html)
    assert page.locator("#doc .tbl table").count() == tables
    first = page.locator("#doc .s[data-c]").nth(3)
    first.hover()
    assert "tokens" in page.locator("#tip").inner_text()
    first.click()
    page.mouse.move(0, 0)
    shot = Path("/tmp") / f"partita-inspect-{source.stem}.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 20_000
    page.close()
