"""Bold paragraphs that are headings: the Titles of documents (SEC filings, reports exported to
HTML) that write their headings as bold paragraphs instead of `h1`-`h6`.

Contract: `bold_heading_depth(text)` is the `category_depth` of a paragraph whose whole text is
bold (`b`, `strong`, or an inline style with `font-weight` bold or 600 and above) when the text
looks like a heading, else None. It looks like a heading when it is short (at most
`MAX_HEADING_WORDS` words and `MAX_HEADING_CHARACTERS` characters), holds a letter, does not
start with an opening bracket or a lowercase letter, does not end with a comma, semicolon or colon,
holds no sentence end followed by more text (after a leading "Item 7." or "Note 3."), ends with a
period only after such a label, is not a date line ("YEARS ENDED DECEMBER 31, 2021 AND 2020", the
line under a statement's title), and is written in capitals or title case (at least half its
words of four letters or more capitalized). Depths: "PART II" 0, "Item 7. ..." 1, any other
heading 2 (a statement's title, a subsection). Bold text inside prose is never a heading: the
caller asks only about paragraphs with no text outside bold.
"""

from __future__ import annotations

import re

__all__ = ["MAX_HEADING_CHARACTERS", "MAX_HEADING_WORDS", "bold_heading_depth", "is_bold_style"]

MAX_HEADING_WORDS = 16
"""Longer bold paragraphs are not headings ("Item 7. Management's Discussion and Analysis of
Financial Condition and Results of Operations" has 13 words)."""

MAX_HEADING_CHARACTERS = 150

_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(bold(?:er)?|[6-9]00)\b", re.IGNORECASE)
_PART = re.compile(r"part\s+[ivx]+\b\.?", re.IGNORECASE)
_ITEM = re.compile(r"item\s+\d{1,2}[a-z]?\b\.?", re.IGNORECASE)
_NOTE = re.compile(r"note\s+\d{1,2}\b\.?", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?]\s+\S")
_LONG_WORD = re.compile(r"[^\W\d_]{4,}")
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_DATE_LINE = re.compile(
    r"(?:(?:for\s+the\s+)?(?:fiscal\s+)?(?:years?|quarters?|periods?|(?:three|six|nine|twelve)"
    rf"\s+months)\s+ended\s+|as\s+of\s+|at\s+)?(?:{_MONTHS})\s+\d{{1,2}}\b",
    re.IGNORECASE,
)


def is_bold_style(style: str) -> bool:
    """True when the inline `style` sets a bold font weight."""
    return "weight" in style.lower() and _BOLD_STYLE.search(style) is not None


def bold_heading_depth(text: str) -> int | None:
    """The depth of the heading the wholly bold paragraph `text` is, or None (see the module
    docstring)."""
    text = " ".join(text.split())
    words = text.split(" ")
    if not text or len(text) > MAX_HEADING_CHARACTERS or len(words) > MAX_HEADING_WORDS:
        return None
    if not any(c.isalpha() for c in text) or text[0] in "([{" or text[0].islower():
        return None
    if text[-1] in ",;:" or _DATE_LINE.match(text):
        return None
    part, item, note = _PART.match(text), _ITEM.match(text), _NOTE.match(text)
    if part is not None:
        depth, rest = 0, text[part.end() :]
    elif item is not None:
        depth, rest = 1, text[item.end() :]
    elif note is not None:
        depth, rest = 2, text[note.end() :]
    else:
        depth, rest = 2, text
        if text.endswith("."):
            return None
    if _SENTENCE_END.search(rest.rstrip(".")):
        return None
    long_words = _LONG_WORD.findall(rest)
    capitalized = sum(1 for word in long_words if word[0].isupper())
    if long_words and capitalized * 2 < len(long_words):
        return None
    return depth
