"""One .docx read for partitioning: its parts loaded once and walked into element drafts.

`iter_document_drafts` is the whole pipeline after the package is open: styles, numbering,
hyperlink targets, notes and settings are read once into plain lookups; the body is walked in
order (`_blocks`); headers and footers follow the body (`_furniture`). Every block walked and
every draft given is counted against the document's budget (`_limits.Budget`), and what had to be
left out is reported in one warning when the document is done (`_losses`). Documents imported by
altChunks are read by the same pipeline, one level deeper, sharing the host's loss report and
bounds (`_altchunks`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from lxml import etree

from partita.errors import DocumentError
from partita.partitioners._build import Draft
from partita.partitioners.docx import _ns as ns
from partita.partitioners.docx._altchunks import AltChunkReader, Imports
from partita.partitioners.docx._blocks import BlockWalker
from partita.partitioners.docx._furniture import iter_furniture_drafts
from partita.partitioners.docx._limits import Budget, draft_chars
from partita.partitioners.docx._losses import LossReport
from partita.partitioners.docx._notes import NoteStore
from partita.partitioners.docx._numbering import Numbering
from partita.partitioners.docx._package import DocxPackage, Relationship
from partita.partitioners.docx._pages import PageCounter
from partita.partitioners.docx._runs import InlineReader
from partita.partitioners.docx._styles import StyleSheet

__all__ = ["iter_document_drafts"]

_REL_BASE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_STRICT_REL_BASE = "http://purl.oclc.org/ooxml/officeDocument/relationships/"


def iter_document_drafts(
    package: DocxPackage,
    *,
    heading_styles: Mapping[str, int] | None = None,
    include_page_breaks: bool = False,
    include_headers_footers: bool = True,
    starting_page_number: int = 1,
    imports: Imports | None = None,
    depth: int = 0,
) -> Iterator[Draft]:
    """Generate the drafts of the document in `package`: body, then headers and footers.

    Raises `DocumentLimitError` when the document passes `MAX_BLOCKS`, `MAX_ELEMENTS` or
    `MAX_OUTPUT_CHARS`; warns (`DocxContentWarning`) after the last draft when content was left
    out. `imports` and `depth` are given for a document imported into another (`depth` levels
    down): its losses go into the host's report, which the host reports.
    """
    host = imports is None
    if imports is None:
        imports = Imports(package.name, LossReport(), _read_imported(heading_styles))
    budget = Budget(package.name)
    for draft in _iter_drafts(
        package,
        imports,
        budget,
        depth,
        heading_styles=heading_styles,
        include_page_breaks=include_page_breaks,
        include_headers_footers=include_headers_footers,
        starting_page_number=starting_page_number,
    ):
        budget.spend_element(draft_chars(draft))
        yield draft
    if host:
        imports.losses.warn(package.name)


def _read_imported(
    heading_styles: Mapping[str, int] | None,
) -> Callable[[DocxPackage, Imports, int], Iterator[Draft]]:
    """The partitioner of imported documents: their body only, with the host's heading styles."""

    def read(package: DocxPackage, imports: Imports, depth: int) -> Iterator[Draft]:
        return iter_document_drafts(
            package,
            heading_styles=heading_styles,
            include_headers_footers=False,
            imports=imports,
            depth=depth,
        )

    return read


def _iter_drafts(
    package: DocxPackage,
    imports: Imports,
    budget: Budget,
    depth: int,
    *,
    heading_styles: Mapping[str, int] | None,
    include_page_breaks: bool,
    include_headers_footers: bool,
    starting_page_number: int,
) -> Iterator[Draft]:
    root = package.parse(package.main_part)
    body = root.find(ns.BODY)
    if body is None:
        raise DocumentError(
            f"not a WordprocessingML document: {package.main_part} has no w:body "
            f"(root is {etree.QName(root).localname})",
            filename=package.name,
        )
    losses = imports.losses
    rels = package.relationships(package.main_part)
    parts = _parts_by_type(rels)

    def alt_chunks(part: str, part_rels: dict[str, Relationship] | None = None) -> AltChunkReader:
        return AltChunkReader(imports, package, part, budget, depth, rels=part_rels)

    stories = {"body": alt_chunks(package.main_part, rels)}
    for kind in ("footnote", "endnote"):
        if (notes_part := parts.get(kind + "s")) is not None:
            stories[kind] = alt_chunks(notes_part)
    styles = StyleSheet(package.parse_optional(parts.get("styles")), heading_styles)
    numbering = Numbering(
        package.parse_optional(parts.get("numbering")), styles.numbering_style_nums, losses
    )
    notes = NoteStore(
        package.parse_optional(parts.get("footnotes")),
        package.parse_optional(parts.get("endnotes")),
    )
    links = {rel_id: rel.target for rel_id, rel in rels.items() if rel.is_external}
    sections = _sections(body)
    pages = PageCounter(body, styles, sections, starting_page_number)
    reader = InlineReader(styles, links, notes.mark, losses=losses, budget=budget)
    walker = BlockWalker(
        styles,
        numbering,
        reader,
        notes,
        pages,
        sections,
        include_page_breaks=include_page_breaks,
        alt_chunks=stories,
    )
    yield from walker.iter_drafts(body)
    if not include_headers_footers:
        return
    settings = package.parse_optional(parts.get("settings"))
    even_and_odd = settings is not None and ns.is_on(settings.find(ns.w("evenAndOddHeaders")))

    def read_part_text(part: str) -> str:
        part_root = package.parse_optional(part)
        if part_root is None:
            return ""
        part_rels = package.relationships(part)
        part_links = {rel_id: rel.target for rel_id, rel in part_rels.items() if rel.is_external}
        part_reader = InlineReader(styles, part_links, losses=losses, budget=budget)
        part_walker = BlockWalker(
            styles, numbering, part_reader, alt_chunks={"body": alt_chunks(part, part_rels)}
        )
        return "\n".join(d.text for d in part_walker.iter_drafts(part_root) if d.text)

    yield from iter_furniture_drafts(sections, rels, even_and_odd, read_part_text)


def _parts_by_type(rels: dict[str, Relationship]) -> dict[str, str]:
    """The main part's related parts by short type name ("styles", "numbering", ...)."""
    out: dict[str, str] = {}
    for rel in rels.values():
        if rel.is_external:
            continue
        for base in (_REL_BASE, _STRICT_REL_BASE):
            if rel.type.startswith(base):
                out.setdefault(rel.type[len(base) :], rel.target)
    return out


def _sections(body: etree._Element) -> list[etree._Element]:
    """The section properties of the body in order: those ending a section inside the body
    (in a paragraph's properties), then the body's own final one."""
    sections = [
        sect
        for sect in body.iter(ns.SECT_PR)
        if (parent := sect.getparent()) is not None
        and (parent.tag == ns.BODY or (parent.tag == ns.PPR and _is_paragraph(parent.getparent())))
    ]
    final = [s for s in sections if s.getparent() is body]
    return [s for s in sections if s.getparent() is not body] + final


def _is_paragraph(el: etree._Element | None) -> bool:
    return el is not None and el.tag == ns.P
