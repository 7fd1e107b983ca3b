"""HTML to elements.

PRINCIPLES

- **The rendered text is the document.** Parsing uses lxml's C HTML parser in recovery mode (so
  malformed markup is tolerated as a browser would), with comments and processing instructions
  dropped, no network access and no DTD or entity expansion beyond HTML's own named entities.
  Parsing starts at the first visible `<main>` when there is one, else at `<body>`.
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
  too short, and a paragraph is never guessed to be a Title.
- **What is dropped.** `script`, `style`, `noscript`, `template`, `head`, `nav`, `del`, form
  controls, embedded media and `svg` / `canvas` / `iframe`, with their content; hidden elements
  (a `hidden` attribute, `aria-hidden="true"`, an inline style `display: none` or
  `visibility: hidden`). `header`, `footer` and `aside` are kept as ordinary content, as the
  reference does by default.
- **Whitespace is normalized.** Runs of whitespace (non-breaking spaces included) become one
  space and text is trimmed. `<br>` becomes a line break ("\\n") rather than the reference's space:
  addresses, verse and line-set lists keep their lines.
- **Metadata.** `a[href]` → `links` (text, url, offset in the element's text) plus the
  reference's `link_texts` / `link_urls`; `b`/`strong` and `i`/`em` → `emphasized_text_contents`
  with tags "b", "i" or "bi". `page_number` comes from the nearest `data-page-number` attribute;
  `languages` from the nearest `lang` attribute (ISO 639-3; none when absent). `filetype` is
  `text/html`, `detection_origin` "html".
- **Bytes and bad input.** Bytes are decoded by the encoding the caller gives, else a byte-order
  mark, else a `<meta charset>` / `http-equiv` / XML declaration in the first 4 KiB (Latin-1 and
  ASCII read as Windows-1252, as browsers do), else UTF-8, else Windows-1252. Input with NUL
  characters (binary data), an unknown or failing explicit encoding, or nesting deeper than
  lxml's limit of 255 elements (whose content lxml would silently drop) raises
  `partita.errors.DocumentError` naming the file. Text without any markup is tolerated: it is
  one paragraph, as a browser shows it. An empty document gives no elements.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import IO

from lxml import etree

from partita.elements import Element
from partita.errors import DocumentError, DocumentLimitError
from partita.partitioners._build import Draft, iter_finished_elements
from partita.partitioners._html_blocks import DROPPED_TAGS, iter_tree_drafts
from partita.partitioners._html_encoding import decode_html
from partita.partitioners._html_lang import language_codes
from partita.partitioners._html_limits import (
    MAX_DOCUMENT_BYTES,
    MAX_HTML_DEPTH,
    check_attribute_counts,
    iter_within_budget,
)
from partita.partitioners._source import read_source

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
    source = read_source(filename, file, text, max_bytes=MAX_DOCUMENT_BYTES, name=metadata_filename)
    name = metadata_filename or source.path
    display_name = name or source.display_name
    drafts = iter_html_drafts(source.data, encoding=encoding, name=display_name)
    yield from iter_finished_elements(
        iter_within_budget(drafts, display_name),
        path=name,
        filetype=FILETYPE,
        last_modified=source.last_modified,
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
    etree.strip_elements(root, *DROPPED_TAGS, with_tail=False)
    lang = root.get("lang") if root.tag == "html" else None
    if lang:
        languages = language_codes(lang) or languages
    yield from iter_tree_drafts(_start_of(root), origin=origin, root_languages=languages)


def _parse(content: str, name: str | None) -> etree._Element | None:
    if "\x00" in content[:_SNIFF_BYTES]:
        raise DocumentError("not an HTML document: it holds binary data (NUL bytes)", filename=name)
    if not content.strip():
        return None
    parser = etree.HTMLParser(
        encoding="utf-8",
        remove_comments=True,
        remove_pis=True,
        no_network=True,
        huge_tree=True,
        recover=True,
    )
    try:
        data = content.encode("utf-8")
    except UnicodeEncodeError:  # -- lone surrogates, from text given as a string --
        data = _LONE_SURROGATE.sub("\ufffd", content).encode("utf-8")
    check_attribute_counts(data, name)
    try:
        root = etree.fromstring(data, parser)
    except (etree.ParserError, etree.XMLSyntaxError) as exc:
        raise DocumentError(f"cannot parse HTML: {exc}", filename=name) from exc
    for error in parser.error_log:
        if error.type_name == "ERR_RESOURCE_LIMIT":
            raise _resource_limit_error(error.message, name)
    return root


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


def _start_of(root: etree._Element) -> etree._Element:
    """Return the first `<main>` of `root` (outside hidden markup), else `<body>`, else `root`."""
    for main in root.iter("main"):
        if main.get("hidden") is None and main.get("aria-hidden") != "true":
            return main
    body = root.find("body")
    return body if body is not None else root
