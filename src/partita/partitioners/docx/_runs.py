"""The inline content of one paragraph: its displayed text, links, emphasis, breaks and notes.

`InlineReader.read(p)` walks a `w:p` once, in document order:

- run text (`w:t`), tabs as "\t", line breaks (`w:br`, `w:cr`, also page and column breaks) as
  "\n", non-breaking hyphens as "-", soft hyphens dropped, symbols (`w:sym`) kept unless they are
  private-use font glyphs (a code that is no character XML text may hold is dropped and counted
  as a loss); an entity reference inside text is not expanded (its replacement is dropped and
  counted as a loss) but the text around it is kept;
- fields keep their displayed result and drop their instruction (`w:instrText`); a HYPERLINK
  field's result is a link, as a `w:hyperlink` with an external target is; of links nested in
  one another only the outermost is kept (the others counted as losses), so each character is
  in at most one link;
- inserted (`w:ins`, `w:moveTo`) text is kept, deleted (`w:del`, `w:moveFrom`) text dropped;
  content controls, smart tags and custom XML are unwrapped, placeholder text of an empty content
  control is dropped; ruby keeps its base text; equations keep their `m:t` text;
- footnote and endnote reference marks are written "[1]" ("[i]" for endnotes) and recorded;
- text boxes (`w:txbxContent`, one branch of an `mc:AlternateContent` only) are recorded, for the
  caller to emit as blocks of their own;
- rendered (`w:lastRenderedPageBreak`) and hard (`w:br w:type="page"`) page breaks are counted
  as falling before the paragraph's first visible character or after it.

Bold and italic come from run properties and character styles (a heading's style-level bold is
not emphasis). Adjacent runs of the same emphasis merge into one emphasized text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from lxml import etree

from partita.partitioners.docx import _ns as ns
from partita.partitioners.docx._limits import Budget
from partita.partitioners.docx._losses import LossReport
from partita.partitioners.docx._styles import StyleSheet

__all__ = ["InlineReader", "InlineText", "iter_text_boxes"]

_W_TYPE = ns.w("type")
_W_CHAR = ns.w("char")
_W_FLD_CHAR_TYPE = ns.w("fldCharType")
_W_INSTR = ns.w("instr")
_W_ID = ns.w("id")
_B = ns.w("b")
_I = ns.w("i")
_R_STYLE = ns.w("rStyle")
_PTAB = ns.w("ptab")
_DEL_TEXT = ns.w("delText")
_FOOTNOTE_REF = ns.w("footnoteRef")
_ENDNOTE_REF = ns.w("endnoteRef")
_SDT_PR = ns.w("sdtPr")
_SHOWING_PLACEHOLDER = ns.w("showingPlcHdr")
_UNWRAPPED = frozenset((ns.INS, ns.MOVE_TO, ns.SMART_TAG, ns.CUSTOM_XML, ns.DIR, ns.BDO))
_HYPERLINK_FIELD = re.compile(r"^\s*HYPERLINK\b(.*)$", re.IGNORECASE | re.DOTALL)
_FIELD_TOKEN = re.compile(r'"([^"]*)"|(\S+)')

NoteMarker = Callable[[str, str], str]
"""Given ("footnote" | "endnote", note id), return the note's display mark ("1", "ii")."""


@dataclass(slots=True)
class InlineText:
    """The displayed content of a paragraph; offsets index into `text` (already stripped)."""

    text: str
    # -- plain `list` factories: calling a parametrized alias (`list[...]`) costs about 0.3 µs,
    # -- and one InlineText is made per paragraph --
    links: list[tuple[str, str, int]] = field(default_factory=list)
    """(text, url, start_index) of each link with visible text."""
    emphasis: list[tuple[str, str]] = field(default_factory=list)
    """(text, "b" | "i") of each emphasized stretch, in order."""
    breaks_before: int = 0
    """Page breaks before the first visible character."""
    breaks_after: int = 0
    """Page breaks after the first visible character."""
    note_refs: list[tuple[str, str]] = field(default_factory=list)
    boxes: list[etree._Element] = field(default_factory=list)
    """Text box contents (`w:txbxContent`) anchored in the paragraph."""


_EMPTY = InlineText("")
"""The content of a paragraph with nothing but properties (a document can hold millions)."""


class InlineReader:
    """Reads paragraphs of one part; `links` maps relationship ids to external URLs.

    `count_rendered` / `count_hard` say which page breaks to count (the document's page mode).
    `own_mark` is the mark a note's own reference (`w:footnoteRef`) shows while reading a note.
    Content left out is counted in `losses`; every paragraph read is a block of `budget`.
    """

    def __init__(
        self,
        styles: StyleSheet,
        links: Mapping[str, str],
        note_marker: NoteMarker | None = None,
        *,
        count_rendered: bool = False,
        count_hard: bool = False,
        losses: LossReport | None = None,
        budget: Budget | None = None,
    ) -> None:
        self.budget = budget if budget is not None else Budget("<document>")
        """The document's budget, which the table reader also counts rows and cells in."""
        self._styles = styles
        self._links = links
        self._note_marker = note_marker
        self._losses = losses if losses is not None else LossReport()
        self.count_rendered = count_rendered
        self.count_hard = count_hard
        self.own_mark: str | None = None
        self._parts: list[str] = []
        self._length = 0
        self._spans: list[tuple[int, int, str]] = []
        self._raw_links: list[tuple[int, int, str]] = []
        self._breaks: list[int] = []
        self._fields: list[list[object]] = []
        self._instr_depth = 0
        self._result: InlineText = InlineText("")

    def read(self, p: etree._Element) -> InlineText:
        """Return the inline content of the paragraph `p` (an empty one shares `_EMPTY`: treat
        the result as read-only)."""
        self.budget.spend_block()
        if not len(p) or (len(p) == 1 and p[0].tag == ns.PPR):
            return _EMPTY
        self._parts = []
        self._length = 0
        self._spans = []
        self._raw_links = []
        self._breaks = []
        self._fields = []
        self._instr_depth = 0
        self._result = result = InlineText("")
        self._walk(p)
        raw = "".join(self._parts)
        text = raw.strip()
        lead = len(raw) - len(raw.lstrip())
        result.text = text
        first_visible = lead if text else len(raw)
        for position in self._breaks:
            if position <= first_visible:
                result.breaks_before += 1
            else:
                result.breaks_after += 1
        if self._raw_links:
            self._add_links(raw, lead)
        for span_start, span_end, tag in self._spans:
            emphasized = raw[span_start:span_end].strip()
            if emphasized:
                result.emphasis.append((emphasized, tag))
        return result

    def _add_links(self, raw: str, lead: int) -> None:
        """Add the links with visible text to the result, with offsets into the stripped text."""
        kept_end = -1
        # -- links close inner first; by start (outer first at a tie), the nested ones overlap
        # -- the one kept before them: keeping each character in one link keeps output linear --
        for start, end, url in sorted(self._raw_links, key=lambda link: (link[0], -link[1])):
            if start < kept_end:
                self._losses.add("hyperlinks nested in another")
                continue
            shown = raw[start:end]
            stripped = shown.strip()
            if not stripped:
                continue
            kept_end = end
            offset = start + len(shown) - len(shown.lstrip()) - lead
            self._result.links.append((stripped, url, max(offset, 0)))

    def _append(self, text: str) -> None:
        if text and not self._instr_depth:
            self._parts.append(text)
            self._length += len(text)

    def _walk(self, el: etree._Element) -> None:
        for child in el:
            tag = child.tag
            if tag == ns.R:
                self._run(child)
            elif tag in _UNWRAPPED:
                self._walk(child)
            elif tag == ns.HYPERLINK:
                start = self._length
                self._walk(child)
                url = self._hyperlink_url(child)
                if url and self._length > start:
                    self._raw_links.append((start, self._length, url))
            elif tag == ns.SDT:
                self._content_control(child)
            elif tag == ns.FLD_SIMPLE:
                start = self._length
                self._walk(child)
                url = _field_url(child.get(_W_INSTR, ""))
                if url and self._length > start:
                    self._raw_links.append((start, self._length, url))
            elif tag == ns.M_OMATH_PARA or tag == ns.M_OMATH:
                self._append("".join(self._text_of(t) for t in child.iter(ns.M_T)))
            elif tag == ns.ALTERNATE_CONTENT:
                branch = _chosen_branch(child)
                if branch is not None:
                    self._walk(branch)
            elif tag == ns.RUBY:
                base = child.find(ns.RUBY_BASE)
                if base is not None:
                    self._walk(base)

    def _content_control(self, sdt: etree._Element) -> None:
        props = sdt.find(_SDT_PR)
        if props is not None and props.find(_SHOWING_PLACEHOLDER) is not None:
            return
        content = sdt.find(ns.SDT_CONTENT)
        if content is not None:
            self._walk(content)

    def _hyperlink_url(self, link: etree._Element) -> str | None:
        rel_id = link.get(ns.R_ID)
        if rel_id is None:
            return None
        url = self._links.get(rel_id)
        if url and (anchor := link.get(ns.w("anchor"))):
            url = f"{url}#{anchor}"
        return url

    def _run(self, r: etree._Element) -> None:
        bold = italic = False
        if len(r) and r[0].tag == ns.RPR:
            rpr = r[0]
            b, i = rpr.find(_B), rpr.find(_I)
            style = rpr.find(_R_STYLE)
            if style is not None and (b is None or i is None):
                style_bold, style_italic = self._styles.character(style.get(ns.W_VAL) or "")
                bold, italic = bool(style_bold), bool(style_italic)
            if b is not None:
                bold = ns.is_on(b)
            if i is not None:
                italic = ns.is_on(i)
        start = self._length
        for child in r:
            tag = child.tag
            if tag == ns.T:
                text = child.text if not len(child) else self._text_of(child)
                if text and not self._instr_depth:
                    self._parts.append(text)
                    self._length += len(text)
            elif tag == ns.TAB or tag == _PTAB:
                self._append("\t")
            elif tag == ns.BR:
                if child.get(_W_TYPE) == "page" and self.count_hard and not self._instr_depth:
                    self._breaks.append(self._length)
                self._append("\n")
            elif tag == ns.CR:
                self._append("\n")
            elif tag == ns.LAST_RENDERED_PAGE_BREAK:
                if self.count_rendered:
                    self._breaks.append(self._length)
            elif tag == ns.FLD_CHAR:
                self._field_char(child.get(_W_FLD_CHAR_TYPE))
            elif tag == ns.INSTR_TEXT:
                if self._fields and (text := self._text_of(child)):
                    instr = self._fields[-1][0]
                    assert isinstance(instr, list)
                    instr.append(text)
            elif tag == ns.NO_BREAK_HYPHEN:
                self._append("-")
            elif tag == ns.SYM:
                self._symbol(child.get(_W_CHAR, ""))
            elif tag == ns.FOOTNOTE_REFERENCE or tag == ns.ENDNOTE_REFERENCE:
                self._note_reference(
                    child, "footnote" if tag == ns.FOOTNOTE_REFERENCE else "endnote"
                )
            elif tag in (_FOOTNOTE_REF, _ENDNOTE_REF):
                if self.own_mark:
                    self._append(f"[{self.own_mark}]")
            elif tag == ns.DRAWING or tag == ns.PICT or tag == ns.OBJECT:
                iter_text_boxes(child, self._result.boxes)
            elif tag == ns.ALTERNATE_CONTENT:
                branch = _chosen_branch(child)
                if branch is not None:
                    iter_text_boxes(branch, self._result.boxes)
            elif tag == ns.RUBY:
                base = child.find(ns.RUBY_BASE)
                if base is not None:
                    self._walk(base)
        if (bold or italic) and self._length > start:
            if bold:
                self._add_span(start, "b")
            if italic:
                self._add_span(start, "i")

    def _text_of(self, el: etree._Element) -> str:
        """The text of the text element `el`. Children of a text element are entity references
        libxml2 kept unexpanded (expansion is refused): each is dropped and counted, the text
        after it (its tail) kept."""
        pieces = [el.text or ""]
        for ref in el:
            self._losses.add("unexpanded entity references")
            pieces.append(ref.tail or "")
        return "".join(pieces)

    def _symbol(self, code: str) -> None:
        """Append the symbol of hex `code` (`w:sym`'s `w:char`, ST_ShortHexNumber): a private-use
        font glyph has no character and is dropped; so is a code that is no character XML text
        may hold (counted as a loss, as is a code that is not a number)."""
        try:
            value = int(code, 16)
        except ValueError:
            self._losses.add("symbols without a character code")
            return
        if 0xE000 <= value <= 0xF8FF:
            return
        if (
            value in (0x9, 0xA, 0xD)
            or 0x20 <= value <= 0xD7FF
            or 0xF900 <= value <= 0xFFFD
            or 0x10000 <= value <= 0x10FFFF
        ):
            self._append(chr(value))
        else:
            self._losses.add("symbols that are not characters")

    def _add_span(self, start: int, tag: str) -> None:
        spans = self._spans
        for index in range(len(spans) - 1, max(len(spans) - 3, -1), -1):
            span_start, span_end, span_tag = spans[index]
            if span_tag == tag and span_end == start:
                spans[index] = (span_start, self._length, tag)
                return
        spans.append((start, self._length, tag))

    def _note_reference(self, ref: etree._Element, kind: str) -> None:
        note_id = ref.get(_W_ID)
        if note_id is None or self._note_marker is None:
            return
        self._append(f"[{self._note_marker(kind, note_id)}]")
        self._result.note_refs.append((kind, note_id))

    def _field_char(self, kind: str | None) -> None:
        if kind == "begin":
            self._fields.append([[], "instr", None])
            self._instr_depth += 1
        elif kind == "separate" and self._fields and self._fields[-1][1] == "instr":
            top = self._fields[-1]
            top[1] = "result"
            self._instr_depth -= 1
            instr = top[0]
            assert isinstance(instr, list)
            url = _field_url("".join(instr))
            if url:
                top[2] = (self._length, url)
        elif kind == "end" and self._fields:
            top = self._fields.pop()
            if top[1] == "instr":
                self._instr_depth -= 1
            elif isinstance(link := top[2], tuple) and self._length > link[0]:
                self._raw_links.append((link[0], self._length, link[1]))


def _field_url(instr: str) -> str | None:
    match = _HYPERLINK_FIELD.match(instr)
    if match is None:
        return None
    url: str | None = None
    anchor: str | None = None
    tokens = [
        m.group(1) if m.group(1) is not None else m.group(2)
        for m in _FIELD_TOKEN.finditer(match.group(1))
    ]
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.startswith("\\") and len(token) == 2:
            if token.lower() == "\\l" and i + 1 < len(tokens):
                anchor = tokens[i + 1]
            i += 2 if token.lower() in ("\\l", "\\o", "\\t") else 1
            continue
        if url is None:
            url = token
        i += 1
    if not url:
        return None
    return f"{url}#{anchor}" if anchor else url


def _chosen_branch(alternate: etree._Element) -> etree._Element | None:
    """The one branch of an `mc:AlternateContent` to read: the first Choice, else the Fallback."""
    choice = alternate.find(ns.MC_CHOICE)
    return choice if choice is not None else alternate.find(ns.MC_FALLBACK)


def iter_text_boxes(el: etree._Element, out: list[etree._Element]) -> None:
    """Append to `out` the outermost text box contents under `el`, reading one branch of each
    `mc:AlternateContent` (the other is a duplicate of the same box)."""
    for child in el:
        tag = child.tag
        if tag == ns.TXBX_CONTENT:
            out.append(child)
        elif tag == ns.ALTERNATE_CONTENT:
            branch = _chosen_branch(child)
            if branch is not None:
                iter_text_boxes(branch, out)
        elif isinstance(tag, str):
            iter_text_boxes(child, out)
