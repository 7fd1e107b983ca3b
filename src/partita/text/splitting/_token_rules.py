"""The reference's token-mode split rules that both token paths share (`_splitter`,
`_window_splitter`): where the window ends, what a cut at a position emits, where the next
candidate may start.

The reference library (unstructured 0.27.35, `_TextSplitter._split_by_tokens`) splits a text
that counts more than `maxlen` tokens so:

1. **The window.** `probe_end` finds the last prefix length probed as fitting: doubling probes
   (256, 512, ...) until one overflows, then a bisection between the last fitting probe and it.
   A probe measures what a cut there would emit (`emitted_prefix`). Counts are not monotone in
   the prefix length, so the result is that of these very probes, not the longest fitting prefix.
2. **Separators**, in order of preference, are searched right to left only in the window and
   `WINDOW_MARGIN` characters after it (plus the separator's length). A candidate's fragment is
   the text before it, right-stripped; it is taken when non-empty, within `maxlen` tokens and,
   with an overlap, counting more than `overlap` tokens, and when its remainder (the overlap tail
   of the fragment, a space, and the text after the separator, left-stripped) is shorter than
   the text. Every candidate in one whitespace run gives the same fragment, so a run is tried
   once: after a candidate fails, none starting at or after its fragment's end is tried.
3. **Otherwise, a whitespace**: from the window's end leftward, the first whitespace position
   whose emitted prefix counts more than 0 (and more than `overlap`) tokens, each run tried once;
   when its fragment does not fit, the window's end itself. An all-whitespace prefix is content,
   emitted whole (`emitted_prefix`), and then the whitespace after it stays in the remainder.
4. **The overlap tail** of the fragment starts the remainder, joined by a space when the cut
   discarded whitespace (on either side), directly otherwise; kept only when the remainder is
   then shorter than the text. A remainder always consumes at least one character.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

__all__ = [
    "WINDOW_MARGIN",
    "emitted_prefix",
    "probe_end",
    "rstripped_len",
    "run_start",
    "separator_cuts",
]

WINDOW_MARGIN = 16
"""Characters after the window's end in which a separator is still looked for."""

_FIRST_PROBE = 256
"""The first prefix length probed (a shorter text is probed at its length)."""


def emitted_prefix(s: str, end: int) -> str:
    """What a cut of `s` at `end` emits: `s[:end]` right-stripped, or whole when all whitespace
    (never empty for `end >= 1`)."""
    prefix = s[:end]
    return prefix.rstrip() or prefix


def probe_end(size: int, fits: Callable[[int], bool]) -> int:
    """The last prefix length of a text of `size` characters probed as fitting, at least 1.

    `fits(k)` tells whether the text a cut at `k` emits fits the window. Probes double from
    `_FIRST_PROBE` until one does not fit (or the text's end fits: `size`), then bisect between
    the last that fits (1 when none did) and it.
    """
    low = high = 1
    while high < size:
        high = min(size, max(2 * high, _FIRST_PROBE))
        if not fits(high):
            break
        low = high
    if low == size:
        return size
    while high - low > 1:
        mid = (low + high) // 2
        if fits(mid):
            low = mid
        else:
            high = mid
    return low


def run_start(s: str, i: int) -> int:
    """The start of the whitespace run that ends just before `s[i]` (`i` when there is none)."""
    while i > 0 and s[i - 1].isspace():
        i -= 1
    return i


def separator_cuts(
    text: str, separators: tuple[str, ...], search_end: int
) -> Iterator[tuple[int, int]]:
    """The separator candidates of rule 2, in the order they are tried: for each of
    `separators` (non-empty, in order of preference), right to left, each place where it starts
    at or before `search_end`, as `(k, after)`: the candidate's fragment is `text[:k]` (the
    text before it, right-stripped) and its remainder starts at `after` (the separator's end).
    A candidate starting at or after the end of the fragment of the one before it is not given
    (its whitespace run was tried). `text` holds at least the text up to `search_end` plus the
    longest separator."""
    for sep in separators:
        skip_from = len(text)
        end = search_end + len(sep)
        while (start := text.rfind(sep, 0, end)) != -1:
            end = start
            if start >= skip_from:
                continue
            k = rstripped_len(text, start)
            skip_from = k
            yield k, start + len(sep)


def rstripped_len(s: str, end: int) -> int:
    """`len(s[:end].rstrip())`."""
    end = min(end, len(s))
    while end > 0 and s[end - 1].isspace():
        end -= 1
    return end
