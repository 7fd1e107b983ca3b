"""Sentence segmentation: rule-based, CJK-aware, linear.

Principles:

- **Rules, not a model.** Nothing is downloaded or trained; the same text always gives the same
  sentences. The rules follow the Golden Rules of the Pragmatic Segmenter (its English rules
  and those for Chinese, Japanese, German, French, Spanish and Russian; `tests/text/
  golden_rules.py`), and are conservative: where a boundary is ambiguous, no cut is made.
- **Offsets, not rewritten text.** `iter_sentence_spans` gives each sentence as `(start, end)`
  offsets into the text, so chunks can point back at their source; `split_sentences` slices
  them. The sentences, concatenated, are the text minus some whitespace between sentences:
  nothing else is dropped, moved or normalized (a line break inside a sentence stays there).
  Each sentence is stripped of surrounding whitespace, and none is empty.
- **Linear time.** One compiled regular expression stops at the characters that may end a
  sentence; each stop is decided by a bounded look at its neighbourhood (`_scanner`). Hostile
  inputs (a megabyte of dots, of `a.a.a.`, or without any punctuation) take time proportional
  to their length.

What ends a sentence:

- `.`, `!`, `?`, `…` (and `‼ ⁇ ⁈ ⁉`) followed by whitespace and a word that is not lower case
  (or directly by a Chinese or Japanese character), with the closing quotes and brackets right
  after the mark belonging to the sentence it ends (`He said "Stop." Then...`: the quote is the
  first sentence's);
- the Chinese and Japanese marks `。！？｡．` (and `?`, `!`, `.`, `…`, `……` right after a Chinese or
  Japanese character) whatever follows, with their closers (`」』”’）》】`); likewise the
  Armenian, Arabic, Urdu, Devanagari and Ethiopic full stops and question marks;
- a blank line (a paragraph break) or U+2029, always;
- a single line break before a bullet or a list marker (`• `, `- `, `2. `, `b) `);
- a bullet after whitespace, and a list marker that continues the paragraph's list
  (`1. The first item 2. The second item`, `a. ... b. ...`, `1) ... 2) ...`).

What does not:

- an end mark not followed by whitespace: decimals and money (`3.14`, `$5.50`), URLs, e-mail
  addresses and file names (`www.example.com`, `Jane.Doe@example.com`, `test.txt`), `Jr.'s`,
  `Yahoo!in`;
- a period before a lower-case word (`Jane and co. at the party`, `'This is great.' she said`),
  or an ellipsis before one (`I wasn't really ... well`) — except in text written without
  capitals (`_scanner.is_caseless`: a lower-cased corpus), where a period right after an ordinary
  word or a number ends the sentence whatever follows (`from november 22, 2017. the revolving
  credit`), as do `?` and `!`;
- abbreviations that qualify the next word (`Mr.`, `Dr.`, `St.`, `Mt.`, `e.g.`, `i.e.`, `vs.`,
  German `z. B.`, `bzw.`, Spanish `Sr.`, `Lic.`, Russian `г.`, `проф.`, ...), and any
  abbreviation before a number (`No. 5`, `p. 55`, `Jan. 3`, `N°. 1026`); other abbreviations
  end a sentence before a capitalized word (`Pitt, Briggs & Co. It closed`) but not before an
  initial (`Fed. R. Bankr. P. 3015`);
- initials and multi-period abbreviations, unless a common sentence starter follows (`J. R. R.
  Tolkien`, `the U.S. Government`; but `I live in the U.S. How about you?`);
- a German ordinal before a month (`vom 12. Juni`, `am 3. Oktober`);
- the number of a list item at the start of a sentence (`1. The first item`);
- an end mark inside brackets or quotes that close within a few hundred characters
  (`《摔跤吧！爸爸》`, `(He worked as an engineer.) at`, `«К чему? – спросила мама.»`), before a
  comma-like mark (`……，`) or, in Japanese, before a particle after a quotation (`「…」と`);
- a full-width full stop between digits (`３．２９`), an omission (`[...]`), and a spaced
  three-dot ellipsis (`. . .`); four dots end a sentence (`that.... She`, `a period . . . .
  Next`), after the first when it is attached to a word (`compounds. | . . . The practice`).

Known gaps (the Golden Rules this does not pass): an abbreviation at the end of a sentence
followed by a name (`at 6 P.M. Mr. Smith then went`: kept as one sentence); sentences with no
space between them (`Hello world.Today is Tuesday.`: `os.Path` and `Console.WriteLine` look
the same); a list of lower-case lines without punctuation, one per line (kept as one sentence:
a single line break is read as a wrapped line, which PDF text is full of).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from partita.text.sentences._scanner import SentenceScanner

__all__ = ["iter_sentence_spans", "split_sentences"]

_NON_SPACE = re.compile(r"\S")


def iter_sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    """Return an iterator over the `(start, end)` offsets of each sentence of `text`, in order.

    `text[start:end]` is the sentence: not empty, without leading or trailing whitespace.
    Spans increase and do not overlap; what lies between them (and before the first, after the
    last) is whitespace only. The rules are in this module's docstring.
    """
    return iter(_sentence_spans(text))


def split_sentences(text: str) -> list[str]:
    """Return the sentences of `text`, in order: `[text[s:e] for s, e in
    iter_sentence_spans(text)]`. Their concatenation is `text` without some of the whitespace
    between sentences; each is stripped and none is empty."""
    return [text[start:end] for start, end in _sentence_spans(text)]


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    """Return the spans of the sentences of `text`: the text between cuts, stripped."""
    spans = []
    start = 0
    for cut in SentenceScanner(text).run():
        span = _stripped_span(text, start, cut)
        if span is not None:
            spans.append(span)
        start = cut
    end = len(text)
    while end > start and text[end - 1].isspace():  # -- no copy of a whole document to strip --
        end -= 1
    span = _stripped_span(text, start, end)
    if span is not None:
        spans.append(span)
    return spans


def _stripped_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Return `(start, end)` narrowed to exclude leading and trailing whitespace, or None when
    `text[start:end]` is whitespace only."""
    if start >= end:
        return None
    if text[start].isspace():
        found = _NON_SPACE.search(text, start, end)
        if found is None:
            return None
        start = found.start()
    while text[end - 1].isspace():
        end -= 1
    return start, end
