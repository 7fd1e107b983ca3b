"""The finishing stage shared by the partitioners: ids keyed by the document, unique in it."""

from __future__ import annotations

import hashlib
import io
import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partita.elements import ElementMetadata, NarrativeText, document_key, element_id_for
from partita.errors import FileReadError
from partita.partitioners._build import (
    Draft,
    content_digest,
    file_digest,
    iter_finished_elements,
)


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


# -- document identity: a path with a directory, or the content, keys every id ------------------


def _ids(path: str | None, content: str | None = None, pages: list[int] | None = None) -> list[str]:
    drafts = _drafts(pages or [1, 1, 2])
    finished = iter_finished_elements(drafts, path=path, filetype="x", content=content)
    return [e.element_id for e in finished]


def test_a_directory_keys_the_ids_of_same_named_files_apart() -> None:
    a, b = _ids("docs/a/notes.md"), _ids("docs/b/notes.md")
    assert not set(a) & set(b)
    key = document_key("docs/a", "notes.md")
    assert a == [
        element_id_for("notes.md", "Internal Revenue Manual", page, seq, key=key)
        for page, seq in [(1, 0), (1, 1), (2, 0)]
    ]
    # -- and apart from the reference's id of the bare name --
    assert not set(a) & set(_ids("notes.md"))


def test_the_path_is_taken_as_given() -> None:
    # -- what becomes file_directory + filename: a relative and an absolute path differ --
    assert _ids("notes/a.md") != _ids("/srv/notes/a.md")
    assert _ids("./a.md") != _ids("a.md")
    [element] = iter_finished_elements(_drafts([1]), path="notes/a.md", filetype="x")
    assert (element.metadata.file_directory, element.metadata.filename) == ("notes", "a.md")


def test_without_a_path_the_content_keys_the_ids() -> None:
    one, other = _ids(None, "first document"), _ids(None, "second document")
    assert not set(one) & set(other)
    assert _ids(None, "first document") == one
    # -- a text and its UTF-8 bytes are one content --
    drafts = _drafts([1, 1, 2])
    as_bytes = iter_finished_elements(drafts, path=None, filetype="x", content=b"first document")
    assert [e.element_id for e in as_bytes] == one
    digest = content_digest("first document")
    assert digest == hashlib.sha256(b"first document").hexdigest()
    given = iter_finished_elements(_drafts([1, 1, 2]), path=None, filetype="x", digest=digest)
    assert [e.element_id for e in given] == one
    # -- a path wins over the content: an edited file keeps its ids where its elements do --
    assert _ids("d/a.md", "version 1") == _ids("d/a.md", "version 2")


def test_repeats_are_disambiguated_under_the_key_too() -> None:
    pages = [10] * 22 + [102] * 2
    drafts = _drafts(pages, "t")
    ids = [e.element_id for e in iter_finished_elements(drafts, path="d/a.pdf", filetype="x")]
    assert len(set(ids)) == len(ids)
    again = _ids("d/a.pdf", pages=pages)
    assert not set(again) & set(_ids("e/a.pdf", pages=pages))


def test_file_digest_reads_from_the_start_and_leaves_the_position() -> None:
    data = bytes(range(256)) * 9000  # -- over 1 MiB: read in blocks --
    file = io.BytesIO(data)
    file.seek(77)
    assert file_digest(file) == hashlib.sha256(data).hexdigest()
    assert file.tell() == 77


def test_file_digest_of_an_unreadable_stream_is_a_file_read_error() -> None:
    file = io.BytesIO(b"x")
    file.close()
    with pytest.raises(FileReadError, match=r"upload\.pdf"):
        file_digest(file, "upload.pdf")


def test_an_element_built_from_the_same_metadata_has_the_partitioners_first_id() -> None:
    # -- the constructor's default id and the JSON reader's (for a missing id) are keyed alike --
    from partita import elements_from_json

    [first] = iter_finished_elements(_drafts([1]), path="docs/a/notes.md", filetype="x")
    meta = ElementMetadata(filename="docs/a/notes.md", page_number=1)
    assert NarrativeText("Internal Revenue Manual", metadata=meta).element_id == first.element_id
    assert (
        NarrativeText(
            "Internal Revenue Manual", metadata=meta.replace(file_directory="docs/b")
        ).element_id
        != first.element_id
    )
    text = (
        '[{"type": "NarrativeText", "text": "Internal Revenue Manual", "metadata": '
        '{"filename": "notes.md", "file_directory": "docs/a", "page_number": 1}}]'
    )
    [read] = elements_from_json(text=text)
    assert read.element_id == first.element_id


# -- the property: different documents never share an id; one document always has the same ------

_segments = st.text(alphabet="ab.", min_size=1, max_size=2).filter(lambda s: s not in (".", ".."))
_directories = st.lists(_segments, min_size=1, max_size=2).map("/".join) | st.just("/srv")
# -- bare names of one extension: the reference's hash runs name and text together, so of two
# -- bare names one must not be the other plus the start of a text ("a.txt", "a.txtx") --
_names = st.builds("{}.{}".format, st.text(alphabet="ab", min_size=1, max_size=3), st.just("txt"))
_identities = st.one_of(
    st.tuples(_directories, _names),  # -- a path with a directory --
    st.tuples(st.just(""), _names),  # -- a bare name: the reference's ids --
    st.just(None),  # -- no path: the content --
)
_pages = st.lists(st.sampled_from([None, 1, 2, 10, 102]), min_size=1, max_size=25)
_texts = st.lists(
    st.sampled_from(["Overview", "t", "x1", "Overview1", ""]), min_size=1, max_size=25
)
_documents = st.tuples(_identities, _texts, _pages)


def _document_ids(
    document: tuple[tuple[str, str] | None, list[str], list[int | None]],
) -> list[str]:
    identity, texts, pages = document
    path = None if identity is None else os.path.join(*identity) if identity[0] else identity[1]
    drafts = [
        Draft(NarrativeText, text, {"page_number": page})
        for text, page in zip(texts, pages * len(texts), strict=False)
    ]
    content = "\n\n".join(texts) + repr(pages)
    finished = iter_finished_elements(drafts, path=path, filetype="x", content=content)
    return [e.element_id for e in finished]


@settings(max_examples=300)
@given(_documents, _documents)
def test_different_documents_never_share_an_element_id(
    one: tuple[Any, list[str], list[int | None]], other: tuple[Any, list[str], list[int | None]]
) -> None:
    ids, other_ids = _document_ids(one), _document_ids(other)
    assert len(set(ids)) == len(ids)
    assert _document_ids(one) == ids  # -- the same document: the same ids, every run --
    same_path = one[0] is not None and one[0] == other[0]
    same_content = one[0] is None and other[0] is None and one[1:] == other[1:]
    if not same_path and not same_content:
        assert not set(ids) & set(other_ids)


# -- every partitioner passes its identity: PDFs from file objects are keyed by their bytes ------


def _pdf(body: str) -> bytes:
    from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    canvas.setFont("Helvetica-Bold", 18)
    canvas.drawString(72, 720, "Overview")
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, 690, body)
    canvas.save()
    return buffer.getvalue()


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_unnamed_pdfs_are_keyed_by_their_bytes(isolation: str) -> None:
    from partita.partitioners.pdf import partition_pdf

    one, other = _pdf("The first report speaks of rivers."), _pdf("The second one of hills.")
    ids = [e.element_id for e in partition_pdf(file=io.BytesIO(one), isolation=isolation)]
    other_ids = [e.element_id for e in partition_pdf(file=io.BytesIO(other), isolation=isolation)]
    assert len(ids) == len(other_ids) == 2
    assert not set(ids) & set(other_ids)
    # -- the same bytes: the same ids, in the worker or not --
    again = partition_pdf(file=io.BytesIO(one), isolation="none")
    assert [e.element_id for e in again] == ids
    key = document_key(None, None, hashlib.sha256(one).hexdigest())
    assert ids[0] == element_id_for(None, "Overview", 1, 0, key=key)
    # -- named, it is the name that identifies it (a bare name: the reference's ids) --
    named = partition_pdf(file=io.BytesIO(one), metadata_filename="r.pdf", isolation=isolation)
    assert named[0].element_id == element_id_for("r.pdf", "Overview", 1, 0)


def test_every_partitioner_keys_unnamed_content() -> None:
    import partita

    documents = {
        "text": ("Overview\n\nFirst body.", "Overview\n\nSecond body."),
        "md": ("# Overview\n\nFirst body.", "# Overview\n\nSecond body."),
        "html": ("<h1>Overview</h1><p>First body.</p>", "<h1>Overview</h1><p>Second body.</p>"),
        "code": ("def first(): pass", "def second(): pass"),
    }
    types = {"text": "text/plain", "md": "text/markdown", "html": "text/html"}
    for fmt, (one, other) in documents.items():
        content_type = types.get(fmt, "text/x-python")
        first = partita.partition(text=one, content_type=content_type)
        second = partita.partition(file=io.BytesIO(other.encode()), content_type=content_type)
        assert first, fmt
        assert second, fmt
        assert not {e.element_id for e in first} & {e.element_id for e in second}, fmt
        again = partita.partition(file=io.BytesIO(one.encode()), content_type=content_type)
        assert [e.element_id for e in again] == [e.element_id for e in first], fmt
