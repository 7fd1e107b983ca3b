"""Parent links and heading paths for a stream of elements.

`iter_with_hierarchy` gives each element the `parent_id` the reference library's
`set_element_hierarchy` would give it, and partita's `section_path`: the texts of the headings it
sits under, from the top level down. Both are computed in one pass, as elements arrive.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator

from partita.elements import Element, Footer, Header, Navigation, PageBreak, PageNumber, Title

__all__ = ["HIERARCHY_RULES", "iter_with_hierarchy"]

_TEXT_CHILDREN = frozenset(
    {
        "Text",
        "UncategorizedText",
        "NarrativeText",
        "ListItem",
        "BulletedText",
        "Table",
        "FigureCaption",
        "CheckBox",
        "Navigation",
    }
)

HIERARCHY_RULES: dict[str, frozenset[str]] = {
    "Title": _TEXT_CHILDREN,
    "Header": _TEXT_CHILDREN | {"Title"},
}
"""Which categories may be children of which: the reference's `HIERARCHY_RULE_SET`, with partita's
"Navigation" among the text children."""

_FURNITURE = (Header, Footer, PageBreak, PageNumber, Navigation)


def iter_with_hierarchy(elements: Iterable[Element]) -> Iterator[Element]:
    """Generate `elements` with `parent_id` and `section_path` filled in.

    `parent_id` follows the reference: an element's parent is the nearest preceding element on a
    stack that is either of the same category and shallower `category_depth` (None counts as 0),
    or of a category whose rules admit the element's category. Elements that already have a
    `parent_id` keep it and are not pushed.

    `section_path` is the texts of the enclosing Titles by `category_depth`; a Title's own path
    ends with its own text. Page furniture (Header, Footer, PageBreak, PageNumber) and Navigation
    get none. partita's Navigation is a child of a Title as a paragraph is (the reference has no
    such type), so a menu under a heading does not end the heading's children.
    """
    stack: list[Element] = []
    headings: list[tuple[int, str]] = []
    for element in elements:
        meta = element.metadata
        changes: dict[str, object] = {}

        if isinstance(element, Title):
            depth = meta.category_depth or 0
            while headings and headings[-1][0] >= depth:
                headings.pop()
            headings.append((depth, element.text))
        if meta.section_path is None and headings and not isinstance(element, _FURNITURE):
            changes["section_path"] = tuple(text for _, text in headings)

        if meta.parent_id is None:
            category = element.category
            depth = meta.category_depth or 0
            parent_id = None
            while stack:
                top = stack[-1]
                if (top.category == category and (top.metadata.category_depth or 0) < depth) or (
                    top.category != category and category in HIERARCHY_RULES.get(top.category, ())
                ):
                    parent_id = top.element_id
                    break
                stack.pop()
            if parent_id is not None:
                changes["parent_id"] = parent_id
            stack.append(element)

        if changes:
            element = dataclasses.replace(element, metadata=meta.replace(**changes))
        yield element
