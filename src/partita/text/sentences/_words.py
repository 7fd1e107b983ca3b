"""The words on either side of a period: what the word before it is (a number, an abbreviation,
an initial, ...) and whether the word after it lets the period end a sentence.

A period followed by whitespace ends a sentence unless the words around it say otherwise; this
module holds that decision (`period_ends_sentence`) and the classification it rests on. It
looks at two short strings only, so its cost does not depend on the length of the text.
"""

from __future__ import annotations

import re
from typing import Final

from partita.text.sentences._vocabulary import (
    ABBREVIATIONS,
    CLOSERS,
    MONTHS,
    NEVER_FINAL,
    NEVER_FINAL_CASED,
    OPENERS,
    SENTENCE_STARTERS,
    WORD_SKIP,
)

__all__ = [
    "ABBREVIATION",
    "INITIAL",
    "MULTI_PERIOD",
    "NEVER",
    "NUMBER",
    "PLAIN",
    "classify_word",
    "first_letter",
    "is_list_marker",
    "leading_word",
    "marker_follows",
    "period_ends_sentence",
    "strip_word",
]

PLAIN: Final = 0
"""An ordinary word (or a URL, an e-mail address, a file name): its period ends a sentence."""
NUMBER: Final = 1
"""A number (`55`, `$100.00`, `1,000`, `1026.253.553`)."""
ABBREVIATION: Final = 2
"""An abbreviation that may end a sentence (`Co`, `etc`, `No`)."""
NEVER: Final = 3
"""An abbreviation that never ends a sentence (`Mr`, `e.g`, `z.B`)."""
INITIAL: Final = 4
"""A single letter (`E` in `Jonas E. Smith`, the pronoun `I`)."""
MULTI_PERIOD: Final = 5
"""Letters separated by periods (`U.S`, `a.m`, `Ph.D`, `LL.AA.II.RR`)."""

_NUMBER_SIGNS = "$€£¥#+-−"
_NUMBER = re.compile(r"[$€£¥#+\-−]?\d[\d.,:/'’]*%?")
_MULTI_PERIOD = re.compile(r"(?:[^\W\d_]{1,3}\.)+[^\W\d_]{1,3}")
_WORD = re.compile(r"[^\W\d_]+")
_INITIAL = re.compile(r"[^\W\d_]\.")
_STRIPPED_AFTER = CLOSERS
_STRIPPED_BEFORE = OPENERS + "•⁃◦▪‣●▸►"


def strip_word(raw: str) -> tuple[str, int]:
    """Return `raw` (the characters before an end mark back to whitespace) without its trailing
    closers and leading openers and bullets, and the number of leading characters removed."""
    word = raw.rstrip(_STRIPPED_AFTER)
    stripped = word.lstrip(_STRIPPED_BEFORE)
    return stripped, len(word) - len(stripped)


def classify_word(word: str) -> int:
    """Return the kind of `word`, the word before a period (`PLAIN`, `NUMBER`, ...)."""
    if not word:
        return PLAIN
    lower = word.lower()
    if lower in NEVER_FINAL or word in NEVER_FINAL_CASED:
        return NEVER
    if lower in ABBREVIATIONS:
        return ABBREVIATION
    if (word[0].isdigit() or word[0] in _NUMBER_SIGNS) and _NUMBER.fullmatch(word):
        return NUMBER
    if len(word) == 1 and word.isalpha():
        return INITIAL
    if "." in word and _MULTI_PERIOD.fullmatch(word):
        return MULTI_PERIOD
    return PLAIN


def first_letter(following: str) -> str:
    """Return the first character of `following` (the text after an end mark and its
    whitespace) that is not an opening quote, bracket, dash or space; "" when there is none."""
    first = following[:1]
    if first.isalnum():
        return first
    return following.lstrip(WORD_SKIP)[:1]


def leading_word(following: str) -> str:
    """Return the word `following` starts with (after openers), or "" when the word is followed
    by a period: `A.` in `J. A. Smith` is an initial, not the article."""
    rest = following.lstrip(WORD_SKIP)
    match = _WORD.match(rest)
    if match is None or rest[match.end() : match.end() + 1] == ".":
        return ""
    return match.group()


def period_ends_sentence(word: str, letter: str, following: str) -> bool:
    """Return True when a period after `word` ends the sentence, `following` being the text
    after the period's closers and whitespace and `letter` its `first_letter`.

    - before a lower-case letter: never (`Jane and co. at`, `'This is great.' she said`);
    - after an abbreviation that qualifies the next word: never (`Mr.`, `e.g.`, `Lic.`);
    - before a digit: unless the word is an abbreviation or a letter (`p. 55`, `No. 5`) — a
      number or an ordinary word ends (`es 2. 2 + 2 es 4.`);
    - a German ordinal before a month: never (`vom 12. Juni`);
    - an abbreviation before an initial: never (`Fed. R. Bankr. P. 3015`);
    - after an initial or a multi-period abbreviation: only before a common sentence starter
      (`the U.S. How`, `you and I. Did` but `the U.S. Government`, `Albert I. Jones`);
    - otherwise: always (`Co. It`, `$100.00. It`, `test.txt. Then`).
    """
    if not letter:
        return True
    if letter.islower():
        return False
    kind = classify_word(word)
    if kind == NEVER:
        return False
    if letter.isdigit():
        return kind in (PLAIN, NUMBER)
    if kind == NUMBER:
        return not (len(word) <= 2 and leading_word(following).lower() in MONTHS)
    if kind == ABBREVIATION and _INITIAL.match(following.lstrip(WORD_SKIP)):
        return False
    if kind in (INITIAL, MULTI_PERIOD):
        return leading_word(following) in SENTENCE_STARTERS
    return True


def is_list_marker(word: str) -> bool:
    """True when `word` can number a list item: one to three digits, or one ASCII letter."""
    if word.isdigit():
        return len(word) <= 3 and word.isascii()
    return len(word) == 1 and word.isascii() and word.isalpha()


def marker_follows(previous: str, marker: str) -> bool:
    """True when list marker `marker` comes right after `previous` (`1` then `2`, `a` then
    `b`); an inline letter list must be lower case (`b. The second item`, not `B. Obama`)."""
    if marker.isdigit():
        return previous.isdigit() and int(marker) == int(previous) + 1
    return previous.islower() and marker.islower() and ord(marker) == ord(previous) + 1
