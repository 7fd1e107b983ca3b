"""Imported content (`w:altChunk`): read in place, or left out with a warning naming the part
(`docx/altchunks.py`). Every document is a real .docx written by python-docx, its imported parts
added as package parts with an `aFChunk` relationship."""

from __future__ import annotations

import base64
import io
import zipfile

import pytest
from docx.document import Document
from docx.enum.text import WD_BREAK
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part

from partita.elements import Element
from partita.partitioners.docx import FILETYPE, partition_docx
from partita.partitioners.docx import _limits as limits
from partita.partitioners.docx._losses import DocxContentWarning
from tests.partitioners.docx.builders import (
    NSDECL,
    append_body_xml,
    new_document,
    styled_paragraph,
    to_bytes,
    xml,
)

AF_CHUNK = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/aFChunk"
WML_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
NAME = "host.docx"

_HTML = (
    b"<html><body><h1>Imported heading</h1>"
    b'<p>An <a href="https://example.com/">imported link</a> here.</p></body></html>'
)


def _chunk_part(doc: Document, name: str, content_type: str, blob: bytes) -> Part:
    return Part(PackURI(f"/word/{name}"), content_type, blob, doc.part.package)


def _alt_chunk_xml(rel_id: str) -> str:
    return f'<w:altChunk r:id="{rel_id}"/>'


def add_alt_chunk(doc: Document, name: str, content_type: str, blob: bytes) -> str:
    """Add part `name` to the package and an altChunk importing it at the end of the body."""
    rel_id = doc.part.relate_to(_chunk_part(doc, name, content_type, blob), AF_CHUNK)
    append_body_xml(doc, _alt_chunk_xml(rel_id))
    return rel_id


def _partition(data: bytes) -> list[Element]:
    return partition_docx(file=io.BytesIO(data), metadata_filename=NAME)


def _texts(elements: list[Element]) -> list[tuple[str, str]]:
    return [(e.category, e.text) for e in elements]


def _host_with(content_type: str, blob: bytes, name: str = "afchunk1.bin") -> Document:
    doc = new_document()
    doc.add_paragraph("Before.")
    add_alt_chunk(doc, name, content_type, blob)
    doc.add_paragraph("After.")
    return doc


def _without_part(data: bytes, part: str) -> bytes:
    """Return the .docx `data` with zip entry `part` removed."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            if info.filename != part:
                target.writestr(info, source.read(info))
    return out.getvalue()


# -- the four kinds, read in place --


def test_html_is_read_by_the_html_partitioner_in_place() -> None:
    doc = _host_with("text/html", _HTML, "afchunk1.htm")
    elements = _partition(to_bytes(doc))
    assert _texts(elements) == [
        ("NarrativeText", "Before."),
        ("Title", "Imported heading"),
        ("NarrativeText", "An imported link here."),
        ("NarrativeText", "After."),
    ]
    title, linked = elements[1], elements[2]
    assert title.metadata.category_depth == 0
    assert linked.metadata.link_urls == ("https://example.com/",)
    assert linked.metadata.parent_id == title.element_id
    assert elements[3].metadata.parent_id == title.element_id  # -- the import is a section --
    for element in elements:
        assert element.metadata.filename == NAME
        assert element.metadata.filetype == FILETYPE
        assert element.metadata.page_number is None
    assert len({e.element_id for e in elements}) == 4


def test_imported_elements_are_on_the_page_where_the_alt_chunk_stands() -> None:
    doc = new_document()
    doc.add_paragraph("Page one.")
    doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    doc.add_paragraph("Page two.")
    html = b'<div data-page-number="9"><p>Imported.</p></div>'
    add_alt_chunk(doc, "afchunk1.htm", "text/html", html)
    elements = _partition(to_bytes(doc))
    assert [(e.text, e.metadata.page_number) for e in elements] == [
        ("Page one.", 1),
        ("Page two.", 2),
        ("Imported.", 2),
    ]


def _mht(html_part: bytes, *, encoding: str, charset: str = "utf-8") -> bytes:
    return (
        b"MIME-Version: 1.0\r\n"
        b'Content-Type: multipart/related; boundary="B"; type="text/html"\r\n\r\n'
        b"--B\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nNot this one.\r\n"
        b"--B\r\nContent-Type: text/html; charset=" + charset.encode() + b"\r\n"
        b"Content-Transfer-Encoding: " + encoding.encode() + b"\r\n"
        b"Content-Location: file:///C:/chunk.htm\r\n\r\n" + html_part + b"\r\n--B--\r\n"
    )


@pytest.mark.parametrize(
    ("mht", "expected"),
    [
        (
            _mht(b"<p>Caf=C3=A9 au lait, soft=\r\nbreak.</p>", encoding="quoted-printable"),
            "Café au lait, softbreak.",
        ),
        (
            _mht(
                base64.encodebytes("<p>Grüße aus Köln.</p>".encode("cp1252")),
                encoding="base64",
                charset="windows-1252",
            ),
            "Grüße aus Köln.",
        ),
        (
            b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
            + "Plain MIME text, naïve.".encode(),
            "Plain MIME text, naïve.",
        ),
    ],
    ids=["quoted-printable-html", "base64-cp1252-html", "text-only"],
)
def test_mht_is_read_through_its_html_part_decoded(mht: bytes, expected: str) -> None:
    doc = _host_with("message/rfc822", mht, "afchunk1.mht")
    assert _texts(_partition(to_bytes(doc))) == [
        ("NarrativeText", "Before."),
        ("NarrativeText", expected),
        ("NarrativeText", "After."),
    ]


@pytest.mark.parametrize(
    ("content_type", "blob"),
    [
        ("text/plain", "First imported line\nwraps here.\n\nSecond paragraph, ü.".encode()),
        ("text/plain", "First imported line\nwraps here.\n\nSecond paragraph, ü.".encode("cp1252")),
        (
            "text/plain; charset=utf-16-le",
            "First imported line\nwraps here.\n\nSecond paragraph, ü.".encode("utf-16-le"),
        ),
    ],
    ids=["utf-8", "cp1252", "charset-parameter"],
)
def test_text_is_read_by_the_text_partitioner(content_type: str, blob: bytes) -> None:
    doc = _host_with(content_type, blob, "afchunk1.txt")
    assert _texts(_partition(to_bytes(doc))) == [
        ("NarrativeText", "Before."),
        ("NarrativeText", "First imported line wraps here."),
        ("NarrativeText", "Second paragraph, ü."),
        ("NarrativeText", "After."),
    ]


def test_a_document_part_of_the_same_package_is_partitioned_as_a_document() -> None:
    body = (
        styled_paragraph("Nested heading", "Heading2")
        + styled_paragraph("Nested text.")
        + "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
    )
    part_xml = f"<w:document {NSDECL}><w:body>{body}</w:body></w:document>".encode()
    doc = new_document()
    doc.add_paragraph("Before.")
    chunk = _chunk_part(doc, "afchunk1.xml", WML_MAIN, part_xml)
    chunk.relate_to(doc.part.part_related_by(RT.STYLES), RT.STYLES)  # -- its styles part --
    append_body_xml(doc, _alt_chunk_xml(doc.part.relate_to(chunk, AF_CHUNK)))
    doc.add_paragraph("After.")
    elements = _partition(to_bytes(doc))
    assert [(e.category, e.text, e.metadata.category_depth) for e in elements] == [
        ("NarrativeText", "Before.", None),
        ("Title", "Nested heading", 1),
        ("NarrativeText", "Nested text.", None),
        ("Table", "cell", None),
        ("NarrativeText", "After.", None),
    ]
    assert elements[3].metadata.text_as_html == "<table><tr><td>cell</td></tr></table>"


def test_a_whole_docx_is_partitioned_with_its_own_styles() -> None:
    nested = new_document()
    nested.add_heading("Annex", level=1)
    nested.add_paragraph("Annex text.", style="List Bullet")
    nested.sections[0].header.paragraphs[0].text = "Nested header (not shown by Word)"
    doc = _host_with(
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        to_bytes(nested),
        "afchunk1.docx",
    )
    elements = _partition(to_bytes(doc))
    assert [(e.category, e.text, e.metadata.category_depth) for e in elements] == [
        ("NarrativeText", "Before.", None),
        ("Title", "Annex", 0),
        ("ListItem", "Annex text.", 0),
        ("NarrativeText", "After.", None),
    ]
    assert {e.metadata.filename for e in elements} == {NAME}


def test_alt_chunks_in_a_cell_a_header_and_a_footnote_are_read_in_their_part() -> None:
    doc = new_document()
    table = doc.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "left"
    rel_id = doc.part.relate_to(
        _chunk_part(doc, "cell.htm", "text/html", b"<p>from html</p>"), AF_CHUNK
    )
    table.cell(0, 1)._tc.append(xml(_alt_chunk_xml(rel_id)))
    header = doc.sections[0].header
    header.paragraphs[0].text = "Head"
    header_rel = header.part.relate_to(
        _chunk_part(doc, "head.txt", "text/plain", b"imported head"), AF_CHUNK
    )
    header._element.append(xml(_alt_chunk_xml(header_rel)))
    notes = Part(
        PackURI("/word/footnotes.xml"),
        "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
        b"",
        doc.part.package,
    )
    note_rel = notes.relate_to(
        _chunk_part(doc, "note.txt", "text/plain", b"imported note"), AF_CHUNK
    )
    notes._blob = (
        f'<w:footnotes {NSDECL}><w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r>'
        '<w:r><w:t xml:space="preserve"> Note.</w:t></w:r></w:p>'
        f"{_alt_chunk_xml(note_rel)}</w:footnote></w:footnotes>"
    ).encode()
    doc.part.relate_to(
        notes, "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes"
    )
    paragraph = doc.add_paragraph("Cited")
    paragraph._p.append(xml('<w:r><w:footnoteReference w:id="1"/></w:r>'))
    elements = _partition(to_bytes(doc))
    assert _texts(elements) == [
        ("Table", "left from html"),
        ("NarrativeText", "Cited[1]"),
        ("NarrativeText", "[1] Note."),
        ("NarrativeText", "imported note"),
        ("Header", "Head\nimported head"),
    ]
    assert "<td>from html</td>" in (elements[0].metadata.text_as_html or "")


# -- what cannot be read: left out, named in the warning --


def _left_out(data: bytes, reason: str) -> list[Element]:
    with pytest.warns(DocxContentWarning, match="content left out") as record:
        elements = _partition(data)
    (warning,) = record
    message = str(warning.message)
    assert message.startswith(f"{NAME}: content left out: ")
    assert reason in message, message
    return elements


@pytest.mark.parametrize(
    ("content_type", "reason"),
    [
        ("application/rtf", "altChunk word/afchunk1.bin (content type application/rtf is not"),
        ("image/png", "(content type image/png is not one partita reads)"),
    ],
)
def test_an_unknown_content_type_is_left_out(content_type: str, reason: str) -> None:
    doc = _host_with(content_type, b"{\\rtf1 x}")
    assert _texts(_left_out(to_bytes(doc), reason)) == [
        ("NarrativeText", "Before."),
        ("NarrativeText", "After."),
    ]


def test_a_missing_part_is_left_out() -> None:
    data = _without_part(to_bytes(_host_with("text/html", _HTML, "gone.htm")), "word/gone.htm")
    elements = _left_out(data, "altChunk word/gone.htm (the part is missing)")
    assert [e.text for e in elements] == ["Before.", "After."]


def test_a_missing_relationship_and_an_external_target_are_left_out() -> None:
    doc = new_document()
    doc.add_paragraph("Only.")
    append_body_xml(doc, _alt_chunk_xml("rId999"))
    external = doc.part.relate_to("https://example.com/x.htm", AF_CHUNK, is_external=True)
    append_body_xml(doc, _alt_chunk_xml(external))
    elements = _left_out(
        to_bytes(doc),
        "altChunk 'rId999' in word/document.xml (no such relationship); altChunk"
        " https://example.com/x.htm (an external target is not fetched)",
    )
    assert [e.text for e in elements] == ["Only."]


@pytest.mark.parametrize(
    ("content_type", "blob", "reason"),
    [
        (
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            b"not a zip",
            "(not a .docx file (no zip signature))",
        ),
        (WML_MAIN, b"<w:document", "(malformed XML in word/afchunk1.bin"),
        ("message/rfc822", b"Content-Type: image/png\r\n\r\nxx", "(the MHT holds no text/html"),
        ("text/html", b"<p>a\x00b</p>", "(not an HTML document: it holds binary data"),
    ],
    ids=["not-a-zip", "malformed-xml", "mht-without-text", "binary-html"],
)
def test_a_part_that_is_not_what_its_type_says_is_left_out(
    content_type: str, blob: bytes, reason: str
) -> None:
    doc = _host_with(content_type, blob)
    elements = _left_out(to_bytes(doc), f"altChunk word/afchunk1.bin {reason}")
    assert [e.text for e in elements] == ["Before.", "After."]


def test_a_document_importing_itself_stops_at_the_depth_bound() -> None:
    doc = new_document()
    doc.add_paragraph("Self.")
    rel_id = doc.part.relate_to(doc.part, AF_CHUNK)
    append_body_xml(doc, _alt_chunk_xml(rel_id))
    elements = _left_out(
        to_bytes(doc),
        f"altChunk word/document.xml (imported documents nest more than"
        f" {limits.MAX_IMPORT_DEPTH} deep)",
    )
    assert [e.text for e in elements] == ["Self."] * (1 + limits.MAX_IMPORT_DEPTH)


def test_a_document_importing_itself_twice_grows_only_to_the_bound() -> None:
    doc = new_document()
    doc.add_paragraph("Self.")
    rel_id = doc.part.relate_to(doc.part, AF_CHUNK)
    append_body_xml(doc, _alt_chunk_xml(rel_id))
    append_body_xml(doc, _alt_chunk_xml(rel_id))
    elements = _left_out(to_bytes(doc), "; and 12 more parts left out")
    depth = limits.MAX_IMPORT_DEPTH
    assert len(elements) == 2 ** (depth + 1) - 1  # -- 1 + 2 + 4 + ... + 2^depth copies --
    assert len({e.element_id for e in elements}) == len(elements)


def test_an_import_past_a_bound_is_left_out_and_the_imports_after_it_unread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(limits, "MAX_ELEMENTS", 6)
    doc = new_document()
    doc.add_paragraph("Host one.")
    add_alt_chunk(doc, "small.htm", "text/html", b"<p>a</p><p>b</p>")
    add_alt_chunk(doc, "large.htm", "text/html", b"<p>1</p><p>2</p><p>3</p><p>4</p>")
    add_alt_chunk(doc, "later.htm", "text/html", b"<p>c</p>")
    doc.add_paragraph("Host two.")
    elements = _left_out(
        to_bytes(doc),
        "imported parts not read after a bound was reached: 1; altChunk word/large.htm (its"
        " elements would pass the document's bound on elements or output size; the imports"
        " after it are not read)",
    )
    assert [e.text for e in elements] == ["Host one.", "a", "b", "Host two."]


def test_imports_share_the_documents_bound_on_bytes_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    doc = new_document()
    doc.add_paragraph("Before.")
    add_alt_chunk(doc, "big.htm", "text/html", b"<p>" + b"x" * 3_000_000 + b"</p>")
    add_alt_chunk(doc, "small.htm", "text/html", b"<p>small</p>")
    doc.add_paragraph("After.")
    data = to_bytes(doc)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        host_bytes = sum(
            info.file_size for info in archive.infolist() if info.filename != "word/big.htm"
        )
    assert host_bytes < 1_000_000  # -- the host's own parts, all read, are far below the bound --
    monkeypatch.setattr(limits, "MAX_TOTAL_BYTES", 2_000_000)
    elements = _left_out(
        data,
        "imported parts not read after a bound was reached: 1; altChunk word/big.htm (the parts"
        " read inflate beyond the document size limit (2,000,000 bytes; zip bomb?) at part"
        " word/big.htm; the imports after it are not read)",
    )
    assert [e.text for e in elements] == ["Before.", "After."]
