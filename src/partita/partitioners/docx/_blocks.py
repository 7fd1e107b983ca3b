"""The body walk: block-level content (paragraphs, tables, content controls) to element drafts.

`BlockWalker.iter_drafts(container)` walks the children of a body, cell, text box, note or
header in document order. Each non-empty paragraph becomes one draft, classified by structure
only (see the package's PRINCIPLES); each table one `Table` draft. Text boxes anchored in a
paragraph follow it, then the notes it references (a note cited inside a note follows the whole
citing note). An altChunk gives the elements of the part it imports, in its place (`_altchunks`),
on the page where it stands. Page numbers and section breaks are tracked only for the main flow
(not inside text boxes, notes or headers).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from lxml import etree

from partita.elements import (
    Element,
    FigureCaption,
    Link,
    ListItem,
    NarrativeText,
    PageBreak,
    Table,
    Text,
    Title,
)
from partita.partitioners._build import Draft
from partita.partitioners.docx import _ns as ns
from partita.partitioners.docx._limits import MAX_LIST_LEVEL, clamp
from partita.partitioners.docx._notes import NoteStore
from partita.partitioners.docx._ns import int_or_none
from partita.partitioners.docx._numbering import Label, Numbering
from partita.partitioners.docx._pages import PageCounter, section_start_type
from partita.partitioners.docx._runs import InlineReader, InlineText
from partita.partitioners.docx._styles import ParagraphStyle, StyleSheet
from partita.partitioners.docx._tables import read_table

if TYPE_CHECKING:
    from partita.partitioners.docx._altchunks import AltChunkReader

__all__ = ["BlockWalker"]

_P_STYLE = ns.w("pStyle")
_NUM_PR = ns.w("numPr")
_NUM_ID = ns.w("numId")
_ILVL = ns.w("ilvl")
_OUTLINE_LVL = ns.w("outlineLvl")
_PAGE_BREAK_BEFORE = ns.w("pageBreakBefore")
_TYPED_BULLET = re.compile(r"^[•●○◦▪▫■□‣⁃∙◆◇►▸▹❖➢➤✓✔·][ \t\u00a0\u3000]+(?=\S)")
"""A bullet typed into a paragraph's text (no list numbering behind it)."""
_LETTER_CANDIDATE = re.compile(r"[^\W\d_]")
"""Word characters that are not decimal digits: every letter, and a few numeric characters."""


class BlockWalker:
    """Turns the block content of one document into drafts, keeping list and page state."""

    def __init__(
        self,
        styles: StyleSheet,
        numbering: Numbering,
        reader: InlineReader,
        notes: NoteStore | None = None,
        pages: PageCounter | None = None,
        sections: list[etree._Element] | None = None,
        *,
        include_page_breaks: bool = False,
        alt_chunks: Mapping[str, AltChunkReader] | None = None,
    ) -> None:
        """`alt_chunks` reads the altChunks of each story: "body" (the container walked, and its
        text boxes), "footnote" and "endnote" (the notes parts); a story without one gives
        nothing for its altChunks."""
        self._styles = styles
        self._numbering = numbering
        self._reader = reader
        self._notes = notes
        self._in_note = False
        self._cited_in_note: list[tuple[str, str]] = []
        self._pages = pages
        self._sections = sections or []
        self._section_index = 0
        self._include_page_breaks = include_page_breaks
        self._alt_chunks = alt_chunks or {}
        self._story = "body"
        self._in_flow = pages is not None
        if pages is not None:
            reader.count_rendered = pages.rendered
            reader.count_hard = not pages.rendered

    def iter_drafts(self, container: etree._Element) -> Iterator[Draft]:
        """Generate the drafts of the block content of `container`, in document order."""
        for child in container:
            tag = child.tag
            if tag == ns.P:
                yield from self._paragraph(child)
            elif tag == ns.TBL:
                yield from self._table(child)
            elif tag == ns.SDT:
                content = child.find(ns.SDT_CONTENT)
                if content is not None:
                    yield from self.iter_drafts(content)
            elif tag in ns.BLOCK_WRAPPERS:
                yield from self.iter_drafts(child)
            elif tag == ns.ALTERNATE_CONTENT:
                branch = child.find(ns.MC_CHOICE)
                if branch is None:
                    branch = child.find(ns.MC_FALLBACK)
                if branch is not None:
                    yield from self.iter_drafts(branch)
            elif tag == ns.ALT_CHUNK:
                yield from self._alt_chunk(child)

    # -- paragraphs --

    def _paragraph(self, p: etree._Element) -> Iterator[Draft]:
        # -- `w:pPr` comes first in a paragraph (CT_P); `find` would cost a path lookup --
        ppr = p[0] if len(p) and p[0].tag == ns.PPR else None
        style_id = direct_outline = num_id = None
        ilvl: int | None = None
        page_break_before: bool | None = None
        sect_pr = None
        if ppr is not None:
            for prop in ppr:
                tag = prop.tag
                if tag == _P_STYLE:
                    style_id = prop.get(ns.W_VAL)
                elif tag == _NUM_PR:
                    num_el, ilvl_el = prop.find(_NUM_ID), prop.find(_ILVL)
                    num_id = num_el.get(ns.W_VAL) if num_el is not None else None
                    ilvl = int_or_none(ilvl_el.get(ns.W_VAL)) if ilvl_el is not None else None
                elif tag == _OUTLINE_LVL:
                    direct_outline = int_or_none(prop.get(ns.W_VAL))
                elif tag == _PAGE_BREAK_BEFORE:
                    page_break_before = ns.is_on(prop)
                elif tag == ns.SECT_PR:
                    sect_pr = prop
        style = self._styles.paragraph(style_id)
        inline = self._reader.read(p)

        pages = self._pages if self._in_flow else None
        if pages is not None:
            breaks = inline.breaks_before
            if not pages.rendered and (
                page_break_before if page_break_before is not None else style.page_break_before
            ):
                breaks += 1 if pages.has_content else 0
            if breaks:
                yield from self._page_breaks(breaks)

        # -- `numId` 0 on the paragraph removes its style's numbering: Word shows no label, and
        # -- the paragraph is not a list item even in a list style --
        unnumbered = num_id == "0"
        if num_id is None:
            num_id = style.num_id
            if ilvl is None:
                ilvl = style.ilvl
        depth = ilvl if ilvl is not None else style.list_level
        if num_id is not None and ilvl is None:
            ilvl = self._numbering.style_levels.get(style.style_id)
        label = self._numbering.label(num_id, ilvl or 0) if num_id and num_id != "0" else None
        if depth is None:
            depth = ilvl
        if depth is not None:  # -- a level read from the document: Word's are 0-8 --
            depth = clamp(depth, 0, MAX_LIST_LEVEL)

        if inline.text:
            yield self._paragraph_draft(inline, style, direct_outline, label, depth, unnumbered)
            if pages is not None:
                pages.has_content = True
        # -- most paragraphs have no breaks, boxes or notes: skip the generators --
        if pages is not None and inline.breaks_after:
            yield from self._page_breaks(inline.breaks_after)
        if inline.boxes:
            yield from self._iter_boxes(inline.boxes)
        if inline.note_refs:
            yield from self._iter_notes(inline.note_refs)
        if sect_pr is not None and self._in_flow:
            yield from self._section_break()

    def _paragraph_draft(
        self,
        inline: InlineText,
        style: ParagraphStyle,
        direct_outline: int | None,
        label: Label | None,
        list_depth: int | None,
        unnumbered: bool = False,
    ) -> Draft:
        """Return the draft of a non-empty paragraph; `list_depth` is its list level, if any;
        `unnumbered` when the paragraph itself removes numbering (`numId` 0)."""
        text = inline.text
        links = inline.links
        heading = style.heading_level
        if direct_outline is not None and 0 <= direct_outline <= 8 and heading is None:
            heading = direct_outline
        cls: type[Element]
        depth: int | None = None
        if label is not None and label.text and not label.is_bullet:
            prefix = label.text + label.separator
            text = prefix + text
            links = [(t, u, s + len(prefix)) for t, u, s in links]
        if heading is not None:
            cls, depth = Title, heading
        elif style.toc_level is not None:
            cls, depth = ListItem, style.toc_level
        elif label is not None or (style.list_level is not None and not unnumbered):
            cls, depth = ListItem, list_depth or 0
        elif (bullet := _TYPED_BULLET.match(text)) is not None:
            cut = bullet.end()
            cls, depth, text = ListItem, 0, text[cut:]
            links = [(t, u, max(s - cut, 0)) for t, u, s in links]
        elif style.is_caption:
            cls = FigureCaption
        elif _has_letter(text):
            cls = NarrativeText
        else:
            cls = Text
        meta = self._common_meta()
        if depth is not None:
            meta["category_depth"] = depth
        _add_inline_meta(meta, links, inline.emphasis)
        return Draft(cls, text, meta)

    # -- tables, boxes, notes --

    def _table(self, tbl: etree._Element) -> Iterator[Draft]:
        content = read_table(tbl, self._reader, alt_chunk=self._alt_chunk_drafts)
        if content.text:
            meta = self._common_meta()
            meta["text_as_html"] = content.html
            _add_inline_meta(meta, content.links, content.emphasis)
            yield Draft(Table, content.text, meta)
            if self._pages is not None and self._in_flow:
                self._pages.has_content = True
        if self._in_flow and content.breaks:
            yield from self._page_breaks(content.breaks)
        if content.note_refs:
            yield from self._iter_notes(content.note_refs)

    def _alt_chunk_drafts(self, alt_chunk: etree._Element) -> list[Draft]:
        """The drafts of the part `alt_chunk` imports into the current story (none if it has no
        reader)."""
        reader = self._alt_chunks.get(self._story)
        return reader.read(alt_chunk) if reader is not None else []

    def _alt_chunk(self, alt_chunk: etree._Element) -> Iterator[Draft]:
        drafts = self._alt_chunk_drafts(alt_chunk)
        if not drafts:
            return
        page = self._pages.number if self._pages is not None else None
        for draft in drafts:
            if page is None:
                draft.meta.pop("page_number", None)
            else:
                draft.meta["page_number"] = page
            yield draft
        if self._pages is not None and self._in_flow:
            self._pages.has_content = True

    def _iter_boxes(self, boxes: list[etree._Element]) -> Iterator[Draft]:
        for box in boxes:
            yield from self._out_of_flow(box, None)

    def _iter_notes(self, refs: list[tuple[str, str]]) -> Iterator[Draft]:
        """Generate the notes `refs` cite. Notes cited inside a note follow that note, from one
        queue: a chain of notes citing notes is as long as the document makes it, and must not
        nest generators as deep."""
        if self._notes is None:
            return
        if self._in_note:
            self._cited_in_note.extend(refs)
            return
        queue = deque(refs)
        self._in_note = True
        try:
            while queue:
                kind, note_id = queue.popleft()
                note = self._notes.take(kind, note_id)
                if note is not None:
                    self._story = kind  # -- its altChunks resolve in the notes part --
                    yield from self._out_of_flow(note, self._notes.mark(kind, note_id))
                    self._story = "body"
                    queue.extend(self._cited_in_note)
                    self._cited_in_note.clear()
        finally:
            self._in_note = False
            self._story = "body"
            self._cited_in_note.clear()

    def _out_of_flow(self, container: etree._Element, own_mark: str | None) -> Iterator[Draft]:
        saved = (self._in_flow, self._reader.count_rendered, self._reader.count_hard)
        saved_mark = self._reader.own_mark
        self._in_flow = False
        self._reader.count_rendered = self._reader.count_hard = False
        self._reader.own_mark = own_mark
        try:
            for draft in self.iter_drafts(container):
                self._reader.own_mark = None
                yield draft
        finally:
            self._in_flow, self._reader.count_rendered, self._reader.count_hard = saved
            self._reader.own_mark = saved_mark

    # -- pages --

    def _common_meta(self) -> dict[str, Any]:
        meta: dict[str, Any] = {"detection_origin": "docx"}
        if self._pages is not None and (number := self._pages.number) is not None:
            meta["page_number"] = number
        return meta

    def _page_breaks(self, count: int) -> Iterator[Draft]:
        pages = self._pages
        if pages is None or count <= 0:
            return
        for _ in range(count):
            if self._include_page_breaks and pages.enabled:
                yield Draft(PageBreak, "", self._common_meta())
            pages.advance()

    def _section_break(self) -> Iterator[Draft]:
        self._section_index += 1
        pages = self._pages
        if pages is None or self._section_index >= len(self._sections):
            return
        count = pages.section_break(section_start_type(self._sections[self._section_index]))
        yield from self._page_breaks(count)


def _has_letter(text: str) -> bool:
    """True when `text` has a letter (`str.isalpha`), found at regex speed: a paragraph can
    hold millions of characters without one."""
    first = _LETTER_CANDIDATE.search(text)
    if first is None:
        return False
    return first.group().isalpha() or any(
        m.group().isalpha() for m in _LETTER_CANDIDATE.finditer(text, first.end())
    )


def _add_inline_meta(
    meta: dict[str, Any], links: list[tuple[str, str, int]], emphasis: list[tuple[str, str]]
) -> None:
    if links:
        meta["links"] = tuple(Link(t, u, s) for t, u, s in links)
        meta["link_texts"] = tuple(t for t, _, _ in links)
        meta["link_urls"] = tuple(u for _, u, _ in links)
    if emphasis:
        meta["emphasized_text_contents"] = tuple(t for t, _ in emphasis)
        meta["emphasized_text_tags"] = tuple(tag for _, tag in emphasis)
