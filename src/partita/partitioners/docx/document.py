"""One .docx read for partitioning: its parts loaded once and walked into element drafts.

`iter_document_drafts` is the whole pipeline after the package is open: styles, numbering,
hyperlink targets, notes and settings are read once into plain lookups; the body is walked in
order (`blocks`); headers and footers follow the body (`furniture`). Every block walked and
every draft given is counted against the document's budget (`limits.Budget`), and what had to be
left out is reported in one warning when the document is done (`losses`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from lxml import etree

from partita.elements import Link
from partita.errors import DocumentError
from partita.partitioners._build import Draft
from partita.partitioners.docx import _ns as ns
from partita.partitioners.docx._package import DocxPackage, Relationship
from partita.partitioners.docx.blocks import BlockWalker
from partita.partitioners.docx.furniture import iter_furniture_drafts
from partita.partitioners.docx.limits import Budget
from partita.partitioners.docx.losses import LossReport
from partita.partitioners.docx.notes import NoteStore
from partita.partitioners.docx.numbering import Numbering
from partita.partitioners.docx.pages import PageCounter
from partita.partitioners.docx.runs import InlineReader
from partita.partitioners.docx.styles import StyleSheet

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
) -> Iterator[Draft]:
    """Generate the drafts of the document in `package`: body, then headers and footers.

    Raises `DocumentLimitError` when the document passes `MAX_BLOCKS`, `MAX_ELEMENTS` or
    `MAX_OUTPUT_CHARS`; warns (`DocxContentWarning`) after the last draft when content was left
    out.
    """
    losses = LossReport()
    budget = Budget(package.name)
    for draft in _iter_drafts(
        package,
        losses,
        budget,
        heading_styles=heading_styles,
        include_page_breaks=include_page_breaks,
        include_headers_footers=include_headers_footers,
        starting_page_number=starting_page_number,
    ):
        budget.spend_element(_output_chars(draft))
        yield draft
    losses.warn(package.name)


def _iter_drafts(
    package: DocxPackage,
    losses: LossReport,
    budget: Budget,
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
    rels = package.relationships(package.main_part)
    parts = _parts_by_type(rels)
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
        part_links = {
            rel_id: rel.target
            for rel_id, rel in package.relationships(part).items()
            if rel.is_external
        }
        part_reader = InlineReader(styles, part_links, losses=losses, budget=budget)
        part_walker = BlockWalker(styles, numbering, part_reader)
        return "\n".join(d.text for d in part_walker.iter_drafts(part_root) if d.text)

    yield from iter_furniture_drafts(sections, rels, even_and_odd, read_part_text)


def _output_chars(draft: Draft) -> int:
    """The characters `draft` adds to the output: text, HTML, link texts and URLs (each twice:
    in `links` and in `link_texts` / `link_urls`), emphasized texts."""
    meta = draft.meta
    chars = len(draft.text) + len(meta.get("text_as_html", ""))
    links: Iterable[Link] = meta.get("links", ())
    for link in links:
        chars += 2 * (len(link.text or "") + len(link.url))
    for text in meta.get("emphasized_text_contents", ()):
        chars += len(text)
    return chars


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
