"""The units an element's text is packed in: the whole text, or its pieces when it is oversized.

- An element whose text fits the room a chunk has for it (the window less its header) is one
  unit: elements are never cut without need; with `overlap_unit="sentences"` it is its
  sentences, so that an overlap can take the last ones, and the filler keeps it whole in one
  chunk all the same.
- An oversized element is cut, with `split_at="sentences"` (or `overlap_unit="sentences"`), at
  sentence ends (`partita.text.sentences`, CJK-aware), then clause ends, then words, then the
  longest prefixes that fit, never inside a grapheme cluster (`partita.text._splits.iter_splits`);
  otherwise at the run's text splitting separators (newline, then space, by default), then
  grapheme clusters (`iter_recursive_splits`).
- Units are spans of the element's text, stripped, in order, covering every non-whitespace
  character once: no text is lost.
"""

from __future__ import annotations

from collections.abc import Iterator

from partita.chunking._run import ChunkingRun
from partita.elements import Element
from partita.text._packing import Unit
from partita.text._splits import iter_recursive_splits, iter_splits
from partita.text.sentences import iter_sentence_spans

__all__ = ["iter_units", "splits_sentences"]


def splits_sentences(run: ChunkingRun) -> bool:
    """True when oversized elements are cut at sentence ends (see the module docstring)."""
    return run.opts.retrieval.splits_sentences


def iter_units(
    source: int, element: Element, run: ChunkingRun, room: int, *, sentences: bool = False
) -> Iterator[Unit]:
    """The units of `element` (number `source` in its group) for chunks with `room` for its
    text (the window less the header; at least 1); with `sentences`, its sentences even when it
    fits (so that an overlap can take its last ones)."""
    text = element.text
    start, end = 0, len(text)
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start == end:
        return
    sizer = run.sizer
    room = max(room, 1)
    size = sizer.measure_at_most(text[start:end], room)
    if size <= room and not sentences:
        yield Unit(source, start, end, size, True, True)
        return
    measure = sizer.bounded_by(room)
    if size <= room:
        for sentence_start, sentence_end in iter_sentence_spans(text):
            sentence = text[sentence_start:sentence_end]
            yield Unit(source, sentence_start, sentence_end, measure(sentence), True, True)
        return
    if splits_sentences(run):
        splits = iter_splits(text, measure, room)
    else:
        splits = iter_recursive_splits(text, measure, room, (*run.opts.separators, ""))
    for split in splits:
        yield Unit(
            source, split.start, split.end, split.size, split.is_sentence, split.ends_sentence
        )
