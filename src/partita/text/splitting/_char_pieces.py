"""Splitting an oversized text into character-window pieces in one loop.

`iter_char_pieces(s, maxlen, overlap, separators)` generates the fragments that repeated calls
of a character-mode `TextSplitter(maxlen, overlap, separators=separators)` return, starting with
`s` and continuing on each remainder until it is empty, piece for piece. It is the splitter's
character path in one loop, for chunk forming, where every remainder is split at once; both take
each step from `split_chars`.

Linear in the length of `s`. Each piece reads only the first `maxlen` characters (plus a
separator) of its remainder; a long remainder is a `TextTail`, so the rest of `s` is never
copied. Once the remainder is short (`_COPIED_REMAINDER` windows), it is a plain string again:
copying a few windows per piece costs less than a `TextTail`'s bookkeeping.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

from partita.text.sizing._text_tail import TextTail

__all__ = ["iter_char_pieces", "split_chars"]

_COPIED_REMAINDER = 8
"""Windows of text below which a remainder is copied as a string rather than held as a tail."""


def split_chars(s: str, maxlen: int, overlap: int, separators: tuple[str, ...]) -> tuple[str, str]:
    """The first fragment of `s` (longer than `maxlen`) and its remainder, both stripped: cut at
    the first of `separators` (in order of preference) found in the window, else at `maxlen`."""
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
        return fragment, remainder.lstrip()
    return s[:maxlen].rstrip(), s[maxlen - overlap :].lstrip()


def iter_char_pieces(
    s: str, maxlen: int, overlap: int, separators: tuple[str, ...]
) -> Iterator[str]:
    """Generate the pieces of `s` (`separators`: non-empty strings, in order of preference)."""
    if len(s) > _COPIED_REMAINDER * maxlen + 1024:
        s = yield from _iter_pieces_of_long_text(s, maxlen, overlap, separators)
    while len(s) > maxlen:
        fragment, s = split_chars(s, maxlen, overlap, separators)
        yield fragment
    if s:
        yield s


def _iter_pieces_of_long_text(
    s: str, maxlen: int, overlap: int, separators: tuple[str, ...]
) -> Generator[str, None, str]:
    """Generate the first pieces of `s` while the remainder is long; return the remainder.

    The same steps as `iter_char_pieces`, on a `TextTail`.
    """
    # -- every decision reads the remainder's first `maxlen` characters and a separator's end --
    width = maxlen + max(map(len, separators), default=0)
    short = _COPIED_REMAINDER * width + 1024
    rest = TextTail("", s, 0)
    while (size := len(rest)) > short:
        window = rest.prefix(width)
        for sep in separators:
            start = window.rfind(sep, overlap + 1, maxlen + len(sep))
            if start == -1:
                continue
            fragment = window[:start].rstrip()
            after = rest.suffix(start + len(sep)).lstripped()
            if overlap > 1:
                after = after.with_head(fragment[-(overlap - 1) :].lstrip() + " ")
            if not fragment or len(after) >= size:
                continue
            yield fragment
            rest = after  # -- starts with a non-space: the tail, or the stripped rest --
            break
        else:
            yield window[:maxlen].rstrip()
            rest = rest.suffix(maxlen - overlap).lstripped()
    return str(rest)
