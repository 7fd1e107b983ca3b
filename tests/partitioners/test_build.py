"""The finishing stage shared by the partitioners: ids as the reference's, but unique."""

from __future__ import annotations

from partita.elements import NarrativeText, element_id_for
from partita.partitioners._build import Draft, iter_finished_elements


def _drafts(pages: list[int], text: str = "Internal Revenue Manual") -> list[Draft]:
    return [Draft(NarrativeText, text, {"page_number": page}) for page in pages]


def test_ids_are_the_reference_hash_when_unique() -> None:
    elements = list(iter_finished_elements(_drafts([1, 1, 2]), path="a.pdf", filetype="x"))
    expected = [("a.pdf", 1, 0), ("a.pdf", 1, 1), ("a.pdf", 2, 0)]
    assert [e.element_id for e in elements] == [
        element_id_for(name, "Internal Revenue Manual", page, seq) for name, page, seq in expected
    ]


def test_page_and_position_run_together_in_the_reference_hash_but_ids_stay_unique() -> None:
    # -- page 10, position 21 and page 102, position 1 hash the same string "...1021" --
    pages = [10] * 22 + [102] * 2
    assert element_id_for("a.pdf", "t", 10, 21) == element_id_for("a.pdf", "t", 102, 1)
    elements = list(iter_finished_elements(_drafts(pages, "t"), path="a.pdf", filetype="x"))
    ids = [e.element_id for e in elements]
    assert len(set(ids)) == len(ids)
    # -- the first of the two keeps the reference's id; only the repeat is replaced --
    assert ids[21] == element_id_for("a.pdf", "t", 10, 21)
    assert ids[23] != element_id_for("a.pdf", "t", 102, 1)
    # -- and the replacement is deterministic --
    again = [
        e.element_id
        for e in iter_finished_elements(_drafts(pages, "t"), path="a.pdf", filetype="x")
    ]
    assert again == ids
