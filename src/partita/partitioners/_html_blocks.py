"""One walk over a parsed HTML tree, generating element drafts in reading order.

The rules are stated in `partita.partitioners.html`'s PRINCIPLES; this module carries them out:
blocks delimit elements, inline descendants feed a `Phrase`, tables, `<pre>` and images are taken
whole, and context (kind, list depth, page number, language) is inherited down the tree. A
navigation region (`_html_navigation`) is one `Phrase`: its blocks, table cells included, are
its lines, and it becomes one `Navigation` draft.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

from lxml import etree

from partita.elements import (
    CodeSnippet,
    Element,
    FigureCaption,
    Image,
    ListItem,
    NarrativeText,
    Navigation,
    Table,
    Text,
    Title,
)
from partita.partitioners._build import Draft
from partita.partitioners._html_headings import bold_heading_depth, is_bold_style
from partita.partitioners._html_lang import language_codes
from partita.partitioners._html_navigation import starts_navigation
from partita.partitioners._html_phrase import Phrase
from partita.partitioners._html_tables import table_content
from partita.partitioners._text import BULLET_LINE
from partita.text._whitespace import strip_not_text

__all__ = ["DROPPED_TAGS", "iter_tree_drafts"]

DROPPED_TAGS = (
    "script",
    "style",
    "noscript",
    "template",
    "head",
    "title",
    "meta",
    "link",
    "base",
    "del",
    "svg",
    "canvas",
    "iframe",
    "object",
    "embed",
    "video",
    "audio",
    "button",
    "select",
    "textarea",
    "input",
    "datalist",
    "map",
)
"""Elements removed with their content (their tail text is kept): not rendered as text."""

_HEADINGS = {"h1": 0, "h2": 1, "h3": 2, "h4": 3, "h5": 4, "h6": 5}
_LISTS = frozenset({"ul", "ol", "dl", "menu", "dir"})
_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "body", "center", "dd", "details",
        "dialog", "div", "dt", "fieldset", "figcaption", "figure", "footer", "form", "header",
        "hgroup", "hr", "html", "legend", "li", "main", "nav", "p", "section", "summary", "caption",
        "tr", "td", "th", "thead", "tbody", "tfoot", "option", "search",
    }
    | _HEADINGS.keys()
    | _LISTS
)  # fmt: skip
_WHOLE = frozenset({"table", "pre"})
"""Elements taken whole, except inside navigation, where their blocks are lines like any other."""
_MAX_FOSTERED_DEPTH = 32
"""Walks of misplaced table content nested in one another (each a few Python frames); deeper,
the misplaced element's text is taken whole, so no markup can exhaust the recursion limit."""
_MAX_PAGE_NUMBER = 2**31 - 1
"""A `data-page-number` beyond a 32-bit integer is no page number (JSON readers refuse integers
past 64 bits): it is ignored, and the page inherited."""
_BOLD = frozenset({"b", "strong"})
_ITALIC = frozenset({"i", "em"})
_HIDING_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)

# -- kinds of block context; an untyped block (div, p, section, ...) inherits its parent's --
_TEXT, _TITLE, _ITEM, _CAPTION = 0, 1, 2, 3


class _Context:
    """What a block's text inherits: its kind, heading or list depth, page and languages, and the
    navigation region it lies in (`nav`, the region's element; None outside navigation)."""

    __slots__ = ("depth", "kind", "languages", "lists", "nav", "page")

    def __init__(
        self,
        kind: int,
        depth: int,
        lists: int,
        page: int | None,
        languages: tuple[str, ...] | None,
        nav: etree._Element | None = None,
    ) -> None:
        self.kind = kind
        self.depth = depth
        self.lists = lists
        self.page = page
        self.languages = languages
        self.nav = nav

    def derive(
        self, element: etree._Element, tag: str, nav: etree._Element | None = None
    ) -> _Context:
        """Return the context of `element` (tag `tag`), a child of this context's element;
        `nav` is `element` when it starts a navigation region."""
        kind, depth, lists, page, languages = (
            self.kind,
            self.depth,
            self.lists,
            self.page,
            self.languages,
        )
        if tag in _LISTS:
            lists += 1
        elif tag in _HEADINGS:
            kind, depth = _TITLE, _HEADINGS[tag]
        elif tag == "li" or tag == "dd" or tag == "dt":
            kind, depth = _ITEM, max(lists - 1, 0)
        elif tag == "figcaption":
            kind = _CAPTION
        page_attr = element.get("data-page-number")
        if page_attr is not None:
            with contextlib.suppress(ValueError):
                number = int(page_attr.strip())
                if -_MAX_PAGE_NUMBER <= number <= _MAX_PAGE_NUMBER:
                    page = number
        lang = element.get("lang")
        if lang is not None:
            languages = language_codes(lang)
        return _Context(kind, depth, lists, page, languages, self.nav if nav is None else nav)


def iter_tree_drafts(
    root: etree._Element, *, origin: str, root_languages: tuple[str, ...] | None = None
) -> Iterator[Draft]:
    """Generate the drafts of the tree under `root` (already stripped of `DROPPED_TAGS`).

    `origin` is recorded as `detection_origin`; `root_languages` applies where no `lang`
    attribute says otherwise.
    """
    yield from _iter_drafts(root, _Context(_TEXT, 0, 0, None, root_languages), origin)


def _iter_drafts(
    root: etree._Element, context: _Context, origin: str, depth: int = 0
) -> Iterator[Draft]:
    """Generate the drafts of the tree under `root`, whose context is `context`; `depth` counts
    the walks of misplaced table content this one is nested in."""
    phrase = Phrase()
    images: list[Draft] = []
    contexts: list[_Context] = []
    bold = italic = 0
    heavy: list[etree._Element] = []  # -- open elements styled bold (font-weight) --
    light = False  # -- the phrase holds text outside bold --

    def add_text(raw: str) -> None:
        nonlocal light
        phrase.add_text(raw, _emphasis(bold, italic))
        if not light and not bold and not heavy and not raw.isspace():
            light = True

    def flush(ctx: _Context, region_end: bool = False) -> Iterator[Draft]:
        nonlocal light
        if ctx.nav is not None and not region_end:
            phrase.add_break()  # -- inside navigation a block ends a line, not the element --
            return
        if not phrase.is_empty:
            text, meta = phrase.flush()
            if text:
                yield _text_draft(text, meta, ctx, origin, all_bold=not light)
        light = False
        if images:
            yield from images
            images.clear()

    walker = etree.iterwalk(root, events=("start", "end"))
    for event, element in walker:
        tag = element.tag
        if event == "start":
            if not isinstance(tag, str):
                continue
            if _is_hidden(element):
                walker.skip_subtree()
                contexts.append(context)
                continue
            style = element.get("style")
            if style and tag != "table" and tag != "pre" and is_bold_style(style):
                heavy.append(element)
            nav = element if context.nav is None and starts_navigation(element, tag) else None
            if nav is not None or tag in _BLOCKS or (context.nav is not None and tag in _WHOLE):
                yield from flush(context)
                contexts.append(context)
                context = context.derive(element, tag, nav)
            elif tag == "table":
                yield from flush(context)
                walker.skip_subtree()
                contexts.append(context)
                table_context = context.derive(element, tag)
                yield from _iter_table_drafts(element, table_context, origin, depth)
                continue
            elif tag == "pre":
                yield from flush(context)
                walker.skip_subtree()
                contexts.append(context)
                draft = _code_draft(element, context.derive(element, tag), origin)
                if draft is not None:
                    yield draft
                continue
            else:
                if tag == "br":
                    phrase.add_break()
                elif tag == "img" and context.nav is None:
                    image = _image_draft(element, context.derive(element, tag), origin)
                    if image is not None:
                        images.append(image)
                elif tag in _BOLD:
                    bold += 1
                elif tag in _ITALIC:
                    italic += 1
                elif tag == "a":
                    href = element.get("href")
                    if href is not None:
                        phrase.open_link(href.strip())
                if element.get("lang") is not None or element.get("data-page-number") is not None:
                    contexts.append(context)
                    context = context.derive(element, tag)
            text = element.text
            if text:
                add_text(text)
        else:
            if not isinstance(tag, str):
                if element.tail:
                    add_text(element.tail)
                continue
            if heavy and heavy[-1] is element:
                heavy.pop()
            if _is_hidden(element):
                context = contexts.pop()
            elif context.nav is element:
                yield from flush(context, region_end=True)
                context = contexts.pop()
            elif tag in _BLOCKS or (context.nav is not None and tag in _WHOLE):
                yield from flush(context)
                context = contexts.pop()
            elif tag == "table" or tag == "pre":
                context = contexts.pop()
            else:
                if tag in _BOLD:
                    bold -= 1
                elif tag in _ITALIC:
                    italic -= 1
                elif tag == "a" and element.get("href") is not None:
                    phrase.close_link()
                if element.get("lang") is not None or element.get("data-page-number") is not None:
                    context = contexts.pop()
            if element is root:
                break
            tail = element.tail
            if tail:
                add_text(tail)
    yield from flush(context)


def _is_hidden(element: etree._Element) -> bool:
    if element.get("hidden") is not None or element.get("aria-hidden") == "true":
        return True
    style = element.get("style")
    return style is not None and "n" in style and _HIDING_STYLE.search(style) is not None


def _emphasis(bold: int, italic: int) -> str:
    if bold:
        return "bi" if italic else "b"
    return "i" if italic else ""


def _base_meta(ctx: _Context, origin: str) -> dict[str, Any]:
    meta: dict[str, Any] = {"detection_origin": origin}
    if ctx.page is not None:
        meta["page_number"] = ctx.page
    if ctx.languages:
        meta["languages"] = ctx.languages
    return meta


def _text_draft(
    text: str, phrase_meta: dict[str, Any], ctx: _Context, origin: str, *, all_bold: bool = False
) -> Draft:
    """The draft of a block's text; `all_bold`: none of it lies outside bold, so a paragraph that
    looks like a heading is a Title (`_html_headings`)."""
    meta = _base_meta(ctx, origin)
    meta.update(phrase_meta)
    cls: type[Element]
    kind = ctx.kind
    if ctx.nav is not None:
        cls = Navigation
    elif kind == _TITLE:
        cls = Title
        meta["category_depth"] = ctx.depth
    elif kind == _ITEM:
        cls = ListItem
        meta["category_depth"] = ctx.depth
    elif kind == _CAPTION:
        cls = FigureCaption
    elif bullet := BULLET_LINE.match(text):
        cls = ListItem
        meta["category_depth"] = 0
        text = _shifted(text, meta, bullet.end())
    elif all_bold and (depth := bold_heading_depth(text)) is not None:
        cls = Title
        meta["category_depth"] = depth
    elif any(c.isalnum() for c in text):
        cls = NarrativeText
    else:
        cls = Text
    return Draft(cls, text, meta)


def _shifted(text: str, meta: dict[str, Any], cut: int) -> str:
    """Return `text` without its first `cut` characters, moving link offsets in `meta` along."""
    links = meta.get("links")
    if links:
        kept = tuple(
            type(link)(text=link.text, url=link.url, start_index=(link.start_index or 0) - cut)
            for link in links
            if (link.start_index or 0) >= cut
        )
        for key in ("links", "link_texts", "link_urls"):
            meta.pop(key)
        if kept:
            meta["links"] = kept
            meta["link_texts"] = tuple(link.text or "" for link in kept)
            meta["link_urls"] = tuple(link.url for link in kept)
    return text[cut:]


def _iter_table_drafts(
    table: etree._Element, ctx: _Context, origin: str, depth: int = 0
) -> Iterator[Draft]:
    """Generate the drafts of `table`: what is misplaced in it first (texts and elements, as
    browsers "foster-parent" them before the table), then the table (or its lone caption),
    then the tables misplaced in it (a table in a row closes the table, to browsers).

    Misplaced tables are taken from a stack, not by recursion (libxml2 nests them 2,048 deep);
    a misplaced element is walked as a tree of its own, `depth` levels of such walks deep, and
    past `_MAX_FOSTERED_DEPTH` its text is taken whole instead.
    """
    pending = [table]
    while pending:
        content = table_content(pending.pop())
        later: list[etree._Element] = []
        phrase = Phrase()
        for item in content.misplaced:
            if isinstance(item, str):
                phrase.add_text(item)
            elif item.tag == "table":
                later.append(item)
            elif depth >= _MAX_FOSTERED_DEPTH:
                phrase.add_text(" ".join(str(text) for text in item.itertext()))
            else:
                if not phrase.is_empty:
                    yield from _iter_phrase_draft(phrase, ctx, origin)
                yield from _iter_drafts(item, ctx, origin, depth + 1)
        if not phrase.is_empty:
            yield from _iter_phrase_draft(phrase, ctx, origin)
        meta = _base_meta(ctx, origin)
        if content.text:
            meta["text_as_html"] = content.html
            yield Draft(Table, content.text, meta)
        elif content.caption:
            yield Draft(FigureCaption, content.caption, meta)
        pending.extend(reversed(later))


def _iter_phrase_draft(phrase: Phrase, ctx: _Context, origin: str) -> Iterator[Draft]:
    text, meta = phrase.flush()
    if text:
        yield _text_draft(text, meta, ctx, origin)


def _code_draft(pre: etree._Element, ctx: _Context, origin: str) -> Draft | None:
    parts: list[str] = []
    for event, element in etree.iterwalk(pre, events=("start", "end")):
        if event == "start":
            if element.tag == "br":
                parts.append("\n")
            elif element.text and isinstance(element.tag, str):
                parts.append(element.text)
        elif element is not pre and element.tail:
            parts.append(element.tail)
    text = strip_not_text("".join(parts))
    if text.startswith("\n"):
        text = text[1:]
    text = text.rstrip("\n")
    if not text.strip():
        return None
    return Draft(CodeSnippet, text, _base_meta(ctx, origin))


def _image_draft(img: etree._Element, ctx: _Context, origin: str) -> Draft | None:
    src = (img.get("src") or "").strip()
    alt = strip_not_text(" ".join((img.get("alt") or "").split()))
    if not src and not alt:
        return None
    meta = _base_meta(ctx, origin)
    if src.startswith("data:"):
        header, _, payload = src.partition(",")
        if header.endswith(";base64") and payload:
            meta["image_mime_type"] = header[5:-7] or None
            meta["image_base64"] = payload
    elif src:
        meta["image_url"] = src
    return Draft(Image, alt, meta)
