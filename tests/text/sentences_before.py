"""`split_sentences` as it was before a paragraph's last end mark was left to the blank line
after it: the reference that the whole-document tests hold the scan to.

`SentenceScannerBefore` is `SentenceScanner` with its `_spaced_end` as it was then, copied
verbatim (the rest of the scan is unchanged), and `split_sentences_before` strips the spans as
`partita.text.sentences` did then (the last one with `str.rstrip`).
"""

from __future__ import annotations

from partita.text.sentences import _stripped_span
from partita.text.sentences._scanner import (
    _CLOSER_RUN,
    _OMISSION_CLOSERS,
    _OMISSION_OPENERS,
    FOLLOWING_WINDOW,
    SentenceScanner,
    _is_cjk_letter,
    _may_be_marker,
)
from partita.text.sentences._vocabulary import CLOSERS, QUESTION_EXCLAMATION
from partita.text.sentences._words import (
    NUMBER,
    PLAIN,
    classify_word,
    first_letter,
    period_ends_sentence,
)

__all__ = ["SentenceScannerBefore", "split_sentences_before"]


class SentenceScannerBefore(SentenceScanner):
    """The scan that decided every end mark from the words around it, a blank line after it or
    not."""

    __slots__ = ()

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


def split_sentences_before(text: str) -> list[str]:
    """Return the sentences of `text` as `split_sentences` returned them before."""
    spans = []
    start = 0
    for cut in SentenceScannerBefore(text).run():
        span = _stripped_span(text, start, cut)
        if span is not None:
            spans.append(span)
        start = cut
    end = len(text)
    if end and text[-1].isspace():
        end = len(text.rstrip())
    span = _stripped_span(text, start, end)
    if span is not None:
        spans.append(span)
    return [text[s:e] for s, e in spans]
