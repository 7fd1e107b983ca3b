"""`parent_id` as the reference sets it, and `section_path` from the enclosing titles."""

from __future__ import annotations

from partita.elements import (
    Element,
    ElementMetadata,
    Footer,
    Header,
    ListItem,
    NarrativeText,
    PageBreak,
    Title,
)
from partita.hierarchy import iter_with_hierarchy


def _depth(cls: type[Element], text: str, depth: int | None = None) -> Element:
    return cls(text, element_id=text, metadata=ElementMetadata(category_depth=depth))


def test_parents_follow_the_reference_rules() -> None:
    elements = list(
        iter_with_hierarchy(
            [
                _depth(Header, "H", 0),
                _depth(Title, "T1", 0),
                _depth(NarrativeText, "p1"),
                _depth(Title, "T1.1", 1),
                _depth(ListItem, "li0", 0),
                _depth(ListItem, "li1", 1),
                _depth(Title, "T2", 0),
                _depth(PageBreak, "pb"),
                _depth(NarrativeText, "p2"),
                _depth(Footer, "F", 0),
            ]
        )
    )
    parents = {e.text: e.metadata.parent_id for e in elements}
    assert parents == {
        "H": None,
        "T1": "H",  # -- a Title after a Header is its child --
        "p1": "T1",
        "T1.1": "T1",
        "li0": "T1.1",
        "li1": "li0",  # -- deeper list item nests under the shallower one --
        "T2": "H",
        "pb": None,  # -- PageBreak is in no rule: no parent, and it breaks the chain --
        "p2": None,
        "F": None,
    }


def test_an_existing_parent_is_kept() -> None:
    given = NarrativeText("p", metadata=ElementMetadata(parent_id="elsewhere"))
    (out,) = iter_with_hierarchy([given])
    assert out.metadata.parent_id == "elsewhere"


def test_section_path_lists_enclosing_titles_top_down() -> None:
    elements = list(
        iter_with_hierarchy(
            [
                _depth(NarrativeText, "before"),
                _depth(Title, "A", 0),
                _depth(Title, "A.1", 1),
                _depth(NarrativeText, "in A.1"),
                _depth(Title, "A.1.1", 2),
                _depth(Title, "A.2", 1),
                _depth(NarrativeText, "in A.2"),
                _depth(Footer, "footer", 0),
                _depth(Title, "B", 0),
            ]
        )
    )
    paths = {e.text: e.metadata.section_path for e in elements}
    assert paths == {
        "before": None,
        "A": ("A",),
        "A.1": ("A", "A.1"),
        "in A.1": ("A", "A.1"),
        "A.1.1": ("A", "A.1", "A.1.1"),
        "A.2": ("A", "A.2"),
        "in A.2": ("A", "A.2"),
        "footer": None,
        "B": ("B",),
    }
