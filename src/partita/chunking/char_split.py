"""Splitting an oversized text into character-window pieces in one loop.

`iter_char_pieces(s, maxlen, overlap, separators)` generates the fragments that repeated calls
of a character-mode `TextSplitter(maxlen, overlap, separators=separators)` return, starting with
`s` and continuing on each remainder until it is empty, piece for piece. It is the splitter's
character path unrolled into one loop, for chunk forming, where every remainder is split at once:
no call, no option lookup and no `(fragment, remainder)` pair per piece.
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["iter_char_pieces"]


def iter_char_pieces(
    s: str, maxlen: int, overlap: int, separators: tuple[str, ...]
) -> Iterator[str]:
    """Generate the pieces of `s` (`separators`: non-empty strings, in order of preference)."""
    while s:
        if len(s) <= maxlen:
            yield s
            return
        for sep in separators:
            # -- the separator must start after the overlap (or the split makes no progress) and
            # -- may end exactly at maxlen --
            start = s.rfind(sep, overlap + 1, maxlen + len(sep))
            if start == -1:
                continue
            fragment = s[:start].rstrip()
            remainder = s[start + len(sep) :].lstrip()
            if overlap > 1:
                remainder = fragment[-(overlap - 1) :].lstrip() + " " + remainder
            if not fragment or len(remainder) >= len(s):
                continue
            yield fragment  # -- already right-stripped --
            s = remainder.lstrip()
            break
        else:
            yield s[:maxlen].rstrip()
            s = s[maxlen - overlap :].lstrip()
