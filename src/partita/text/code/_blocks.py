"""Code cut into blocks, lines and words, for a definition too long for the window.

Principles (code-aware chunking: a function longer than the window is split at blank or
comment lines, then at line ends):

- **Lines** end at "\\n" (a "\\r" before it belongs to no split); line `i` starts at
  `line_starts(text)[i]`.
- **Blocks** are runs of non-blank lines; a comment line after a code line starts a new block
  too (a comment introduces what follows). A block that fits the budget is one split, from the
  start of its first line (its indentation kept) to the end of its last.
- A block over the budget is cut into its lines, each a split that does not end a "sentence"
  (`ends_sentence`) except the block's last, so a packer ends chunks at block ends when it can.
- A line over the budget is cut at spaces, then between characters (`iter_recursive_splits`).
- Blank lines and trailing spaces belong to no split: they stay between splits, in the chunk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from partita.text._splits import Split, iter_recursive_splits
from partita.text.code._languages import Language, is_comment_line

__all__ = ["iter_code_splits", "line_starts"]

_LINE_SEPARATORS = (" ", "")


def line_starts(text: str) -> list[int]:
    """The offset of each line's first character ("\\n" ends a line); one entry per line."""
    starts = [0]
    find = text.find
    position = find("\n")
    while position >= 0:
        starts.append(position + 1)
        position = find("\n", position + 1)
    return starts


def _iter_blocks(
    text: str, start: int, end: int, language: Language | None
) -> Iterator[list[tuple[int, int]]]:
    """The blocks of `text[start:end]` (which starts at a line start), each a list of its lines'
    `(start, end)` spans, line ends and trailing spaces excluded."""
    block: list[tuple[int, int]] = []
    was_comment = False
    position = start
    while position < end:
        newline = text.find("\n", position, end)
        line_end = end if newline < 0 else newline
        line = text[position:line_end]
        stripped_end = position + len(line.rstrip())
        if stripped_end == position or not line.strip():
            if block:
                yield block
                block = []
            was_comment = False
        else:
            is_comment = language is not None and is_comment_line(line, language)
            if block and is_comment and not was_comment:
                yield block
                block = []
            block.append((position, stripped_end))
            was_comment = is_comment
        position = line_end + 1
    if block:
        yield block


def iter_code_splits(
    text: str,
    start: int,
    end: int,
    measure: Callable[[str], int],
    limit: int,
    language: Language | None = None,
) -> Iterator[Split]:
    """Yield the splits of the code `text[start:end]` (`start` at a line start) for a budget
    of `limit`: blocks, the lines of blocks over it, the words of lines over it (see the module
    docstring). Raises `ValueError` unless `limit > 0`."""
    if limit <= 0:
        raise ValueError(f"the budget must be > 0, got {limit}")
    for block in _iter_blocks(text, start, end, language):
        block_start, block_end = block[0][0], block[-1][1]
        size = measure(text[block_start:block_end])
        if size <= limit:
            yield Split(block_start, block_end, size, True, True)
            continue
        for index, (line_start, line_end) in enumerate(block):
            ends = index == len(block) - 1
            line = text[line_start:line_end]
            size = measure(line)
            if size <= limit:
                yield Split(line_start, line_end, size, True, ends)
                continue
            pieces = list(iter_recursive_splits(line, measure, limit, _LINE_SEPARATORS))
            for number, piece in enumerate(pieces):
                last = ends and number == len(pieces) - 1
                yield Split(
                    line_start + piece.start, line_start + piece.end, piece.size, False, last
                )
