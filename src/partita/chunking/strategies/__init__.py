"""The chunking strategies, one module each: `_basic`, `_by_title`, and the text strategies
`_sentence`, `_sentence_window`, `_recursive` and `_token`, and `_headings`, and the subpackages
`code` and `semantic` (what the text strategies share: `partita.chunking._text_chunks`; the
retrieval options of `basic` and `by_title` run `partita.chunking.retrieval`).

Each module opens with the principles of its strategy, owns its options (a `TypedDict` with each
option's help, and its validated value type), its lazy and eager functions and its pipeline, and
ends with its `PARTS` (`partita.chunking._strategy.StrategyParts`), from which
`partita.chunking._registry` makes its entry when the strategy is first used.
"""
