"""Navigation in HTML (`_html_navigation`): menus become one `Navigation` element each, content
lists of links stay content."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from unstructured.staging import base as reference_staging

import partita
from partita.elements import Element, Navigation
from partita.partitioners.html import partition_html
from tests.shared import needs_corpus


def _kinds(html: str) -> list[tuple[str, str]]:
    return [(e.category, e.text) for e in partition_html(text=html)]


def _links(items: int, **attributes: str) -> str:
    extra = "".join(f" {name}='{value}'" for name, value in attributes.items())
    return "".join(f"<li><a href='/p{i}'{extra}>Page {i}</a></li>" for i in range(items))


def test_a_nav_is_one_navigation_element_with_a_line_per_entry() -> None:
    html = (
        "<nav><h2>Site</h2><a href='/'>Home</a><img src='logo.png' alt='Logo'>"
        "<ul><li><a href='/a'>About</a><ul><li><a href='/a/team'>Team</a></li></ul></li></ul>"
        "</nav><p>Body.</p>"
    )
    elements = partition_html(text=html)
    assert [(e.category, e.text) for e in elements] == [
        ("Navigation", "Site\nHome\nAbout\nTeam"),
        ("NarrativeText", "Body."),
    ]
    links = elements[0].metadata.links or ()
    assert [(link.text, link.url, link.start_index) for link in links] == [
        ("Home", "/", 5),
        ("About", "/a", 10),
        ("Team", "/a/team", 16),
    ]


@pytest.mark.parametrize("role", ["navigation", "menu", "menubar", "doc-toc", "note navigation"])
def test_a_navigation_role_makes_a_region(role: str) -> None:
    html = f"<div role='{role}'><p>Index</p><table><tr><td>A</td><td>B</td></tr></table></div>"
    assert _kinds(html + "<p>Body.</p>") == [
        ("Navigation", "Index\nA\nB"),
        ("NarrativeText", "Body."),
    ]


@pytest.mark.parametrize(
    ("menu", "entries"),
    [
        (f"<ul class='vector-menu-content-list'>{_links(3)}</ul>", 3),  # -- a menu's class --
        (f"<div id='p-navigation'><div><ul>{_links(3)}</ul></div></div>", 3),  # -- an id --
        (f"<ul>{_links(3, hreflang='fr')}</ul>", 3),  # -- a language menu --
        (f"<ul aria-label='Sections'>{_links(2)}</ul>", 2),  # -- a labelled list of links --
        (f"<footer><ul>{_links(2)}</ul></footer>", 2),  # -- links in a page's footer --
    ],
)
def test_a_list_of_links_the_page_marks_as_a_menu_is_navigation(menu: str, entries: int) -> None:
    assert _kinds(menu + "<p>Body.</p>") == [
        ("Navigation", "\n".join(f"Page {i}" for i in range(entries))),
        ("NarrativeText", "Body."),
    ]


@pytest.mark.parametrize(
    "listing",
    [
        f"<h2>See also</h2><ul>{_links(12)}</ul>",  # -- links, but nothing marks a menu --
        f"<ul class='menu'>{_links(2)}<li>Lunch is served at <a href='/n'>noon</a></li></ul>",
        "<ul class='menu'><li><a href='/a'>One</a></li></ul>",  # -- a single entry --
        "<ul class='menu'><li>Soup</li><li>Bread</li></ul>",  # -- no links: a restaurant menu --
    ],
)
def test_content_lists_stay_list_items(listing: str) -> None:
    kinds = {category for category, _ in _kinds(listing)}
    assert "Navigation" not in kinds
    assert "ListItem" in kinds


def test_an_article_with_a_language_menu_in_main() -> None:
    languages = "".join(
        f"<li class='interlanguage-link'><a href='https://{code}.example.org/wiki/Duck'"
        f" hreflang='{code}' lang='{code}'><span>{name}</span></a></li>"
        for code, name in [("af", "Afrikaans"), ("de", "Deutsch"), ("fr", "Français")]
    )
    html = (
        "<body><nav><ul><li><a href='/'>Main page</a></li></ul></nav><main>"
        "<h1>Duck</h1><div class='vector-dropdown'><input type='checkbox' aria-label='Languages'>"
        f"<div class='vector-dropdown-content'><ul>{languages}</ul></div></div>"
        "<p>Duck is the common name for many waterfowl.</p>"
        "<h2>See also</h2><ul><li><a href='/Goose'>Goose</a></li><li><a href='/Swan'>Swan</a></li>"
        "</ul></main></body>"
    )
    elements = partition_html(text=html)
    assert [(e.category, e.text) for e in elements] == [
        ("Title", "Duck"),
        ("Navigation", "Afrikaans\nDeutsch\nFrançais"),
        ("NarrativeText", "Duck is the common name for many waterfowl."),
        ("Title", "See also"),
        ("ListItem", "Goose"),
        ("ListItem", "Swan"),
    ]
    title, menu, paragraph = elements[:3]
    # -- a menu is no heading's content, and does not end the heading's children --
    assert menu.metadata.section_path is None
    assert menu.metadata.parent_id == title.element_id
    assert paragraph.metadata.parent_id == title.element_id
    for chunks in (
        partita.chunk(elements, "by_title", profile="retrieval"),
        partita.chunk(elements, "by_title"),
        partita.chunk(elements, "sentence"),
    ):
        assert not any("Deutsch" in chunk.text for chunk in chunks)
        assert any("Goose" in chunk.text for chunk in chunks)


def test_navigation_round_trips_and_the_reference_reader_skips_it() -> None:
    elements = partition_html(text=f"<ul class='menu'>{_links(2)}</ul><p>Body.</p>")
    text = partita.elements_to_json(elements)
    again = partita.elements_from_json(text=text)
    assert partita.elements_to_json(again) == text
    assert isinstance(again[0], Navigation)
    reference = reference_staging.elements_from_json(text=text)
    assert [type(e).__name__ for e in reference] == ["NarrativeText"]


def _menu_of(elements: list[Element], first: str) -> Element:
    return next(e for e in elements if isinstance(e, Navigation) and e.text.startswith(first))


@needs_corpus
def test_the_wikipedia_page_s_menus_are_navigation(corpus_dir: Path) -> None:
    elements = partition_html(corpus_dir / "docling/wiki_duck.html")
    languages = _menu_of(elements, "Acèh\nAfrikaans")
    assert len(languages.text.splitlines()) == 136
    assert len(languages.metadata.links or ()) == 136
    # -- no other element links to another language's article --
    others = [
        e
        for e in elements
        if e is not languages
        and any(".wikipedia.org/wiki/" in url for url in e.metadata.link_urls or ())
        and not isinstance(e, Navigation)
    ]
    assert [e.text for e in others] == []
    for first in ("Article\nTalk", "Ducks\nGame birds"):  # -- page tabs, category links --
        _menu_of(elements, first)
    see_also = [e.text for e in elements if e.category == "ListItem"]
    assert "Domestic duck" in see_also  # -- the article's "See also" list stays content --
    assert json.loads(partita.elements_to_json([languages]))[0]["type"] == "Navigation"
