"""Elements and metadata: construction like the reference's, immutability, deterministic ids."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import pytest

from partita.elements import (
    CheckBox,
    CompositeElement,
    CoordinatesMetadata,
    Element,
    ElementMetadata,
    Link,
    ListItem,
    NarrativeText,
    PageBreak,
    Table,
    TableChunk,
    Text,
    Title,
    element_id_for,
    metadata_from_fields,
    new_element,
)


@pytest.mark.parametrize(
    ("cls", "category"),
    [
        (Text, "UncategorizedText"),
        (Title, "Title"),
        (NarrativeText, "NarrativeText"),
        (ListItem, "ListItem"),
        (Table, "Table"),
        (TableChunk, "TableChunk"),
        (CompositeElement, "CompositeElement"),
        (PageBreak, "PageBreak"),
        (CheckBox, "CheckBox"),
    ],
)
def test_category_is_the_json_type(cls: type[Element], category: str) -> None:
    assert cls.category == category
    assert cls("x" if cls is not CheckBox else "").category == category


def test_constructor_mirrors_the_reference() -> None:
    title = Title("Intro", metadata=ElementMetadata(page_number=1, languages=["eng"]))
    assert title.text == "Intro"
    assert title.metadata.page_number == 1
    assert title.metadata.languages == ("eng",)
    assert str(title) == "Intro"
    assert title.id == title.element_id


def test_table_chunk_is_a_table() -> None:
    assert isinstance(TableChunk("a"), Table)
    assert not isinstance(Table("a"), TableChunk)


def test_elements_are_immutable() -> None:
    title = Title("Intro")
    with pytest.raises(dataclasses.FrozenInstanceError):
        title.text = "Other"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        title.metadata.page_number = 3  # type: ignore[misc]


def test_replace_derives_a_changed_copy_of_the_same_class() -> None:
    title = Title("Intro", element_id="abc")
    changed = dataclasses.replace(title, text="Other")
    assert type(changed) is Title
    assert (changed.text, changed.element_id, title.text) == ("Other", "abc", "Intro")
    meta = title.metadata.replace(page_number=4)
    assert meta.page_number == 4
    assert title.metadata.page_number is None


def test_default_id_is_the_reference_hash_of_filename_text_page_and_position() -> None:
    # -- the reference's documented example: sha256("NoneINTRODUCTIONNone0")[:32] --
    assert Title("INTRODUCTION").element_id == "9202e96be627838bbe148d696d3cd9f3"
    meta = ElementMetadata(filename="a.docx", page_number=2)
    expected = hashlib.sha256(b"a.docxHello23").hexdigest()[:32]
    assert element_id_for("a.docx", "Hello", 2, 3) == expected
    assert NarrativeText("Hello", metadata=meta).element_id == element_id_for(
        "a.docx", "Hello", 2, 0
    )


def test_explicit_id_is_kept() -> None:
    assert Title("x", element_id="given").element_id == "given"


def test_equality_covers_class_text_id_and_metadata() -> None:
    assert Title("x") == Title("x")
    assert Title("x") != NarrativeText("x")
    assert Title("x") != Title("x", metadata=ElementMetadata(page_number=1))


def test_filename_path_is_split_like_the_reference() -> None:
    meta = ElementMetadata(filename="/x/y/a.pdf")
    assert (meta.filename, meta.file_directory) == ("a.pdf", "/x/y")
    meta = ElementMetadata(filename=Path("/x/y/b.pdf"))  # type: ignore[arg-type]
    assert (meta.filename, meta.file_directory) == ("b.pdf", "/x/y")
    meta = ElementMetadata(filename="/x/y/a.pdf", file_directory="/given")
    assert meta.file_directory == "/given"


def test_sequences_are_stored_as_tuples() -> None:
    meta = ElementMetadata(
        link_texts=["a"],
        links=[{"text": "a", "url": "http://a", "start_index": 0}],  # type: ignore[list-item]
        orig_elements=[Title("x")],  # type: ignore[arg-type]
        section_path=["A", "B"],  # type: ignore[arg-type]
    )
    assert meta.link_texts == ("a",)
    assert meta.links == (Link(text="a", url="http://a", start_index=0),)
    assert meta.orig_elements == (Title("x"),)
    assert meta.section_path == ("A", "B")


def test_links_read_like_the_reference_dicts() -> None:
    link = Link(text="here", url="http://x", start_index=5)
    assert (link["text"], link["url"], link["start_index"]) == ("here", "http://x", 5)
    with pytest.raises(KeyError):
        link["nope"]


def test_coordinates_points_become_tuples() -> None:
    coords = CoordinatesMetadata(points=[[1, 2], [3, 4]], system="PointSpace")  # type: ignore[arg-type]
    assert coords.points == ((1, 2), (3, 4))


def test_text_must_be_a_string() -> None:
    with pytest.raises(TypeError):
        Title(3)  # type: ignore[arg-type]
    assert Title(None).text == ""  # type: ignore[arg-type]


def test_metadata_repr_shows_only_set_fields() -> None:
    assert repr(ElementMetadata(page_number=2)) == "ElementMetadata(page_number=2)"


def test_new_element_and_metadata_from_fields_build_from_trusted_values() -> None:
    fields = {"page_number": 2, "languages": ("eng",)}
    metadata = metadata_from_fields(fields)
    assert metadata == ElementMetadata(page_number=2, languages=["eng"])
    element = new_element(NarrativeText, "Hello", "id-1", metadata)
    assert element == NarrativeText("Hello", element_id="id-1", metadata=metadata)
    assert type(element) is NarrativeText


def test_set_fields_view_is_the_set_fields_without_a_copy() -> None:
    metadata = ElementMetadata(page_number=2, filename="/x/a.pdf")
    view = metadata.set_fields_view()
    assert (
        dict(view)
        == metadata.set_fields()
        == {
            "filename": "a.pdf",
            "file_directory": "/x",
            "page_number": 2,
        }
    )
    assert metadata.set_fields_view() is view
    assert metadata.set_fields() is not metadata.set_fields()
