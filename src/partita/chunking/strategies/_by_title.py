"""The "by_title" strategy: a chunk never spans two sections; small sections are combined.

Principles:

- **A title starts a section.** Every `Title` element is a semantic boundary: it starts a new
  pre-chunk, whatever room is left in the one before (`is_title`).
- **Pages, when asked.** With `multipage_sections=False` a page change is a boundary too
  (`is_on_next_page`); by default a section may span pages.
- **Small sections are combined.** A run of consecutive pre-chunks whose text is shorter than
  `combine_text_under_n_chars` (default: the window; never more than the soft maximum,
  `new_after_n_chars` / `new_after_n_tokens`) is merged while the merged text fits the window
  (`iter_combined_pre_chunks`), so section boundaries are crossed by small sections only. As in
  the reference (since unstructured 0.27.35), the threshold and the fit are measured in the
  window's unit: tokens in token mode. `combine_unit="characters"` measures them in characters,
  as unstructured did before.
- Everything else is "basic": filling to the window, splitting oversized elements, overlap and
  tables (see `partita.chunking.strategies._basic`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Annotated, Unpack

from partita.chunking._options import ChunkingOptions, Help
from partita.chunking._pipeline import iter_pipeline_chunks
from partita.chunking._prechunk import SEPARATOR, BoundaryPredicate, PreChunk
from partita.chunking._run import ChunkingRun
from partita.chunking._strategy import StrategyParts, eager
from partita.chunking._window import ChunkWindow
from partita.chunking.strategies._basic import BasicOptions
from partita.elements import Element, Title

__all__ = [
    "CHUNK_MULTI_PAGE_DEFAULT",
    "PARTS",
    "ByTitleChunkingOptions",
    "ByTitleOptions",
    "PreChunkAccumulator",
    "chunk_by_title",
    "is_on_next_page",
    "is_title",
    "iter_chunks_by_title",
    "iter_combined_pre_chunks",
    "run_by_title",
]

CHUNK_MULTI_PAGE_DEFAULT = True
"""Whether sections may span pages when `multipage_sections` is not given."""


class ByTitleOptions(BasicOptions, total=False):
    """The options of the "by_title" strategy: the basic ones and two of its own."""

    combine_text_under_n_chars: Annotated[
        int | None,
        Help(
            "combine consecutive sections while the first is shorter than this (default: the"
            " window; 0 disables)"
        ),
    ]
    multipage_sections: Annotated[
        bool | None,
        Help("let a section span pages; off: a page change starts a chunk (default on)"),
    ]
    combine_unit: Annotated[
        str | None,
        Help(
            "what combining measures: window (the window's unit, tokens in token mode; the"
            " reference's, default) or characters (in token mode too, as unstructured 0.27.32)"
        ),
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class ByTitleChunkingOptions(ChunkingOptions):
    """The validated "by_title" options: `ChunkingOptions` and, derived, `combine_under` (the
    combining threshold: `combine_text_under_n_chars`, `hard_max` by default, capped at
    `soft_max`), `combine_in_tokens` (whether combining counts tokens: token mode, unless
    `combine_unit="characters"`) and `multipage` (whether sections span pages).

    Validation adds the reference's two checks of `combine_text_under_n_chars` as given (before
    the cap), after the basic ones, with its messages.
    """

    combine_text_under_n_chars: int | None = None
    multipage_sections: bool | None = None
    combine_unit: str | None = None

    combine_under: int = field(init=False)
    combine_in_tokens: bool = field(init=False)
    multipage: bool = field(init=False)

    def __post_init__(self) -> None:
        ChunkingOptions.__post_init__(self)
        combine = self.combine_text_under_n_chars
        hard_max = self.hard_max
        requested = hard_max if combine is None else combine
        if requested < 0:
            raise ValueError(f"'combine_text_under_n_chars' argument must be >= 0, got {requested}")
        if requested > hard_max:
            raise ValueError(
                "'combine_text_under_n_chars' argument must not exceed `max_characters`"
                f" value, got {requested} > {hard_max}"
            )
        multipage = self.multipage_sections
        if self.combine_unit not in (None, "characters", "window"):
            raise ValueError(
                "'combine_unit' must be one of 'characters', 'window' or None,"
                f" got {self.combine_unit!r}"
            )
        in_tokens = self.max_tokens is not None and self.combine_unit != "characters"
        object.__setattr__(self, "combine_under", min(requested, self.soft_max))
        object.__setattr__(self, "combine_in_tokens", in_tokens)
        object.__setattr__(
            self, "multipage", CHUNK_MULTI_PAGE_DEFAULT if multipage is None else bool(multipage)
        )


# -- boundaries ------------------------------------------------------------------------------


def is_title(element: Element) -> bool:
    """True when `element` is a Title, the only element type that starts a section."""
    return isinstance(element, Title)


def is_on_next_page() -> BoundaryPredicate:
    """Return a predicate that is True for an element on a different page than the one before.

    The first element never triggers; it sets the current page (1 when it has none). An element
    without a page number continues the current page. Any different page number triggers,
    a lower one included, as in the reference. It keeps state: one predicate per element stream.
    """
    current_page = 1
    is_first = True

    def page_changed(element: Element) -> bool:
        nonlocal current_page, is_first
        page_number = element.metadata.page_number
        if is_first:
            current_page = page_number or 1
            is_first = False
            return False
        if page_number is None or page_number == current_page:
            return False
        current_page = page_number
        return True

    return page_changed


# -- combining -------------------------------------------------------------------------------


class _CombinedCharacters:
    """Combining sized in characters: the texts' lengths, computed without joining."""

    __slots__ = ()

    def size(self, pre_chunk: PreChunk) -> int:
        """`len(pre_chunk.text)`."""
        return pre_chunk.text_len

    def combined_size(self, held: PreChunk, other: PreChunk) -> int:
        """`len(held.combine(other).text)`."""
        return held.combined_len(other)

    def combine(self, held: PreChunk, other: PreChunk) -> PreChunk:
        """`held.combine(other)`."""
        return held.combine(other)


class _CombinedTokens:
    """Combining sized in tokens by `window`'s sizer: exact up to the window, which is all the
    comparisons need (the threshold is at most the window), and kept on the pre-chunks
    (`PreChunk.token_count`). The last combination `combined_size` counted is kept with its
    count, which `combine` then reuses."""

    __slots__ = ("_candidate", "_window")

    def __init__(self, window: ChunkWindow) -> None:
        self._window = window
        self._candidate: tuple[PreChunk, int] | None = None

    def size(self, pre_chunk: PreChunk) -> int:
        """The token count of `pre_chunk`'s text, exact up to the window (kept on it)."""
        count = pre_chunk.token_count
        if count is None:
            count = self._window.sizer.measure_at_most(pre_chunk.text, self._window.size)
            pre_chunk.token_count = count
        return count

    def combined_size(self, held: PreChunk, other: PreChunk) -> int:
        """The token count of `held.combine(other).text`, exact up to the window: from the two
        sizes, tokenizing around the join (`Sizer.measure_joined`), when both are known exactly;
        else the joined text's, bounded by the window."""
        size = self._count_combined(held, other)
        self._candidate = (other, size)
        return size

    def _count_combined(self, held: PreChunk, other: PreChunk) -> int:
        held_size = self.size(held)
        if not other.body:
            return held_size
        sizer, window = self._window.sizer, self._window.size
        other_text = SEPARATOR.join(other.body) if other.overlap_prefix else other.text
        other_size = None if other.overlap_prefix else self.size(other)
        if not held.text:
            return sizer.measure_at_most(other_text, window)
        if other_size is None or other_size > window:
            return sizer.measure_at_most(f"{held.text}{SEPARATOR}{other_text}", window)
        return sizer.measure_joined(
            held.text, SEPARATOR, other_text, left_size=held_size, right_size=other_size
        )

    def combine(self, held: PreChunk, other: PreChunk) -> PreChunk:
        """`held.combine(other)`, with its token count when `combined_size` counted it."""
        combined = held.combine(other)
        candidate = self._candidate
        if candidate is not None and candidate[0] is other:
            combined.token_count = candidate[1]
        self._candidate = None
        return combined


def _combined_sizes_for(window: ChunkWindow) -> _CombinedCharacters | _CombinedTokens:
    """The sizes combining compares, in `window`'s unit."""
    return _CombinedTokens(window) if window.in_tokens else _CombinedCharacters()


class PreChunkAccumulator:
    """Holds one (possibly combined) pre-chunk; `flush()` generates zero or one.

    Sizes are in `window`'s unit when combining counts it (`combine_in_tokens`), else in
    characters.
    """

    __slots__ = ("_opts", "_pre_chunk", "_sizes")

    def __init__(self, opts: ByTitleChunkingOptions, window: ChunkWindow) -> None:
        self._opts = opts
        if not opts.combine_in_tokens:
            window = window.in_characters()
        self._sizes = _combined_sizes_for(window)
        self._pre_chunk: PreChunk | None = None

    def add(self, pre_chunk: PreChunk) -> None:
        """Add `pre_chunk`, combining it with the one held; the caller checked that it fits."""
        held = self._pre_chunk
        self._pre_chunk = pre_chunk if held is None else self._sizes.combine(held, pre_chunk)

    def will_fit(self, pre_chunk: PreChunk) -> bool:
        """True when `pre_chunk` may be combined with the one held (or nothing is held)."""
        held = self._pre_chunk
        if held is None:
            return True
        opts = self._opts
        if opts.isolate_tables and (held.has_table or pre_chunk.has_table):
            return False
        sizes = self._sizes
        if sizes.size(held) >= opts.combine_under:
            return False
        return sizes.combined_size(held, pre_chunk) <= opts.hard_max

    def flush(self) -> Iterator[PreChunk]:
        """Generate the held pre-chunk, if any, and hold nothing."""
        held = self._pre_chunk
        if held is None:
            return
        self._pre_chunk = None
        yield held


def iter_combined_pre_chunks(
    pre_chunks: Iterable[PreChunk], opts: ByTitleChunkingOptions, window: ChunkWindow
) -> Iterator[PreChunk]:
    """Generate `pre_chunks` with small consecutive ones combined (sized in `window`'s unit when
    combining counts it, else in characters)."""
    accumulator = PreChunkAccumulator(opts, window)
    for pre_chunk in pre_chunks:
        if not accumulator.will_fit(pre_chunk):
            yield from accumulator.flush()
        accumulator.add(pre_chunk)
    yield from accumulator.flush()


# -- the strategy ----------------------------------------------------------------------------


def run_by_title(elements: Iterable[Element], opts: ByTitleChunkingOptions) -> Iterator[Element]:
    """Generate the "by_title" chunks of `elements` under validated options `opts`:

    elements -> iter_pre_chunks (boundaries: titles, and pages unless multipage)
             -> iter_combined_pre_chunks -> chunks

    The options choose the pipeline (`partita.chunking._pipeline`): this one, annotated, or the
    retrieval pipeline, with the same section boundaries.
    """
    run = ChunkingRun.of(opts)
    boundaries: list[BoundaryPredicate] = [is_title]
    if not opts.multipage:
        boundaries.append(is_on_next_page())
    return iter_pipeline_chunks(
        elements,
        run,
        boundaries=boundaries,
        combine=lambda pre_chunks: iter_combined_pre_chunks(pre_chunks, opts, run.window),
        combine_under=opts.combine_under,
        combine_in_window_unit=opts.combine_unit != "characters",
    )


def iter_chunks_by_title(
    elements: Iterable[Element], **options: Unpack[ByTitleOptions]
) -> Iterator[Element]:
    """Generate chunks of `elements` that start a new chunk at every Title ("by_title").

    Small consecutive sections are combined while shorter than `combine_text_under_n_chars`
    (default: the window; at most the soft maximum) and fitting together; with
    `multipage_sections=False` a page change is a boundary too. Raises `ValueError` for invalid
    options and `TypeError` for an unknown one, when called.
    """
    return run_by_title(elements, ByTitleChunkingOptions(**options))


chunk_by_title = eager(iter_chunks_by_title, "chunk_by_title")
"""Return the "by_title" chunks of `elements`; see `iter_chunks_by_title`."""


PARTS = StrategyParts(
    ByTitleOptions, ByTitleChunkingOptions, run_by_title, iter_chunks_by_title, chunk_by_title
)
"""The parts of the "by_title" strategy, for the registry."""
