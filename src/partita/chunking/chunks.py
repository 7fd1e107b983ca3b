"""Forming chunks from a pre-chunk: one CompositeElement, or several when it must be split.

A pre-chunk holding exactly one table goes to `partita.chunking.tables.emit`. Any other pre-chunk
becomes one CompositeElement with its text and consolidated metadata, or, when its text exceeds
the window (one oversized element), several: the second and later carry `is_continuation=True`.
Every piece carries the whole `orig_elements`, unless the pieces would repeat the element past
`REPEAT_LIMIT`: then each carries its own part (`partita.chunking.split_origins`). A pre-chunk
with no text forms no chunk.

When the run records sources (`provenance`), each chunk's `metadata.extra["sources"]` holds its
records: the pre-chunk's trace, whole or, for a piece, as traced through the splitter
(`partita.chunking.provenance`); a table passed through records itself, whole.
"""

from __future__ import annotations

import warnings
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from typing import Any

from partita.chunking.ids import ChunkIds
from partita.chunking.metadata import consolidate_metadata, orig_elements_of
from partita.chunking.options import ChunkingOptions
from partita.chunking.prechunk import PreChunk
from partita.chunking.provenance import (
    SourceRecord,
    SourcesBuilder,
    Trace,
    records_of,
    source_record,
    with_sources,
)
from partita.chunking.run import ChunkingRun
from partita.chunking.split_origins import (
    REPEAT_LIMIT,
    content_size,
    longest_element,
    part_of,
    read_pieces,
    without_bulky_fields,
)
from partita.elements import (
    CompositeElement,
    Element,
    Table,
    metadata_from_fields,
    new_element,
)
from partita.errors import PartitaWarning
from partita.text.sizing.text_tail import TextTail
from partita.text.splitting.char_pieces import iter_char_pieces
from partita.text.splitting.windowed_tokens import token_tail

__all__ = ["PieceTracer", "iter_chunks_of", "iter_chunks_of_pre_chunks"]


def iter_chunks_of_pre_chunks(
    pre_chunks: Iterable[PreChunk], run: ChunkingRun
) -> Iterator[Element]:
    """Generate the chunks of `pre_chunks`, in order, numbered as one run (see `ChunkIds`)."""
    ids = ChunkIds()
    for pre_chunk in pre_chunks:
        yield from iter_chunks_of(pre_chunk, run, ids)
        del pre_chunk  # -- hold one pre-chunk at a time while streaming --


def iter_chunks_of(pre_chunk: PreChunk, run: ChunkingRun, ids: ChunkIds) -> Iterator[Element]:
    """Generate the chunks of `pre_chunk`."""
    opts = run.opts
    elements = pre_chunk.elements
    if len(elements) == 1 and isinstance(elements[0], Table):
        if opts.skip_tables:
            yield _passed_through(elements[0]) if opts.record_sources else elements[0]
        else:
            # -- imported here: table splitting needs lxml, which `import partita` avoids --
            from partita.chunking.tables.emit import iter_table_chunks

            yield from iter_table_chunks(
                elements[0], pre_chunk.overlap_prefix, run, ids, prefix_trace=pre_chunk.prefix_trace
            )
        return
    text = pre_chunk.text
    if not text:
        return
    fields = consolidate_metadata(elements)
    record_sources = opts.record_sources
    anchor = elements[0].element_id
    in_tokens = run.sizer.counts_tokens
    if not in_tokens:
        fits = len(text) <= opts.hard_max
    else:
        # -- the size when known without counting; otherwise the splitter measures the text,
        # -- and returns it whole when it fits --
        size = pre_chunk.token_count
        fits = size is not None and size <= opts.hard_max
    if fits:
        if opts.include_orig:
            fields["orig_elements"] = orig_elements_of(elements)
        if record_sources:
            fields["extra"] = with_sources(None, records_of(pre_chunk.trace()))
        metadata = metadata_from_fields(fields)
        yield new_element(CompositeElement, text, ids.next_id(anchor), metadata)
        return
    if not in_tokens:
        pieces = iter_char_pieces(text, opts.hard_max, opts.overlap_len, opts.separators)
        # -- every piece takes at least one character of the text: at most `len(text)` pieces --
        bounded = len(text) * content_size(elements) <= REPEAT_LIMIT
    else:
        pieces = run.split.iter_pieces(text)
        bounded = False
    tracer = PieceTracer(text, pre_chunk.trace(), run) if record_sources else None
    if tracer is not None:
        pieces = tracer.iter_pieces(pieces)
    if not bounded:
        first_pieces, own_parts = read_pieces(pieces, content_size(elements))
        pieces = chain(first_pieces, pieces)
        if own_parts:
            yield from _iter_pieces_with_parts(pieces, elements, fields, opts, ids, tracer)
            return
    if opts.include_orig:
        fields["orig_elements"] = orig_elements_of(elements)
    if tracer is not None:
        yield from _iter_traced_pieces(pieces, fields, anchor, ids, tracer)
        return
    metadata = metadata_from_fields(fields)
    continuation = None
    for piece in pieces:
        if continuation is None:
            yield new_element(CompositeElement, piece, ids.next_id(anchor), metadata)
            continuation = metadata_from_fields({**fields, "is_continuation": True})
        else:
            yield new_element(CompositeElement, piece, ids.next_id(anchor), continuation)


def _passed_through(table: Element) -> Element:
    """`table` as a chunk that records its sources: itself, whole."""
    records = [source_record(table.element_id, 0, len(table.text), 0)] if table.text else []
    extra = with_sources(table.metadata.extra, records)
    return new_element(
        type(table), table.text, table.element_id, table.metadata.replace(extra=extra)
    )


def _iter_traced_pieces(
    pieces: Iterator[str],
    fields: dict[str, Any],
    anchor: str,
    ids: ChunkIds,
    tracer: PieceTracer,
) -> Iterator[Element]:
    """The chunks of `pieces`, each with its records (see `iter_chunks_of`)."""
    later_fields = {**fields, "is_continuation": True}
    for index, piece in enumerate(pieces):
        own = dict(later_fields if index else fields)
        own["extra"] = with_sources(None, tracer.sources_of(piece))
        yield new_element(CompositeElement, piece, ids.next_id(anchor), metadata_from_fields(own))


def _iter_pieces_with_parts(
    pieces: Iterator[str],
    elements: Sequence[Element],
    fields: dict[str, Any],
    opts: ChunkingOptions,
    ids: ChunkIds,
    tracer: PieceTracer | None,
) -> Iterator[Element]:
    """The chunks of pieces that each carry their own part of the split element.

    Only the first piece keeps the size-proportional metadata; see `split_origins`.
    """
    split = longest_element(elements)
    anchor = elements[0].element_id
    later_fields = {**without_bulky_fields(fields), "is_continuation": True}
    for index, piece in enumerate(pieces):
        own = dict(later_fields) if index else dict(fields)
        if opts.include_orig:
            own["orig_elements"] = (part_of(split, piece, first=not index),)
        if tracer is not None:
            own["extra"] = with_sources(None, tracer.sources_of(piece))
        metadata = metadata_from_fields(own)
        yield new_element(CompositeElement, piece, ids.next_id(anchor), metadata)


# -- provenance of split pieces ------------------------------------------------------------------

_Seg = tuple[int, int]
"""`(start in the split text, length)` of a part of a remainder's head; start -1: a joiner the
splitter put there."""

_PENDING_LIMIT = 64
"""Pieces held while two remainders both fit them; past it the preferred one is taken."""


class _Rest:
    """A remainder of the splitter, `head + text[start:]` (`tail`), with its head's segments."""

    __slots__ = ("segs", "tail")

    def __init__(self, tail: TextTail, segs: list[_Seg]) -> None:
        self.tail = tail
        self.segs = segs

    def segments(self, a: int, b: int) -> list[_Seg]:
        """The segments of `str(self.tail)[a:b]`."""
        out: list[_Seg] = []
        pos = 0
        for start, length in self.segs:
            lo, hi = max(a, pos), min(b, pos + length)
            if lo < hi:
                out.append((start + lo - pos if start >= 0 else -1, hi - lo))
            pos += length
        lo = max(a, pos)
        if lo < b:
            out.append((self.tail.start + lo - pos, b - lo))
        return out

    def suffix(self, offset: int) -> _Rest:
        """`str(self.tail)[offset:]`."""
        head_len = len(self.tail.head)
        segs = self.segments(offset, head_len) if offset < head_len else []
        return _Rest(self.tail.suffix(offset), segs)

    def after_tail(self, offset: int, tail_start: int, tail_end: int) -> _Rest:
        """`str(self.tail)[tail_start:tail_end] + " " + str(self.tail)[offset:]`: an overlap
        tail, the splitter's space, and the rest from `offset`."""
        rest = self.suffix(offset)
        segs = self.segments(tail_start, tail_end)
        last_start, last_len = segs[-1] if segs else (-1, 0)
        at = rest.tail.start
        if (
            not rest.tail.head
            and last_start >= 0
            and last_start + last_len + 1 == at
            and rest.tail.root[at - 1] == " "
        ):
            joiner = (at - 1, 1)  # -- the space is the text's own --
        else:
            joiner = (-1, 1)
        head = self.tail.prefix(tail_end)[tail_start:] + " "
        return _Rest(rest.tail.with_head(head), [*segs, joiner, *rest.segs])


_State = tuple[_Rest, str, list[list[SourceRecord]]]
"""A remainder, the piece that is its prefix, and the records of the pieces not yet given out."""


class PieceTracer:
    """Traces the pieces a run's `TextSplitter` cuts `text` into back to `text`, and through
    `trace` to the elements (provenance).

    `iter_pieces(pieces)` generates the splitter's pieces unchanged, tracing each; `sources_of`
    then returns their records, one call per piece, in the same order.

    Each piece is a prefix of the splitter's remainder; the next remainder is the text after the
    cut (the piece's trailing whitespace and the separator), behind the piece's overlap tail and
    a space when the splitter keeps one. In character mode the cut is found as the splitter
    finds it. In token mode the tail is the splitter's (counted alike), kept or dropped by its
    rule against endless loops; where that rule rests on a split the pieces do not show (a
    remainder longer than the one before), both remainders are followed until the next pieces
    tell them apart. Every remainder is checked against the pieces. Should none fit a piece (a
    splitter rule unknown here), that piece and the rest record nothing, with a `PartitaWarning`.
    """

    __slots__ = (
        "_counts_tokens",
        "_maxlen",
        "_measure",
        "_origin",
        "_overlap",
        "_queue",
        "_sep_len",
        "_separators",
        "_trace",
    )

    def __init__(self, text: str, trace: Trace, run: ChunkingRun) -> None:
        opts = run.opts
        self._trace = trace
        self._maxlen = opts.hard_max
        self._overlap = opts.overlap_len
        self._separators = opts.separators
        self._sep_len = max(map(len, opts.separators), default=0)
        self._counts_tokens = run.sizer.counts_tokens
        self._measure = run.sizer.measure
        self._origin = _Rest(TextTail("", text, 0), [])
        self._queue: deque[list[SourceRecord]] = deque()

    def sources_of(self, piece: str) -> list[SourceRecord]:
        """Return the records of `piece`, the next piece `iter_pieces` generated."""
        return self._queue.popleft()

    def iter_pieces(self, pieces: Iterable[str]) -> Iterator[str]:
        """Generate `pieces`, the splitter's pieces of the text, each once it is traced."""
        states: list[_State] | None = None
        pending: list[str] = []
        queue = self._queue
        for piece in pieces:
            pending.append(piece)
            if states == []:  # -- lost --
                queue.append([])
                yield pending.pop()
                continue
            found = self._states_after(states, piece)
            if not found:
                warnings.warn(
                    "provenance: a split piece could not be traced through the splitter's cuts;"
                    " it and the pieces after it record no sources",
                    PartitaWarning,
                    stacklevel=2,
                )
                held = states[0][2] if states else []
                queue.extend([*held, *([] for _ in range(len(pending) - len(held)))])
                yield from pending
                pending, states = [], []
                continue
            states = found
            if len(states) == 1 or len(pending) >= _PENDING_LIMIT:
                rest, last, records = states[0]
                queue.extend(records)
                yield from pending
                pending, states = [], [(rest, last, [])]
        if pending and states:
            queue.extend(states[0][2])
            yield from pending

    def _states_after(self, states: list[_State] | None, piece: str) -> list[_State]:
        """The states whose remainder `piece` starts, after `states` (None: the first piece)."""
        candidates: list[tuple[_Rest, list[list[SourceRecord]]]]
        if states is None:
            candidates = [(self._origin, [])]
        else:
            candidates = [
                (rest, records)
                for before, last, records in states
                for rest in self._rests_after(before, last)
            ]
        found: list[_State] = []
        seen: set[tuple[str, int]] = set()
        for rest, records in candidates:
            key = (rest.tail.head, rest.tail.start)
            if key in seen or rest.tail.prefix(len(piece)) != piece:
                continue
            seen.add(key)
            found.append((rest, piece, [*records, self._records_of(rest, piece)]))
        return found

    def _records_of(self, rest: _Rest, piece: str) -> list[SourceRecord]:
        builder = SourcesBuilder()
        offset = 0
        for start, length in rest.segments(0, len(piece)):
            if start >= 0:
                builder.extend(self._trace.clip(start, start + length, offset))
            offset += length
        return builder.records()

    def _rests_after(self, rest: _Rest, piece: str) -> Iterator[_Rest]:
        """The remainders the splitter may leave after cutting `piece` from `rest`, the more
        likely first."""
        if not self._counts_tokens:
            yield self._char_rest(rest)
            return
        k = len(piece)
        tail = rest.tail
        size = len(tail)
        first = tail.first_non_space(k)
        afters = [first]
        window = tail.prefix(first + self._sep_len)
        for sep in self._separators:
            if not sep.isspace():
                for start in range(max(k, first - len(sep) + 1), first + 1):
                    after = tail.first_non_space(start + len(sep))
                    if window.startswith(sep, start) and after not in afters:
                        afters.append(after)
        kept = self._token_tail(piece) if self._overlap > 0 and piece else None
        for after in afters:
            if kept is None:
                yield rest.suffix(after)
                continue
            grown = len(kept) + 1 + size - after - size
            if grown < 0 or (grown == 0 and tail.prefix(after) != kept + " "):
                yield rest.after_tail(after, k - len(kept), k)
            elif grown == 0:
                yield rest.suffix(after)
            else:
                yield rest.after_tail(after, k - len(kept), k)
                yield rest.suffix(after)

    def _char_rest(self, rest: _Rest) -> _Rest:
        """The remainder the character splitter leaves after the piece it cuts from `rest`."""
        maxlen, overlap = self._maxlen, self._overlap
        tail = rest.tail
        size = len(tail)
        window = tail.prefix(maxlen + self._sep_len)
        for sep in self._separators:
            start = window.rfind(sep, overlap + 1, maxlen + len(sep))
            if start == -1:
                continue
            k = len(window[:start].rstrip())
            after = tail.first_non_space(start + len(sep))
            kept = len(window[:k][-(overlap - 1) :].lstrip()) if overlap > 1 else -1
            if k == 0 or kept + 1 + size - after >= size:
                continue
            return rest.after_tail(after, k - kept, k) if kept > 0 else rest.suffix(after)
        return rest.suffix(tail.first_non_space(maxlen - overlap))

    def _token_tail(self, fragment: str) -> str:
        """The splitter's overlap tail of `fragment`: about `overlap` tokens, from a word."""
        return token_tail(fragment, self._measure, self._overlap)
