"""Sizing text: how long a text is in the chunking window's unit, characters or tokens.

- `_sizer`: `Sizer`, the one measure of a run (`measure`, `measure_at_most`, `fits`), in
  characters or tokens, with its tiktoken machinery as `tiktoken`; `sizer_for(tokenizer)`;
- `_tokenizers`: every accepted tokenizer (a tiktoken name or `Encoding`, a HuggingFace
  `Tokenizer`, a counting function) becomes a memoized `Callable[[str], int]` (`token_counter`);
- `bpe_engine`: the engine that encodes for a tiktoken encoding: rs-bpe (the `fast` extra) for
  cl100k_base and o200k_base, recognized by content and checked against tiktoken, else tiktoken;
- `openai_encodings`: every OpenAI encoding (cl100k_base, o200k_base, p50k_base, r50k_base,
  gpt2) as a tiktoken `Encoding` built from ranks on disk, never downloaded;
- `_token_cuts`: where tiktoken's cl100k_base tokenization of a text splits in two, so that counts
  of prefixes, slices and joined texts come from one tokenization;
- `_token_bound`: a lower bound on a text's token count from the vocabulary alone;
- `_split_window`: the window of a long text whose one tokenization gives every count that
  comparing its prefixes with `maxlen` tokens needs;
- `_text_tail`: a text's tail, read without copying it.
"""

from partita.text.sizing._sizer import CHARACTERS, Sizer, SizeUnit, sizer_for
from partita.text.sizing._tokenizers import TiktokenTokens, TokenCounter, token_counter

__all__ = [
    "CHARACTERS",
    "SizeUnit",
    "Sizer",
    "TiktokenTokens",
    "TokenCounter",
    "sizer_for",
    "token_counter",
]
