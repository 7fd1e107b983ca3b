"""Pre-chunking: grouping consecutive elements into pre-chunks that fit the window.

A pre-chunk is the longest run of elements that respects the strategy's semantic boundaries and
fits the window; a single element larger than the window forms a pre-chunk alone and is split
later. `iter_pre_chunks` drives a `PreChunkBuilder` (add / will_fit / flush).

Sizes are measured as the reference measures them: fitting uses the elements' raw text (before
whitespace normalization), each text reserving a two-character separator; the soft maximum is
exceeded only when strictly greater. In token mode the joined raw texts are tokenized; a count
is exact up to the window (`hard_max` tokens) and otherwise only known to exceed it, which is all
that fitting compares: so an oversized element costs the tokenization of a window, not of its
whole text (`Sizer.measure_at_most`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from partita.chunking._run import ChunkingRun
from partita.chunking._window import ChunkWindow
from partita.chunking.provenance import EMPTY_TRACE, Span, Trace
from partita.elements import CodeSnippet, Element, Table

__all__ = [
    "SEPARATOR",
    "BoundaryPredicate",
    "PreChunk",
    "PreChunkBuilder",
    "iter_pre_chunks",
    "text_trace",
]

BoundaryPredicate = Callable[[Element], bool]
"""A semantic boundary: True for an element that must start a new pre-chunk (a strategy's rule,
such as by_title's titles)."""

SEPARATOR = "\n\n"
"""The text placed between the texts of two elements in a chunk."""

_LONG_TEXT_TOKENS = 8
"""Characters per window token above which an element's text is counted joined to the
pre-chunk's (bounded by the window) rather than whole (see `Sizer.measure_joined`)."""


def normalize_whitespace(text: str) -> str:
    """Return `" ".join(text.split())`, skipping the work when `text` is already normal."""
    if (
        text
        and text.isascii()
        and text[0] != " "
        and text[-1] != " "
        and "  " not in text
        and "\n" not in text
        and "\t" not in text
        and "\r" not in text
        and "\x0b" not in text
        and "\x0c" not in text
        and "\x1c" not in text
        and "\x1d" not in text
        and "\x1e" not in text
        and "\x1f" not in text
    ):
        return text
    return " ".join(text.split())


_RUN = re.compile(r"\S+(?: \S+)*")
"""Words separated by single spaces: a part of a text that `normalize_whitespace` keeps as it is
(a str pattern's whitespace is what `str.split()` splits on)."""


def text_trace(
    elements: Sequence[Element], prefix: str = "", prefix_trace: Trace | None = None
) -> Trace:
    """Return the trace of a pre-chunk's text to the elements (provenance): `prefix` (traced by
    `prefix_trace`), then the elements' normalized texts, the non-empty ones joined by blank
    lines. A text normalization changed gets a span per run of single-spaced words."""
    spans: list[Span] = list(prefix_trace.spans) if prefix and prefix_trace is not None else []
    offset = len(prefix) + 2 if prefix else 0
    for element in elements:
        text = element.text
        if not text:
            continue
        element_id = element.element_id
        if isinstance(element, CodeSnippet):
            spans.append((element_id, 0, len(text), offset))
            offset += len(text) + 2
            continue
        at = offset
        for run in _RUN.finditer(text):
            start, end = run.span()
            spans.append((element_id, start, end, at))
            at += end - start + 1
        if at != offset:
            offset = at + 1
    return Trace(spans)


@dataclass(slots=True, eq=False)
class PreChunk:
    """Elements staged to form one chunk (or several, when one oversized element is split).

    `body` holds the normalized, non-empty texts of the elements; `text` is the overlap prefix
    (when any) and the body joined by blank lines. Immutable by convention: `combine` returns a
    new pre-chunk. When the run records sources, `prefix_trace` traces the overlap prefix to the
    elements it came from and `trace()` the whole text (`partita.chunking.provenance`).
    """

    elements: Sequence[Element]
    overlap_prefix: str
    body: list[str]
    has_table: bool
    body_len: int = field(init=False)
    """`len` of the body's texts joined by blank lines."""
    token_count: int | None = field(default=None, init=False)
    """The size of `text` in tokens, once known (token mode only: from pre-chunking, or
    counted by combining): exact up to the window, else a number above it."""
    prefix_trace: Trace | None = field(default=None, init=False)
    """Where the overlap prefix came from, when the run records sources."""
    _text: str | None = field(default=None, init=False)
    _trace: Trace | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        body = self.body
        self.body_len = sum(map(len, body)) + 2 * (len(body) - 1) if body else 0

    @property
    def text(self) -> str:
        """The chunk text of this pre-chunk: prefix and element texts, joined by blank lines."""
        if self._text is None:
            segments = [self.overlap_prefix, *self.body] if self.overlap_prefix else self.body
            self._text = SEPARATOR.join(segments)
        return self._text

    @property
    def text_len(self) -> int:
        """`len(self.text)`, computed without joining."""
        prefix_len = len(self.overlap_prefix)
        if not prefix_len:
            return self.body_len
        return prefix_len + (2 + self.body_len if self.body else 0)

    def combined_len(self, other: PreChunk) -> int:
        """`len(self.combine(other).text)`, computed without joining."""
        own, theirs = self.text_len, other.body_len
        return own + theirs + (2 if own and other.body else 0)

    def combine(self, other: PreChunk) -> PreChunk:
        """Return a pre-chunk of this one's elements then `other`'s, with this one's prefix.

        `other`'s prefix is dropped: it repeats the end of this pre-chunk.
        """
        combined = PreChunk(
            [*self.elements, *other.elements],
            self.overlap_prefix,
            self.body + other.body,
            self.has_table or other.has_table,
        )
        combined.prefix_trace = self.prefix_trace
        return combined

    def overlap_tail(self, overlap: int) -> str:
        """Return the last `overlap` characters of the text, stripped ("" when `overlap` is 0)."""
        return self.text[-overlap:].strip() if overlap else ""

    def trace(self) -> Trace:
        """Return the trace of `text` to the elements (provenance: prefix and element texts)."""
        trace = self._trace
        if trace is None:
            trace = self._trace = text_trace(self.elements, self.overlap_prefix, self.prefix_trace)
        return trace

    def overlap_tail_trace(self, overlap: int) -> Trace:
        """Return the trace of `overlap_tail(overlap)`: the records of the text, cut to it."""
        text = self.text
        raw_start = max(0, len(text) - overlap)
        raw = text[raw_start:]
        start = raw_start + len(raw) - len(raw.lstrip())
        return self.trace().cut(start, start + len(raw.strip()))


class _RawCharacters:
    """The raw texts held, sized as the reference sizes them: their lengths, each text
    reserving a two-character separator."""

    __slots__ = ("_count", "_length")

    def __init__(self) -> None:
        self._count = 0
        self._length = 0

    def reset(self, tail: str) -> None:
        """Hold only `tail` ("" for nothing)."""
        self._count = 1 if tail else 0
        self._length = len(tail)

    def add(self, text: str) -> None:
        """Hold `text` too."""
        self._count += 1
        self._length += len(text)

    def will_fit(self, text: str, soft_max: int, hard_max: int) -> bool:
        """True when the texts held stay within `soft_max` and `text` joins them within
        `hard_max`."""
        n, length = self._count, self._length
        if length + 2 * (n - 1 if n else 0) > soft_max:
            return False
        return hard_max - length - 2 * n >= len(text)

    def token_count(self) -> int | None:
        """None: no tokens are counted."""
        return None


class _RawTokens:
    """The raw texts held, joined by blank lines and sized in tokens by `window`'s sizer: a
    count is exact up to the window, else a number above it. The last text `will_fit` counted
    is kept with its count, which `add` then reuses."""

    __slots__ = ("_candidate", "_count", "_joined", "_joined_count", "_window")

    def __init__(self, window: ChunkWindow) -> None:
        self._window = window
        self._count = 0
        self._joined = ""
        self._joined_count: int | None = 0
        """The token count of `_joined`; None: not counted yet."""
        self._candidate: tuple[str, int] | None = None
        """The last text `will_fit` counted, as (text, count of `_joined` and text joined)."""

    def reset(self, tail: str) -> None:
        """Hold only `tail` ("" for nothing)."""
        self._count = 1 if tail else 0
        self._joined, self._joined_count = tail, (None if tail else 0)
        self._candidate = None

    def add(self, text: str) -> None:
        """Hold `text` too, with its count when `will_fit` measured it."""
        candidate = self._candidate
        self._candidate = None
        self._joined = f"{self._joined}{SEPARATOR}{text}" if self._count else text
        self._joined_count = candidate[1] if candidate and candidate[0] is text else None
        self._count += 1

    def will_fit(self, text: str, soft_max: int, hard_max: int) -> bool:
        """True when the texts held stay within `soft_max` tokens and `text` joins them within
        `hard_max`."""
        held = self._count
        joined_count = self.token_count() if held else 0
        if joined_count > soft_max:
            return False
        if not text:
            return joined_count <= hard_max
        sizer = self._window.sizer
        if not held:
            size = sizer.measure_at_most(text, hard_max)
        elif len(text) > _LONG_TEXT_TOKENS * hard_max:
            size = sizer.measure_at_most(f"{self._joined}{SEPARATOR}{text}", hard_max)
        else:
            size = sizer.measure_joined(self._joined, SEPARATOR, text, left_size=joined_count)
        self._candidate = (text, size)
        return size <= hard_max

    def token_count(self) -> int:
        """The token count of the texts held, joined: exact up to the window, else a number
        above it."""
        joined_count = self._joined_count
        if joined_count is None:
            joined_count = self._window.sizer.measure_at_most(self._joined, self._window.size)
            self._joined_count = joined_count
        return joined_count


def _raw_sizes_for(window: ChunkWindow) -> _RawCharacters | _RawTokens:
    """The sizes of the raw texts a pre-chunk holds, in `window`'s unit."""
    return _RawTokens(window) if window.in_tokens else _RawCharacters()


class PreChunkBuilder:
    """Accumulates elements into a pre-chunk; `flush()` generates zero or one `PreChunk`."""

    __slots__ = (
        "_body",
        "_elements",
        "_has_table",
        "_opts",
        "_overlap_prefix",
        "_prefix_trace",
        "_raw",
        "_record_sources",
        "_verbatim",
    )

    def __init__(self, run: ChunkingRun) -> None:
        self._opts = run.opts
        self._elements: list[Element] = []
        self._overlap_prefix = ""
        self._raw = _raw_sizes_for(run.window)
        """The raw texts held (element texts, after the overlap prefix), sized."""
        self._body: list[str] = []
        self._has_table = False
        # -- every body text is its raw text and no raw text normalized away: the pre-chunk's
        # -- text is then the raw texts joined, and their token count its size --
        self._verbatim = True
        self._record_sources = run.opts.record_sources
        self._prefix_trace = EMPTY_TRACE

    def add(self, element: Element) -> None:
        """Add `element`; the caller has checked that it fits."""
        is_table = isinstance(element, Table)
        if is_table and self._opts.isolate_tables and not self._elements:
            # -- a table-only pre-chunk receives no overlap from the one before --
            self._overlap_prefix = ""
            self._prefix_trace = EMPTY_TRACE
            self._raw.reset("")
            self._verbatim = True
        self._elements.append(element)
        self._has_table = self._has_table or is_table
        text = element.text
        if text:
            self._raw.add(text)
            normalized = text if isinstance(element, CodeSnippet) else normalize_whitespace(text)
            if normalized:
                self._body.append(normalized)
            if normalized != text:
                self._verbatim = False

    def will_fit(self, element: Element) -> bool:
        """True when `element` can join this pre-chunk without breaking a limit."""
        opts = self._opts
        if opts.isolate_tables:
            if isinstance(element, Table):
                return not self._elements
            if self._has_table:
                return False
        if not self._elements:
            return True
        return self._raw.will_fit(element.text, opts.soft_max, opts.hard_max)

    def flush(self) -> Iterator[PreChunk]:
        """Generate the accumulated pre-chunk, if any, after resetting for the next one."""
        elements = self._elements
        if not elements:
            return
        pre_chunk = PreChunk(elements, self._overlap_prefix, self._body, self._has_table)
        overlap = self._opts.inter_chunk_overlap
        tail = pre_chunk.overlap_tail(overlap) if overlap else ""
        if tail and self._opts.isolate_tables and len(elements) == 1 and self._has_table:
            tail = ""  # -- a table passes no overlap to the text after it --
        if self._verbatim:
            # -- the pre-chunk's text is the joined raw text: its size is known or cheap --
            pre_chunk.token_count = self._raw.token_count()
        if self._record_sources:
            pre_chunk.prefix_trace = self._prefix_trace
            self._prefix_trace = pre_chunk.overlap_tail_trace(overlap) if tail else EMPTY_TRACE
        self._elements = []
        self._overlap_prefix = tail
        self._raw.reset(tail)
        self._body = []
        self._has_table = False
        self._verbatim = True
        yield pre_chunk


def iter_pre_chunks(
    elements: Iterable[Element],
    run: ChunkingRun,
    boundaries: Sequence[BoundaryPredicate] = (),
) -> Iterator[PreChunk]:
    """Generate the pre-chunks of `elements`, in order, breaking at every boundary."""
    builder = PreChunkBuilder(run)
    will_fit, add, flush = builder.will_fit, builder.add, builder.flush
    if len(boundaries) == 1:
        (is_boundary,) = boundaries
        for element in elements:
            if is_boundary(element) or not will_fit(element):
                yield from flush()
            add(element)
    else:
        for element in elements:
            # -- every predicate sees every element: some keep state (the current page) --
            at_boundary = [is_boundary(element) for is_boundary in boundaries]
            if any(at_boundary) or not will_fit(element):
                yield from flush()
            add(element)
    yield from flush()
