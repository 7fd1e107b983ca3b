"""Bounds on the work one .docx may cost, and the budget that enforces the document-wide ones.

A .docx is small on disk and can be made to cost without limit: deflate inflates a thousandfold,
libxml2 builds a node of about 120 bytes (an attribute about 220) for every few bytes of markup,
every paragraph becomes an element, and numbers read from the XML (spans, list starts) can drive
loops. Each bound below names what it protects; a document beyond a *size* bound raises
`DocumentLimitError` naming the bound (`limit`), and a number beyond a *format* bound is clamped
to what the format (or Word, per [MS-OI29500], Microsoft's notes on how Office implements
ISO/IEC 29500) allows, so the document still reads.

The costliest documents within the bounds (the floods in `tests/robustness/hostile_docx.py`:
500,000 section breaks or cells, 1,000,000 unended fields, 100,000 elements) partition in under
6 s and 600 MB on a loaded two-core machine; exporting, reading back and chunking the largest
output allowed (100,000 elements, 123 Mi characters) took 12 s more and 1 GB there.
"""

from __future__ import annotations

from collections.abc import Iterable

from partita.elements import Link
from partita.errors import DocumentLimitError
from partita.partitioners._build import Draft

__all__ = [
    "MAX_BLOCKS",
    "MAX_ELEMENTS",
    "MAX_IMPORT_DEPTH",
    "MAX_LEVEL_TEXT",
    "MAX_LIST_LEVEL",
    "MAX_LIST_NUMBER",
    "MAX_OUTPUT_CHARS",
    "MAX_PART_BYTES",
    "MAX_STYLE_CHAIN",
    "MAX_TABLE_COLUMNS",
    "MAX_TOTAL_BYTES",
    "MAX_XML_NODES",
    "MAX_ZIP_ENTRIES",
    "MIN_LIST_NUMBER",
    "Budget",
    "clamp",
    "draft_chars",
]

# -- size bounds: past them the document is refused (DocumentLimitError) --

MAX_ZIP_ENTRIES = 65_535
"""Entries in the zip: the most a zip without ZIP64 extensions holds. Word writes a few dozen;
each entry costs about 500 bytes and 4 µs to list (limit "zip entries")."""
MAX_PART_BYTES = 64 * 1024 * 1024
"""Bytes one XML part may inflate to (limit "part size"). An 872-page handbook's main part is
5 MB; 64 MiB is about 10,000 such pages."""
MAX_TOTAL_BYTES = 128 * 1024 * 1024
"""Bytes all the parts read from one package may inflate to together (limit "document size")."""
MAX_XML_NODES = 3_000_000
"""XML nodes the parts parsed from one package may hold together (limit "XML nodes"), estimated
before parsing as the count of `<`, `=` and `&` in the markup (tags, attributes, entity
references). Each costs libxml2 120-220 bytes, and each element the walk visits 1-2 µs of
Python: at most about 800 MB of parsed trees and a few seconds. The 872-page handbook's main
part has 344,000, so this is about 7,500 such pages."""
MAX_BLOCKS = 500_000
"""Paragraphs, tables, table rows and cells one document may hold (limit "blocks"), empty or
not: each costs 2-10 µs to walk (a section break the most) and a row or cell is kept until its
table is written. The handbook has 8,166."""
MAX_ELEMENTS = 100_000
"""Elements one document may give (limit "elements"): each costs about 20 µs and 1 KB to
partition, and three times that again to export, read back and chunk. The handbook gives
4,765, so this is about 18,000 such pages."""
MAX_OUTPUT_CHARS = 128 * 1024 * 1024
"""Characters of text and metadata (text, `text_as_html`, link texts and URLs, emphasized texts)
one document may give (limit "output size"). Text is bounded by the parts' sizes; this bounds
what repeats one string of the input many times (a relationship's URL behind every link), and
keeps the elements' JSON, read back and chunked, within a few seconds and 2 GiB."""

# -- format bounds: numbers read from the XML are clamped to these --

MAX_TABLE_COLUMNS = 63
"""The most grid columns one cell spans (`w:gridSpan`) or a row skips (`w:gridBefore`): Word
refuses to open a table wider than 63 columns, so no span in a document Word wrote exceeds it.
(Office also caps `w:tblGrid` at 1,000 `w:gridCol`: [MS-OI29500] 2.1.1425.)"""
MAX_LIST_LEVEL = 8
"""The deepest list level: Word does not load `w:lvl` with `ilvl` outside 0-8 ([MS-OI29500]
2.1.280). A paragraph's `ilvl` beyond it gives no label, and a list depth of at most 8."""
MIN_LIST_NUMBER = -(2**31)
MAX_LIST_NUMBER = 2**31 - 1
"""List start values (`w:start`, `w:startOverride`) are ST_DecimalNumber, which Word stores as a
32-bit signed integer; larger values are clamped to it."""
MAX_LEVEL_TEXT = 64
"""Characters of a level's label template (`w:lvlText`) kept: Word requires the rendered label
to be at most 31 characters ([MS-OI29500] 2.1.283), so a template longer than 64 is not Word's;
the rest is dropped (with a `DocxContentWarning`)."""
MAX_STYLE_CHAIN = 32
"""Styles followed along a `w:basedOn` chain (cycles are cut where they repeat)."""
MAX_IMPORT_DEPTH = 4
"""Documents imported into documents (`w:altChunk` of WordprocessingML) followed this deep; a
deeper one is left out with a warning. A document importing itself stops here, and the imports
at every depth count against the one document's bounds above (see `_altchunks`)."""


def draft_chars(draft: Draft) -> int:
    """Return the characters `draft` adds to the output: text, HTML, link texts and URLs (each
    twice: in `links` and in `link_texts` / `link_urls`), emphasized texts."""
    meta = draft.meta
    chars = len(draft.text) + len(meta.get("text_as_html", ""))
    links: Iterable[Link] = meta.get("links", ())
    for link in links:
        chars += 2 * (len(link.text or "") + len(link.url))
    for text in meta.get("emphasized_text_contents", ()):
        chars += len(text)
    return chars


def clamp(value: int, low: int, high: int) -> int:
    """Return `value` limited to `low`..`high`."""
    return low if value < low else high if value > high else value


class Budget:
    """Counts the blocks walked and the elements and output characters given by one document
    against `MAX_BLOCKS`, `MAX_ELEMENTS` and `MAX_OUTPUT_CHARS`; passing one raises
    `DocumentLimitError` naming the file and the bound."""

    def __init__(self, name: str) -> None:
        self._name = name
        self.blocks = 0
        self.elements = 0
        self.chars = 0

    def spend_block(self) -> None:
        """Count one more paragraph, table, row or cell walked."""
        self.blocks += 1
        if self.blocks > MAX_BLOCKS:
            raise DocumentLimitError(
                f"the document holds more than {MAX_BLOCKS:,} paragraphs, tables, rows and cells",
                filename=self._name,
                limit="blocks",
            )

    def has_room(self, elements: int, chars: int) -> bool:
        """True when `elements` more elements of `chars` characters in all stay within bounds."""
        return self.elements + elements <= MAX_ELEMENTS and self.chars + chars <= MAX_OUTPUT_CHARS

    def spend_element(self, chars: int) -> None:
        """Count one more element of `chars` output characters."""
        self.elements += 1
        self.chars += chars
        if self.elements > MAX_ELEMENTS:
            raise DocumentLimitError(
                f"the document gives more than {MAX_ELEMENTS:,} elements",
                filename=self._name,
                limit="elements",
            )
        if self.chars > MAX_OUTPUT_CHARS:
            raise DocumentLimitError(
                f"the document gives more than {MAX_OUTPUT_CHARS:,} characters of text and"
                " metadata",
                filename=self._name,
                limit="output size",
            )
