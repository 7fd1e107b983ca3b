"""The structured rows of `bench_strategies.py`: "headings" and "code" against their peers.

`run_structured` runs the headings rows (`_headings_rows.py`: partita's headings strategy vs
LangChain's `MarkdownHeaderTextSplitter` + `TokenTextSplitter`, seed 001) and the code rows
(`_code_rows.py`: partita's code strategy vs chonkie's `CodeChunker`, offline on the installed
tree-sitter grammar wheels), and returns their tables under one legend. Both kinds of rows take
from here what they share: the 384-token budget, partita's name for cl100k, and how a chunk's
tokens and a text's megabytes are counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

PARTITA_TOKENIZER = "cl100k_base"
BUDGET = 384


def tokens_of(enc: Any, text: str) -> int:
    return len(enc.encode(text, disallowed_special=()))


def utf8_megabytes(texts: Sequence[str]) -> float:
    return sum(len(t.encode("utf-8")) for t in texts) / 1e6


STRUCTURED_COLUMNS = """\
headings: MB/s of the Markdown's UTF-8; ratio = LangChain's time / partita's partition + chunk
time (below 1: partita is slower). max tokens and "over 384": cl100k tokens of each chunk as
returned, heading path included. code: ratio = chonkie's time / partita's (both from the file
paths: partition + chunk, read + chunk). "cut functions that fit": functions and methods of at
most 384 tokens (ast for Python, tree-sitter for the others) that no single chunk holds whole."""


def run_structured(
    enc: Any,
    repeat: int,
    depths: Sequence[int] = (2, 6),
    parts: Sequence[str] = ("headings", "code"),
) -> str:
    """Run the structured rows and return their report (Markdown tables and a legend)."""
    # -- imported here, not above: both modules import the budget and helpers above from this one --
    from _code_rows import code_table, run_code
    from _headings_rows import headings_table, run_headings

    out: list[str] = []
    if "headings" in parts:
        out += ["Headings (seed 001):", "", headings_table(run_headings(enc, repeat, depths)), ""]
    if "code" in parts:
        out += ["Code:", "", code_table(*run_code(enc, repeat)), ""]
    out.append(STRUCTURED_COLUMNS)
    return "\n".join(out)
