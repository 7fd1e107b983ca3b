"""The inspector's model: chunks mapped to elements through provenance, overlaps, the JSON.

Inputs are small real element lists chunked by the real strategies with provenance on; the
expected mapping is read from an independent source, each chunk's `orig_elements`.
"""

from __future__ import annotations

import json

import pytest

from partita import ElementMetadata, ListItem, NarrativeText, Table, Title
from partita.chunking import chunk
from partita.elements import Element
from partita.inspection import inspection_model, model_to_json
from partita.inspection._data import sanitized_table_html

SENTENCE = "The quick brown fox jumps over the lazy dog. "


def meta(page: int, *path: str, html: str | None = None) -> ElementMetadata:
    return ElementMetadata(page_number=page, section_path=list(path), text_as_html=html)


def document() -> list[Element]:
    return [
        Title("Intro", metadata=meta(1, "Intro")),
        NarrativeText(SENTENCE * 4, metadata=meta(1, "Intro")),
        ListItem("A short item.", metadata=meta(2, "Intro")),
        NarrativeText("Another paragraph, on page two.", metadata=meta(2, "Intro")),
        Title("Data", metadata=meta(3, "Data")),
        Table(
            "a b 1 2",
            metadata=meta(3, "Data", html="<table><tr><th>a</th><th>b</th></tr>"
                          "<tr><td>1</td><td>2</td></tr></table>"),
        ),
        NarrativeText("Closing words under the table.", metadata=meta(4, "Data")),
    ]  # fmt: skip


OPTIONS = [
    ("by_title", {"max_characters": 80, "overlap": 15}),
    ("by_title", {"max_characters": 200}),
    ("basic", {"max_characters": 60, "overlap": 10, "overlap_all": True}),
    ("sentence", {"max_characters": 70, "overlap": 20}),
]


@pytest.mark.parametrize(("strategy", "options"), OPTIONS)
def test_every_chunk_maps_to_the_elements_it_was_made_from(
    strategy: str, options: dict[str, object]
) -> None:
    elements = document()
    chunks = chunk(elements, strategy, provenance=True, **options)
    model = inspection_model(elements, chunks, count_tokens=len)
    index_of = {e.element_id: i for i, e in enumerate(elements)}

    assert len(model.chunks) == len(chunks)
    assert model.unmapped_chunks == ()
    assert model.unresolved_records == 0
    for view, source in zip(model.chunks, chunks, strict=True):
        assert source.metadata.orig_elements is not None
        made_from = {index_of[e.element_id] for e in source.metadata.orig_elements}
        if options.get("overlap_all"):
            # -- the overlap prefix comes from the chunk before: its elements are not "orig" --
            assert made_from <= set(view.element_indices)
            assert max(view.element_indices) == max(made_from)
        else:
            assert set(view.element_indices) == made_from
        for extent in view.extents:
            assert elements[extent.element].text[extent.start : extent.end] in source.text


def test_sizes_headings_and_pages_are_the_chunks() -> None:
    elements = document()
    chunks = chunk(elements, "by_title", max_characters=80, provenance=True)
    model = inspection_model(elements, chunks, count_tokens=lambda text: len(text.split()))

    for view, source in zip(model.chunks, chunks, strict=True):
        assert view.characters == len(source.text)
        assert view.tokens == len(source.text.split())
        assert view.category == source.category
    first_page = {c.index: c.pages for c in model.chunks}
    assert first_page[0] == (1, 1)
    spanning = [c for c in model.chunks if 2 in c.element_indices]
    assert spanning
    assert all(c.pages is not None and c.pages[0] == 2 for c in spanning)
    table = next(c for c in model.chunks if c.category == "Table")
    assert table.heading_path == ("Data",)
    assert table.pages == (3, 3)
    assert table.element_indices == (5,)


def test_overlaps_are_recorded_with_the_chunks_sharing_them() -> None:
    elements = document()
    chunks = chunk(elements, "by_title", max_characters=80, overlap=15, provenance=True)
    model = inspection_model(elements, chunks, count_tokens=len)

    assert model.overlaps, "a split element with overlap shares ranges between its pieces"
    for overlap in model.overlaps:
        assert len(overlap.chunks) >= 2
        assert 0 < overlap.end - overlap.start <= 15
        for number in overlap.chunks:
            assert any(
                e.element == overlap.element and e.start <= overlap.start and overlap.end <= e.end
                for e in model.chunks[number].extents
            )
    assert {o.element for o in model.overlaps} == {1}
    assert [o.chunks for o in model.overlaps] == sorted(o.chunks for o in model.overlaps)


def test_no_overlap_without_the_option() -> None:
    elements = document()
    chunks = chunk(elements, "by_title", max_characters=80, provenance=True)
    assert inspection_model(elements, chunks, count_tokens=len).overlaps == ()


def test_chunks_without_provenance_are_unmapped_and_unknown_elements_counted() -> None:
    elements = document()
    plain = chunk(elements, "by_title", max_characters=80)
    assert inspection_model(elements, plain, count_tokens=len).unmapped_chunks == tuple(
        range(len(plain))
    )
    traced = chunk(elements, "by_title", max_characters=80, provenance=True)
    partial = inspection_model(elements[:2], traced, count_tokens=len)
    assert partial.unresolved_records > 0
    assert all(e.element < 2 for c in partial.chunks for e in c.extents)


def test_chunks_of_an_element_lists_every_chunk_taking_from_it() -> None:
    elements = document()
    chunks = chunk(elements, "by_title", max_characters=80, overlap=15, provenance=True)
    model = inspection_model(elements, chunks, count_tokens=len)
    split = model.chunks_of(1)
    assert len(split) >= 3
    assert list(split) == list(range(split[0], split[0] + len(split)))


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<table><tr><td>1</td></tr></table>", "<table><tr><td>1</td></tr></table>"),
        ('<table><tr><td colspan="2" rowspan="3">x</td></tr></table>',
         '<table><tr><td colspan="2" rowspan="3">x</td></tr></table>'),
        ('<table><tr><td onclick="alert(1)" style="color:red" colspan="2;x">x</td></tr></table>',
         "<table><tr><td>x</td></tr></table>"),
        ("<table><tr><td>a<script>alert(1)</script>b</td></tr></table>",
         "<table><tr><td>ab</td></tr></table>"),
        ('<table><tr><td><a href="javascript:x()">link</a> &lt;b&gt;</td></tr></table>',
         "<table><tr><td>link &lt;b&gt;</td></tr></table>"),
        ("<table><tr><td><img src=x onerror=alert(1)>a<br/>b</td></tr></table>",
         "<table><tr><td>a<br>b</td></tr></table>"),
        ("<table><tr><td>x</td></tr></table><style>td{}</style><iframe>y</iframe>",
         "<table><tr><td>x</td></tr></table>"),
    ],
)  # fmt: skip
def test_table_html_keeps_structure_and_spans_only(html: str, expected: str) -> None:
    assert sanitized_table_html(html) == expected


def test_the_json_round_trips_and_cannot_close_its_script() -> None:
    elements = [
        Title("</script><script>alert(1)</script>"),
        NarrativeText("<!-- a comment --> and text"),
    ]
    chunks = chunk(elements, "basic", max_characters=100, provenance=True)
    model = inspection_model(elements, chunks, count_tokens=len, settings={"strategy": "basic"})
    text = model_to_json(model)

    assert "</" not in text
    assert "<!--" not in text
    data = json.loads(text)
    assert [e[1] for e in data["elements"]] == [e.text for e in elements]
    assert data["types"] == ["Title", "NarrativeText"]
    assert data["settings"] == {"strategy": "basic"}
    assert [c["n"] for c in data["chunks"]] == [len(c.text) for c in chunks]
    assert data["chunks"][0]["r"] == [[0, 0, len(elements[0].text)], [1, 0, 27]]
