"""Real .docx files for the tests: python-docx documents, plus raw WordprocessingML where
python-docx has no API (custom styles with chosen ids, outline levels, numbering, text boxes,
content controls, footnotes, fields, revisions)."""

from __future__ import annotations

import io
from pathlib import Path

import docx
from docx.document import Document
from docx.opc.constants import CONTENT_TYPE, RELATIONSHIP_TYPE
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.text.paragraph import Paragraph
from lxml import etree

from partita.elements import Element
from partita.partitioners.docx import partition_docx

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NSDECL = (
    f'xmlns:w="{W_NS}" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:v="urn:schemas-microsoft-com:vml"'
)


def new_document() -> Document:
    """Return a new python-docx document (the default template, with its built-in styles)."""
    return docx.Document()


def xml(fragment: str) -> etree._Element:
    """Return the element parsed from a WordprocessingML `fragment` (prefixes w, r, mc, ...)."""
    wrapper = etree.fromstring(f"<root {NSDECL}>{fragment}</root>")
    return wrapper[0]


def append_body_xml(doc: Document, fragment: str) -> None:
    """Append the block-level `fragment` to the body, before the final section properties."""
    body = doc.element.body
    body.sectPr.addprevious(xml(fragment))


def add_paragraph_style(
    doc: Document,
    style_id: str,
    name: str,
    *,
    based_on: str | None = None,
    ppr: str = "",
    kind: str = "paragraph",
) -> None:
    """Add a style with a chosen id and name (raw XML: python-docx derives ids from names)."""
    based = f'<w:basedOn w:val="{based_on}"/>' if based_on else ""
    props = f"<w:pPr>{ppr}</w:pPr>" if ppr else ""
    doc.styles.element.append(
        xml(
            f'<w:style w:type="{kind}" w:styleId="{style_id}"><w:name w:val="{name}"/>'
            f"{based}{props}</w:style>"
        )
    )


def styled_paragraph(text: str, style_id: str | None = None, ppr: str = "") -> str:
    """Return the XML of a one-run paragraph with style `style_id` and extra properties."""
    style = f'<w:pStyle w:val="{style_id}"/>' if style_id else ""
    props = f"<w:pPr>{style}{ppr}</w:pPr>" if style or ppr else ""
    return f'<w:p>{props}<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


def add_numbering(
    doc: Document, num_id: int, levels: list[tuple[str, str]], *, start: int = 1
) -> None:
    """Define list `num_id` whose level i has (numFmt, lvlText) `levels[i]`."""
    numbering = doc.part.numbering_part.element
    lvls = "".join(
        f'<w:lvl w:ilvl="{i}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
        f'<w:lvlText w:val="{text}"/></w:lvl>'
        for i, (fmt, text) in enumerate(levels)
    )
    abstract_id = 100 + num_id
    first_num = numbering.find(f"{{{W_NS}}}num")
    abstract = xml(f'<w:abstractNum w:abstractNumId="{abstract_id}">{lvls}</w:abstractNum>')
    if first_num is not None:
        first_num.addprevious(abstract)
    else:
        numbering.append(abstract)
    numbering.append(
        xml(f'<w:num w:numId="{num_id}"><w:abstractNumId w:val="{abstract_id}"/></w:num>')
    )


def add_notes_part(doc: Document, kind: str, notes: dict[int, str]) -> None:
    """Add a footnotes (or endnotes) part holding `notes` (id to text), with separator notes."""
    tag = "footnote" if kind == "footnote" else "endnote"
    ref = "footnoteRef" if kind == "footnote" else "endnoteRef"
    body = "".join(
        f'<w:{tag} w:id="{note_id}"><w:p><w:r><w:{ref}/></w:r>'
        f'<w:r><w:t xml:space="preserve"> {text}</w:t></w:r></w:p></w:{tag}>'
        for note_id, text in notes.items()
    )
    blob = (
        f'<w:{tag}s {NSDECL}><w:{tag} w:type="separator" w:id="-1"><w:p><w:r><w:separator/>'
        f"</w:r></w:p></w:{tag}>{body}</w:{tag}s>"
    ).encode()
    content_type = CONTENT_TYPE.WML_FOOTNOTES if kind == "footnote" else CONTENT_TYPE.WML_ENDNOTES
    rel_type = RELATIONSHIP_TYPE.FOOTNOTES if kind == "footnote" else RELATIONSHIP_TYPE.ENDNOTES
    part = Part(PackURI(f"/word/{tag}s.xml"), content_type, blob, doc.part.package)
    doc.part.relate_to(part, rel_type)


def add_hyperlink(paragraph: Paragraph, text: str, url: str) -> None:
    """Append an external hyperlink run to `paragraph`."""
    rel_id = paragraph.part.relate_to(url, RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    run = f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'
    paragraph._p.append(xml(f'<w:hyperlink r:id="{rel_id}">{run}</w:hyperlink>'))


def append_paragraph_xml(paragraph: Paragraph, fragment: str) -> None:
    """Append inline XML (runs, fields, revisions, ...) to `paragraph`."""
    paragraph._p.append(xml(fragment))


def to_bytes(doc: Document) -> bytes:
    """Return the saved .docx."""
    stream = io.BytesIO()
    doc.save(stream)
    return stream.getvalue()


def partition(doc: Document, **options: object) -> list[Element]:
    """Save `doc` and partition it from a file object."""
    return partition_docx(file=io.BytesIO(to_bytes(doc)), **options)  # type: ignore[arg-type]


def kinds(elements: list[Element]) -> list[tuple[str, str, int | None]]:
    """(category, text, category_depth) of each element."""
    return [(e.category, e.text, e.metadata.category_depth) for e in elements]


def save(doc: Document, path: Path) -> Path:
    """Save `doc` at `path` and return the path."""
    doc.save(str(path))
    return path
