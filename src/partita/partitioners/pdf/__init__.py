"""Born-digital PDF documents to elements, read by PDFium or pdfplumber (no OCR, no models).

PRINCIPLES

- **Two readers, one set of stages.** The characters (with boxes, sizes, font names,
  orientation), ruling lines and rectangles, and links of each page come from PDFium through
  pypdfium2 (`backend="pdfium"`, the default: `pdfium`) or from pdfplumber/pdfminer.six
  (`backend="pdfplumber"`, pure Python, about ten times slower); everything below reads them the
  same way (`_pages.page_content`). With PDFium, a page goes to the bounded pdfminer interpreter
  when PDFium cannot read it safely or faithfully (`pdfium._preflight`: heavy or absurd content,
  deep forms, CJK fonts the file does not embed; a page PDFium cannot load or finds no text on),
  and pdfminer gives the page list. The file is opened from its path or file object, never read
  whole.

- **The page's own evidence decides, never word lists.** Everything below comes from where the
  characters stand and what fonts they use; there is no OCR, no layout model, no language model.
- **Lines** are characters on one baseline with no gap wider than about one em between them; a
  wider gap (a column gutter, a table gap) splits the printed line in two. So does a narrower
  gutter (at least 0.6 em): a gap clearly wider than the line's word spaces that lines up with
  such gaps on at least four lines of a run no glyph crosses (justified word spaces, each as
  wide as the rest of their line, are not gutters; see `_gutters`). Rotated characters
  are left out (margin stamps, rotated labels). Fake bold (a glyph drawn twice) is read once,
  ligatures are spelled out, unmapped glyphs (`(cid:N)`) dropped. See `_lines`.
- **Reading order** is a recursive XY-cut: columns (a gutter with at least two lines on each
  side, each side at least 18% of the page wide) are read one after another; full-width
  headings, tables and captions stay where they stand between column regions. See `_layout`.
- **Paragraphs** break at bullets and numbers, font size or weight changes, vertical gaps larger
  than the page's usual line gap by 0.4 em, first-line indents of more than 0.8 em (a centred
  line is exempt only when the line before is centred on the paragraph too), short lines
  ending a sentence, and lines ending in a dot leader (a table of contents' entries, each its
  own element and never a Title). Hyphenated line ends ("hyphen-" + "ated") are joined without the
  hyphen when the next line starts in lowercase; Chinese and Japanese lines are joined without
  a space, everything else (Korean too: Hangul wraps at word spaces) with one. See `_blocks`.
- **Titles from typography.** The body font is the (size, weight) class with the most
  characters. A paragraph of at most 3 lines and 20 words (40 CJK characters), with letters, not
  ending in `.`, `,` or `;`, with at most two commas (not an author list), and, when it starts
  with a number, a word that is not lowercase after it ("1.25 na" is a table cell), is a Title
  when its font is "clearly larger" (at least 1.15 times and 1 pt more than the body) or bold
  where the body is not (then at most 2 lines and 12 words). Typography beats list markers: a
  numbered or lettered paragraph ("1. Introduction", "(1) Background") of at most 2 lines and
  12 words in such a heading font is a Title, not a ListItem; in the body font, "1. Introduction"
  is a Title only when it stands alone (one line, at most 8 words, no list item just before or
  after it), else it stays a ListItem. `category_depth` is the rank of its class among the
  document's heading classes (larger first, bold before regular), decided once per class and
  kept: the classes known at the first Title (four pages of look-ahead) are ranked together; a
  class met later takes 0 when larger than all of them, else one more than the nearest larger
  one; depths stop at 5. A one-line body-font paragraph numbered like "2.1 Scope"
  (depth = parts - 1) or "第三章 ..." (depth 0) is a Title too. When the PDF has an outline
  (bookmarks), a short paragraph whose text matches an entry is a Title of the entry's level,
  whatever its font. See `_fonts` and `_outline`.
- **Tables** come from pdfplumber's table finder on ruled tables (its "lines" strategy, computed
  in near-linear time by `_ruled_cells`), run only on pages that draw lines or rectangles; a
  table ruled inside but open at the sides (no outer vertical lines between full-width
  horizontal rules) is found again with edges at the rules' ends. A table
  needs two rows, two columns and two non-empty cells; a grid row holding several text lines on
  shared baselines in every cell (rules between body rows left out) is read as that many rows.
  Tables without vertical lines are read from partita's own lines (`_aligned_tables`): between
  horizontal rules of one extent (booktabs: the rows above the second rule are the header), or,
  with stronger evidence, as consecutive rows aligned into at least three columns of short cells
  with a bold header row or a numeric column; prose, bulleted lists, two-column pages and label
  forms are not tables. Each becomes a Table with `text_as_html` (colspan/rowspan kept, first
  row `<th>` when it is bold and the rest is not, or stands above a booktabs header rule),
  placed where it stands; its characters are not repeated as paragraphs. pdfplumber's text
  strategy is not used: it is not reliable enough on prose.
- **ListItem** from a leading bullet (removed) or list number (kept), as in the text
  partitioner; `category_depth` from the indentation among consecutive items.
- **PageNumber / Header / Footer**: a lone page number ("7", "- 7 -", "Page 7 of 20", "vii")
  in the top or bottom 15% of the page is a PageNumber, on any page. Other paragraphs in those
  bands are Headers (top) or Footers (bottom) when they repeat at the same height (digits
  masked) on at least 40% of the pages within four pages either side, the page itself counted
  (so a header on the even pages of a four-page document is one) (a paragraph in a heading font
  must repeat with its digits: "Chapter 1", "Chapter 2" at the top of their pages are Titles),
  or when they stand on one line with the page number (a running head beside it, found even on
  a single page); `include_headers_footers=False` drops all three. A page's top-band furniture
  comes first, its bottom-band furniture last. See `_furniture`.
- **Everything else** is NarrativeText when it has a letter, else UncategorizedText (`Text`).
- **Metadata**: `page_number` (`starting_page_number` for the first page of the file, counting
  physical pages, also when `pages` selects some), `coordinates` (the element's box as four
  corners, top-left first, counter-clockwise, in `PointSpace`: PDF points with the origin at
  the bottom left, `layout_width` / `layout_height` the page size), `links` from URI link
  annotations (text, url, offset in the element's text), `filetype` application/pdf,
  `detection_origin` the backend ("pdfium" or "pdfplumber"), `parent_id` / `section_path`
  from the Titles. `languages` is
  not set: the PDF gives no reliable per-text language and partita does no detection.
- **PageBreak** elements (`include_page_breaks=True`) follow every page, as in the reference.
- **Streaming.** `iter_pdf_elements` reads one page at a time, keeping four pages of look-ahead
  (for the body font and running headers) and closing each page (PDFium's page and text page,
  pdfplumber's caches) once read; memory does not grow with the page count.
- **Bad input is a DocumentError naming the file**: not a PDF, corrupt, encrypted with a
  password that is not given, or any failure inside pdfminer. Pages that are images without a
  text layer give no elements and one `NoTextLayerWarning` for the document.
- **Bounded work and memory** (`_limits`): decoding, references followed, page tree depth,
  tokens parsed and glyphs drawn are bounded per document (the work bounds grow with the
  file's size), content tokens, content streams and glyphs per page, form nesting, token and
  inline image sizes. A document beyond a document bound raises `DocumentLimitError` naming the
  bound; a page beyond a page bound keeps what was drawn before it and warns
  (`ContentLeftOutWarning`, naming the page and the bound), as do characters drawn at infinite,
  NaN or absurd positions or sizes (left out) and pages whose rulings are too many for the
  table finder (read without ruled tables). A reference that cycles reads as null. pdfminer is
  run by partita's own page interpreter (`_interpreter`) and page tree walk (`_page_tree`), with a
  few of its methods bounded while a partita document is read (`_pdfminer_bounds`); every page
  stage is linear or n log n in the page's characters, lines and rulings.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Iterator
from typing import IO

from partita.elements import Element
from partita.partitioners._build import file_digest, iter_finished_elements
from partita.partitioners._source import describe_file
from partita.partitioners.pdf._document import NoTextLayerWarning, PdfSource, iter_pdf_drafts
from partita.partitioners.pdf._isolation import (
    ISOLATIONS,
    WorkerUnavailableWarning,
    open_contained,
    stop_pdf_worker,
)
from partita.partitioners.pdf._limits import ContentLeftOutWarning
from partita.partitioners.pdf._open import open_pdf
from partita.partitioners.pdf.pdfium._document import open_pdfium

__all__ = [
    "BACKENDS",
    "FILETYPE",
    "ISOLATIONS",
    "ContentLeftOutWarning",
    "NoTextLayerWarning",
    "WorkerUnavailableWarning",
    "iter_pdf_elements",
    "partition_pdf",
    "stop_pdf_worker",
]

FILETYPE = "application/pdf"
BACKENDS = ("pdfium", "pdfplumber")
"""The libraries `partition_pdf` can read a PDF with (`backend`), the default first."""


def partition_pdf(
    filename: str | os.PathLike[str] | None = None,
    *,
    file: IO[bytes] | None = None,
    metadata_filename: str | None = None,
    include_page_breaks: bool = False,
    include_headers_footers: bool = True,
    starting_page_number: int = 1,
    pages: Iterable[int] | None = None,
    password: str | None = None,
    backend: str = "pdfium",
    isolation: str = "process",
) -> list[Element]:
    """Return the elements of a PDF document (see the module's PRINCIPLES).

    Give exactly one of `filename` and `file` (a binary file object). `metadata_filename` names
    the document in metadata. `include_page_breaks` adds a PageBreak after each page;
    `include_headers_footers=False` drops running headers, footers and page numbers;
    `starting_page_number` is the number of the file's first page; `pages` (1-based positions
    in the file) limits the pages read; `password` opens an encrypted PDF. `backend` is the
    library that reads the characters, rulings and links: "pdfium" (pypdfium2, the default) or
    "pdfplumber" (pdfminer.six, pure Python, about ten times slower). `isolation` is where the
    PDF is parsed: "process" (the default) in partita's resident worker process, under memory
    and CPU limits, so that no file can end, hang or exhaust the calling process; "none" in the
    calling process, for trusted files only (see `isolation`).

    Raises `DocumentError` naming the file when it is not a readable PDF, `DocumentLimitError`
    when it exceeds one of the document bounds (`limits`), `FileReadError` when it cannot be read
    at all; with `isolation="process"`, `DocumentMemoryError`, `DocumentTimeoutError` or
    `WorkerCrashError` when even pdfminer's reading of a page ends the worker. Warns
    `ContentLeftOutWarning` for each page with content left out.
    """
    return list(
        iter_pdf_elements(
            filename,
            file=file,
            metadata_filename=metadata_filename,
            include_page_breaks=include_page_breaks,
            include_headers_footers=include_headers_footers,
            starting_page_number=starting_page_number,
            pages=pages,
            password=password,
            backend=backend,
            isolation=isolation,
        )
    )


def iter_pdf_elements(
    filename: str | os.PathLike[str] | None = None,
    *,
    file: IO[bytes] | None = None,
    metadata_filename: str | None = None,
    include_page_breaks: bool = False,
    include_headers_footers: bool = True,
    starting_page_number: int = 1,
    pages: Iterable[int] | None = None,
    password: str | None = None,
    backend: str = "pdfium",
    isolation: str = "process",
) -> Iterator[Element]:
    """Generate the elements of a PDF document page by page; see `partition_pdf`.

    The file is read and opened (and checked) before the first element is asked for; the PDF is
    closed when the generator is exhausted or closed.
    """
    pages = None if pages is None else list(pages)
    if backend not in BACKENDS:
        raise ValueError(f"unknown PDF backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if isolation not in ISOLATIONS:
        raise ValueError(f"unknown isolation {isolation!r}: choose one of {', '.join(ISOLATIONS)}")
    info = describe_file(filename, file)
    path = metadata_filename or info.path
    display = info.display_name if metadata_filename is None else metadata_filename
    given = file if file is not None else os.fspath(filename)  # type: ignore[arg-type]
    # -- a PDF without a name is identified by its bytes, hashed before a reader moves in it --
    digest = file_digest(file, display) if file is not None and not path else None
    opened: PdfSource | None = None
    if isolation == "process":
        try:
            opened = open_contained(
                given, display, password=password, size=info.size, backend=backend, pages=pages
            )
        except WorkerUnavailableWarning as unavailable:
            warnings.warn(unavailable, stacklevel=2)
    if opened is None and backend == "pdfium":
        opened = open_pdfium(given, display, password=password, size=info.size)
    elif opened is None:
        opened = open_pdf(given, display, password=password, size=info.size)
    return _closing(
        opened,
        iter_finished_elements(
            iter_pdf_drafts(
                opened,
                pages=pages,
                starting_page_number=starting_page_number,
                include_page_breaks=include_page_breaks,
                include_headers_footers=include_headers_footers,
            ),
            path=path,
            filetype=FILETYPE,
            last_modified=info.last_modified,
            digest=digest,
        ),
    )


def _closing(opened: PdfSource, elements: Iterator[Element]) -> Iterator[Element]:
    try:
        yield from elements
    finally:
        opened.close()
