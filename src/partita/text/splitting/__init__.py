"""Splitting an oversized text into pieces that fit a window, with an overlap between them.

- `splitter`: `TextSplitter`, `split(s) -> (fragment, remainder)` and `iter_pieces(s)`, in
  characters or tokens, piece for piece as the reference library splits;
- `char_pieces`: the character path unrolled into one loop, linear in the text;
- `window_splitter`: the token path for cl100k_base, each split decided from one window of the
  text (`partita.text.sizing._split_window`), linear in the text.
"""

from partita.text.splitting._splitter import DEFAULT_SEPARATORS, TextSplitter

__all__ = ["DEFAULT_SEPARATORS", "TextSplitter"]
