"""Semantic boundaries: predicates telling that an element starts a new pre-chunk.

A boundary predicate is a `Callable[[Element], bool]`. `is_title` is one; `is_on_next_page()`
makes one, with state, for a single element stream.
"""

from __future__ import annotations

from collections.abc import Callable

from partita.elements import Element, Title

__all__ = ["BoundaryPredicate", "is_on_next_page", "is_title"]

BoundaryPredicate = Callable[[Element], bool]


def is_title(element: Element) -> bool:
    """True when `element` is a Title, the only element type that starts a section."""
    return isinstance(element, Title)


def is_on_next_page() -> BoundaryPredicate:
    """Return a predicate that is True for an element on a different page than the one before.

    The first element never triggers; it sets the current page (1 when it has none). An element
    without a page number continues the current page. Any different page number triggers,
    a lower one included, as in the reference.
    """
    current_page = 1
    is_first = True

    def page_changed(element: Element) -> bool:
        nonlocal current_page, is_first
        page_number = element.metadata.page_number
        if is_first:
            current_page = page_number or 1
            is_first = False
            return False
        if page_number is None or page_number == current_page:
            return False
        current_page = page_number
        return True

    return page_changed
