"""Hostile .docx files, built in code: huge numbers, floods, bad code points, entity references.

Each builder writes a minimal WordprocessingML package (a zip with fixed timestamps, so the bytes
are deterministic) with `docx_package`; the docx partitioner's regression tests
(`tests/partitioners/docx/test_hostile.py`) partition the same bytes and assert the exact result.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Iterable, Mapping

from tests.robustness.cases import HostileCase

__all__ = ["CASES", "NSDECL", "docx_package", "numbered_list", "paragraph"]

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
NSDECL = (
    f'xmlns:w="{W_NS}" xmlns:r="{R_NS}" '
    'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"'
)
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_PART_ROOTS = {
    "styles": "styles",
    "numbering": "numbering",
    "footnotes": "footnotes",
    "endnotes": "endnotes",
    "settings": "settings",
}
_STAMP = (2024, 1, 1, 0, 0, 0)


def paragraph(text: str, ppr: str = "") -> str:
    """Return the XML of a one-run paragraph with properties `ppr` (inner XML of `w:pPr`)."""
    props = f"<w:pPr>{ppr}</w:pPr>" if ppr else ""
    return f'<w:p>{props}<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


def numbered_list(
    fmt: str, start: int | str, texts: Iterable[str], lvl_text: str = "%1."
) -> tuple[str, str]:
    """Return (body, numbering part) for a list of `texts` numbered in `fmt` from `start`."""
    numbering = (
        f'<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="{start}"/>'
        f'<w:numFmt w:val="{fmt}"/><w:lvlText w:val="{lvl_text}"/></w:lvl></w:abstractNum>'
        '<w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>'
    )
    num_pr = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
    body = "".join(paragraph(text, num_pr) for text in texts)
    return body, numbering


def docx_package(
    body: str | Callable[[zipfile.ZipFile], None] = "",
    *,
    parts: Mapping[str, str] | None = None,
    raw_document: bytes | None = None,
    **related: str,
) -> bytes:
    """Return the bytes of a .docx whose body holds `body` (block-level XML).

    `related` gives the inner XML of related parts by relationship type ("styles", "numbering",
    "footnotes", "endnotes", "settings"); `parts` adds further parts verbatim (a
    `word/_rels/document.xml.rels` there replaces the one naming the related parts). `raw_document`
    replaces the whole `word/document.xml`. `body` may instead be a function writing
    `word/document.xml` itself into the open archive (to stream a large part).
    """
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:

        def put(name: str, data: str | bytes) -> None:
            archive.writestr(zipfile.ZipInfo(name, _STAMP), data, zipfile.ZIP_DEFLATED)

        overrides = "".join(
            f'<Override PartName="/word/{kind}.xml" ContentType="application/xml"/>'
            for kind in related
        )
        put(
            "[Content_Types].xml",
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Override PartName="/word/document.xml" ContentType="application/vnd.'
            'openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
            f"{overrides}</Types>",
        )
        put(
            "_rels/.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{_REL}officeDocument" Target="word/document.xml"/>'
            "</Relationships>",
        )
        rels = "".join(
            f'<Relationship Id="rId{i}" Type="{_REL}{kind}" Target="{kind}.xml"/>'
            for i, kind in enumerate(related, start=1)
        )
        if "word/_rels/document.xml.rels" not in (parts or {}):
            put(
                "word/_rels/document.xml.rels",
                '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
                f'relationships">{rels}</Relationships>',
            )
        for kind, inner in related.items():
            root = _PART_ROOTS[kind]
            put(f"word/{kind}.xml", f"<w:{root} {NSDECL}>{inner}</w:{root}>")
        for name, data in (parts or {}).items():
            put(name, data)
        if raw_document is not None:
            put("word/document.xml", raw_document)
        elif callable(body):
            body(archive)
        else:
            put(
                "word/document.xml",
                f"<w:document {NSDECL}><w:body>{body}</w:body></w:document>",
            )
    return stream.getvalue()


def streamed_body(
    unit: str, count: int, *, before: str = "", after: str = ""
) -> Callable[[zipfile.ZipFile], None]:
    """Return a `docx_package` body writer repeating the XML `unit` `count` times between
    `before` and `after` (e.g. runs inside one paragraph), streamed: the part is never held in
    memory whole."""

    def write(archive: zipfile.ZipFile) -> None:
        info = zipfile.ZipInfo("word/document.xml", _STAMP)
        info.compress_type = zipfile.ZIP_DEFLATED
        batch = unit.encode() * 4096
        with archive.open(info, "w", force_zip64=True) as part:
            part.write(f"<w:document {NSDECL}><w:body>{before}".encode())
            whole, rest = divmod(count, 4096)
            for _ in range(whole):
                part.write(batch)
            part.write(unit.encode() * rest)
            part.write(f"{after}</w:body></w:document>".encode())

    return write


def _table(cells: str) -> str:
    return f"<w:tbl><w:tr>{cells}</w:tr></w:tbl>"


def _cell(text: str, tcpr: str = "") -> str:
    props = f"<w:tcPr>{tcpr}</w:tcPr>" if tcpr else ""
    return f"<w:tc>{props}{paragraph(text)}</w:tc>"


def huge_grid_span() -> bytes:
    """A cell spanning 2^31-1 columns (once a loop over every covered column)."""
    return docx_package(_table(_cell("x", '<w:gridSpan w:val="2147483647"/>') + _cell("y")))


def odd_table_numbers() -> bytes:
    """Spans and skips that are huge, negative, zero or not numbers."""
    row = (
        '<w:tr><w:trPr><w:gridBefore w:val="99999999999999999999"/></w:trPr>'
        + _cell("a", '<w:gridSpan w:val="-5"/>')
        + _cell("b", '<w:gridSpan w:val="abc"/>')
        + _cell("c", '<w:gridSpan w:val="0"/><w:vMerge w:val="restart"/>')
        + _cell("d", '<w:gridSpan w:val="1e9"/>')
        + "</w:tr>"
        + '<w:tr><w:trPr><w:gridBefore w:val="-7"/></w:trPr>'
        + _cell("e", '<w:gridSpan w:val="64"/>')
        + "</w:tr>"
    )
    return docx_package(f"<w:tbl>{row}</w:tbl>")


def list_start(fmt: str, start: int | str, lvl_text: str = "%1.") -> Callable[[], bytes]:
    """A two-item list numbered in `fmt` from `start`."""
    body, numbering = numbered_list(fmt, start, ["one", "two"], lvl_text)
    return lambda: docx_package(body, numbering=numbering)


def huge_start_override() -> bytes:
    """A list instance overriding its start with 10^30 (upper letters)."""
    body, numbering = numbered_list("upperLetter", 1, ["one", "two"])
    numbering = numbering.replace(
        '<w:abstractNumId w:val="1"/></w:num>',
        '<w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0">'
        f'<w:startOverride w:val="{10**30}"/></w:lvlOverride></w:num>',
    )
    return docx_package(body, numbering=numbering)


def long_level_text() -> bytes:
    """A label template of 100,000 characters, rendered for 1,000 paragraphs (100 MB of labels
    once)."""
    body, numbering = numbered_list("decimal", 1, ["item"] * 1000, "%1" + "." * 99_999)
    return docx_package(body, numbering=numbering)


def huge_list_levels() -> bytes:
    """List levels (`w:ilvl`) far outside Word's 0-8, or not numbers."""
    _, numbering = numbered_list("decimal", 1, [])
    styles = (
        '<w:style w:type="paragraph" w:styleId="ListBullet"><w:name w:val="List Bullet"/></w:style>'
    )
    body = "".join(
        paragraph(
            text,
            f'<w:pStyle w:val="ListBullet"/><w:numPr><w:ilvl w:val="{ilvl}"/>'
            '<w:numId w:val="1"/></w:numPr>',
        )
        for text, ilvl in (("huge", "2147483647"), ("negative", "-3"), ("junk", "x"))
    )
    return docx_package(body, numbering=numbering, styles=styles)


def numbering_style_chain(length: int = 5_000) -> bytes:
    """`length` definitions chained by `w:numStyleLink`, each paragraph resolving the whole
    chain (once quadratic: 5,000 paragraphs took 8 s)."""
    abstracts = "".join(
        f'<w:abstractNum w:abstractNumId="{i}"><w:numStyleLink w:val="ns{i}"/></w:abstractNum>'
        for i in range(length)
    )
    abstracts += (
        f'<w:abstractNum w:abstractNumId="{length}"><w:lvl w:ilvl="0"><w:start w:val="1"/>'
        '<w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum>'
    )
    nums = "".join(
        f'<w:num w:numId="{i + 1}"><w:abstractNumId w:val="{i}"/></w:num>'
        for i in range(length + 1)
    )
    styles = "".join(
        f'<w:style w:type="numbering" w:styleId="ns{i}"><w:pPr><w:numPr>'
        f'<w:numId w:val="{i + 2}"/></w:numPr></w:pPr></w:style>'
        for i in range(length)
    )
    num_pr = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
    body = paragraph("item", num_pr) * length
    return docx_package(body, numbering=abstracts + nums, styles=styles)


def odd_symbols() -> bytes:
    """`w:sym` codes outside Unicode, too large for a C long, surrogates, controls, junk."""
    codes = ["110000", "FFFFFFFFFFFFFFFFFFFFFFFF", "D800", "0001", "zz", "", "0041", "F0A7"]
    runs = "".join(f'<w:r><w:sym w:font="Symbol" w:char="{code}"/></w:r>' for code in codes)
    return docx_package(f"<w:p><w:r><w:t>sym:</w:t></w:r>{runs}</w:p>")


def entity_reference_tail() -> bytes:
    """Text after an entity reference inside one `w:t` (libxml2 keeps the reference as a node
    when it does not expand entities; the text after it is that node's tail)."""
    document = (
        '<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY e "EXPANDED">]>'
        f"<w:document {NSDECL}><w:body>"
        "<w:p><w:r><w:t>before &e; after &e;&e; end</w:t></w:r></w:p>"
        '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>'
        'HYPERLINK &e;"http://example.com/"</w:instrText></w:r><w:r>'
        '<w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>link</w:t></w:r>'
        '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
        "</w:body></w:document>"
    )
    return docx_package(raw_document=document.encode())


def entity_bomb_in_attribute() -> bytes:
    """A billion-laughs entity expanded in an attribute (libxml2 expands those regardless)."""
    laughs = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    document = (
        f'<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY l0 "ha">{laughs}]>'
        f'<w:document {NSDECL}><w:body><w:p><w:pPr><w:pStyle w:val="&l9;"/></w:pPr>'
        "<w:r><w:t>x</w:t></w:r></w:p></w:body></w:document>"
    )
    return docx_package(raw_document=document.encode())


_ONE_CHAR_PARAGRAPH = "<w:p><w:r><w:t>a</w:t></w:r></w:p>"


def paragraph_flood() -> bytes:
    """7,400,000 one-letter paragraphs: 266 MB of XML in 733 KB (once 7 GB and 5 minutes)."""
    return docx_package(streamed_body(_ONE_CHAR_PARAGRAPH, 7_400_000))


def understated_part_size() -> bytes:
    """The paragraph flood with its part's sizes rewritten to claim 1,000 bytes."""
    data = bytearray(paragraph_flood())
    name = b"word/document.xml"
    for signature, size_offset, name_offset in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
        at = data.find(signature + b"")
        while at != -1:
            if data[at + name_offset : at + name_offset + len(name)] == name:
                data[at + size_offset : at + size_offset + 4] = (1000).to_bytes(4, "little")
            at = data.find(signature, at + 4)
    return bytes(data)


def xml_node_flood() -> bytes:
    """10,000,000 empty paragraphs (60 MB of XML, under the part size limit)."""
    return docx_package(streamed_body("<w:p/>", 10_000_000))


def empty_cell_flood() -> bytes:
    """One row of 2,900,000 empty cells (under the XML node limit)."""
    return docx_package(
        streamed_body("<w:tc/>", 2_900_000, before="<w:tbl><w:tr>", after="</w:tr></w:tbl>")
    )


def element_flood() -> bytes:
    """100,001 one-letter paragraphs, each an element."""
    return docx_package(streamed_body(_ONE_CHAR_PARAGRAPH, 100_001))


def run_flood() -> bytes:
    """One paragraph of 700,000 one-letter runs."""
    return docx_package(
        streamed_body("<w:r><w:t>a</w:t></w:r>", 700_000, before="<w:p>", after="</w:p>")
    )


def link_url_amplification() -> bytes:
    """100 hyperlinks to one 4 MB URL: every link repeats the URL in the output."""
    url = "http://example.com/" + "a" * 4_000_000
    rels = (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rIdL" Type="{_REL}hyperlink" Target="{url}" TargetMode="External"/>'
        "</Relationships>"
    )
    link = '<w:hyperlink r:id="rIdL"><w:r><w:t>link</w:t></w:r></w:hyperlink>'
    return docx_package(f"<w:p>{link * 100}</w:p>", parts={"word/_rels/document.xml.rels": rels})


def nested_hyperlink_fields(depth: int = 20_000) -> bytes:
    """`depth` HYPERLINK fields nested in one another, one letter each: each link once covered
    all the text after its start (400 MB of JSON)."""
    begin = (
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>HYPERLINK'
        ' "http://x.example/"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/>'
        "</w:r><w:r><w:t>a</w:t></w:r>"
    )
    end = '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    return docx_package(f"<w:p>{begin * depth}{end * depth}</w:p>")


def cell_with_many_paragraphs() -> bytes:
    """One table cell of 100,000 paragraphs (once quadratic: over a minute)."""
    return docx_package(_table(f"<w:tc>{paragraph('x') * 100_000}</w:tc>"))


def footnote_chain(length: int = 3_000) -> bytes:
    """`length` footnotes, each citing the next (once nested as deep as the chain)."""
    notes = "".join(
        f'<w:footnote w:id="{i}"><w:p><w:r><w:t>note {i}</w:t></w:r>'
        f'<w:r><w:footnoteReference w:id="{i + 1}"/></w:r></w:p></w:footnote>'
        for i in range(1, length + 1)
    )
    body = '<w:p><w:r><w:t>body</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>'
    return docx_package(body, footnotes=notes)


def deep_content_controls() -> bytes:
    """Content controls nested 200 deep (past libxml2's depth limit of 256)."""
    return docx_package(
        "<w:sdt><w:sdtContent>" * 200 + paragraph("deep") + "</w:sdtContent></w:sdt>" * 200
    )


def huge_text_node() -> bytes:
    """One `w:t` of 10,000,001 characters (past libxml2's text node limit)."""
    return docx_package(paragraph("x" * 10_000_001))


def zip_entry_flood() -> bytes:
    """A package listing 70,000 empty entries besides its parts."""
    stream = io.BytesIO(docx_package(paragraph("text")))
    with zipfile.ZipFile(stream, "a", zipfile.ZIP_STORED) as archive:
        for number in range(70_000):
            archive.writestr(zipfile.ZipInfo(f"e{number}", _STAMP), b"")
    return stream.getvalue()


def lzma_part() -> bytes:
    """The main part compressed with LZMA (OPC allows only stored and deflate)."""

    def write(archive: zipfile.ZipFile) -> None:
        document = f"<w:document {NSDECL}><w:body>{paragraph('x')}</w:body></w:document>"
        info = zipfile.ZipInfo("word/document.xml", _STAMP)
        archive.writestr(info, document, zipfile.ZIP_LZMA)

    return docx_package(write)


def unsupported_zip_version() -> bytes:
    """A zip whose directory says its entries need zip version 19.4 to extract."""
    data = bytearray(docx_package(paragraph("text")))
    at = data.find(b"PK\x01\x02")
    while at != -1:
        data[at + 6 : at + 8] = (194).to_bytes(2, "little")
        at = data.find(b"PK\x01\x02", at + 4)
    return bytes(data)


def field_begin_flood() -> bytes:
    """1,000,000 fields begun and never ended, in one run."""
    return docx_package(
        streamed_body(
            '<w:fldChar w:fldCharType="begin"/>',
            1_000_000,
            before="<w:p><w:r>",
            after="</w:r></w:p>",
        )
    )


def style_chain(length: int = 10_000) -> bytes:
    """A `w:basedOn` chain `length` styles long ending in "heading 1", each style used by one
    paragraph."""
    styles = "".join(
        f'<w:style w:type="paragraph" w:styleId="s{i}"><w:name w:val="style {i}"/>'
        f'<w:basedOn w:val="s{i + 1}"/></w:style>'
        for i in range(length - 1)
    )
    styles += (
        f'<w:style w:type="paragraph" w:styleId="s{length - 1}"><w:name w:val="heading 1"/>'
        "</w:style>"
    )
    body = "".join(paragraph(f"p{i}", f'<w:pStyle w:val="s{i}"/>') for i in range(length))
    return docx_package(body, styles=styles)


def section_flood() -> bytes:
    """550,000 paragraphs each ending a section (under the XML node limit)."""
    return docx_package(streamed_body("<w:p><w:pPr><w:sectPr/></w:pPr></w:p>", 550_000))


CASES: list[HostileCase] = [
    HostileCase("docx/huge-grid-span", "grid-span.docx", huge_grid_span),
    HostileCase("docx/odd-table-numbers", "table-numbers.docx", odd_table_numbers),
    HostileCase(
        "docx/list-start-1e10-lower-letter", "letters.docx", list_start("lowerLetter", 10**10)
    ),
    HostileCase("docx/list-start-1e12-lower-roman", "roman.docx", list_start("lowerRoman", 10**12)),
    HostileCase("docx/list-letters-past-780", "letters-780.docx", list_start("lowerLetter", 780)),
    HostileCase("docx/list-start-not-a-number", "start-junk.docx", list_start("decimal", "1e9")),
    HostileCase("docx/huge-start-override", "start-override.docx", huge_start_override),
    HostileCase("docx/long-level-text", "level-text.docx", long_level_text),
    HostileCase("docx/huge-list-levels", "list-levels.docx", huge_list_levels),
    HostileCase("docx/numbering-style-chain", "num-style-chain.docx", numbering_style_chain),
    HostileCase("docx/symbols-outside-unicode", "symbols.docx", odd_symbols),
    HostileCase("docx/entity-reference-tail", "entity-tail.docx", entity_reference_tail),
    HostileCase("docx/entity-bomb-in-attribute", "entity-bomb.docx", entity_bomb_in_attribute),
    HostileCase("docx/paragraph-flood", "paragraph-flood.docx", paragraph_flood),
    HostileCase("docx/understated-part-size", "understated.docx", understated_part_size),
    HostileCase("docx/xml-node-flood", "node-flood.docx", xml_node_flood),
    HostileCase("docx/empty-cell-flood", "cell-flood.docx", empty_cell_flood),
    HostileCase("docx/element-flood", "element-flood.docx", element_flood),
    HostileCase("docx/run-flood", "run-flood.docx", run_flood),
    HostileCase("docx/link-url-amplification", "link-urls.docx", link_url_amplification),
    HostileCase("docx/nested-hyperlink-fields", "nested-links.docx", nested_hyperlink_fields),
    HostileCase(
        "docx/cell-with-many-paragraphs", "cell-paragraphs.docx", cell_with_many_paragraphs
    ),
    HostileCase("docx/footnote-chain", "footnote-chain.docx", footnote_chain),
    HostileCase("docx/deep-content-controls", "deep-sdt.docx", deep_content_controls),
    HostileCase("docx/huge-text-node", "text-node.docx", huge_text_node),
    HostileCase("docx/zip-entry-flood", "zip-entries.docx", zip_entry_flood),
    HostileCase("docx/lzma-part", "lzma.docx", lzma_part),
    HostileCase("docx/unsupported-zip-version", "zip-version.docx", unsupported_zip_version),
    HostileCase("docx/field-begin-flood", "field-flood.docx", field_begin_flood),
    HostileCase("docx/style-chain", "style-chain.docx", style_chain),
    HostileCase("docx/section-flood", "section-flood.docx", section_flood),
]
