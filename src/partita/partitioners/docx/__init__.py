"""Word documents (.docx) to elements.

PRINCIPLES

- **Structure decides, text never does.** A Title comes only from a heading: the built-in
  Title (depth 0), Subtitle (1) and Heading 1-9 (0-8) styles, under their English or localized
  names ("标题 1", "標題 1", "Überschrift 1", "Titre 1", "Título 1", "Заголовок 1", "見出し 1", ...)
  or ids ("Heading1"); any style based on one of them (the `basedOn` chain); a paragraph whose
  outline level (`w:outlineLvl` 0-8, on the paragraph or inherited through its style chain) is
  set; a style named in `heading_styles` (name or id to `category_depth`). The nearest style in a
  chain that settles the question wins, so a style based on Heading 1 that sets outline level
  "body text" is not a heading. "TOC Heading" is a Title of depth 0.
- **Numbers are shown as Word renders them.** A numbered heading or list item keeps its rendered
  label ("3.2 Scope", "1. First", "第一章 总则"); bullets are dropped. A paragraph in a list
  (numbering on the paragraph or its style) or with a list style ("List Bullet 2", "List
  Paragraph") is a ListItem with `category_depth` = its list level. A paragraph whose text starts
  with a typed bullet ("• ") is a ListItem of depth 0, the bullet removed. TOC entries (styles
  "toc 1"-"toc 9") are ListItems of depth level-1: a table of contents is a list, not headings.
- **Everything else** is NarrativeText when it has a letter, else UncategorizedText (`Text`);
  a "Caption" paragraph is a FigureCaption. An empty paragraph is not an element.
- **A paragraph is one element,** even when it runs across a page break. Line breaks (`w:br`)
  inside it are "\n", tabs "\t"; the text is stripped at both ends. Fields show their result
  (instruction text dropped); inserted revisions are kept, deleted ones dropped; content controls
  are unwrapped (an unfilled control's placeholder text is dropped). See `_runs` for the details.
- **Tables** are Table elements with `text_as_html` keeping colspan/rowspan and header rows
  (`<thead>`/`<th>`); nested tables are flattened into their cell (see `_tables`). Tables inside
  content controls are found like any other.
- **Text boxes** are read once (the `mc:AlternateContent` fallback copy is skipped); their
  paragraphs and tables become elements right after the paragraph they are anchored in.
- **Notes are inline.** A footnote or endnote becomes its elements right after the block that
  first cites it (a note cited inside a note, after the citing note); the citation reads "[1]"
  (endnotes "[i]") and the note starts with the same mark (see `_notes`).
- **Pages** come from rendered page breaks when Word recorded any, else from hard page breaks,
  page-break-before and section breaks; without either, `page_number` is None (see `_pages`). An
  element's page is the one it starts on. `include_page_breaks=True` adds PageBreak elements.
- **Headers and footers** are Header / Footer elements after the body (see `_furniture`);
  `include_headers_footers=False` leaves them out.
- **Imported content is read in place.** A `w:altChunk` (in the body, a cell, a note or a
  header) gives the elements of the part it imports, where it stands: HTML by partita's HTML
  partitioner, MHT by its text/html (else text/plain) MIME part, plain text by the text
  partitioner (each under its own format's principles), WordprocessingML (a document part of the
  package, or a whole .docx) by this partitioner, body only. The elements carry the host's
  filename and filetype and the page the altChunk stands on. Imports nest at most
  `MAX_IMPORT_DEPTH` (4) documents deep, and count against the host's bounds (see `_altchunks`).
- **Links and emphasis.** External hyperlinks (and HYPERLINK fields) with visible text fill
  `links` (with the start offset in the element's text), `link_texts` and `link_urls`; internal
  anchors are plain text. Bold and italic runs (direct or by character style) fill
  `emphasized_text_contents` / `emphasized_text_tags` ("b" / "i").
- **Hierarchy.** `parent_id` and `section_path` follow the headings (`partita.hierarchy`).
- **Bad input is a DocumentError naming the file**: not a zip, a corrupt or truncated zip, a zip
  without a main document, malformed XML (see `_package`). Entities are never expanded.
- **Hostile input meets bounds** (`_limits`). A document past a size bound (zip entries, part and
  document size, XML nodes, blocks, elements, output characters, libxml2's depth and text-node
  limits) raises `DocumentLimitError` naming the bound, before the work it would cost. Numbers
  read from the XML are clamped to what Word allows: spans to 63 columns, list levels to 0-8,
  list starts to 32 bits; a list label stays short (Roman numerals past 3999, letters past 780
  and Chinese counting past 9999 are written in decimal; a template is cut at 64 characters).
- **Nothing is lost silently.** What cannot be kept (an unexpanded entity reference, whose
  surrounding text is kept; a symbol that is no character; a hyperlink nested in another; an
  overlong label template) is counted, and an import that cannot be read (a missing
  relationship or part, an external target, a content type partita does not read, a part that
  is not what its type says, one nested too deep or past a bound) is named with the reason: one
  `DocxContentWarning` per document says what (see `_losses`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import IO

from partita.elements import Element
from partita.errors import DocumentError
from partita.partitioners._build import iter_finished_elements
from partita.partitioners._source import read_source
from partita.partitioners.docx._document import iter_document_drafts
from partita.partitioners.docx._package import DocxPackage

__all__ = ["FILETYPE", "iter_docx_elements", "partition_docx"]

FILETYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def partition_docx(
    filename: str | os.PathLike[str] | None = None,
    *,
    file: IO[bytes] | None = None,
    metadata_filename: str | None = None,
    heading_styles: Mapping[str, int] | None = None,
    include_page_breaks: bool = False,
    include_headers_footers: bool = True,
    starting_page_number: int = 1,
) -> list[Element]:
    """Return the elements of a .docx document (see the module's PRINCIPLES).

    Give exactly one of `filename` and `file` (a binary file object). `metadata_filename` names
    the document in metadata. `heading_styles` maps further paragraph style names (or ids) to a
    heading `category_depth` (0 is the top level, like Heading 1). `include_page_breaks` adds a
    PageBreak element at each page break; `include_headers_footers=False` drops headers and
    footers; `starting_page_number` is the number of the first page.

    Raises `DocumentError` naming the file when it is not a readable .docx (`DocumentLimitError`
    when it exceeds one of the bounds in `partitioners.docx._limits`), `FileReadError` when it
    cannot be read at all; warns `DocxContentWarning` when content had to be left out.
    """
    return list(
        iter_docx_elements(
            filename,
            file=file,
            metadata_filename=metadata_filename,
            heading_styles=heading_styles,
            include_page_breaks=include_page_breaks,
            include_headers_footers=include_headers_footers,
            starting_page_number=starting_page_number,
        )
    )


def iter_docx_elements(
    filename: str | os.PathLike[str] | None = None,
    *,
    file: IO[bytes] | None = None,
    metadata_filename: str | None = None,
    heading_styles: Mapping[str, int] | None = None,
    include_page_breaks: bool = False,
    include_headers_footers: bool = True,
    starting_page_number: int = 1,
) -> Iterator[Element]:
    """Generate the elements of a .docx document; see `partition_docx`.

    The package is opened (and checked) before the first element is asked for.
    """
    if filename is None and file is None:
        raise ValueError("give exactly one of `filename` and `file`")
    source = read_source(filename, file, None)
    path = metadata_filename or source.path
    display = source.display_name if metadata_filename is None else metadata_filename
    if isinstance(source.data, str):
        raise DocumentError("a .docx must be read as bytes, not text", filename=display)
    package = DocxPackage.open(source.data, display)
    drafts = iter_document_drafts(
        package,
        heading_styles=heading_styles,
        include_page_breaks=include_page_breaks,
        include_headers_footers=include_headers_footers,
        starting_page_number=starting_page_number,
    )
    return _guarded(
        iter_finished_elements(
            drafts,
            path=path,
            filetype=FILETYPE,
            last_modified=source.last_modified,
            content=source.data,
        ),
        display,
    )


def _guarded(elements: Iterator[Element], name: str) -> Iterator[Element]:
    try:
        yield from elements
    except RecursionError as exc:
        raise DocumentError("the document nests too deeply to read", filename=name) from exc
