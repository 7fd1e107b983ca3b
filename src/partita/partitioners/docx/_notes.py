"""Footnotes and endnotes: numbered by first reference, each emitted once, inline.

A note's paragraphs become elements right after the block that first references it, so a note
sits in the section (and on the page) where it is cited; a note cited inside a note follows the
citing note. The reference mark in the text reads "[1]" for footnotes and "[i]" for endnotes
(Word's default formats; past 3999 in decimal), numbered in order of first reference, and the
note's own first paragraph starts with the same mark. Separator notes
(`w:type="separator"` and the like) are not content and are skipped.
"""

from __future__ import annotations

from lxml import etree

from partita.partitioners.docx import _ns as ns
from partita.partitioners.docx._numbering import format_number

__all__ = ["NoteStore"]

_W_ID = ns.w("id")
_W_TYPE = ns.w("type")


class NoteStore:
    """The footnotes and endnotes of a document, by id."""

    def __init__(self, footnotes: etree._Element | None, endnotes: etree._Element | None) -> None:
        self._notes: dict[tuple[str, str], etree._Element] = {}
        for kind, root, tag in (
            ("footnote", footnotes, ns.FOOTNOTE),
            ("endnote", endnotes, ns.ENDNOTE),
        ):
            if root is None:
                continue
            for note in root.iter(tag):
                note_id = note.get(_W_ID)
                if note_id is not None and note.get(_W_TYPE, "normal") == "normal":
                    self._notes[(kind, note_id)] = note
        self._marks: dict[tuple[str, str], str] = {}
        self._counts = {"footnote": 0, "endnote": 0}
        self._taken: set[tuple[str, str]] = set()

    def mark(self, kind: str, note_id: str) -> str:
        """Return the display mark of note `note_id` of `kind`, numbering it on first reference."""
        key = (kind, note_id)
        mark = self._marks.get(key)
        if mark is None:
            self._counts[kind] += 1
            count = self._counts[kind]
            mark = str(count) if kind == "footnote" else format_number(count, "lowerRoman")
            self._marks[key] = mark
        return mark

    def take(self, kind: str, note_id: str) -> etree._Element | None:
        """Return the note's element the first time it is asked for; None later or if absent."""
        key = (kind, note_id)
        if key in self._taken:
            return None
        self._taken.add(key)
        return self._notes.get(key)
