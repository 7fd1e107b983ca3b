"""One chunking run: what is built from the options once per run, and passed down the pipeline.

`SharedChunkingOptions` is pure data; a run also needs collaborators with state: the `Sizer` that
measures every text (with its memo of token counts) and the `TextSplitter` that cuts oversized
texts. `ChunkingRun.of(opts)` builds them once, when the run starts; pre-chunking, chunk forming
and table chunking receive the run.
"""

from __future__ import annotations

from dataclasses import dataclass

from partita.chunking._options import SharedChunkingOptions
from partita.chunking._window import ChunkWindow
from partita.text.sizing._sizer import Sizer, sizer_for
from partita.text.splitting._splitter import TextSplitter

__all__ = ["ChunkingRun"]


@dataclass(frozen=True, slots=True)
class ChunkingRun:
    """The validated `opts` of a run, the `sizer` that measures in the window's unit, the
    `split` that cuts an oversized text into window-sized pieces (overlapping by `overlap`), and
    the `window` (`opts.hard_max` in the sizer's unit)."""

    opts: SharedChunkingOptions
    sizer: Sizer
    split: TextSplitter
    window: ChunkWindow

    @classmethod
    def of(cls, opts: SharedChunkingOptions) -> ChunkingRun:
        """Return the run of `opts`, its sizer and splitter built."""
        sizer = sizer_for(opts.sizing_tokenizer)
        split = TextSplitter(
            opts.hard_max, opts.overlap_len, sizer=sizer, separators=opts.separators
        )
        return cls(opts, sizer, split, ChunkWindow(opts.hard_max, sizer))
