"""Markdown to elements.

PRINCIPLES

- **CommonMark plus GFM tables and strikethrough**, parsed by markdown-it-py, with footnotes and
  YAML front matter (mdit-py-plugins). The token stream is walked once; no HTML is rendered.
- **Which element.** ATX and setext headings → Title, `category_depth` = level - 1. Paragraphs →
  NarrativeText (Text when they hold no letter or digit). List items → ListItem,
  `category_depth` = nesting level (0 at top); the paragraphs of one item are one ListItem,
  joined by "\\n", until a nested block (a sub-list, code, a table, ...) starts; a task item keeps
  its `[ ]` / `[x]` marker in its text. Fenced and indented code → CodeSnippet, text verbatim
  (trailing newline removed), the fence's language in `metadata.extra["code_language"]`. Pipe
  tables → Table, `text` = cells joined by spaces, `text_as_html` with a `<thead>` of `<th>`
  cells and a `<tbody>`. Block quotes → their paragraphs, as NarrativeText. Images → Image
  (text = alt text, `image_url`), emitted after the paragraph they sit in, whose text leaves
  them out. HTML blocks → the HTML partitioner's elements (`partita.partitioners.html`), marked
  with this module's `detection_origin`. Thematic breaks give nothing.
- **Inline text.** Soft line breaks become spaces, hard breaks (and an inline `<br>`) "\\n";
  whitespace runs become one space. Inline code keeps its text; inline HTML tags are dropped and
  the text between them kept. Links → `links` (with offsets), `link_texts`, `link_urls`, also
  when written as reference links (the link reference definitions themselves are not text);
  `**strong**` / `*em*` → `emphasized_text_contents` with tags "b" / "i".
- **Footnotes.** A reference is kept in the text as `[^label]`. The footnotes come last, as
  NarrativeText beginning with `[^label] `.
- **Front matter** is not text. `lang` / `language` sets `languages` (ISO 639-3) of every
  element; the whole mapping is kept in every element's `metadata.extra["front_matter"]`
  (values YAML gives as dates or other non-JSON types are written as strings). Invalid YAML is
  kept as its raw text there.
- Markdown has no pages: `page_number` is None. `filetype` is `text/markdown`,
  `detection_origin` "md". Any text decodes (UTF-8, a damaged UTF-8 file too, else UTF-16 with
  a BOM, else Windows-1252), so bad bytes are tolerated, not refused; NUL characters are
  replaced, as CommonMark says, and the other characters that are not text are dropped or
  replaced as in HTML (`_text.NOT_TEXT`: C0 controls dropped; noncharacters and surrogates
  become U+FFFD), in text, table cells, code and alt texts. An explicit encoding that is
  unknown, no text encoding or failing raises `partita.errors.DocumentError`.
- **Nesting and cost.** Blocks nested deeper than markdown-it's limit (100 token levels here:
  100 quote levels, 50 list levels), whose text markdown-it would silently drop, raise
  `partita.errors.DocumentError` naming the file. Inline markup is parsed 10 levels deep
  (`MAX_INLINE_NESTING`; markdown-it's look-ahead at each unclosed `[` grows with it), deeper
  markup is kept as text. markdown-it-py's work is linear in the document but costs 5-15 µs per
  markup character and reads each line of a quote again at every level, so a document over
  4 MiB, 100,000 lines, 150,000 markup characters, or 2,000,000 quoted lines times their depth
  raises `partita.errors.DocumentLimitError` before parsing, as do more than 200,000 elements or
  256 Mi characters of text and metadata (a reference's URL or the front matter repeated in
  every element counts each time): see `_html_limits`. HTML blocks can raise the HTML
  partitioner's errors, which name the file too.
"""

from __future__ import annotations

import datetime
import importlib
import os
from collections.abc import Iterator, Sequence
from typing import IO, Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from partita._table_html import cell_html, table_html
from partita.elements import (
    CodeSnippet,
    Element,
    Image,
    Link,
    ListItem,
    NarrativeText,
    Table,
    Text,
    Title,
)
from partita.errors import DocumentError
from partita.partitioners._build import Draft
from partita.partitioners._document import iter_document_elements
from partita.partitioners._html_lang import language_codes
from partita.partitioners._html_limits import (
    MAX_INLINE_NESTING,
    MAX_MARKDOWN_BYTES,
    check_markdown_cost,
)
from partita.partitioners._html_phrase import Phrase
from partita.partitioners._source import decode_text
from partita.partitioners.html import iter_html_drafts
from partita.text._whitespace import strip_not_text

__all__ = ["iter_md_drafts", "iter_md_elements", "partition_md"]

FILETYPE = "text/markdown"
ORIGIN = "md"
_MAX_NESTING = 100
_MAX_FRONT_MATTER_NODES = 10_000


def partition_md(
    filename: str | os.PathLike[str] | None = None,
    *,
    file: IO[bytes] | IO[str] | None = None,
    text: str | None = None,
    encoding: str | None = None,
    metadata_filename: str | None = None,
) -> list[Element]:
    """Return the elements of a Markdown document (see the module's PRINCIPLES).

    Give exactly one of `filename`, `file` and `text`. `encoding` overrides decoding of bytes.
    `metadata_filename` names the document in metadata.
    """
    return list(
        iter_md_elements(
            filename, file=file, text=text, encoding=encoding, metadata_filename=metadata_filename
        )
    )


def iter_md_elements(
    filename: str | os.PathLike[str] | None = None,
    *,
    file: IO[bytes] | IO[str] | None = None,
    text: str | None = None,
    encoding: str | None = None,
    metadata_filename: str | None = None,
) -> Iterator[Element]:
    """Generate the elements of a Markdown document; see `partition_md`."""
    return iter_document_elements(
        filename,
        file,
        text,
        metadata_filename,
        max_bytes=MAX_MARKDOWN_BYTES,
        filetype=FILETYPE,
        drafts=lambda source, name: iter_md_drafts(
            decode_text(source.data, encoding, name), name=name
        ),
    )


def iter_md_drafts(content: str, *, name: str | None = None) -> Iterator[Draft]:
    """Generate the element drafts of the Markdown `content`; `name` identifies it in errors.

    Raises `DocumentError` for blocks nested too deeply (see PRINCIPLES)."""
    check_markdown_cost(content, name)
    md = MarkdownIt("commonmark", {"html": True, "maxNesting": _MAX_NESTING})
    md.enable(["table", "strikethrough"]).use(front_matter_plugin).use(footnote_plugin)
    md.core.ruler.before("inline", "partita_inline_nesting", _limit_inline_nesting)
    tokens = md.parse(content)
    if any(token.nesting == 1 and token.level >= _MAX_NESTING - 1 for token in tokens):
        raise DocumentError(
            f"blocks nested deeper than {_MAX_NESTING} levels (markdown-it would drop their text)",
            filename=name,
        )
    yield from _TokenWalk(tokens, name).iter_drafts()


def _limit_inline_nesting(state: StateCore) -> None:
    """Lower markdown-it's nesting limit, after the blocks are parsed, for the inline parse: its
    cost per unclosed `[` grows with the limit (`MAX_INLINE_NESTING`)."""
    state.md.options["maxNesting"] = MAX_INLINE_NESTING


class _TokenWalk:
    """One pass over a markdown-it token stream, generating drafts."""

    def __init__(self, tokens: Sequence[Token], name: str | None) -> None:
        self._tokens = tokens
        self._name = name
        self._common: dict[str, Any] = {"detection_origin": ORIGIN}
        self._lists = 0
        self._item: Draft | None = None
        self._in_item = 0
        self._footnote_label: str | None = None

    def iter_drafts(self) -> Iterator[Draft]:
        """Generate the drafts of the whole stream, in order."""
        tokens = self._tokens
        i = 0
        while i < len(tokens):
            token = tokens[i]
            kind = token.type
            if kind == "inline":
                yield from self._iter_inline_drafts(tokens[i - 1], token)
            elif kind == "list_item_open":
                yield from self._flush_item()
                self._in_item += 1
            elif kind == "list_item_close":
                yield from self._flush_item()
                self._in_item -= 1
            elif kind in ("bullet_list_open", "ordered_list_open"):
                yield from self._flush_item()
                self._lists += 1
            elif kind in ("bullet_list_close", "ordered_list_close"):
                self._lists -= 1
            elif kind == "front_matter":
                self._read_front_matter(token.content)
            elif kind == "footnote_open":
                yield from self._flush_item()
                self._footnote_label = str(token.meta.get("label", token.meta.get("id", "")))
            elif kind in ("fence", "code_block"):
                yield from self._flush_item()
                yield self._code_draft(token)
            elif kind == "table_open":
                yield from self._flush_item()
                draft, i = self._table_draft(i)
                if draft is not None:
                    yield draft
            elif kind == "html_block":
                yield from self._flush_item()
                yield from self._iter_html_block_drafts(token.content)
            elif kind in ("heading_open", "blockquote_open"):
                yield from self._flush_item()
            i += 1
        yield from self._flush_item()

    def _meta(self, **fields: Any) -> dict[str, Any]:
        meta = dict(self._common)
        meta.update(fields)
        return meta

    def _flush_item(self) -> Iterator[Draft]:
        if self._item is not None:
            yield self._item
            self._item = None

    def _iter_inline_drafts(self, opener: Token, inline: Token) -> Iterator[Draft]:
        """Generate the drafts of an inline token, given the block token `opener` before it."""
        phrase = Phrase()
        images: list[Draft] = []
        if opener.type == "paragraph_open" and self._footnote_label is not None:
            phrase.add_text(f"[^{self._footnote_label}] ")
            self._footnote_label = None
        self._render_inline(inline.children or [], phrase, images)
        text, meta = phrase.flush()
        if text:
            if opener.type == "heading_open":
                depth = int(opener.tag[1:]) - 1 if opener.tag[1:].isdigit() else 0
                yield from self._flush_item()
                yield Draft(Title, text, self._meta(category_depth=depth, **meta))
            elif self._in_item and opener.type == "paragraph_open":
                self._add_to_item(text, meta)
            else:
                cls = NarrativeText if any(c.isalnum() for c in text) else Text
                yield Draft(cls, text, self._meta(**meta))
        if images:
            yield from self._flush_item()
            yield from images

    def _add_to_item(self, text: str, meta: dict[str, Any]) -> None:
        depth = max(self._lists - 1, 0)
        item = self._item
        if item is None:
            self._item = Draft(ListItem, text, self._meta(category_depth=depth, **meta))
            return
        shift = len(item.text) + 1
        item.text = f"{item.text}\n{text}"
        if "links" in meta:
            moved = tuple(
                Link(text=link.text, url=link.url, start_index=(link.start_index or 0) + shift)
                for link in meta["links"]
            )
            item.meta["links"] = item.meta.get("links", ()) + moved
            for key in ("link_texts", "link_urls"):
                item.meta[key] = item.meta.get(key, ()) + meta[key]
        for key in ("emphasized_text_contents", "emphasized_text_tags"):
            if key in meta:
                item.meta[key] = item.meta.get(key, ()) + meta[key]

    def _render_inline(
        self, children: Sequence[Token], phrase: Phrase, images: list[Draft]
    ) -> None:
        bold = italic = 0
        for child in children:
            kind = child.type
            emphasis = ("bi" if italic else "b") if bold else ("i" if italic else "")
            if kind == "text":
                phrase.add_text(child.content, emphasis)
            elif kind == "softbreak":
                phrase.add_text(" ")
            elif kind == "hardbreak":
                phrase.add_break()
            elif kind == "code_inline":
                phrase.add_text(child.content, emphasis)
            elif kind == "strong_open":
                bold += 1
            elif kind == "strong_close":
                bold -= 1
            elif kind == "em_open":
                italic += 1
            elif kind == "em_close":
                italic -= 1
            elif kind == "link_open":
                phrase.open_link(str(child.attrs.get("href", "")))
            elif kind == "link_close":
                phrase.close_link()
            elif kind == "image":
                alt = strip_not_text(
                    " ".join(
                        "".join(c.content for c in child.children or [] if c.type == "text").split()
                    )
                )
                src = str(child.attrs.get("src", ""))
                images.append(Draft(Image, alt, self._meta(image_url=src or None)))
            elif kind == "html_inline":
                if child.content.lower().replace(" ", "").startswith("<br"):
                    phrase.add_break()
            elif kind == "footnote_ref":
                phrase.add_text(f"[^{child.meta.get('label', child.meta.get('id', ''))}]")

    def _code_draft(self, token: Token) -> Draft:
        meta = self._meta()
        language = token.info.split()[0] if token.info.strip() else ""
        if language:
            meta["extra"] = {**meta.get("extra", {}), "code_language": language}
        return Draft(CodeSnippet, strip_not_text(token.content).rstrip("\n"), meta)

    def _table_draft(self, start: int) -> tuple[Draft | None, int]:
        """Return the Table draft of the table opening at token `start`, and its last index."""
        tokens = self._tokens
        groups: list[tuple[str, list[list[str]]]] = []  # -- markdown-it: thead, then tbody --
        words: list[str] = []
        i = start + 1
        while i < len(tokens) and tokens[i].type != "table_close":
            token = tokens[i]
            kind = token.type
            if kind in ("thead_open", "tbody_open"):
                groups.append((token.tag, []))
            elif kind == "tr_open":
                groups[-1][1].append([])
            elif kind in ("th_open", "td_open"):
                phrase = Phrase()
                inline = tokens[i + 1]
                if inline.type == "inline":
                    self._render_inline(inline.children or [], phrase, [])
                    i += 1
                cell, _ = phrase.flush()
                lines = cell.split("\n")
                words.extend(line for line in lines if line)
                groups[-1][1][-1].append(cell_html(token.tag, lines))
            i += 1
        if not words:
            return None, i
        return Draft(Table, " ".join(words), self._meta(text_as_html=table_html(groups))), i

    def _iter_html_block_drafts(self, markup: str) -> Iterator[Draft]:
        languages = self._common.get("languages")
        for draft in iter_html_drafts(markup, name=self._name, origin=ORIGIN, languages=languages):
            if "extra" in self._common:
                draft.meta["extra"] = self._common["extra"]
            if draft.cls is ListItem and self._in_item:
                draft.meta["category_depth"] = max(self._lists - 1, 0)
            yield draft

    def _read_front_matter(self, raw: str) -> None:
        front_matter: Any = raw
        try:
            yaml: Any = importlib.import_module("yaml")
        except ImportError:
            yaml = None
        if yaml is not None:
            try:
                front_matter = _json_safe(yaml.safe_load(raw), [_MAX_FRONT_MATTER_NODES])
            except (yaml.YAMLError, RecursionError, _TooLarge):
                front_matter = raw
        if front_matter is None:
            return
        self._common["extra"] = {"front_matter": front_matter}
        if isinstance(front_matter, dict):
            lang = front_matter.get("lang", front_matter.get("language"))
            if isinstance(lang, str) and (codes := language_codes(lang)):
                self._common["languages"] = codes


class _TooLarge(Exception):
    """Front matter whose values expand past `_MAX_FRONT_MATTER_NODES` (YAML aliases can)."""


def _json_safe(value: Any, budget: list[int]) -> Any:
    """Return `value` with what JSON cannot hold (dates, non-string keys, sets) as strings.

    `budget` holds how many more values may be copied; raises `_TooLarge` past it."""
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooLarge
    if isinstance(value, dict):
        return {str(k): _json_safe(v, budget) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_json_safe(v, budget) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)
