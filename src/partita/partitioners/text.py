"""Plain text to elements.

PRINCIPLES

- **Paragraphs are blocks.** Blocks are separated by blank lines (or form feeds). The lines of a
  block are joined with one space, or with nothing between two CJK characters, because CJK text
  wraps without spaces. Whitespace inside a line is kept as it is.
- **List items are marked lines.** A line that starts with a bullet (`•`, `-`, `*`, `▪`, ...)
  followed by a space, or with a list number (`1.`, `2)`, `(3)`, `a.`, `iv)`, `一、`), starts a
  ListItem; the bullet is removed, a number is kept (as the reference does). Following lines of
  the same block continue the item. `category_depth` comes from indentation: an item indented
  more than the one before it is one level deeper.
- **Titles are short lines standing alone.** A block becomes a Title when it is a single line
  of at most 12 words and 500 characters (40 characters for CJK text), has a letter, does not
  end in sentence or clause punctuation (`. , ; : ! ?` and their full-width forms), and is
  followed by another block.
  A line underlined by `===` or `---` (setext style) is a Title too, of depth 0 or 1. A title
  numbered like `2.1 Scope` gets `category_depth` from its number of parts minus one.
- **Everything else** is NarrativeText, or UncategorizedText (`Text`) when it has no letter.
- Text has no pages: `page_number` is None. `filetype` is `text/plain`.
- **Bytes and bounds.** Bytes decode as UTF-8 (a BOM honoured; a damaged UTF-8 file too, its bad
  bytes as U+FFFD), UTF-16 with a BOM, else Windows-1252; every character is kept (plain text
  goes into no markup, so control characters stay). An explicit encoding that is unknown, no
  text encoding or failing raises `partita.errors.DocumentError`. A document over 48 MiB, or
  giving more than 200,000 elements or 256 Mi characters, raises `DocumentLimitError`
  (`_html_limits`). The work is linear in the text: long lines, many blank lines and long runs
  of spaces cost no more per character than prose.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import IO

from partita.elements import Element, ListItem, NarrativeText, Text, Title
from partita.partitioners._build import Draft
from partita.partitioners._document import iter_document_elements
from partita.partitioners._html_limits import MAX_TEXT_BYTES
from partita.partitioners._source import decode_text
from partita.partitioners._text import BULLET_LINE, NUMBERED_LINE
from partita.text._scripts import is_cjk
from partita.text._whitespace import join_lines

__all__ = ["iter_text_elements", "partition_text"]

FILETYPE = "text/plain"

_BLANK_SPLIT = re.compile(r"\n[ \t\u00a0\u3000\f\v]*\n|\f")
_SETEXT_UNDERLINE = re.compile(r"^[ \t]*(=+|-+)[ \t]*$")
_TERMINAL_PUNCTUATION = frozenset(".,;:!?。，；：！？、…")
_HEADING_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3})+)\.?\s+\S")
_MAX_TITLE_WORDS = 12
_MAX_CJK_TITLE_CHARS = 40
_MAX_TITLE_CHARS = 500
"""No title is longer: a line of a few words but thousands of characters (a URL, a run of
symbols) is text, and the per-character title checks stay short."""


def partition_text(
    filename: str | os.PathLike[str] | None = None,
    *,
    file: IO[bytes] | IO[str] | None = None,
    text: str | None = None,
    encoding: str | None = None,
    metadata_filename: str | None = None,
) -> list[Element]:
    """Return the elements of a plain-text document (see the module's PRINCIPLES).

    Give exactly one of `filename`, `file` and `text`. `encoding` overrides decoding (UTF-8, with
    UTF-16 and Windows-1252 fallbacks). `metadata_filename` names the document in metadata.
    """
    return list(
        iter_text_elements(
            filename, file=file, text=text, encoding=encoding, metadata_filename=metadata_filename
        )
    )


def iter_text_elements(
    filename: str | os.PathLike[str] | None = None,
    *,
    file: IO[bytes] | IO[str] | None = None,
    text: str | None = None,
    encoding: str | None = None,
    metadata_filename: str | None = None,
) -> Iterator[Element]:
    """Generate the elements of a plain-text document; see `partition_text`."""
    return iter_document_elements(
        filename,
        file,
        text,
        metadata_filename,
        max_bytes=MAX_TEXT_BYTES,
        filetype=FILETYPE,
        drafts=lambda source, name: iter_text_drafts(decode_text(source.data, encoding, name)),
    )


def iter_text_drafts(content: str) -> Iterator[Draft]:
    """Generate the element drafts of `content`, block by block."""
    content = content.replace("\r\n", "\n").replace("\r", "\n")
    blocks = [b for b in _BLANK_SPLIT.split(content) if b.strip()]
    for index, block in enumerate(blocks):
        has_next = index + 1 < len(blocks)
        yield from _iter_block_drafts(block, has_next)


def _iter_block_drafts(block: str, has_next: bool) -> Iterator[Draft]:
    lines = [line for line in block.split("\n") if line.strip()]
    if len(lines) == 2 and (underline := _SETEXT_UNDERLINE.match(lines[1])):
        depth = 0 if underline.group(1)[0] == "=" else 1
        yield Draft(Title, lines[0].strip(), {"category_depth": depth})
        return

    paragraph: list[str] = []
    item: list[str] = []
    item_depth = 0
    indents: list[int] = []

    def flush() -> Iterator[Draft]:
        if paragraph:
            yield _paragraph_draft(paragraph, has_next and not item)
            paragraph.clear()
        if item:
            yield Draft(ListItem, join_lines(item), {"category_depth": item_depth})
            item.clear()

    for line in lines:
        bullet = BULLET_LINE.match(line)
        number = None if bullet else NUMBERED_LINE.match(line)
        if bullet or number:
            yield from flush()
            indent = _indent_width(line)
            while indents and indents[-1] > indent:
                indents.pop()
            if not indents or indents[-1] < indent:
                indents.append(indent)
            item_depth = len(indents) - 1
            item.append(line[bullet.end() :] if bullet else line.strip())
        elif item:
            item.append(line)
        else:
            paragraph.append(line)
    if paragraph and not item:
        yield _paragraph_draft(paragraph, has_next)
        paragraph.clear()
    yield from flush()


def _paragraph_draft(lines: list[str], has_next: bool) -> Draft:
    text = join_lines(lines)
    if len(lines) == 1 and has_next and _is_heading_like(text):
        numbered = _HEADING_NUMBER.match(text)
        depth = numbered.group(1).count(".") if numbered else 0
        return Draft(Title, text, {"category_depth": depth})
    if not any(c.isalpha() for c in text):
        return Draft(Text, text)
    return Draft(NarrativeText, text)


def _is_heading_like(text: str) -> bool:
    if not text or len(text) > _MAX_TITLE_CHARS or text[-1] in _TERMINAL_PUNCTUATION:
        return False
    if not any(c.isalpha() for c in text):
        return False
    cjk = sum(1 for c in text if is_cjk(c))
    if cjk > len(text) // 2:
        return len(text) <= _MAX_CJK_TITLE_CHARS
    return len(text.split()) <= _MAX_TITLE_WORDS


def _indent_width(line: str) -> int:
    width = 0
    for char in line:
        if char == " ":
            width += 1
        elif char == "\t":
            width += 4
        else:
            break
    return width
