"""Token counting speed of the engines partita may count with, offline: tiktoken, bpe-openai,
rs-bpe (`encode` and `count`), and the one partita chose (`partita.text.sizing.bpe_engine`).

The text is bench_chunking's seeded element stream (English paragraphs, Chinese paragraphs,
titles, list items, table cells), the element texts taken in order until `--megabytes` of UTF-8.
Each encoding (cl100k_base, o200k_base) is counted two ways:

- **elements**: one call per element text, as chunking measures;
- **blocks**: the same texts joined by blank lines into blocks of about 100 kB (bpe-openai
  refuses a call of more than 200,000 tokens or 1,000,000 characters, so no larger blocks).

tiktoken's `Encoding` is partita's own (`partita.text.sizing.openai_encodings`, tiktoken's engine
on OpenAI's ranks). The engines run alternately, `--repeat` times each; the table gives each
one's least CPU time (`time.process_time`: all count on one thread, and CPU time is less
disturbed than wall time by other work on a shared machine), the token totals (which must all be
tiktoken's: the exit status is 1 otherwise) and the ratio tiktoken / engine (above 1: faster
than tiktoken). Loading times (wall) are given apart.

    python benchmarks/bench_tokenizers.py [--megabytes 20] [--repeat 3] [--seed 0]

Needs the `bench` extra (bpe-openai is in it only for this comparison; rs-bpe is the `fast`
extra).
"""

from __future__ import annotations

import argparse
import gc
import platform
import sys
import time
from collections.abc import Callable, Iterator
from importlib.metadata import version
from typing import Any

from _streams import iter_element_dicts  # benchmarks/ is on sys.path (bench_chunking's stream)
from partita.text.sizing.openai_encodings import openai_encoding

ENCODINGS = ("cl100k_base", "o200k_base")
BLOCK_CHARACTERS = 100_000


def stream_texts(megabytes: float, seed: int) -> list[str]:
    """The element texts of the seeded stream, in order, until `megabytes` of UTF-8."""
    texts: list[str] = []
    size, limit = 0, int(megabytes * 1_000_000)
    for element in iter_element_dicts(seed):
        text = element.get("text") or ""
        if text:
            texts.append(text)
            size += len(text.encode())
            if size >= limit:
                break
    return texts


def blocks_of(texts: list[str]) -> list[str]:
    blocks: list[str] = []
    current: list[str] = []
    length = 0
    for text in texts:
        current.append(text)
        length += len(text) + 2
        if length >= BLOCK_CHARACTERS:
            blocks.append("\n\n".join(current))
            current, length = [], 0
    if current:
        blocks.append("\n\n".join(current))
    return blocks


def counting(count: Callable[[str], int], texts: list[str]) -> Callable[[], int]:
    return lambda: sum(map(count, texts))


def alternate_best(runs: list[Callable[[], int]], repeat: int) -> list[tuple[float, int]]:
    """Each run's least CPU time over `repeat` rounds (the runs alternate), and its result."""
    best = [(float("inf"), 0)] * len(runs)
    for _ in range(repeat):
        for i, run in enumerate(runs):
            gc.collect()
            start = time.process_time()
            result = run()
            best[i] = (min(best[i][0], time.process_time() - start), result)
    return best


def timed_load(load: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    encoding = load()
    return time.perf_counter() - start, encoding


def engines(name: str) -> Iterator[tuple[str, float, Callable[[str], int]]]:
    """(label, load time, count) of each engine for the encoding `name`; tiktoken first."""
    import bpe_openai
    from rs_bpe.bpe import openai as rs_openai

    from partita.text.sizing.bpe_engine import engine_for

    load, tiktoken_encoding = timed_load(lambda: openai_encoding(name))
    encode = tiktoken_encoding.encode_ordinary
    yield "tiktoken encode_ordinary", load, lambda text: len(encode(text))
    load, bpe = timed_load(lambda: bpe_openai.get_encoding(name))
    yield "bpe-openai encode_ordinary", load, lambda text: len(bpe.encode_ordinary(text))
    load, rs = timed_load(getattr(rs_openai, name))
    yield "rs-bpe encode", load, lambda text: len(rs.encode(text))
    yield "rs-bpe count", load, rs.count
    load, engine = timed_load(lambda: engine_for(tiktoken_encoding))
    yield f"partita's engine ({engine.name}) count", load, engine.count


def rows(texts: list[str], repeat: int) -> Iterator[tuple[str, ...]]:
    blocks = blocks_of(texts)
    for name in ENCODINGS:
        chosen = list(engines(name))
        for label, inputs in (("elements", texts), ("blocks", blocks)):
            results = alternate_best([counting(count, inputs) for _, _, count in chosen], repeat)
            tiktoken_time, tiktoken_total = results[0]
            for (engine, load, _), (seconds, total) in zip(chosen, results, strict=True):
                yield (
                    f"{name} {label} ({len(inputs):,} calls)",
                    engine,
                    f"{load:.2f} s",
                    f"{seconds:.2f} s",
                    f"{total:,}" + ("" if total == tiktoken_total else " DIFFERENT"),
                    f"{tiktoken_time / seconds:.2f}",
                )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=20.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    texts = stream_texts(args.megabytes, args.seed)
    size = sum(len(text.encode()) for text in texts) / 1_000_000
    print(
        f"{len(texts):,} element texts, {size:.1f} MB UTF-8; tiktoken {version('tiktoken')},"
        f" bpe-openai {version('bpe-openai')}, rs-bpe {version('rs-bpe')};"
        f" Python {platform.python_version()}, {platform.machine()};"
        f" least CPU time of {args.repeat}"
    )
    header = ("texts", "engine", "load (wall)", "CPU time", "tokens", "tiktoken / engine")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    differ = False
    for row in rows(texts, args.repeat):
        differ = differ or "DIFFERENT" in row[4]
        print("| " + " | ".join(row) + " |", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
