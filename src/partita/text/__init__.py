"""The text layer: what partitioners, chunking and evaluation all need to know about text.

It imports nothing else of partita (a test enforces it), so every layer above may use it:

- `_scripts`: which characters are CJK, Hangul, and which scripts wrap without spaces;
- `_whitespace`: characters that are not text, whitespace normalization, joining wrapped lines;
- `sentences`: rule-based sentence segmentation, CJK-aware (`split_sentences`);
- `sizing`: the one `Sizer` (characters, or tokens of any tokenizer, with tiktoken's fast paths);
- `splitting`: the reference's text splitter for oversized elements (characters and tokens);
- `_splits`: a text cut into spans within a budget, coarsest unit first (the sentence splitter's
  and the recursive splitter's decompositions);
- `_packing`: spans packed greedily into chunks, overlap of whole spans, hard maximum kept;
- `_fixed_token_windows`: fixed token windows (the evaluations' baseline) with their character
  ranges;
- `code`: source code's languages, outlines of definitions, and lines cut into blocks.
"""
