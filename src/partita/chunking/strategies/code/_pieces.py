"""A source text's outline turned into pieces: each a run of lines to chunk whole or to cut.

Principles (code split by class and function):

- **Definitions and the code between them.** At each level (the file, then a container's body)
  the lines are the definitions, in order, and the runs of code between them (imports,
  constants, fields). A run holding no letter or digit (a closing brace) joins the piece before
  it; blank lines join nothing.
- **Whole when it fits.** A definition (an interface, a class, a function) or a run of code
  that fits the window with its context is one piece.
- **A container too large is cut into its members.** Its header (signature and docstring) is the
  context above the pieces of its members, each a piece of its own (a method, a nested class
  cut the same way), the code between them pieces too; the first piece holds the header itself,
  under the context above the container. A context longer than half the window shrinks to the
  signature lines, then to nothing; so does the context of a member that fits the window whole
  only with less of it (a member within the window is never cut for its context).
- **A definition too large only with the comments above it** stays whole, its comments a piece
  of their own.
- **Anything else too large is cut** (`Piece.cut`): a function at blank and comment lines,
  then line ends (`partita.text.code._blocks`), its later chunks under its signature.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from partita.text.code._definitions import Definition
from partita.text.sizing import Sizer

__all__ = ["Piece", "PiecePlanner"]


@dataclass(frozen=True, slots=True)
class Piece:
    """Lines `[lo, hi)` of the source, chunked under `context` (the enclosing containers'
    headers), whole or, when `cut`, in parts, the parts after the first under `context +
    signature`; `code_type` and `code_name` (None for module code) describe it."""

    lo: int
    hi: int
    code_type: str
    code_name: str | None
    context: str = ""
    signature: str = ""
    cut: bool = False


@dataclass(frozen=True, slots=True)
class PiecePlanner:
    """Plans the pieces of one source `text` (its `starts`: `line_starts(text)`) for a window
    of `limit` measured by `sizer`; with `contexts=False` no piece has a context."""

    text: str
    starts: Sequence[int]
    sizer: Sizer
    limit: int
    _: dataclasses.KW_ONLY
    contexts: bool

    def lines(self, lo: int, hi: int) -> str:
        """The text of lines `[lo, hi)`, line breaks included (a missing last one added)."""
        starts = self.starts
        end = starts[hi] if hi < len(starts) else len(self.text)
        text = self.text[starts[lo] : end]
        return text if text.endswith("\n") or not text else text + "\n"

    def span(self, lo: int, hi: int) -> tuple[int, int]:
        """The span of lines `[lo, hi)`, leading blank lines and trailing whitespace left out
        (empty, `start == end`, for blank lines)."""
        text, starts = self.text, self.starts
        count = len(starts)
        end = starts[hi] - 1 if hi < count else len(text)
        for line in range(lo, hi):
            start = starts[line]
            line_end = starts[line + 1] - 1 if line + 1 < count else len(text)
            if not text[start:line_end].isspace() and start < line_end:
                return start, start + len(text[start:end].rstrip())
        return end, end

    def fits(self, text: str) -> bool:
        return self.sizer.fits(text, self.limit)

    def _small(self, text: str) -> bool:
        return self.sizer.fits(text, self.limit // 2)

    def iter_pieces(self, definitions: Sequence[Definition]) -> Iterator[Piece]:
        """The pieces of the whole text, in order."""
        yield from self._level(definitions, 0, len(self.starts), "", "", None)

    def _level(
        self,
        definitions: Sequence[Definition],
        lo: int,
        hi: int,
        context: str,
        outer: str,
        owner: Definition | None,
    ) -> Iterator[Piece]:
        for start, end, definition in self._segments(definitions, lo, hi):
            in_header = owner is not None and start < owner.header_end
            above = outer if in_header else context
            if definition is not None:
                code_type, name = definition.code_type, definition.name
            elif owner is not None:
                code_type, name = owner.code_type, owner.name
            else:
                code_type, name = "module", None
            first, last = self.span(start, end)
            if first == last:
                continue
            code = self.text[first:last]
            contexts = self._alternatives(above, None if in_header else owner)
            fitting = next((c for c in contexts if self.fits(c + code)), None)
            if fitting is not None:
                yield Piece(start, end, code_type, name, fitting)
            elif definition is not None and self._fits_without_comments(definition, contexts):
                lead = definition.own_first
                comments = self._whole_or_cut(start, lead, code_type, name, contexts)
                if comments is not None:
                    yield comments
                alone = dataclasses.replace(definition, first=lead, lead=-1)
                yield from self._level((alone,), lead, end, context, outer, owner)
            elif definition is not None and definition.children:
                inner = self._context(above, definition)
                yield from self._level(definition.children, start, end, inner, above, definition)
            else:
                signature = context[len(outer) :] if in_header else ""
                if definition is not None and definition.body > definition.start:
                    signature = self.lines(definition.start, definition.body)
                    if not self._small(above + signature):
                        signature = ""
                yield Piece(start, end, code_type, name, above, signature, cut=True)

    def _whole_or_cut(
        self, start: int, end: int, code_type: str, name: str | None, contexts: Sequence[str]
    ) -> Piece | None:
        """The piece of lines `[start, end)`: whole under the fullest of `contexts` it fits
        with, else cut under the first; None for blank lines."""
        first, last = self.span(start, end)
        if first == last:
            return None
        code = self.text[first:last]
        fitting = next((c for c in contexts if self.fits(c + code)), None)
        if fitting is not None:
            return Piece(start, end, code_type, name, fitting)
        return Piece(start, end, code_type, name, contexts[0], cut=True)

    def _fits_without_comments(self, definition: Definition, contexts: Sequence[str]) -> bool:
        """Whether `definition`, too large with the comment lines above it, fits without them
        (they then make a piece of their own: a function that fits is never cut)."""
        if definition.lead < 0:
            return False
        first, last = self.span(definition.lead, definition.last + 1)
        code = self.text[first:last]
        return any(self.fits(c + code) for c in contexts)

    def _alternatives(self, above: str, owner: Definition | None) -> tuple[str, ...]:
        """The contexts a whole piece may take, the fullest first: `above`, its owner's
        signature alone, none (a member that fits the window whole is never cut for its
        context)."""
        if not above:
            return ("",)
        if owner is None:
            return (above, "")
        return (above, self.lines(owner.start, owner.body), "")

    def _context(self, above: str, container: Definition) -> str:
        if not self.contexts:
            return ""
        for header in (
            self.lines(container.first, container.header_end),
            self.lines(container.start, container.body),
        ):
            if self._small(above + header):
                return above + header
        return above

    def _segments(
        self, definitions: Sequence[Definition], lo: int, hi: int
    ) -> list[tuple[int, int, Definition | None]]:
        """`[lo, hi)` as definitions and the runs of code between them; a run without a letter
        or digit joins the segment before it (or after it, at the start); definitions sharing a
        line (minified code) make one run of code."""
        segments: list[tuple[int, int, Definition | None]] = []
        cursor = lo
        for definition in definitions:
            if definition.first < cursor:  # -- on a line of the one before (minified code) --
                if definition.last + 1 > cursor:
                    segments[-1] = (segments[-1][0], definition.last + 1, None)
                    cursor = definition.last + 1
                elif segments[-1][2] is not None:
                    segments[-1] = (segments[-1][0], segments[-1][1], None)
                continue
            if definition.first > cursor:
                segments.append((cursor, definition.first, None))
            segments.append((definition.first, definition.last + 1, definition))
            cursor = definition.last + 1
        if cursor < hi:
            segments.append((cursor, hi, None))
        merged: list[tuple[int, int, Definition | None]] = []
        for start, end, found in segments:
            if found is None and merged and not self._has_word(start, end):
                merged[-1] = (merged[-1][0], end, merged[-1][2])
                continue
            if merged and merged[-1][2] is None and not self._has_word(*merged[-1][:2]):
                start = merged.pop()[0]
            merged.append((start, end, found))
        return merged

    def _has_word(self, lo: int, hi: int) -> bool:
        start, end = self.span(lo, hi)
        return any(c.isalnum() for c in self.text[start:end])
