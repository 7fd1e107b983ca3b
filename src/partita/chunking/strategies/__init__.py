"""The chunking strategies, one module each: `basic`, `by_title`, and the text strategies
`sentence`, `sentence_window`, `recursive` and `token` (what they share: `_text_chunks`).

Each module opens with the principles of its strategy, owns its options (a `TypedDict` with each
option's help, and its validated value type), its lazy and eager functions and its pipeline, and
ends with its `ChunkingStrategy` entry, which `partita.chunking.registry` registers.
"""
