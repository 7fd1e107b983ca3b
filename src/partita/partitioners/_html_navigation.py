"""Which parts of an HTML page are navigation: the regions that become `Navigation` elements.

The evidence is the page's own markup, never the words of the text:

- **Landmarks.** A `<nav>`, and an element whose `role` is "navigation", "menu", "menubar" or
  "doc-toc" (a table of contents), is navigation whatever it holds.
- **Menus of links.** A list (`ul`, `ol`, `menu`) is navigation when each of its items is a
  link entry (its letters and digits are all inside links, `a[href]`; text in a nested list is
  not looked at), at least `MIN_MENU_ITEMS` of them, and the page marks the list as a menu: its
  links all name the language they lead to (`hreflang`: a language menu), or the list is labelled
  (`aria-label`, `aria-labelledby`), or it or one of its `MENU_ANCESTORS` nearest ancestors has a
  class or id naming a menu (`MENU_TOKENS`, matched as whole parts of names split at "-" and "_":
  "vector-menu-content-list", "mw-portlet-lang", "interlanguage-link"), or sits in a `header`,
  `footer` or `aside`.
- A list of links without such marks stays content: a "See also" list, a list article, a
  bibliography of links.

Every list is examined once, its items' content outside nested lists read once, so the cost is
linear in the page.
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = ["MENU_ANCESTORS", "MENU_TOKENS", "MIN_MENU_ITEMS", "starts_navigation"]

MIN_MENU_ITEMS = 2
"""The fewest link entries a marked list needs to be a menu."""

MENU_ANCESTORS = 3
"""How many ancestors of a list may carry the class or id that marks it as a menu."""

MENU_TOKENS = frozenset(
    {
        "breadcrumb", "breadcrumbs", "catlinks", "interlanguage", "langlinks", "menu", "menubar",
        "nav", "navbar", "navbox", "navigation", "pager", "pagination", "portlet", "sidebar",
        "toc",
    }
)  # fmt: skip
"""Parts of class and id names that mark a list of links as a menu (common naming conventions:
Bootstrap's "nav"/"navbar"/"breadcrumb", MediaWiki's "portlet"/"interlanguage"/"catlinks")."""

_NAVIGATION_ROLES = frozenset({"navigation", "menu", "menubar", "doc-toc"})
_LISTS = frozenset({"ul", "ol", "menu", "dir"})
_LANDMARKS = frozenset({"header", "footer", "aside"})
_NAME_PARTS = re.compile(r"[\s_-]+")
_HIDING_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def starts_navigation(element: etree._Element, tag: str) -> bool:
    """`True` when `element` (tag `tag`), not inside navigation already, is a navigation region
    (see the module docstring)."""
    if tag == "nav":
        return True
    role = element.get("role")
    if role is not None and not _NAVIGATION_ROLES.isdisjoint(role.lower().split()):
        return True
    return tag in _LISTS and _is_menu(element)


def _is_menu(items: etree._Element) -> bool:
    """`True` when the list `items` holds only link entries, enough of them, and is marked."""
    if _has_text(items.text):
        return False
    entries = 0
    all_hreflang = True
    for item in items:
        if _has_text(item.tail):
            return False
        if not isinstance(item.tag, str) or _is_hidden(item):
            continue
        if item.tag != "li":
            return False
        kind = _entry_kind(item)
        if kind is None:
            return False
        if kind:  # -- an item without text (an icon) neither counts nor fails --
            entries += 1
            all_hreflang = all_hreflang and kind == "hreflang"
    if entries < MIN_MENU_ITEMS:
        return False
    return all_hreflang or _is_marked(items)


def _entry_kind(item: etree._Element) -> str | None:
    """How the list item `item` reads: None when it has letters or digits outside links (not a
    link entry), "" when it has none at all, "hreflang" when all its links name a language, else
    "link"."""
    linked = False
    hreflang = True
    # -- (node, whether its parent lies in a link): a node's tail is its parent's text --
    stack: list[tuple[etree._Element, bool]] = [(item, False)]
    while stack:
        node, parent_in_link = stack.pop()
        if node is not item and _has_text(node.tail):
            if not parent_in_link:
                return None
            linked = True
        tag = node.tag
        if not isinstance(tag, str) or (node is not item and (tag in _LISTS or _is_hidden(node))):
            continue
        in_link = parent_in_link
        if tag == "a" and node.get("href") is not None and not in_link:
            in_link = True
            hreflang = hreflang and bool(node.get("hreflang"))
        if _has_text(node.text):
            if not in_link:
                return None
            linked = True
        stack.extend((child, in_link) for child in reversed(node))
    if not linked:
        return ""
    return "hreflang" if hreflang else "link"


def _is_marked(items: etree._Element) -> bool:
    """`True` when the page marks the list `items` as a menu: a label, a menu name on it or a
    near ancestor, or a header, footer or aside around it."""
    if items.get("aria-label") or items.get("aria-labelledby"):
        return True
    node: etree._Element | None = items
    for _ in range(MENU_ANCESTORS + 1):
        if node is None or not isinstance(node.tag, str):
            return False
        if node is not items and node.tag in _LANDMARKS:
            return True
        for name in (node.get("class"), node.get("id")):
            if name and not MENU_TOKENS.isdisjoint(_NAME_PARTS.split(name.lower())):
                return True
        node = node.getparent()
    return False


def _has_text(text: str | None) -> bool:
    return text is not None and any(c.isalnum() for c in text)


def _is_hidden(element: etree._Element) -> bool:
    if element.get("hidden") is not None or element.get("aria-hidden") == "true":
        return True
    style = element.get("style")
    return style is not None and _HIDING_STYLE.search(style) is not None
