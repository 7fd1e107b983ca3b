"""HTML to elements.

PRINCIPLES

- **The rendered text is the document.** Parsing uses lxml's C HTML parser (libxml2) in
  recovery mode, with comments and processing instructions dropped, no network access and no
  DTD or entity expansion beyond HTML's own named entities. libxml2 tokenizes as HTML5 does but
  builds its tree by older rules; where that tree would hide text a browser shows, the content is
  moved where the browser shows it (`_html_repair`): content after `</body>` or `</html>`, a
  `<head>` after the body, HTML in an unclosed `<svg>`, and text or elements misplaced in a table
  (shown before it; cells without a row form a row). Parsing starts at the first visible `<main>`
  when there is one, else at `<body>` (at `<html>` when content lies outside the body). A test
  compares the words with headless Chromium's on ordinary and hostile pages.
- **Blocks delimit elements.** Each block (`p`, `div`, `section`, `li`, `hN`, `td` outside a
  table, ...) gives at most one element for each run of inline text it holds. Inline markup (`b`,
  `span`, `a`, unknown tags, ...) merges into the enclosing text. Text directly in a block next
  to child blocks (`<div>intro<p>para</p>tail</div>`) gives its own elements, in order: "intro",
  "para", "tail". An empty block gives nothing.
- **Which element.** `h1`-`h6` → Title, `category_depth` 0-5. `li`, `dd` and `dt` → ListItem,
  `category_depth` = enclosing `ul`/`ol`/`dl`/`menu` lists minus 1 (a top-level item is 0, as
  in the other partita partitioners; the reference counts from 1); a `dt` term is an item of its
  list, at the depth of its `dd`, not a heading. Blocks inside an item, heading or `figcaption`
  inherit its kind (`<li><p>x</p></li>` is a ListItem). `figcaption` → FigureCaption, and the
  figure's images are kept (the reference drops whole figures). `pre` → CodeSnippet, with its
  whitespace verbatim except one leading and the trailing newlines. `img` → Image (text = `alt`,
  `image_url` = `src`; a `data:` URI goes to `image_base64` / `image_mime_type`), emitted after
  the text of the block it sits in. `table` → Table (see `_html_tables`: caption kept, cells
  joined by spaces, `text_as_html` keeping `thead`/`th`, `colspan`, `rowspan`; nested tables
  flattened into their cell); a table with only a caption gives a FigureCaption. Other text →
  ListItem when it starts with a bullet character (removed), NarrativeText when it has a letter
  or digit, else Text (UncategorizedText). Unlike the reference, no text is classified away as
  too short, and only a paragraph wholly in bold (`b`, `strong`, a bold `font-weight` style)
  that looks like a heading is a Title (`_html_headings`: SEC filings write their headings so;
  "PART II" depth 0, "Item 7. ..." 1, others 2); bold text inside prose never is.
- **Navigation is an element of its own.** A menu (`<nav>`; an element whose `role` is
  navigation, menu, menubar or doc-toc; a list whose items are only links and which the page
  marks as a menu: see `_html_navigation`) gives one `Navigation` element, partita's own type:
  its blocks and table cells are its lines, its links in `links`, its images left out. The
  reference drops `<nav>` and keeps other menus as list items; partita keeps every menu, as
  Navigation, and chunking leaves Navigation out of every chunk. A page with a `<main>` is read
  from there only, menus included.
- **What is dropped.** `script`, `style`, `noscript`, `template`, `head`, `del`, form controls,
  embedded media and `svg` / `canvas` / `iframe`, with their content; hidden elements (a
  `hidden` attribute, `aria-hidden="true"`, an inline style `display: none` or
  `visibility: hidden`). `header`, `footer` and `aside` are kept as ordinary content, as the
  reference does by default (a list of links in one is a menu, above).
- **Whitespace is normalized.** Runs of whitespace (non-breaking spaces included) become one
  space and text is trimmed. `<br>` becomes a line break ("\\n") rather than the reference's space:
  addresses, verse and line-set lists keep their lines.
- **Characters that are not text** (`_text.NOT_TEXT`: those XML cannot hold, which would also
  make `text_as_html` unreadable as XML): C0 controls other than whitespace, and DEL, are dropped
  wherever they come from (raw, or a reference such as `&#1;`), as browsers render them as
  nothing and a word they sit in stays one word; the noncharacters U+FFFE and U+FFFF and lone
  surrogates become U+FFFD. Link offsets move along.
- **Metadata.** `a[href]` → `links` (text, url, offset in the element's text) plus the
  reference's `link_texts` / `link_urls`; `b`/`strong` and `i`/`em` → `emphasized_text_contents`
  with tags "b", "i" or "bi". `page_number` comes from the nearest `data-page-number` attribute;
  `languages` from the nearest `lang` attribute (ISO 639-3; none when absent). `filetype` is
  `text/html`, `detection_origin` "html".
- **Bytes and bad input.** Bytes are decoded by the encoding the caller gives (a WHATWG label
  or a Python text encoding), else a byte-order mark, else a `<meta charset>` / `http-equiv` /
  XML declaration in the first 4 KiB when the evidence agrees with it (a WHATWG label, the bytes
  decode, the declaration reads back as ASCII, and it does not contradict valid UTF-8 content;
  Latin-1 and ASCII read as Windows-1252, as browsers do), else UTF-8 (a damaged UTF-8 document
  too, its bad bytes as U+FFFD), else Windows-1252 (`_html_encoding`). Input with NUL characters
  in its first 4 KiB (binary data), or an unknown, non-text or failing explicit encoding, raises
  `partita.errors.DocumentError` naming the file. Text without any markup is tolerated: it is
  one paragraph, as a browser shows it. An empty document gives no elements.
- **Bounds** (`_html_limits`; past one, `partita.errors.DocumentLimitError` naming the bound):
  32 MiB and 2,000,000 tags (`<`) per document; nesting up to libxml2's 2,048 elements (deeper
  content would be lost); 256 attributes per tag (libxml2's time is quadratic in them); 200,000
  elements and 256 Mi characters of text and metadata per document. Text nodes and `data:` URIs
  may be as large as the document.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import IO

from lxml import etree

from partita.elements import Element
from partita.errors import DocumentError, DocumentLimitError
from partita.partitioners._build import Draft
from partita.partitioners._document import iter_document_elements
from partita.partitioners._html_blocks import DROPPED_TAGS, iter_tree_drafts
from partita.partitioners._html_encoding import decode_html
from partita.partitioners._html_lang import language_codes
from partita.partitioners._html_limits import (
    MAX_HTML_BYTES,
    MAX_HTML_DEPTH,
    check_attribute_counts,
    check_tag_count,
)
from partita.partitioners._html_repair import (
    break_out_of_svg,
    gather_content_outside_body,
    start_of_content,
)

__all__ = ["decode_html", "iter_html_drafts", "iter_html_elements", "partition_html"]

FILETYPE = "text/html"

_SNIFF_BYTES = 4096
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def partition_html(
    filename: str | os.PathLike[str] | None = None,
    *,
    file: IO[bytes] | IO[str] | None = None,
    text: str | None = None,
    encoding: str | None = None,
    metadata_filename: str | None = None,
) -> list[Element]:
    """Return the elements of an HTML document (see the module's PRINCIPLES).

    Give exactly one of `filename`, `file` and `text`. `encoding` overrides the declared and
    sniffed encodings of bytes. `metadata_filename` names the document in metadata.
    """
    return list(
        iter_html_elements(
            filename, file=file, text=text, encoding=encoding, metadata_filename=metadata_filename
        )
    )


def iter_html_elements(
    filename: str | os.PathLike[str] | None = None,
    *,
    file: IO[bytes] | IO[str] | None = None,
    text: str | None = None,
    encoding: str | None = None,
    metadata_filename: str | None = None,
) -> Iterator[Element]:
    """Generate the elements of an HTML document; see `partition_html`."""
    return iter_document_elements(
        filename,
        file,
        text,
        metadata_filename,
        max_bytes=MAX_HTML_BYTES,
        filetype=FILETYPE,
        drafts=lambda source, name: iter_html_drafts(source.data, encoding=encoding, name=name),
    )


def iter_html_drafts(
    markup: str | bytes,
    *,
    encoding: str | None = None,
    name: str | None = None,
    origin: str = "html",
    languages: tuple[str, ...] | None = None,
) -> Iterator[Draft]:
    """Generate the element drafts of the HTML document or fragment `markup`.

    `name` identifies the document in errors; `origin` is recorded as `detection_origin`;
    `languages` applies where the markup has no `lang` attribute. Raises `DocumentError` for
    input that is not HTML (see PRINCIPLES).
    """
    content = decode_html(markup, encoding, name)
    root = _parse(content, name)
    if root is None:
        return
    outside_body = gather_content_outside_body(root)
    break_out_of_svg(root)
    etree.strip_elements(root, *DROPPED_TAGS, with_tail=False)
    lang = root.get("lang") if root.tag == "html" else None
    if lang:
        languages = language_codes(lang) or languages
    start = start_of_content(root, outside_body=outside_body)
    yield from iter_tree_drafts(start, origin=origin, root_languages=languages)


def _parse(content: str, name: str | None) -> etree._Element | None:
    """Return the root of the parsed `content`, or None when it is blank.

    libxml2 parses first with its default limits (10 MB per text node, 256 levels of nesting),
    which cost less: `huge_tree` makes every parse about 15 % slower. A document past them is
    parsed again with `huge_tree` (1 GB, 2,048 levels); past those, `DocumentLimitError`.
    """
    if "\x00" in content[:_SNIFF_BYTES]:
        raise DocumentError("not an HTML document: it holds binary data (NUL bytes)", filename=name)
    if not content.strip():
        return None
    try:
        data = content.encode("utf-8")
    except UnicodeEncodeError:  # -- lone surrogates, from text given as a string --
        data = _LONE_SURROGATE.sub("\ufffd", content).encode("utf-8")
    check_tag_count(data, name)
    check_attribute_counts(data, name)
    limit = ""
    for huge_tree in (False, True):
        parser = etree.HTMLParser(
            encoding="utf-8",
            remove_comments=True,
            remove_pis=True,
            no_network=True,
            huge_tree=huge_tree,
            recover=True,
        )
        try:
            root = etree.fromstring(data, parser)
        except (etree.ParserError, etree.XMLSyntaxError) as exc:
            raise DocumentError(f"cannot parse HTML: {exc}", filename=name) from exc
        limits = [e.message for e in parser.error_log if e.type_name == "ERR_RESOURCE_LIMIT"]
        if not limits:
            return root
        limit = str(limits[0])
    raise _resource_limit_error(limit, name)


def _resource_limit_error(message: str, name: str | None) -> DocumentLimitError:
    """Return the error for a libxml2 resource limit, naming the real reason (libxml2's message
    suggests an option partita already sets)."""
    if "depth" in message.lower():
        return DocumentLimitError(
            f"markup nested deeper than {MAX_HTML_DEPTH:,} elements (libxml2's limit; the"
            " content beyond it would be lost)",
            filename=name,
            limit="nesting depth",
        )
    return DocumentLimitError(
        f"a text node, attribute or name exceeds libxml2's size limit ({message.strip()})",
        filename=name,
        limit="text node size",
    )
