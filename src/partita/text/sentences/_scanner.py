"""The scan: one pass over the text that stops only at the characters that may end a sentence,
and decides at each whether one ends there.

One compiled regular expression finds the candidates: a run of end marks and closers (`.`,
`?!`, `."`, `。」`, `?».`), a line break, a bullet, or the parenthesis of a `1)` list marker.
Its pattern is a character class followed by a repetition over a class, so the engine skips
the text between candidates in C and never backtracks. Each candidate is then decided by
looking at a few characters around it: the word before it (at most `WORD_WINDOW` characters,
not beyond the current sentence), the text after its whitespace (`FOLLOWING_WINDOW`), and, only
where a cut is about to be made, the brackets and quotes open within `PAIR_WINDOW` characters
on either side. Every look is bounded, or consumes what it looks at (a run of whitespace,
dots, closers or line breaks, which the scan then resumes after), so the work is linear in the
length of the text; `SentenceScanner.work` counts it, and the tests hold it to a multiple of
the length on hostile inputs.
"""

from __future__ import annotations

import re

from partita.text.sentences._vocabulary import (
    BULLETS,
    CANDIDATE_STARTS,
    CJK_CONTINUERS,
    CLOSERS,
    CLUSTER_TAIL,
    CLUSTER_TAIL_MARKS,
    JAPANESE_PARTICLES,
    PAIRS,
    QUESTION_EXCLAMATION,
    QUOTE_CLOSERS,
    STRONG_END_MARKS,
)
from partita.text.sentences._words import (
    NUMBER,
    PLAIN,
    classify_word,
    first_letter,
    is_list_marker,
    marker_follows,
    period_ends_sentence,
    strip_word,
)

__all__ = ["FOLLOWING_WINDOW", "PAIR_WINDOW", "WORD_WINDOW", "SentenceScanner", "is_caseless"]

WORD_WINDOW = 64
"""How far back the word before an end mark is looked for (a longer word is an ordinary one)."""
FOLLOWING_WINDOW = 40
"""How much of the text after an end mark's whitespace decides it."""
PAIR_WINDOW = 256
"""How far an unclosed bracket or quote is looked for before a cut, and its closer after it."""

_CANDIDATE = re.compile(f"[{re.escape(CANDIDATE_STARTS)}][{re.escape(CLUSTER_TAIL)}]*")
_FIRST_MARK = re.compile(f"[{re.escape(CLUSTER_TAIL_MARKS)}]")
_NON_SPACE = re.compile(r"\S")
_LINE_BREAKS = re.compile(r"\n[^\S\n]*(?:\n[^\S\n]*)*")
_SPACED_DOTS = re.compile(r"(?:[ \u00a0]\.)+")
_CLOSER_RUN = re.compile(f"[{re.escape(CLOSERS)}]*")
_LINE_ITEM = re.compile(
    rf"(?:\d{{1,3}}|[A-Za-z])(?:\.\)?|\)|）)\s|[-*+–](?=\s)|[{re.escape(BULLETS)}]"
)
_OPENER = re.compile("[" + re.escape("".join(opener for opener, _ in PAIRS) + '"') + "]")
_STRONG = frozenset(STRONG_END_MARKS)
_OMISSION_OPENERS = frozenset("[(")
_OMISSION_CLOSERS = frozenset("])")


_UPPER_ASCII = bytes(range(0x41, 0x5B))
_LOWER_ASCII = bytes(range(0x61, 0x7B))
CASELESS_MIN_LETTERS = 40
"""Lower-case ASCII letters a text needs before it can be read as written without capitals."""


def is_caseless(text: str) -> bool:
    """True when `text` is Latin text written without capitals (a lower-cased corpus, such as
    filings text prepared for search): at least `CASELESS_MIN_LETTERS` lower-case ASCII letters
    and fewer than one capital per 200 of them. There, a lower-case word after a period cannot
    tell a sentence's start from its continuation, and the period decides alone."""
    data = text.encode("utf-8", "surrogatepass")
    lower = len(data) - len(data.translate(None, _LOWER_ASCII))
    if lower < CASELESS_MIN_LETTERS:
        return False
    upper = len(data) - len(data.translate(None, _UPPER_ASCII))
    return upper * 200 < lower


def _is_cjk_letter(char: str) -> bool:
    """True when `char` is a kana, an ideograph or a Hangul syllable (not a punctuation mark):
    text in these scripts runs on without spaces between sentences."""
    return (
        "\u3040" <= char <= "\u30ff"
        or "\u3400" <= char <= "\u9fff"
        or "\uac00" <= char <= "\ud7af"
        or "\uf900" <= char <= "\ufaff"
        or "\U00020000" <= char <= "\U0003134f"
    )


def _may_be_marker(text: str, start: int) -> bool:
    """True when the word before the period at `start` may be a list marker (it ends with a
    digit, or is a single ASCII letter): a cheap test before the word is looked up."""
    last = text[start - 1] if start > 0 else " "
    if last.isdigit():
        return True
    return last.isascii() and last.isalpha() and (start < 2 or not text[start - 2].isalnum())


class SentenceScanner:
    """One pass over `text` that collects the positions where sentences end (`run`).

    A cut at position `p` ends a sentence at `p` (exclusive): the sentence is the text from the
    previous cut to `p`, stripped. Cuts increase strictly and each sentence holds a non-space
    character. `work` counts the characters the scan looked at (a measure of its cost).
    """

    __slots__ = ("caseless", "content_start", "cuts", "marker", "piece_start", "text", "work")

    def __init__(self, text: str) -> None:
        self.text = text
        self.caseless = is_caseless(text)
        """Whether the text is written without capitals (`is_caseless`)."""
        self.cuts: list[int] = []
        self.piece_start = 0
        """Where the current sentence's text begins (the last cut, or 0)."""
        self.content_start = -1
        """The first non-space position of the current sentence, or -1 when not yet known."""
        self.marker: tuple[str, str] | None = None
        """The last list marker of the paragraph: its style (`.`, `.)`, `)`) and its number."""
        self.work = 0

    def run(self) -> list[int]:
        """Return the cut positions of the text, in increasing order."""
        text = self.text
        search = _CANDIDATE.search
        position = 0
        while (match := search(text, position)) is not None:
            start, end = match.span()
            self.work += end - position
            char = text[start]
            if char == "\n" or char == "\u2029":
                position = self._line_break(start)
            elif char in BULLETS:
                self._bullet(start)
                position = start + 1
            elif char == ")" or char == "）":
                position = self._parenthesis(start, end)
            else:
                position = self._end_marks(start, end)
        self.work += len(text) - position
        return self.cuts

    # -- cuts and the current sentence --------------------------------------------------------

    def _cut(self, position: int) -> None:
        """End the current sentence at `position`, unless it would hold only whitespace."""
        if position <= self.piece_start:
            return
        if not self.text[self.piece_start].isspace():
            self.cuts.append(position)
            self.piece_start = position
            self.content_start = -1
            return
        found = _NON_SPACE.search(self.text, self.piece_start, position)
        if found is None:
            # -- only whitespace: no sentence, and no need to look at this whitespace again --
            self.work += position - self.piece_start
            self.piece_start = position
            self.content_start = -1
            return
        self.work += found.start() - self.piece_start
        self.cuts.append(position)
        self.piece_start = position
        self.content_start = -1

    def _content(self) -> int:
        """Return the first non-space position of the current sentence (or the text's length)."""
        if self.content_start < 0:
            found = _NON_SPACE.search(self.text, self.piece_start)
            self.content_start = found.start() if found else len(self.text)
            self.work += self.content_start - self.piece_start
        return self.content_start

    # -- line breaks, bullets, list markers ---------------------------------------------------

    def _line_break(self, start: int) -> int:
        """Decide the line break at `start`: a blank line (or U+2029) always ends a sentence; a
        single line break ends one only before a bullet or a list marker. Return the position
        after the break's whitespace."""
        text = self.text
        if text[start] == "\u2029":
            self._cut(start)
            self.marker = None
            return start + 1
        stop = _LINE_BREAKS.match(text, start).end()  # type: ignore[union-attr]
        self.work += stop - start
        if text.count("\n", start, stop) > 1:
            self._cut(start)
            self.marker = None
        elif stop < len(text) and _LINE_ITEM.match(text, stop) is not None:
            self._cut(start)
        return stop

    def _bullet(self, start: int) -> None:
        """A bullet after whitespace starts a sentence (`• 9. The first item • 10. The ...`)."""
        if start > 0 and self.text[start - 1].isspace():
            self._cut(start)

    def _parenthesis(self, start: int, end: int) -> int:
        """Decide a cluster opened by `)`: end marks after it are decided as such (`(Loiret).`),
        a lone `)` after a number or letter may close a list marker (`1) The first item`)."""
        text = self.text
        mark = _FIRST_MARK.search(text, start, end)
        if mark is not None:
            return self._end_marks(mark.start(), end)
        if (
            end - start == 1
            and start > 0
            and text[start - 1].isalnum()
            and end < len(text)
            and text[end].isspace()
        ):
            word, raw_start, word_start = self._word_before(start)
            self._list_marker(word, raw_start, word_start, text[start])
        return end

    def _list_marker(self, word: str, raw_start: int, word_start: int, style: str) -> bool:
        """Return True when `word` (at `word_start`, its token at `raw_start`) numbers a list
        item: at the start of a sentence (after bullets, or a few symbols such as a code fence:
        "``` 1. The item"), or next in the paragraph's list after the previous marker of the
        same style — then the item starts a new sentence."""
        if not is_list_marker(word):
            return False
        content = self._content()
        if word_start <= content or (
            word_start - content <= 8
            and not any(char.isalnum() for char in self.text[content:word_start])
        ):
            self.marker = (style, word)
            return True
        previous = self.marker
        if previous is not None and previous[0] == style and marker_follows(previous[1], word):
            self._cut(raw_start)
            self.marker = (style, word)
            return True
        return False

    # -- end marks ----------------------------------------------------------------------------

    def _word_before(self, start: int) -> tuple[str, int, int]:
        """Return the word before position `start` without its openers and closers, where its
        token starts, and where the word starts; ("", start, start) after whitespace."""
        text = self.text
        low = max(self.piece_start, start - WORD_WINDOW)
        self.work += start - low
        if low >= start or text[start - 1].isspace():
            return "", start, start
        space = text.rfind(" ", low, start)
        raw = text[space + 1 if space >= 0 else low : start]
        if not raw.isprintable():  # -- another whitespace character (a line break, a tab) --
            raw = raw.rsplit(None, 1)[-1]
        word, skipped = strip_word(raw)
        raw_start = start - len(raw)
        return word, raw_start, raw_start + skipped

    def _following(self, end: int) -> tuple[str, int] | None:
        """Return the text after the whitespace at `end` (at most `FOLLOWING_WINDOW`
        characters) and where it starts; None when only whitespace follows."""
        text = self.text
        at = end + 1
        if at >= len(text) or text[at].isspace():
            found = _NON_SPACE.search(text, end)
            if found is None:
                return None
            at = found.start()
        self.work += at - end + FOLLOWING_WINDOW
        return text[at : at + FOLLOWING_WINDOW], at

    def _end_marks(self, start: int, end: int) -> int:
        """Decide the cluster `text[start:end]` (end marks and closers, `text[start]` a mark);
        return where the scan resumes."""
        text = self.text
        cluster = text[start:end]
        previous = text[start - 1] if start > 0 else " "
        if not _STRONG.isdisjoint(cluster):
            return self._strong_end(start, end, cluster, previous, True)
        if previous >= "\u3040" and _is_cjk_letter(previous):
            after = text[end] if end < len(text) else " "
            if after.isspace() or _is_cjk_letter(after):
                return self._strong_end(start, end, cluster, previous, False)
        return self._spaced_end(start, end, cluster, previous)

    def _strong_end(self, start: int, end: int, cluster: str, previous: str, wide: bool) -> int:
        """Decide a Chinese or Japanese end: it ends the sentence after its closers, whatever
        follows, except before a comma-like mark (`……，`), a Japanese particle after a quotation
        (`「…！」と`), between digits (`３．２９`), or inside a bracket that closes soon
        (`《摔跤吧！爸爸》`). Half-width marks (`wide` False) end only before a space or a
        CJK letter (`中文.txt` is a file name)."""
        text = self.text
        if end >= len(text):
            return end
        after = text[end]
        if after in CJK_CONTINUERS:
            return end
        if cluster == "．" and previous.isdigit() and after.isdigit():
            return end
        if after in JAPANESE_PARTICLES and (after == "と" or not QUOTE_CLOSERS.isdisjoint(cluster)):
            return end
        if not wide and not after.isspace() and not _is_cjk_letter(after):
            return end
        if not self._inside_pair(start, end):
            self._cut(end)
        return end

    def _spaced_end(self, start: int, end: int, cluster: str, previous: str) -> int:
        """Decide an end in a script that separates words with spaces: only whitespace (or a
        CJK letter) after the cluster may end the sentence (`3.14`, `test.txt`, `Jr.'s`,
        `Yahoo!in` do not); then the marks and the words around them decide."""
        text = self.text
        if end >= len(text):
            return end
        after = text[end]
        if cluster == "." and after in " \u00a0" and text[end + 1 : end + 2] == ".":
            return self._spaced_ellipsis(start, end)
        if after.isspace():
            found = self._following(end)
            if found is None:
                return end
            following, at = found
            if at > end + 1 and text.count("\n", end, at) > 1:
                return self._paragraph_end(start, end, cluster)
            if following[0] == "»" and "\n" not in text[end:at]:
                # -- French spacing puts a space before the closing guillemet: « LL.AA. » pour --
                end = _CLOSER_RUN.match(text, at).end()  # type: ignore[union-attr]
                if end >= len(text) or not text[end].isspace():
                    return end
                found = self._following(end)
                if found is None:
                    return end
                following = found[0]
        elif _is_cjk_letter(after):
            following = text[end : end + FOLLOWING_WINDOW]
        else:
            return end
        if cluster != "." and not QUESTION_EXCLAMATION.isdisjoint(cluster):
            ends = not first_letter(following).islower() or (self.caseless and cluster in "?!")
        else:
            marks = cluster.rstrip(CLOSERS)
            dots = 1 if cluster == "." else marks.count(".") + 3 * marks.count("…")
            if dots >= 3:
                if previous in _OMISSION_OPENERS and cluster[len(marks) : len(marks) + 1] in (
                    _OMISSION_CLOSERS
                ):
                    return end  # -- an omission: "[...]" --
                ends = not first_letter(following).islower()
            else:
                word = ""
                if cluster in (".", ".)", ".）") and _may_be_marker(text, start):
                    word, raw_start, word_start = self._word_before(start)
                    if self._list_marker(word, raw_start, word_start, cluster):
                        return end
                letter = first_letter(following)
                if letter.islower() and not (self.caseless and cluster == "."):
                    return end
                if not word:
                    word = self._word_before(start)[0]
                if letter.islower():  # -- caseless text: an ordinary word or number ends --
                    ends = classify_word(word) in (PLAIN, NUMBER)
                else:
                    ends = period_ends_sentence(word, letter, following)
        if ends and not self._inside_pair(start, end):
            self._cut(end)
        return end

    def _paragraph_end(self, start: int, end: int, cluster: str) -> int:
        """Decide the cluster `text[start:end]` before a blank line: the scan cuts at the blank
        line whatever the words around the marks say, so they are not looked at (a paragraph of
        a whole document costs what the same paragraph alone costs, where the marks end the
        text); only a list marker's cut before its number (`1. Milk 2.`) is left to make."""
        if cluster in (".", ".)", ".）") and _may_be_marker(self.text, start):
            self._list_marker(*self._word_before(start), cluster)
        return end

    def _spaced_ellipsis(self, start: int, end: int) -> int:
        """Decide a spaced ellipsis (`. . .`, `. . . .`) starting with the period at `start`.

        Three dots never end a sentence (`the thing is . . . I didn't`). Four end it when a word
        that is not lower case follows: after the fourth dot when the first stands apart
        (`a period . . . . Next`), after the first when it is attached to the word before, the
        rest opening the next sentence (`compounds. . . . The practice`)."""
        text = self.text
        stop = _SPACED_DOTS.match(text, end).end()  # type: ignore[union-attr]
        dots = 1 + (stop - end) // 2
        stop = _CLOSER_RUN.match(text, stop).end()  # type: ignore[union-attr]
        self.work += stop - end
        if dots < 4 or stop >= len(text) or not text[stop].isspace():
            return stop
        found = self._following(stop)
        if found is None or first_letter(found[0]).islower():
            return stop
        cut = start + 1 if start > 0 and not text[start - 1].isspace() else stop
        if not self._inside_pair(start, cut):
            self._cut(cut)
        return stop

    def _inside_pair(self, start: int, cut: int) -> bool:
        """True when a cut at `cut` (after the marks at `start`) would fall inside a bracket or
        quote opened in the current sentence that closes within `PAIR_WINDOW` characters
        (`《摔跤吧！爸爸》`, `(Note. See below.)`, `"I came. I saw." he said`)."""
        text = self.text
        low = max(self.piece_start, start - PAIR_WINDOW)
        self.work += cut - low
        if _OPENER.search(text, low, cut) is None:
            return False
        before = text[low:cut]
        after = text[cut : cut + PAIR_WINDOW]
        self.work += len(after)
        paragraph = after.find("\n\n")
        if paragraph >= 0:
            after = after[:paragraph]
        for opener, closer in PAIRS:
            if opener in before and closer in after and before.count(opener) > before.count(closer):
                return True
        return before.count('"') % 2 == 1 and '"' in after
