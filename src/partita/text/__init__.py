"""The text layer: what partitioners, chunking and evaluation all need to know about text.

It imports nothing else of partita (a test enforces it), so every layer above may use it:

- `scripts`: which characters are CJK, Hangul, and which scripts wrap without spaces;
- `whitespace`: characters that are not text, whitespace normalization, joining wrapped lines;
- `sentences`: rule-based sentence segmentation, CJK-aware (`split_sentences`).
"""
