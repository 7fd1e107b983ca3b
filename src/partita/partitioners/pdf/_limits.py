"""The bounds on the work and memory one PDF may cost, and the budget that enforces them.

A PDF is a graph of objects and compressed streams that a few bytes can make enormous: a flate
stream inflates a thousandfold, a reference can point at itself, one form XObject can draw
another ten times over ten levels, one string can hold millions of glyphs. Every such
amplification meets a bound, above what real documents need (each constant says what the test
corpus uses; its densest document, DA-619p.pdf, uses 35% of its token budget and 60% of its
glyph budget, the others less than a fifth) and low enough that a small file costs at most a
few seconds:

Refused, the document raising `DocumentLimitError` (`limit` names the bound):

- decoded bytes of one stream, after each filter: `MAX_STREAM_BYTES`;
- decoded bytes of all the document's streams: `MAX_DOCUMENT_STREAM_BYTES`;
- references followed: `MAX_RESOLUTIONS` plus `RESOLUTIONS_PER_BYTE` per byte of the file;
- a chain of references to references longer than `MAX_REFERENCE_CHAIN` (one that cycles is
  read as null, as a reference to a missing object is);
- cross-reference sections: `MAX_XREF_SECTIONS` (a section named twice is read once);
- page tree depth: `MAX_PAGE_TREE_DEPTH`; objects scanned for pages when there is no page
  tree: `MAX_PAGE_SCAN_OBJECTS`;
- codes mapped by the document's embedded CMaps: `MAX_CMAP_ENTRIES`;
- tokens parsed from decoded streams: `MAX_DOCUMENT_TOKENS` plus `TOKENS_PER_BYTE` per byte of
  the file; one token (outside page content): `MAX_TOKEN_BYTES`;
- glyphs drawn: `MAX_DOCUMENT_GLYPHS` plus `GLYPHS_PER_BYTE` per byte of the file;
- tokens of one object of the file (a page dictionary with 200,000 inline annotations):
  `_pdfminer_bounds.MAX_OBJECT_TOKENS`.

Left out, the rest of the document read (the rest of the page, unless said otherwise):

- content tokens of one page, its forms counted each time they are drawn (each content stream
  run counting as `STREAM_TOKENS` more, each path painted as `PATH_TOKENS` and each glyph drawn
  as `GLYPH_TOKENS`, so that one count bounds the page's work whatever it is made of):
  `MAX_PAGE_TOKENS`;
- content streams run for one page, forms included: `MAX_PAGE_STREAMS`;
- glyphs drawn on one page: `MAX_PAGE_GLYPHS`;
- one token of page content: `MAX_TOKEN_BYTES`; inline image data: `MAX_INLINE_IMAGE_BYTES`;
  items of arrays and dictionaries left open: `MAX_OPEN_ITEMS`;
- form XObjects nested deeper than `MAX_FORM_DEPTH` (those forms only);
- objects drawn at a coordinate or size beyond `MAX_COORDINATE` (those objects only).

Sent to the pdfminer interpreter instead of PDFium (which has no bounds of its own; the page is
then read under the bounds above): a page the preflight finds too heavy by PDFium's reading
rules (`pdfium._preflight`: content weight, inline images, nesting, font programs, ToUnicode
expansion), and a page with a text object of `pdfium._chars.MAX_FAITHFUL_OBJECT_CHARS` characters
or more (PDFium keeps only the first `PDFIUM_MAX_STRING_BYTES` bytes of a string, silently).
With the default `isolation="process"`, PDFium runs in a worker process capped in memory and
CPU time (`_isolation`), and a page on which it ends the worker is read by pdfminer too.

"Left out" always comes with a `ContentLeftOutWarning` naming the page and what was cut: text
never disappears silently. The document bounds grow with the file's size, so a large real
document is never refused while a small file cannot make partita work much harder than a real
document of its size would.

`DocumentBudget` holds one document's counters; `_pdfminer_bounds` reaches it through
`ACTIVE` (set only while partita runs pdfminer code on that document, see `_open.guarded`), the
page interpreter through a `PageMeter` drawn from it.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field

from partita.errors import DocumentLimitError, PartitaWarning

__all__ = [
    "ACTIVE",
    "GLYPHS_PER_BYTE",
    "GLYPH_TOKENS",
    "MAX_CMAP_ENTRIES",
    "MAX_COORDINATE",
    "MAX_DOCUMENT_GLYPHS",
    "MAX_DOCUMENT_STREAM_BYTES",
    "MAX_DOCUMENT_TOKENS",
    "MAX_FORM_DEPTH",
    "MAX_INLINE_IMAGE_BYTES",
    "MAX_OPEN_ITEMS",
    "MAX_PAGE_GLYPHS",
    "MAX_PAGE_SCAN_OBJECTS",
    "MAX_PAGE_STREAMS",
    "MAX_PAGE_TOKENS",
    "MAX_PAGE_TREE_DEPTH",
    "MAX_REFERENCE_CHAIN",
    "MAX_RESOLUTIONS",
    "MAX_STREAM_BYTES",
    "MAX_TOKEN_BYTES",
    "MAX_XREF_SECTIONS",
    "PATH_TOKENS",
    "RESOLUTIONS_PER_BYTE",
    "STREAM_TOKENS",
    "TOKENS_PER_BYTE",
    "ContentLeftOutWarning",
    "DocumentBudget",
    "PageCut",
    "PageMeter",
]

MAX_STREAM_BYTES = 64 << 20
"""Decoded bytes of one stream, checked after each filter (64 MiB). The corpus's largest
stream decodes to 0.5 MB; embedded TrueType fonts, the largest streams pdfminer decodes, stay
under 30 MB even for complete CJK fonts. Images are never decoded."""

MAX_DOCUMENT_STREAM_BYTES = 512 << 20
"""Decoded bytes of all the document's streams together (512 MiB; DA-619p decodes 10.5 MB).
pdfminer keeps decoded streams for the document's lifetime, so this bounds their memory."""

MAX_RESOLUTIONS = 1_000_000
"""Indirect references followed, plus one per byte of the file (the corpus's documents follow
at most 4,000). Bounds every walk over the object graph, even one whose objects share
children exponentially (a DAG of arrays, outlines whose /First and /Next meet)."""

MAX_REFERENCE_CHAIN = 32
"""References followed in one chain (an object whose value is a reference, to an object whose
value is a reference...); a longer chain, or one that cycles, resolves to null, as a reference
to a missing object does. Real files have chains of one or two."""

MAX_XREF_SECTIONS = 256
"""Cross-reference sections (the file's and each incremental update's; a section named twice,
as by a `/Prev` that points at its own section, is read once). Real files have a few."""

MAX_PAGE_TREE_DEPTH = 256
"""Levels of the page tree (a balanced tree of a million pages is 20 levels deep)."""

MAX_PAGE_SCAN_OBJECTS = 100_000
"""Objects scanned for pages when the catalog has no usable page tree (pdfminer's fallback;
each costs a parse, about 20 µs)."""

MAX_CMAP_ENTRIES = 2_000_000
"""Codes mapped by all the document's embedded CMaps (ToUnicode and encodings); a complete CJK
font maps 65,536, a subset font a few thousand. One `bfrange` line can ask for four billion."""

MAX_DOCUMENT_TOKENS = 500_000
"""Tokens parsed from decoded streams (page contents, forms each time they are drawn, object
streams, CMaps, font headers), plus three per byte of the file; each content stream run counts
as `STREAM_TOKENS` more. DA-619p parses 3.2 million (1.1 per byte), the other corpus documents
at most 0.7 per byte; a token costs pdfminer, pdfplumber and partita 3 to 12 µs of CPU, by the
host (see `MAX_PAGE_TOKENS`)."""

RESOLUTIONS_PER_BYTE = 1
"""References the document may follow beyond `MAX_RESOLUTIONS`, per byte of the file."""

TOKENS_PER_BYTE = 3
"""Tokens the document may parse beyond `MAX_DOCUMENT_TOKENS`, per byte of the file."""

GLYPHS_PER_BYTE = 1
"""Glyphs the document may draw beyond `MAX_DOCUMENT_GLYPHS`, per byte of the file."""

STREAM_TOKENS = 16
"""What running one content stream (a form drawn) costs, in tokens (measured: about 50 µs a form
drawn beyond its content, where a token costs 12 µs; see `MAX_PAGE_TOKENS`)."""

PATH_TOKENS = 12
"""What a line, rectangle or curve painted costs beyond its tokens, in tokens: pdfplumber turns
each into a dictionary of its points and edges, and partita looks for rulings among them
(measured: about 120 µs a rectangle beyond its operands)."""

GLYPH_TOKENS = 5
"""What a glyph drawn costs the page, in tokens: pdfminer's character, pdfplumber's object and
partita's line building (measured: 68 µs a glyph). Charged against the page's
`MAX_PAGE_TOKENS` only; the document counts glyphs apart (`MAX_DOCUMENT_GLYPHS`)."""

MAX_DOCUMENT_GLYPHS = 150_000
"""Glyphs drawn in the document, plus one per byte of the file. DA-619p draws 1.8 million (0.63
per byte), the other corpus documents at most 0.16 per byte; a glyph costs PDFium and partita
about 12 µs of CPU, pdfminer, pdfplumber and partita about 70 µs (see `MAX_PAGE_TOKENS`)."""

MAX_PAGE_TOKENS = 300_000
"""Content tokens (operators and operands) parsed for one page, its form XObjects counted each
time they are drawn, with what streams, paths and glyphs cost (`STREAM_TOKENS`, `PATH_TOKENS`,
`GLYPH_TOKENS`). The corpus's busiest page counts 36,000 tokens and 10,400 glyphs (88,000 in
all); a page of 40,000 glyphs of 4-pt type about 250,000.

Measured with the pdfminer interpreter on a host where `sum(range(10**6))` takes 23 ms (about
half the speed of a current desktop), a page at this bound costs 3.6 s of CPU made of tokens,
3.1 s of rectangles, 4.1 s of glyphs (`benchmarks/measure_page_work.py`): whatever its mix, at
most about 4 s, within the worker's 10 s per page (`_isolation.REQUEST_MAX_CPU`) on a host
twice as slow or shared. (At 600,000 tokens with glyphs counted apart, a page of forms drawing
text took 7.6 s there, and went over 10 s in a loaded test run.)"""

MAX_PAGE_STREAMS = 10_000
"""Content streams run for one page: its /Contents entries and every form drawn (corpus: 8)."""

MAX_PAGE_GLYPHS = 100_000
"""Glyphs drawn on one page (corpus: 10,400; a page of 4-pt type holds about 40,000). PDFium
draws 100,000 in about 1.2 s; the pdfminer interpreter, where each glyph also counts as
`GLYPH_TOKENS` tokens, stops at `MAX_PAGE_TOKENS` first (60,000 glyphs at most)."""

MAX_OPEN_ITEMS = 100_000
"""Items of a page's arrays and dictionaries not yet closed (a `TJ` array holds a line's glyph
runs: hundreds); checked at each 4 KB of content."""

MAX_FORM_DEPTH = 32
"""Form XObjects nested in each other (corpus: 2)."""

MAX_TOKEN_BYTES = 4 << 20
"""Bytes of one token (a string, a name, a number...): pdfminer's lexer copies a growing token
at each 4 KiB of input, so a token of n bytes costs n**2 / 8 KiB of copying (4 MiB: 2 GiB)."""

MAX_INLINE_IMAGE_BYTES = 4 << 20
"""Data of one inline image (the PDF specification advises at most 4 KB)."""

MAX_COORDINATE = 1e9
"""Objects drawn with a coordinate or size beyond ±1e9 points, or not a finite number, are left
out. The largest page PDF allows is 14,400 units of at most 75,000 points (1.08e9 points);
pdfminer computes such positions as infinity or NaN from overflowing matrices and font
sizes."""

ACTIVE: ContextVar[DocumentBudget | None] = ContextVar("partita_pdf_budget", default=None)
"""The budget of the document whose pdfminer code is running, or None outside partita."""


class ContentLeftOutWarning(PartitaWarning):
    """Part of a page was left out: it exceeded one of the bounds above, or was drawn at
    positions or sizes out of range. The message names the page and what was cut."""


class PageCut(Exception):  # -- a signal, not an error: it never leaves the page --
    """Raised inside the page interpreter when a page bound is reached; `reason` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(slots=True)
class DocumentBudget:
    """What one document may still cost; every `charge_*` raises `DocumentLimitError` (naming
    `name`) when its bound is exceeded."""

    name: str
    file_bytes: int
    stream_bytes: int = 0
    resolutions: int = 0
    cmap_entries: int = 0
    tokens: int = 0
    glyphs: int = 0
    max_resolutions: int = field(init=False)
    max_tokens: int = field(init=False)
    max_glyphs: int = field(init=False)

    def __post_init__(self) -> None:
        self.max_resolutions = MAX_RESOLUTIONS + RESOLUTIONS_PER_BYTE * self.file_bytes
        self.max_tokens = MAX_DOCUMENT_TOKENS + TOKENS_PER_BYTE * self.file_bytes
        self.max_glyphs = MAX_DOCUMENT_GLYPHS + GLYPHS_PER_BYTE * self.file_bytes

    def refuse(self, message: str, limit: str) -> DocumentLimitError:
        """Return the error for this document exceeding the bound `limit`."""
        return DocumentLimitError(message, filename=self.name, limit=limit)

    def charge_stream(self, size: int) -> None:
        """Count `size` decoded bytes (one filter's output); refuse an oversized stream."""
        if size > MAX_STREAM_BYTES:
            raise self.refuse(
                f"a stream decodes to more than {MAX_STREAM_BYTES:,} bytes",
                "decoded stream size",
            )
        self.stream_bytes += size
        if self.stream_bytes > MAX_DOCUMENT_STREAM_BYTES:
            raise self.refuse(
                f"its streams decode to more than {MAX_DOCUMENT_STREAM_BYTES:,} bytes",
                "decoded document size",
            )

    def charge_resolution(self) -> None:
        """Count one reference followed."""
        self.resolutions += 1
        if self.resolutions > self.max_resolutions:
            raise self.refuse(
                f"it follows more than {self.max_resolutions:,} object references",
                "object references",
            )

    def charge_cmap_entry(self) -> None:
        """Count one code mapped by an embedded CMap."""
        self.cmap_entries += 1
        if self.cmap_entries > MAX_CMAP_ENTRIES:
            raise self.refuse(f"its CMaps map more than {MAX_CMAP_ENTRIES:,} codes", "CMap entries")

    def charge_tokens(self, count: int) -> None:
        """Count `count` tokens parsed from decoded streams."""
        self.tokens += count
        if self.tokens > self.max_tokens:
            raise self.refuse(
                f"its streams hold more than {self.max_tokens:,} tokens to parse",
                "parsed tokens",
            )

    def page_meter(self) -> PageMeter:
        """Return the meter for the next page: the page bounds, its glyphs within what is left
        of the document's (running out of that refuses the document). The document's tokens are
        checked when the page is done: the page's own bound keeps what one page may add."""
        glyphs_left = self.max_glyphs - self.glyphs
        glyphs = min(MAX_PAGE_GLYPHS, glyphs_left)
        return PageMeter(
            tokens=MAX_PAGE_TOKENS,
            glyphs=glyphs,
            streams=MAX_PAGE_STREAMS,
            token_limit=MAX_PAGE_TOKENS,
            glyph_limit=glyphs,
            document_glyphs=glyphs_left < MAX_PAGE_GLYPHS,
        )

    def settle(self, meter: PageMeter) -> None:
        """Add what a finished page used to the document's counters."""
        self.tokens += meter.parsed_tokens()
        self.glyphs += meter.drawn_glyphs()


@dataclass(slots=True)
class PageMeter:
    """What one page may still cost, counted down by the page interpreter; it stops the page
    (`PageCut`) when a count goes below zero."""

    tokens: int
    glyphs: int
    streams: int
    token_limit: int
    glyph_limit: int
    document_glyphs: bool
    """True when `glyph_limit` is what was left of the document's budget, not the page's."""
    deep_forms: int = 0
    """Form XObjects not drawn because they were nested too deep."""

    def drawn_glyphs(self) -> int:
        """Glyphs the page drew."""
        return self.glyph_limit - max(self.glyphs, 0)

    def parsed_tokens(self) -> int:
        """Tokens the page parsed, streams and paths weighted, its glyphs' weight left out."""
        used = self.token_limit - max(self.tokens, 0)
        return max(used - GLYPH_TOKENS * self.drawn_glyphs(), 0)
