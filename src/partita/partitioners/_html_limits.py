"""Bounds on the work one HTML, Markdown or plain-text document may cost, and their checks.

(One module for the three formats: Markdown embeds HTML, and they share the output bounds.)

These formats are read whole, and a small file can be made to cost without limit: libxml2
builds a node of 120-220 bytes for every few bytes of markup (about 45 bytes of memory per byte
of a dense tag flood) and compares every attribute of a tag with every other (quadratic time),
every paragraph becomes an element of about 1 KB, and one string of the input can be repeated
into every element (a link's URL across many blocks, a Markdown reference's URL at every use,
the front matter in every element's metadata). A document past a bound raises
`DocumentLimitError` naming the bound (`limit`); the bounds are far above what real documents
need (the shared corpus's largest HTML, a 10-K filing of 2.4 MB, gives 474 elements).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from sys import maxsize as size_max

from partita.errors import DocumentLimitError
from partita.partitioners._build import Draft

__all__ = [
    "MAX_ATTRIBUTES",
    "MAX_ELEMENTS",
    "MAX_HTML_BYTES",
    "MAX_HTML_DEPTH",
    "MAX_HTML_TAGS",
    "MAX_INLINE_NESTING",
    "MAX_MARKDOWN_BYTES",
    "MAX_MARKDOWN_LINES",
    "MAX_MARKDOWN_MARKUP",
    "MAX_OUTPUT_CHARS",
    "MAX_QUOTED_LINE_LEVELS",
    "MAX_TEXT_BYTES",
    "check_attribute_counts",
    "check_markdown_cost",
    "check_quote_nesting",
    "check_tag_count",
    "iter_within_budget",
]

MAX_TEXT_BYTES = 48 * 1024 * 1024
"""Bytes (or characters, for text given as a string) of one plain-text document (limit
"document size"): at the bound, 10 million short lines in one block take 7 s and 1 GB, one
paragraph of words 0.6 s."""

MAX_HTML_BYTES = 32 * 1024 * 1024
"""Bytes (or characters) of one HTML document (limit "document size"). libxml2 needs up to
about 45 bytes of memory per byte of the densest markup (a flood of tags or attributes): 48 MiB
of attributes took 1.4 GB, of `<p>` 2.2 GB. At 32 MiB (and `MAX_HTML_TAGS`) the worst floods
measured take 5.5 s and 930 MB. A text node or a `data:` URI may be as large as the document
(libxml2's own limit, without `huge_tree`, is 10 MB)."""

MAX_HTML_TAGS = 2_000_000
"""`<` characters in one HTML document, a bound on its tags (limit "tags"): each costs libxml2
about 150 bytes and the walk 2-4 µs even when it holds no text (48 MiB of `<p>`, 16 million
tags, took 65 s). The 10-K filing of 2.4 MB has 40,000."""

MAX_MARKDOWN_BYTES = 4 * 1024 * 1024
"""Bytes of one Markdown document (limit "document size"): about 8 long books. Prose costs
markdown-it-py well under 1 µs per character; markup characters and lines, which cost more, are
bounded apart."""

MAX_MARKDOWN_MARKUP = 150_000
"""Characters of one Markdown document that markdown-it-py tries its inline rules on (`[ ] * _
` ! < > & \\ | ~`; limit "markup characters"): each costs 5-15 µs where prose costs far less,
and dense markup (tables, lists, links) makes a token every few characters, each costing
markdown-it and partita about 20 µs. At the bound, 1.9 MB of duplicated tables and lists took
9.5 s and 250 MB on a loaded two-core machine (a fuzzing trial of 6 MB took 27 s before the
bound). A long technical book has 50,000-100,000."""

MAX_MARKDOWN_LINES = 100_000
"""Lines of one Markdown document (limit "lines"): every line costs markdown-it-py's block rules
5-10 µs even when it gives no element (500,000 empty list items took 6 s and 420 MB), and a
line can make an element (about 90 µs each in Markdown: a fuzzing trial of 145,000 lines gave
106,000 elements in 10 s). A long book has about 50,000."""

MAX_INLINE_NESTING = 10
"""Inline markup nested in inline markup (a link in an image's text, ...) that markdown-it
parses; deeper markup is kept as its text. Each unclosed `[` makes markdown-it look ahead this
many levels, so its cost per character grows with it (markdown-it's default, 100, made a flood
of `![` cost 85 µs per character; 10 costs 12)."""

MAX_QUOTED_LINE_LEVELS = 2_000_000
"""Lines of block quotes, each counted as many times as it is deep (limit "quote nesting"):
markdown-it reads every line of a quote again at each nesting level, about 5.5 µs per line and
level when the lines continue a paragraph lazily (without their `>` markers), so a line of 98
`>` followed by 100,000 lazy lines took a minute. 2,000,000 is about 11 s; a thread of e-mails
quoted 20 deep over 10,000 lines counts 200,000."""

MAX_HTML_DEPTH = 2048
"""Elements nested in one another (limit "nesting depth"): libxml2's limit with `huge_tree`.
Deeper content would be dropped by the parser, so the document is refused instead."""

MAX_ATTRIBUTES = 256
"""Attributes of one HTML tag (limit "attributes per tag"). libxml2 compares each attribute of a
tag with all the ones before it: a tag of 32,000 attributes (200 KB) takes 3 s, one of 128,000
a minute, and a document of tags of 600 attributes 0.4 µs per byte. At 256, the densest flood
costs about 0.13 µs per byte. Real tags have a few dozen."""

MAX_ELEMENTS = 200_000
"""Elements one document may give (limit "elements"), as for docx: each costs about 25 µs
(60 µs in Markdown) and 1 KB in partitioning, and several times that when exported and
chunked."""

MAX_OUTPUT_CHARS = 256 * 1024 * 1024
"""Characters of text and metadata one document may give (limit "output size"): text,
`text_as_html`, link texts and URLs, emphasized texts, image data and URLs, and the front matter
each element carries. Text is bounded by the document's size; this bounds what repeats one
string of the input in many elements."""

_MARKUP_CHARACTERS = "[]*_`!<>&\\|~"
_QUOTED_LINE = re.compile(r"\n {0,3}>(?:[ \t]*>)*")
"""A quoted Markdown line's markers, found after the newline before it (the text searched
starts with one)."""
_BLANK_LINE = re.compile(r"\n[ \t]*(?:\n|$)")
_TAG_NAME = re.compile(rb"<[^\s/>]*")
_ATTRIBUTE = re.compile(rb"""[\s/]*(?:=?[^\s/>=]+)(?:\s*=\s*(?:"[^"]*"?|'[^']*'?|[^\s>]*))?""")
"""An attribute as the HTML tokenizer reads one: a name (any characters but whitespace, `/`,
`>` and `=`), then maybe `=` and a value; a quoted value may hold `>` and runs to the end of
the document when its quote is not closed."""
_QUOTED_OR_OTHER = rb"""(?:[^>"']++|"[^"]*+"?|'[^']*+'?)*+"""
_MARKUP_TOKEN = re.compile(
    rb"(?P<comment><!--.*?(?:-->|\Z))"
    rb"|(?P<raw><(?P<name>script|style|textarea|title|xmp|iframe|noembed|noframes|noscript"
    rb"|plaintext)(?=[\s/>])" + _QUOTED_OR_OTHER + rb">?.*?(?:</(?P=name)|\Z))"
    rb"|(?P<tag><[a-zA-Z]" + _QUOTED_OR_OTHER + rb">?)",
    re.IGNORECASE | re.DOTALL,
)
"""A comment, a raw-text element (whose content holds no tags), or another tag, its quoted
attribute values read whole."""
_WINDOW = 384
"""A tag of more than `MAX_ATTRIBUTES` distinct attributes is longer than 2 * `_WINDOW` bytes
(beyond the 64 one-letter names, a name and the space before it take at least 3 bytes), so some
aligned window of `_WINDOW` bytes inside it holds no `>` (unless quoted values hold them: see
the note on this bound in docs/untrusted-documents.md)."""


def check_tag_count(data: bytes, name: str | None) -> None:
    """Raise `DocumentLimitError` when the markup `data` has more than `MAX_HTML_TAGS` `<`."""
    tags = data.count(b"<")
    if tags > MAX_HTML_TAGS:
        raise DocumentLimitError(
            f"the document has {tags:,} tags, more than {MAX_HTML_TAGS:,}",
            filename=name,
            limit="tags",
        )


def check_attribute_counts(data: bytes, name: str | None) -> None:
    """Raise `DocumentLimitError` when a tag of the markup `data` has more than
    `MAX_ATTRIBUTES` attributes.

    Only the windows of `_WINDOW` bytes without a `>` are looked at (long text, long attribute
    values, long tags), so well-formed documents cost a `bytes.find` per window. For each, the
    tag it may sit in (from the last `<` and a letter before it) is read with quotes respected;
    a tag of too many attributes is refused unless it lies in a comment or a raw-text element
    (`<script>`, `<style>`, ...), where a `<` starts no tag.

    Known gap: a tag whose quoted attribute values hold `>` (in every window) or `<` (the last
    one before the window) evades the scan, and libxml2's quadratic time remains for it (32,000
    attributes: 3 s). Closing it needs a tokenizer of every tag, about 13 ms on the 2.4 MB 10-K
    filing in Python, or a parser that hashes attributes.
    """
    size = len(data)
    pos = 0
    scanned = 0  # -- every tag opening before this offset has been counted --
    raw_spans: list[tuple[int, int]] | None = None
    while pos < size:
        if data.find(b">", pos, pos + _WINDOW) >= 0:
            pos += _WINDOW
            continue
        start = data.rfind(b"<", scanned, pos)
        while start >= 0 and not data[start + 1 : start + 2].isalpha():
            start = data.rfind(b"<", scanned, start)
        scanned = pos
        if start >= 0:
            count, scanned = _count_attributes(data, start)
            if count > MAX_ATTRIBUTES:
                if raw_spans is None:
                    raw_spans = _raw_text_spans(data)
                span_end = _end_of_span_holding(raw_spans, start)
                if span_end is None:
                    raise DocumentLimitError(
                        f"a tag has more than {MAX_ATTRIBUTES:,} attributes (libxml2's time"
                        " grows with the square of a tag's attributes)",
                        filename=name,
                        limit="attributes per tag",
                    )
                scanned = span_end  # -- a `<` in a script, a style or a comment: no tag --
        pos = max(pos + _WINDOW, scanned)


def _raw_text_spans(data: bytes) -> list[tuple[int, int]]:
    """Return the spans of `data`'s comments and raw-text elements (`<script>`, `<style>`, ...),
    where a `<` starts no tag, found by reading every tag with its quoted values (so that a
    `<script>` inside an attribute value is none). Called only for a suspected tag flood."""
    return [match.span() for match in _MARKUP_TOKEN.finditer(data) if match.lastgroup != "tag"]


def _end_of_span_holding(spans: list[tuple[int, int]], offset: int) -> int | None:
    """Return the end of the span of `spans` (sorted, disjoint) that holds `offset`, or None."""
    index = bisect.bisect_right(spans, (offset, size_max)) - 1
    if index >= 0 and spans[index][0] <= offset < spans[index][1]:
        return spans[index][1]
    return None


def _count_attributes(data: bytes, start: int) -> tuple[int, int]:
    """Return the number of attributes (at most `MAX_ATTRIBUTES` + 1) of the tag opening at
    `start`, and where the counting stopped."""
    pos = _TAG_NAME.match(data, start).end()  # type: ignore[union-attr]
    count = 0
    while count <= MAX_ATTRIBUTES:
        match = _ATTRIBUTE.match(data, pos)
        if match is None:
            break
        count += 1
        pos = match.end()
    return count, pos


def check_markdown_cost(text: str, name: str | None) -> None:
    """Raise `DocumentLimitError` when the Markdown `text` has more than `MAX_MARKDOWN_MARKUP`
    markup characters or `MAX_MARKDOWN_LINES` lines, or its quotes exceed
    `MAX_QUOTED_LINE_LEVELS` (see `check_quote_nesting`)."""
    lines = text.count("\n") + 1
    if lines > MAX_MARKDOWN_LINES:
        raise DocumentLimitError(
            f"the document has {lines:,} lines, more than {MAX_MARKDOWN_LINES:,}",
            filename=name,
            limit="lines",
        )
    markup = sum(text.count(char) for char in _MARKUP_CHARACTERS)
    if markup > MAX_MARKDOWN_MARKUP:
        raise DocumentLimitError(
            f"the document has {markup:,} markup characters, more than {MAX_MARKDOWN_MARKUP:,}"
            " (markdown-it-py tries every inline rule on each)",
            filename=name,
            limit="markup characters",
        )
    check_quote_nesting(text, name)


def check_quote_nesting(text: str, name: str | None) -> None:
    """Raise `DocumentLimitError` when the block quotes of the Markdown `text` exceed
    `MAX_QUOTED_LINE_LEVELS`.

    Each run of lines up to a blank line that holds a quoted line counts its lines times the
    deepest quote marker run (`> > >`) that starts one of its lines: an upper bound of the lines
    markdown-it reads again per level, lazy continuation lines included.
    """
    if ">" not in text:
        return
    levels = 0
    run_end = -1
    depth = 0
    run_start = 0
    for match in _QUOTED_LINE.finditer("\n" + text):
        at = match.start()
        if at >= run_end:
            levels += depth * _line_count(text, run_start, run_end)
            blank = _BLANK_LINE.search(text, at)
            run_start, run_end, depth = at, (blank.start() if blank else len(text)), 0
        depth = max(depth, match.group().count(">"))
    levels += depth * _line_count(text, run_start, run_end)
    if levels > MAX_QUOTED_LINE_LEVELS:
        raise DocumentLimitError(
            f"block quotes count {levels:,} lines times their nesting, more than"
            f" {MAX_QUOTED_LINE_LEVELS:,} (markdown-it reads each line again at every level)",
            filename=name,
            limit="quote nesting",
        )


def _line_count(text: str, start: int, end: int) -> int:
    return text.count("\n", start, end) + 1 if end > start else 0


def iter_within_budget(drafts: Iterable[Draft], name: str | None) -> Iterator[Draft]:
    """Generate `drafts`, raising `DocumentLimitError` naming `name` once they pass
    `MAX_ELEMENTS` elements or `MAX_OUTPUT_CHARS` characters of text and metadata.

    Links are counted through `link_texts` and `link_urls` twice (their `links` hold the same
    strings); `extra` (the front matter, shared by every element) is measured once, by identity.
    """
    chars = 0
    sizes: dict[int, int] = {}
    for elements, draft in enumerate(drafts, 1):
        if elements > MAX_ELEMENTS:
            raise DocumentLimitError(
                f"the document gives more than {MAX_ELEMENTS:,} elements",
                filename=name,
                limit="elements",
            )
        get = draft.meta.get
        chars += len(draft.text)
        if value := get("text_as_html"):
            chars += len(value)
        if value := get("link_urls"):
            chars += 2 * (sum(map(len, value)) + sum(map(len, get("link_texts") or ())))
        if value := get("emphasized_text_contents"):
            chars += sum(map(len, value))
        if value := get("image_base64"):
            chars += len(value)
        if value := get("image_url"):
            chars += len(value)
        if extra := get("extra"):
            size = sizes.get(id(extra))
            if size is None:
                size = sizes[id(extra)] = len(repr(extra))
            chars += size
        if chars > MAX_OUTPUT_CHARS:
            raise DocumentLimitError(
                f"the document gives more than {MAX_OUTPUT_CHARS:,} characters of text and"
                " metadata",
                filename=name,
                limit="output size",
            )
        yield draft
