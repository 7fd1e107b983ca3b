"""Splitting an oversized text into character-window pieces in one loop.

`iter_char_pieces(s, maxlen, overlap, separators)` generates the fragments that repeated calls
of a character-mode `TextSplitter(maxlen, overlap, separators=separators)` return, starting with
`s` and continuing on each remainder until it is empty, piece for piece. It is the splitter's
character path unrolled into one loop, for chunk forming, where every remainder is split at once:
no call, no option lookup and no `(fragment, remainder)` pair per piece.

Linear in the length of `s`: each remainder is a `TextTail` (the rest of `s` is never copied),
and each piece reads only the first `maxlen` characters (plus a separator) of its remainder.
"""

from __future__ import annotations

from collections.abc import Iterator

from partita.chunking.text_tail import TextTail

__all__ = ["iter_char_pieces"]


def iter_char_pieces(
    s: str, maxlen: int, overlap: int, separators: tuple[str, ...]
) -> Iterator[str]:
    """Generate the pieces of `s` (`separators`: non-empty strings, in order of preference)."""
    # -- every decision reads the remainder's first `maxlen` characters and a separator's end --
    width = maxlen + max(map(len, separators), default=0)
    rest = TextTail("", s, 0)
    while size := len(rest):
        if size <= maxlen:
            yield str(rest)
            return
        window = rest.prefix(width)
        for sep in separators:
            # -- the separator must start after the overlap (or the split makes no progress) and
            # -- may end exactly at maxlen --
            start = window.rfind(sep, overlap + 1, maxlen + len(sep))
            if start == -1:
                continue
            fragment = window[:start].rstrip()
            remainder = rest.suffix(start + len(sep)).lstripped()
            if overlap > 1:
                remainder = remainder.with_head(fragment[-(overlap - 1) :].lstrip() + " ")
            if not fragment or len(remainder) >= size:
                continue
            yield fragment  # -- already right-stripped --
            rest = remainder  # -- starts with a non-space: the tail, or the stripped rest --
            break
        else:
            yield window[:maxlen].rstrip()
            rest = rest.suffix(maxlen - overlap).lstripped()
