"""Provenance of split pieces: tracing the pieces a run's splitter cuts back to the text.

`PieceTracer` follows a text through the splitter's cuts, piece by piece, and gives each piece
its source records (`partita.chunking.provenance`). Each piece is a prefix of the splitter's
remainder; the next remainder is the text after the cut, behind the piece's overlap tail when
the splitter keeps one. In character mode the cut is found as the splitter finds it. In token
mode (`partita.text.splitting._token_rules`) the tail is the splitter's (counted alike), joined
by a space when the cut discarded whitespace and directly otherwise, and kept only when the
remainder is then shorter than the text; a piece of whitespace only leaves the whitespace after
it in the remainder. Where a piece could come from two cuts (a separator that is not whitespace,
or the fallback at the same place), both remainders are followed until the next pieces tell them
apart.
"""

from __future__ import annotations

import warnings
from collections import deque
from collections.abc import Iterable, Iterator

from partita.chunking._run import ChunkingRun
from partita.chunking.provenance import SourceRecord, SourcesBuilder, Trace
from partita.errors import PartitaWarning
from partita.text.sizing._text_tail import TextTail
from partita.text.splitting._window_splitter import token_tail

__all__ = ["PieceTracer"]

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

    def after_tail(self, offset: int, tail_start: int, tail_end: int, joiner: str) -> _Rest:
        """`str(self.tail)[tail_start:tail_end] + joiner + str(self.tail)[offset:]`: an overlap
        tail, the splitter's joiner (a space, or nothing), and the rest from `offset`."""
        rest = self.suffix(offset)
        segs = self.segments(tail_start, tail_end)
        head = self.tail.prefix(tail_end)[tail_start:] + joiner
        if not joiner:
            return _Rest(rest.tail.with_head(head), [*segs, *rest.segs])
        last_start, last_len = segs[-1] if segs else (-1, 0)
        at = rest.tail.start
        if (
            not rest.tail.head
            and last_start >= 0
            and last_start + last_len + 1 == at
            and rest.tail.root[at - 1] == " "
        ):
            space = (at - 1, 1)  # -- the space is the text's own --
        else:
            space = (-1, 1)
        return _Rest(rest.tail.with_head(head), [*segs, space, *rest.segs])


_State = tuple[_Rest, str, list[list[SourceRecord]]]
"""A remainder, the piece that is its prefix, and the records of the pieces not yet given out."""


class PieceTracer:
    """Traces the pieces a run's `TextSplitter` cuts `text` into back to `text`, and through
    `trace` to the elements (provenance).

    `iter_pieces(pieces)` generates the splitter's pieces unchanged, tracing each; `sources_of`
    then returns their records, one call per piece, in the same order. Every remainder is
    checked against the pieces (see the module docstring for the remainders followed). Should
    none fit a piece (a splitter rule unknown here), that piece and the rest record nothing,
    with a `PartitaWarning`.
    """

    __slots__ = (
        "_maxlen",
        "_measure",
        "_origin",
        "_overlap",
        "_queue",
        "_rests_after",
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
        # -- the remainders follow the run's splitter: character or token cuts --
        self._rests_after = (
            self._token_rests_after if run.window.in_tokens else self._character_rests_after
        )
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

    def _character_rests_after(self, rest: _Rest, piece: str) -> Iterator[_Rest]:
        """The remainder the character splitter leaves after cutting `piece` from `rest`."""
        yield self._char_rest(rest)

    def _token_rests_after(self, rest: _Rest, piece: str) -> Iterator[_Rest]:
        """The remainders the token splitter may leave after cutting `piece` from `rest`, the
        more likely first."""
        k = len(piece)
        tail = rest.tail
        size = len(tail)
        # -- (where the rest starts, how the overlap tail joins it) --
        cuts: list[tuple[int, str]]
        if piece.isspace():  # -- whitespace as content: what follows stays --
            cuts = [(k, " " if tail.first_non_space(k) > k else "")]
        else:
            first = tail.first_non_space(k)
            cuts = [(first, " " if first > k else "")]
            window = tail.prefix(first + self._sep_len)
            for sep in self._separators:
                if not sep.isspace():
                    for start in range(max(k, first - len(sep) + 1), first + 1):
                        after = tail.first_non_space(start + len(sep))
                        if window.startswith(sep, start) and (after, " ") not in cuts:
                            cuts.append((after, " "))
        kept = self._token_tail(piece) if self._overlap > 0 and piece else ""
        for after, joiner in cuts:
            if kept and len(kept) + len(joiner) + size - after < size:
                yield rest.after_tail(after, k - len(kept), k, joiner)
            else:
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
            return rest.after_tail(after, k - kept, k, " ") if kept > 0 else rest.suffix(after)
        return rest.suffix(tail.first_non_space(maxlen - overlap))

    def _token_tail(self, fragment: str) -> str:
        """The splitter's overlap tail of `fragment`: about `overlap` tokens, from a word."""
        return token_tail(fragment, self._measure, self._overlap)
