"""Combining small pre-chunks (by_title): a run of small sections becomes one chunk.

A pre-chunk whose text is shorter than `combine_text_under_n_chars` absorbs the next one when
their combined text fits the window. The combined pre-chunk can absorb further ones while it
stays under the threshold, so section boundaries are crossed. As in the reference, both the
threshold and the fit are measured in characters, in token mode too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from partita.chunking.options import ChunkingOptions
from partita.chunking.prechunk import PreChunk

__all__ = ["PreChunkAccumulator", "iter_combined_pre_chunks"]


class PreChunkAccumulator:
    """Holds one (possibly combined) pre-chunk; `flush()` generates zero or one."""

    __slots__ = ("_opts", "_pre_chunk")

    def __init__(self, opts: ChunkingOptions) -> None:
        self._opts = opts
        self._pre_chunk: PreChunk | None = None

    def add(self, pre_chunk: PreChunk) -> None:
        """Add `pre_chunk`, combining it with the one held; the caller checked that it fits."""
        held = self._pre_chunk
        self._pre_chunk = pre_chunk if held is None else held.combine(pre_chunk)

    def will_fit(self, pre_chunk: PreChunk) -> bool:
        """True when `pre_chunk` may be combined with the one held (or nothing is held)."""
        held = self._pre_chunk
        if held is None:
            return True
        opts = self._opts
        if opts.isolate_tables and (held.has_table or pre_chunk.has_table):
            return False
        if held.text_len >= opts.combine_under:
            return False
        return held.combined_len(pre_chunk) <= opts.hard_max

    def flush(self) -> Iterator[PreChunk]:
        """Generate the held pre-chunk, if any, and hold nothing."""
        held = self._pre_chunk
        if held is None:
            return
        self._pre_chunk = None
        yield held


def iter_combined_pre_chunks(
    pre_chunks: Iterable[PreChunk], opts: ChunkingOptions
) -> Iterator[PreChunk]:
    """Generate `pre_chunks` with small consecutive ones combined."""
    accumulator = PreChunkAccumulator(opts)
    for pre_chunk in pre_chunks:
        if not accumulator.will_fit(pre_chunk):
            yield from accumulator.flush()
        accumulator.add(pre_chunk)
    yield from accumulator.flush()
