"""Splitting an oversized text into pieces that fit a window, with an overlap between them.

- `_splitter`: `TextSplitter`, `split(s) -> (fragment, remainder)` and `iter_pieces(s)`, in
  characters or tokens, piece for piece as the reference library splits;
- `_char_pieces`: the character path unrolled into one loop, linear in the text;
- `_window_splitter`: the token path for cl100k_base, each split decided from one window of the
  text (`partita.text.sizing._split_window`), linear in the text;
- `_token_rules`: the reference's token-mode split rules that both token paths share.
"""

from partita.text.splitting._splitter import DEFAULT_SEPARATORS, TextSplitter

__all__ = ["DEFAULT_SEPARATORS", "TextSplitter"]
