"""The text layer: what partitioners, chunking and evaluation all need to know about text.

It imports nothing else of partita (a test enforces it), so every layer above may use it:

- `scripts`: which characters are CJK, Hangul, and which scripts wrap without spaces;
- `whitespace`: characters that are not text, whitespace normalization, joining wrapped lines;
- `sentences`: rule-based sentence segmentation, CJK-aware (`split_sentences`);
- `sizing`: the one `Sizer` (characters, or tokens of any tokenizer, with tiktoken's fast paths);
- `splitting`: the reference's text splitter for oversized elements (characters and tokens);
- `splits`: a text cut into spans within a budget, coarsest unit first (the sentence splitter's
  and the recursive splitter's decompositions);
- `packing`: spans packed greedily into chunks, overlap of whole spans, hard maximum kept;
- `fixed_token_windows`: fixed token windows (the evaluations' baseline) with their character
  ranges.
"""
