"""Paragraph and character styles, resolved once into plain values.

`StyleSheet` reads `styles.xml` and answers, per style id, what the partitioner needs: the
heading level a paragraph style gives (from its name, its `basedOn` chain, its outline level or
the caller's `heading_styles`), whether it is a list, TOC or caption style, its numbering, whether
it starts a new page, and the bold/italic a character style gives. Each style is resolved on
first use and cached, so a paragraph costs one dict lookup; an id the document does not define
is the default style (and is not cached on its own). A `basedOn` chain is followed for at most
`MAX_STYLE_CHAIN` styles, and cut where it repeats.

Heading names are matched after lower-casing and collapsing whitespace, in English and in the
localized names Word and WPS write ("标题 1", "標題 1", "Überschrift 1", "Titre 1", "Título 1",
"Заголовок 1", "見出し 1", ...); a style without a name is matched by its id ("Heading1").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from lxml import etree

from partita.partitioners.docx._limits import MAX_STYLE_CHAIN
from partita.partitioners.docx._ns import PPR, RPR, W_VAL, int_or_none, is_on, w

__all__ = ["ParagraphStyle", "StyleSheet", "normalize_style_name"]

_HEADING_WORDS = (
    "heading|标题|標題|überschrift|uberschrift|titre|título|titulo|заголовок|見出し|titolo|kop"
    "|nagłówek|rubrik|overskrift|otsikko|nadpis|címsor|başlık|제목|cabeçalho|encabezado"
)
_HEADING_NAME = re.compile(rf"^(?:{_HEADING_WORDS})\s*([1-9])$")
_TITLE_NAMES = frozenset(
    {"title", "标题", "標題", "titel", "titre", "título", "titulo", "заголовок", "表題", "titolo",
     "tytuł", "rubrik", "otsikko", "제목"}
)  # fmt: skip
_SUBTITLE_NAMES = frozenset(
    {"subtitle", "副标题", "副標題", "untertitel", "sous-titre", "subtítulo", "subtitulo",
     "подзаголовок", "副題", "sottotitolo", "podtytuł", "underrubrik", "alaotsikko", "부제"}
)  # fmt: skip
_TOC_HEADING_NAMES = frozenset(
    ("toc heading", "tocheading", "目录标题", "目錄標題", "inhaltsverzeichnisüberschrift")
)
_TOC_NAME = re.compile(r"^(?:toc|目录|目錄|verzeichnis|inhaltsverzeichnis|tm|目次)\s*([1-9])$")
_LIST_NAME = re.compile(
    r"^(?:list(?: bullet| number| continue| paragraph)?|列表(?:段落|项目符号|编号)?|列出段落)"
    r"\s*([1-9])?$"
)
_CAPTION_NAMES = frozenset(("caption", "题注", "題注", "beschriftung", "légende", "epígrafe"))


def normalize_style_name(name: str) -> str:
    """Return `name` lower-cased with runs of whitespace collapsed to one space."""
    return " ".join(name.lower().split())


@dataclass(frozen=True, slots=True)
class ParagraphStyle:
    """What a paragraph style (with everything it inherits) means for partitioning."""

    style_id: str
    name: str
    heading_level: int | None = None
    """The Title `category_depth` the style gives, or None when it is not a heading style."""
    toc_level: int | None = None
    """0-based level of a TOC entry style ("toc 1" is 0)."""
    list_level: int | None = None
    """0-based level of a list style ("List Bullet 2" is 1), None for other styles."""
    is_caption: bool = False
    num_id: str | None = None
    """The numbering instance the style applies, if any ("0" is stored as None)."""
    ilvl: int | None = None
    page_break_before: bool = False


@dataclass(frozen=True, slots=True)
class _OwnFacts:
    """What one style says by itself, without its `basedOn` chain: read once per style, as
    every style resolved walks its chain (up to `MAX_STYLE_CHAIN` styles) through these."""

    heading: int | None
    heading_decided: bool
    toc: int | None
    list_level: int | None
    caption: bool
    num_id: str | None
    ilvl: int | None
    page_break_before: bool | None
    bold: bool | None
    italic: bool | None


@dataclass(slots=True)
class _RawStyle:
    style_id: str
    kind: str
    name: str
    based_on: str | None
    element: etree._Element


class StyleSheet:
    """The styles of one document, resolved on demand.

    `heading_styles` maps further style names (or ids) to a heading `category_depth`; it is
    matched before the built-in rules, and styles based on a mapped style inherit its level.
    """

    def __init__(
        self, root: etree._Element | None, heading_styles: Mapping[str, int] | None = None
    ) -> None:
        self._raw: dict[str, _RawStyle] = {}
        self._default_paragraph: str | None = None
        self._custom = {normalize_style_name(k): v for k, v in (heading_styles or {}).items()}
        self._paragraph_cache: dict[str | None, ParagraphStyle] = {}
        self._character_cache: dict[str, tuple[bool | None, bool | None]] = {}
        self._own_facts: dict[str, _OwnFacts] = {}
        if root is None:
            return
        for el in root.iter(w("style")):
            style_id = el.get(w("styleId"))
            if not style_id:
                continue
            name_el = el.find(w("name"))
            based_el = el.find(w("basedOn"))
            kind = el.get(w("type"), "paragraph")
            raw = _RawStyle(
                style_id,
                kind,
                (name_el.get(W_VAL) or "") if name_el is not None else "",
                based_el.get(W_VAL) if based_el is not None else None,
                el,
            )
            self._raw.setdefault(style_id, raw)
            if kind == "paragraph" and el.get(w("default")) in ("1", "true", "on"):
                self._default_paragraph = style_id

    @cached_property
    def numbering_style_nums(self) -> dict[str, str]:
        """Numbering styles' ids to the numbering instance (`numId`) they carry."""
        out: dict[str, str] = {}
        for raw in self._raw.values():
            if raw.kind == "numbering":
                num_id, _ = _own_num_pr(raw.element)
                if num_id:
                    out[raw.style_id] = num_id
        return out

    @cached_property
    def any_page_break_before(self) -> bool:
        """True when some paragraph style turns on "page break before"."""
        return any(
            raw.kind == "paragraph" and _own_ppr_flag(raw.element, "pageBreakBefore") is True
            for raw in self._raw.values()
        )

    def paragraph(self, style_id: str | None) -> ParagraphStyle:
        """Return the resolved paragraph style `style_id` (the default style when None/unknown)."""
        if style_id is not None and style_id not in self._raw:
            style_id = None  # -- one cache entry for every unknown id --
        cached = self._paragraph_cache.get(style_id)
        if cached is None:
            cached = self._resolve_paragraph(style_id)
            self._paragraph_cache[style_id] = cached
        return cached

    def character(self, style_id: str) -> tuple[bool | None, bool | None]:
        """Return (bold, italic) as the character style `style_id` sets them (None: unset)."""
        if style_id not in self._raw:
            return (None, None)
        cached = self._character_cache.get(style_id)
        if cached is None:
            bold: bool | None = None
            italic: bool | None = None
            for raw in self._chain(style_id):
                facts = self._facts(raw)
                if bold is None:
                    bold = facts.bold
                if italic is None:
                    italic = facts.italic
            cached = (bold, italic)
            self._character_cache[style_id] = cached
        return cached

    def _chain(self, style_id: str | None) -> list[_RawStyle]:
        chain: list[_RawStyle] = []
        seen: set[str] = set()
        while style_id and style_id not in seen and len(chain) < MAX_STYLE_CHAIN:
            seen.add(style_id)
            raw = self._raw.get(style_id)
            if raw is None:
                break
            chain.append(raw)
            style_id = raw.based_on
        return chain

    def _resolve_paragraph(self, style_id: str | None) -> ParagraphStyle:
        if style_id is None or style_id not in self._raw:
            style_id = self._default_paragraph
        chain = self._chain(style_id)
        if not chain:
            return ParagraphStyle(style_id or "", "")
        first = chain[0]
        facts = [self._facts(raw) for raw in chain]
        heading: int | None = None
        toc: int | None = None
        list_level: int | None = None
        caption = False
        for own in facts:
            if own.heading_decided:
                heading = own.heading
                break
            if toc is None:
                toc = own.toc
            if list_level is None:
                list_level = own.list_level
            caption = caption or own.caption
        num_id: str | None = None
        ilvl: int | None = None
        page_break_before = False
        for own in facts:
            if own.num_id is not None:
                num_id = None if own.num_id == "0" else own.num_id
                ilvl = own.ilvl
                break
        for own in facts:
            if own.page_break_before is not None:
                page_break_before = own.page_break_before
                break
        return ParagraphStyle(
            first.style_id,
            first.name,
            heading_level=heading,
            toc_level=None if heading is not None else toc,
            list_level=None if heading is not None else list_level,
            is_caption=heading is None and caption,
            num_id=num_id,
            ilvl=ilvl,
            page_break_before=page_break_before,
        )

    def _facts(self, raw: _RawStyle) -> _OwnFacts:
        facts = self._own_facts.get(raw.style_id)
        if facts is None:
            name = normalize_style_name(raw.name) or raw.style_id.lower()
            heading, decided = self._heading_rule(raw, name)
            toc_match = _TOC_NAME.match(name)
            list_match = _LIST_NAME.match(name)
            num_id, ilvl = _own_num_pr(raw.element)
            rpr = raw.element.find(RPR)
            b = rpr.find(w("b")) if rpr is not None else None
            i = rpr.find(w("i")) if rpr is not None else None
            facts = _OwnFacts(
                heading=heading,
                heading_decided=decided,
                toc=int(toc_match.group(1)) - 1 if toc_match else None,
                list_level=(
                    (int(list_match.group(1)) - 1 if list_match.group(1) else 0)
                    if list_match
                    else None
                ),
                caption=name in _CAPTION_NAMES,
                num_id=num_id,
                ilvl=ilvl,
                page_break_before=_own_ppr_flag(raw.element, "pageBreakBefore"),
                bold=None if b is None else is_on(b),
                italic=None if i is None else is_on(i),
            )
            self._own_facts[raw.style_id] = facts
        return facts

    def _heading_rule(self, raw: _RawStyle, name: str) -> tuple[int | None, bool]:
        """Return (level, decided): whether this style in a chain settles the heading question."""
        for key in (name, raw.style_id.lower()):
            if key in self._custom:
                return self._custom[key], True
        if (m := _HEADING_NAME.match(name)) or (m := _HEADING_NAME.match(raw.style_id.lower())):
            return int(m.group(1)) - 1, True
        if name in _TITLE_NAMES or name in _TOC_HEADING_NAMES:
            return 0, True
        if name in _SUBTITLE_NAMES:
            return 1, True
        ppr = raw.element.find(PPR)
        if ppr is not None and (outline := ppr.find(w("outlineLvl"))) is not None:
            level = int_or_none(outline.get(W_VAL))
            return (level if level is not None and 0 <= level <= 8 else None), True
        return None, False


def _own_num_pr(style: etree._Element) -> tuple[str | None, int | None]:
    ppr = style.find(PPR)
    if ppr is None:
        return None, None
    num_pr = ppr.find(w("numPr"))
    if num_pr is None:
        return None, None
    num_el = num_pr.find(w("numId"))
    ilvl_el = num_pr.find(w("ilvl"))
    num_id = num_el.get(W_VAL) if num_el is not None else None
    return num_id, int_or_none(ilvl_el.get(W_VAL)) if ilvl_el is not None else None


def _own_ppr_flag(style: etree._Element, local: str) -> bool | None:
    ppr = style.find(PPR)
    if ppr is None:
        return None
    el = ppr.find(w(local))
    return None if el is None else is_on(el)
