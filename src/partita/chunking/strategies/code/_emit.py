"""One source text (a `CodeSnippet`) to code chunks: its pieces chunked whole or cut.

Principles:

- **The language** is the `code_language` option when given, else the element's
  `metadata.extra["code_language"]` (set by `partition_code` and by Markdown fences), else its file
  name's extension. Code in a language partita does not outline is cut at blank and comment
  lines, then line ends, with no warning; code that does not parse, or whose grammar is not
  installed, is chunked as the "recursive" strategy cuts text, with a `CodeParseWarning` naming
  the file and line: never an exception.
- **A chunk's text** is its context (the enclosing headers, `extra["text_offset"]` characters)
  followed by a slice of the source: whole lines, indentation kept, trailing whitespace left
  out. Its metadata says `language`, `code_type`, `code_name` (qualified: `Class.method`; none
  for module code) and `start_line`/`end_line` (1-based, inclusive, in the file: the element's
  `extra["start_line"]` is the file line its text starts on), and its provenance record covers
  the slice.
- **Cut pieces** are packed greedily to the window from their splits (blocks, then lines, then
  words), preferring to end at a block end; every chunk after the first of a piece starts with
  the piece's signature, counted inside the window.
"""

from __future__ import annotations

import bisect
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from partita.chunking._ids import ChunkIds
from partita.chunking._run import ChunkingRun
from partita.chunking._text_chunks import chunk_element
from partita.chunking.strategies.code._pieces import Piece, PiecePlanner
from partita.elements import Element
from partita.errors import CodeParseWarning
from partita.text._packing import Unit, iter_packed
from partita.text._splits import Split, iter_recursive_splits
from partita.text.code._blocks import iter_code_splits, line_starts
from partita.text.code._languages import Language, language_for_filename, language_named
from partita.text.code._outline import GrammarMissingError, InvalidCodeError, outline_of

__all__ = ["iter_code_chunks", "language_of"]

_TAIL = 96
"""Characters of a chunk's end read to size it with one more split from the join alone."""


def language_of(element: Element, override: Language | None) -> Language | None:
    """The language of `element`'s code: `override`, else its metadata's, else its file's."""
    if override is not None:
        return override
    extra = element.metadata.extra or {}
    named = language_named(extra.get("code_language"))
    return named if named is not None else language_for_filename(element.metadata.filename)


def iter_code_chunks(
    element: Element,
    run: ChunkingRun,
    ids: ChunkIds,
    *,
    language: Language | None,
    contexts: bool,
) -> Iterator[Element]:
    """Generate the code chunks of `element` (a `CodeSnippet`) in `language`."""
    text = element.text
    starts = line_starts(text)
    planner = PiecePlanner(text, starts, run.sizer, run.opts.hard_max, contexts=contexts)
    whole_text = Piece(0, len(starts), "code", None, cut=True)
    recursive = False
    pieces: Iterator[Piece] | list[Piece] = [whole_text]
    if language is not None:
        try:
            pieces = planner.iter_pieces(outline_of(text, language))
        except (InvalidCodeError, GrammarMissingError) as exc:
            name = element.metadata.filename or "code"
            warnings.warn(
                CodeParseWarning(f"{name}: {exc}; chunked as text (the recursive splitter)"),
                stacklevel=2,
            )
            recursive = True
    extra = element.metadata.extra or {}
    first_line = extra.get("start_line")
    base = (first_line - 1) if isinstance(first_line, int) and first_line > 0 else 0
    emitter = _Emitter(element, run, ids, planner, starts, base, language, recursive)
    for piece in pieces:
        yield from emitter.chunks_of(piece)


@dataclass(frozen=True, slots=True)
class _Emitter:
    """Makes the chunks of one element's pieces."""

    element: Element
    run: ChunkingRun
    ids: ChunkIds
    planner: PiecePlanner
    starts: Sequence[int]
    base: int
    language: Language | None
    recursive: bool

    def chunks_of(self, piece: Piece) -> Iterator[Element]:
        start, end = self.planner.span(piece.lo, piece.hi)
        if start == end:
            return
        if not piece.cut:
            yield self._chunk(piece, piece.context, start, end)
            return
        yield from self._cut(piece, start, end)

    def _cut(self, piece: Piece, start: int, end: int) -> Iterator[Element]:
        run = self.run
        sizer, limit = run.sizer, run.opts.hard_max
        text = self.element.text
        later = piece.context + piece.signature
        budget = max(1, limit - sizer.measure(later)) if later else limit
        splits = self._splits(text, start, end, sizer.bounded_by(budget), budget)
        if not splits:
            return
        first = splits[0].start

        def header(units: Sequence[Unit]) -> str:
            return piece.context if units[0].start <= first else later

        def chunk_size(units: Sequence[Unit]) -> int:
            body = text[units[0].start : units[-1].end]
            return sizer.measure_at_most(header(units) + body, limit)

        def grown_size(units: Sequence[Unit], size: int, unit: Unit) -> int:
            if size > limit:
                return size + 1
            end = units[-1].end
            tail = text[max(units[0].start, end - _TAIL) : end]
            grown = sizer.measure_appended(
                tail,
                text[end : unit.start],
                text[unit.start : unit.end],
                left_size=size,
                right_size=unit.size,
            )
            return chunk_size([*units, unit]) if grown is None else grown

        units = (Unit(0, s.start, s.end, s.size, s.is_sentence, s.ends_sentence) for s in splits)
        packed = iter_packed(
            units, limit=limit, overlap=0, chunk_size=chunk_size, grown_size=grown_size
        )
        for chunk in packed:
            yield self._chunk(piece, header(chunk), chunk[0].start, chunk[-1].end)

    def _splits(
        self, text: str, start: int, end: int, measure: Callable[[str], int], budget: int
    ) -> list[Split]:
        if not self.recursive:
            return list(iter_code_splits(text, start, end, measure, budget, self.language))
        return [
            Split(start + s.start, start + s.end, s.size, s.is_sentence, s.ends_sentence)
            for s in iter_recursive_splits(text[start:end], measure, budget)
        ]

    def _chunk(self, piece: Piece, header: str, start: int, end: int) -> Element:
        starts, base = self.starts, self.base
        extra: dict[str, Any] = {}
        if header:
            extra["text_offset"] = len(header)
        if self.language is not None:
            extra["language"] = self.language.name
        extra["code_type"] = piece.code_type
        if piece.code_name is not None:
            extra["code_name"] = piece.code_name
        extra["start_line"] = bisect.bisect_right(starts, start) + base
        extra["end_line"] = bisect.bisect_right(starts, end - 1) + base
        text = header + self.element.text[start:end]
        return chunk_element(
            [self.element],
            [(0, start, end)],
            text,
            self.run,
            self.ids,
            extra=extra,
            offset=len(header),
        )
