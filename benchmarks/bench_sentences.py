"""Sentence segmentation of partita against its peers, side by side in one process.

Segmenters:

- partita: `partita.text.sentences.split_sentences`;
- pySBD (`pysbd`, the Python port of the Pragmatic Segmenter): `Segmenter(language=...,
  clean=False)`, with each language's code for its rules (en, zh, ja, de, fr, es, ru) and `zh`
  for the Chinese text;
- llama_index: `split_by_sentence_tokenizer()`, what llama_index's `SentenceSplitter` splits
  paragraphs with (NLTK's `PunktSentenceTokenizer`, as llama_index builds it: untrained);
- NLTK punkt (english): NLTK's trained English punkt model (`PunktTokenizer("english")`), read
  from the `punkt_tab` data llama_index ships in `llama_index/core/_static/nltk_cache`;
- blingfire: `text_to_sentences` (a finite-state segmenter), when installed.

What is measured:

- the Golden Rules of the Pragmatic Segmenter (`tests/text/golden_rules.py`): English 48, the
  four other English rules (40-42, 52), and the Chinese, Japanese, German, French, Spanish and
  Russian rules; a rule passes when the segmenter's sentences, stripped and with their lines
  joined (`partita.text._whitespace.join_lines`), equal the expected ones (joined alike);
- the speed in MB/s (megabytes of UTF-8) on English text and on Chinese text, the best of
  `--repeat` runs (`_timing.best_time`). Each segmenter is called on each paragraph of the
  text, as a chunker calls it on each element (pySBD slows down more than linearly on long
  strings: 1.5 s for 32 KB, 12.6 s for 128 KB); a slow one gets the first paragraphs, four
  times more each step, until one run takes `--min-seconds` (the table gives the size
  measured). Then partita's speed divided by each one's;
- partita on whole documents, as users pass them (`--megabytes`, at least 1 MB each): the
  corpus's English paragraphs as one document, Chroma's five English corpora
  (`../shared/eval/chroma/corpora`, 1.45 MB) as one document, and the Chinese text as one
  document, each in one call and paragraph by paragraph (its blank-line-separated pieces, each
  in its own call): MB/s in CPU time (`time.process_time`, not wall time, so that a shared
  machine's load does not count), the best of `--repeat` rounds, whole and paragraphs
  alternating within each round, and their ratio. The target is `SPEED_TARGET` MB/s both ways.

The texts come from the shared corpus (`../shared/corpus/manifest.tsv`, next to the repository
root): its docx, HTML and Markdown documents partitioned by partita, each element's text a
paragraph. English text: the elements without Chinese or Japanese characters. Chinese text: the
elements mostly Chinese or Japanese (the corpus has few), and the Chinese articles of
`../shared/seeds/`. Each is repeated to `--megabytes`.

Run it from the repository root with the dev venv and the `bench` extra installed:

    python benchmarks/bench_sentences.py [--megabytes 5] [--repeat 3] [--min-seconds 1]
                                         [--corpus ../shared/corpus] [--skip-peers]

No network: connections to the internet are blocked in this process (`_reference.py`), and
everything the peers need ships in their packages. The table is printed and written as
Markdown to `benchmarks/results/sentences.md`.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import os
import platform
import re
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from _reference import block_network  # benchmarks/ is on sys.path
from _shared import CORPUS, SHARED  # benchmarks/ is on sys.path
from _timing import best_time
from compare_partition import corpus_documents

BENCHMARKS = Path(__file__).resolve().parent
ROOT = BENCHMARKS.parent
sys.path.insert(0, str(ROOT))  # -- tests.text.golden_rules --

from tests.text.golden_rules import (  # noqa: E402
    ENGLISH,
    ENGLISH_EXTRA,
    OTHER_LANGUAGES,
    GoldenRule,
)

from partita import partition  # noqa: E402
from partita.text._whitespace import join_lines  # noqa: E402
from partita.text.sentences import split_sentences  # noqa: E402

RESULTS = BENCHMARKS / "results" / "sentences.md"
DEFAULT_CORPUS = CORPUS
CHROMA_CORPORA = SHARED / "eval" / "chroma" / "corpora"
SEEDS = SHARED / "seeds"
SPEED_TARGET = 5.0
"""partita's target speed in MB/s on one core."""

LANGUAGE_CODES = {
    "English": "en",
    "Chinese": "zh",
    "Japanese": "ja",
    "German": "de",
    "French": "fr",
    "Spanish": "es",
    "Russian": "ru",
}
RULE_SETS: dict[str, tuple[GoldenRule, ...]] = {
    "English": ENGLISH,
    "English 40-42, 52": ENGLISH_EXTRA,
    **OTHER_LANGUAGES,
}
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")

Splitter = Callable[[str], list[str]]


# ------------------------------------------------------------------------------------------------
# the segmenters
# ------------------------------------------------------------------------------------------------


@dataclass
class Segmenter:
    """A segmenter under test: its name, version, and a splitter for each language code."""

    name: str
    version: str
    splitter_for: Callable[[str], Splitter]
    scores: dict[str, tuple[int, int]] = field(default_factory=dict)
    failures: dict[str, list[str]] = field(default_factory=dict)
    speeds: dict[str, tuple[float, int] | str] = field(default_factory=dict)


def package_version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def partita_segmenter() -> Segmenter:
    return Segmenter("partita", package_version("partita"), lambda _code: split_sentences)


def pysbd_segmenter() -> Segmenter | str:
    try:
        import pysbd
    except ImportError:
        return "pySBD: not installed (pip install pysbd)"
    cache: dict[str, Splitter] = {}

    def splitter_for(code: str) -> Splitter:
        if code not in cache:
            cache[code] = pysbd.Segmenter(language=code, clean=False).segment
        return cache[code]

    return Segmenter("pySBD", package_version("pysbd"), splitter_for)


def llama_index_segmenter() -> Segmenter | str:
    try:
        from llama_index.core.node_parser.text.utils import split_by_sentence_tokenizer
    except ImportError:
        return "llama_index: not installed (pip install llama-index-core)"
    split = split_by_sentence_tokenizer()
    return Segmenter(
        "llama_index split_by_sentence_tokenizer",
        package_version("llama-index-core"),
        lambda _code: split,
    )


def punkt_segmenter() -> Segmenter | str:
    try:
        import llama_index.core
        import nltk.data
        from nltk.tokenize.punkt import PunktTokenizer
    except ImportError:
        return "NLTK punkt: not installed (pip install llama-index-core)"
    bundled = Path(llama_index.core.__file__).parent / "_static" / "nltk_cache"
    if str(bundled) not in nltk.data.path:
        nltk.data.path.append(str(bundled))
    tokenizer = PunktTokenizer("english")
    return Segmenter(
        "NLTK punkt (english, llama_index's data)",
        package_version("nltk"),
        lambda _code: tokenizer.tokenize,
    )


def blingfire_segmenter() -> Segmenter | str:
    try:
        import blingfire
    except ImportError:
        return "blingfire: not installed (pip install blingfire)"

    def split(text: str) -> list[str]:
        return str(blingfire.text_to_sentences(text)).split("\n")

    return Segmenter("blingfire", package_version("blingfire"), lambda _code: split)


# ------------------------------------------------------------------------------------------------
# the Golden Rules
# ------------------------------------------------------------------------------------------------


def normalized(sentences: Sequence[str]) -> list[str]:
    """The sentences stripped, their lines joined, the empty ones dropped."""
    joined = (join_lines(sentence.splitlines()) for sentence in sentences)
    return [sentence for sentence in joined if sentence]


def score_rules(segmenter: Segmenter) -> None:
    """Fill `segmenter.scores` and `.failures` for every rule set."""
    for rule_set, rules in RULE_SETS.items():
        language = rule_set.split()[0]
        split = segmenter.splitter_for(LANGUAGE_CODES[language])
        failed = []
        for name, text, expected in rules:
            try:
                found = normalized(split(text))
            except Exception as exc:  # -- a peer's crash fails the rule --
                found = [f"{type(exc).__name__}: {exc}"]
            if found != normalized(expected):
                failed.append(name.split()[0])
        segmenter.scores[rule_set] = (len(rules) - len(failed), len(rules))
        segmenter.failures[rule_set] = failed


# ------------------------------------------------------------------------------------------------
# the texts and the speed
# ------------------------------------------------------------------------------------------------


def corpus_texts(corpus: Path) -> tuple[list[str], list[str]]:
    """Return the English and the Chinese element texts of the corpus's docx, HTML and Markdown
    documents, partitioned by partita."""
    english, chinese = [], []
    for document in corpus_documents(corpus, ("docx", "html", "md"), ()):
        try:
            elements = partition(filename=str(document.path))
        except Exception as exc:
            print(f"  {document.relative}: skipped ({type(exc).__name__}: {exc})")
            continue
        for element in elements:
            text = element.text
            if not text or not text.strip():
                continue
            cjk = len(CJK.findall(text))
            if cjk == 0:
                english.append(text)
            elif cjk >= 0.3 * len(text.replace(" ", "")):
                chinese.append(text)
    return english, chinese


def seed_texts(seeds: Path) -> list[str]:
    """Return the mostly Chinese seed articles."""
    texts = []
    for path in sorted(seeds.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        if len(CJK.findall(text)) >= 0.1 * len(text):
            texts.append(text)
    return texts


def repeated(paragraphs: list[str], megabytes: float) -> str:
    """Return `paragraphs` joined by blank lines, repeated to about `megabytes` of UTF-8."""
    unit = "\n\n".join(paragraphs)
    if not unit:
        return ""
    target = int(megabytes * 1_000_000)
    copies = max(1, -(-target // len(unit.encode("utf-8"))))
    text = "\n\n".join([unit] * copies)
    return text[: int(len(text) * target / len(text.encode("utf-8")))]


def measure_speed(
    split: Splitter, paragraphs: list[str], repeat: int, min_seconds: float
) -> tuple[float, int] | str:
    """Return the MB/s of `split` called on each of `paragraphs` (or on the longest prefix of
    them measured) and the bytes measured; a string when it failed."""
    count = min(len(paragraphs), 16)
    while True:
        sample = paragraphs[:count]

        def run(sample: list[str] = sample) -> None:
            for paragraph in sample:
                split(paragraph)

        try:
            seconds, _ = best_time(run, 1)
            if seconds >= min_seconds or count >= len(paragraphs):
                seconds = min(seconds, best_time(run, repeat - 1)[0]) if repeat > 1 else seconds
                measured = sum(len(paragraph.encode("utf-8")) for paragraph in sample)
                return measured / 1e6 / max(seconds, 1e-9), measured
        except Exception as exc:
            return f"failed ({type(exc).__name__})"
        count = min(len(paragraphs), count * 4)


@dataclass
class WholeDocument:
    """partita's speed on one document: in one call (`whole`) and paragraph by paragraph, in
    MB/s of CPU time."""

    name: str
    megabytes: float
    paragraphs: int
    whole: float
    by_paragraph: float


def chroma_document(corpora: Path) -> str | None:
    """Return Chroma's English corpora joined by blank lines (None when they are absent)."""
    paths = sorted(corpora.glob("*.md"))
    if not paths:
        return None
    return "\n\n".join(path.read_text(encoding="utf-8") for path in paths)


def whole_document_speed(name: str, text: str, repeat: int) -> WholeDocument:
    """Return partita's speed on `text` in one call and on its paragraphs (the pieces between
    blank lines) one call each: the least CPU time of `repeat` rounds, the two alternating."""
    paragraphs = text.split("\n\n")

    def whole() -> None:
        split_sentences(text)

    def by_paragraph() -> None:
        for paragraph in paragraphs:
            split_sentences(paragraph)

    best = {"whole": float("inf"), "paragraphs": float("inf")}
    for round_ in range(repeat):
        runs = [("whole", whole), ("paragraphs", by_paragraph)]
        for key, run in runs if round_ % 2 == 0 else runs[::-1]:
            gc.collect()
            started = time.process_time()
            run()
            best[key] = min(best[key], time.process_time() - started)
    megabytes = len(text.encode("utf-8")) / 1e6
    return WholeDocument(
        name,
        megabytes,
        len(paragraphs),
        megabytes / max(best["whole"], 1e-9),
        megabytes / max(best["paragraphs"], 1e-9),
    )


def whole_documents_table(documents: list[WholeDocument]) -> str:
    lines = [
        "| document | MB | paragraphs | MB/s whole (one call) | MB/s by paragraph | whole / by"
        " paragraph |",
        "|---|---|---|---|---|---|",
    ]
    for document in documents:
        lines.append(
            f"| {document.name} | {document.megabytes:.2f} | {document.paragraphs:,} |"
            f" {document.whole:.2f} | {document.by_paragraph:.2f} |"
            f" {document.whole / document.by_paragraph:.2f} |"
        )
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------
# the table
# ------------------------------------------------------------------------------------------------


def speed_cell(speed: tuple[float, int] | str | None) -> str:
    if speed is None:
        return "-"
    if isinstance(speed, str):
        return speed
    mbps, measured = speed
    return f"{mbps:.2f}" + (f" ({measured / 1e6:.2g} MB)" if measured < 900_000 else "")


def ratio_cell(
    partita: tuple[float, int] | str | None, other: tuple[float, int] | str | None
) -> str:
    if not isinstance(partita, tuple) or not isinstance(other, tuple):
        return "-"
    return f"{partita[0] / other[0]:.1f}x"


def table(segmenters: list[Segmenter]) -> str:
    rule_sets = list(RULE_SETS)
    header = [
        "segmenter",
        "version",
        *(f"{name} /{len(RULE_SETS[name])}" for name in rule_sets),
        "MB/s English",
        "MB/s Chinese",
        "partita / it, English",
        "partita / it, Chinese",
    ]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    ours = segmenters[0]
    for segmenter in segmenters:
        cells = [
            segmenter.name,
            segmenter.version,
            *(str(segmenter.scores[name][0]) for name in rule_sets),
            speed_cell(segmenter.speeds.get("English")),
            speed_cell(segmenter.speeds.get("Chinese")),
            ratio_cell(ours.speeds.get("English"), segmenter.speeds.get("English")),
            ratio_cell(ours.speeds.get("Chinese"), segmenter.speeds.get("Chinese")),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def failures_report(segmenters: list[Segmenter]) -> str:
    lines = []
    for segmenter in segmenters:
        failed = [f"{name}: {', '.join(f)}" for name, f in segmenter.failures.items() if f]
        lines.append(f"- {segmenter.name}: " + ("; ".join(failed) if failed else "none"))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--megabytes", type=float, default=5.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--min-seconds", type=float, default=1.0)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--skip-peers", action="store_true")
    args = parser.parse_args(argv)

    block_network()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    warnings.simplefilter("ignore")

    segmenters: list[Segmenter] = [partita_segmenter()]
    if not args.skip_peers:
        for make in (
            pysbd_segmenter,
            llama_index_segmenter,
            punkt_segmenter,
            blingfire_segmenter,
        ):
            made = make()
            if isinstance(made, str):
                print(made)
            else:
                segmenters.append(made)

    print(f"corpus: {args.corpus}")
    started = time.perf_counter()
    english_paragraphs, chinese_paragraphs = corpus_texts(args.corpus)
    chinese_paragraphs += seed_texts(SEEDS)
    megabytes = max(args.megabytes, 1.0)  # -- a whole document of at least 1 MB --
    english = repeated(english_paragraphs, megabytes)
    chinese = repeated(chinese_paragraphs, megabytes)
    print(
        f"texts: English {len(english.encode()) / 1e6:.2f} MB from {len(english_paragraphs)}"
        f" paragraphs, Chinese {len(chinese.encode()) / 1e6:.2f} MB from"
        f" {len(chinese_paragraphs)} paragraphs and seeds ({time.perf_counter() - started:.1f} s)"
    )

    texts = {"English": english.split("\n\n"), "Chinese": chinese.split("\n\n")}
    for segmenter in segmenters:
        score_rules(segmenter)
        for language, paragraphs in texts.items():
            split = segmenter.splitter_for(LANGUAGE_CODES[language])
            segmenter.speeds[language] = measure_speed(
                split, paragraphs, args.repeat, args.min_seconds
            )
        print(f"  {segmenter.name}: done")
    documents = [("English corpus paragraphs as one document", english)]
    chroma = chroma_document(CHROMA_CORPORA)
    if chroma is not None:
        documents.append(("Chroma's five English corpora as one document", chroma))
    documents.append(("Chinese paragraphs and seeds as one document", chinese))
    whole = [whole_document_speed(name, text, max(args.repeat, 3)) for name, text in documents]

    report = "\n\n".join(
        [
            f"Sentence segmentation ({platform.python_implementation()} "
            f"{platform.python_version()}, one core)",
            table(segmenters),
            "Golden Rules failed:\n" + failures_report(segmenters),
            "partita on whole documents (CPU time, best of"
            f" {max(args.repeat, 3)} alternating rounds):\n\n" + whole_documents_table(whole),
        ]
    )
    print()
    print(report)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(report + "\n", encoding="utf-8")

    ours = segmenters[0].speeds
    slow = [
        f"{language} paragraphs"
        for language, speed in ours.items()
        if isinstance(speed, tuple) and speed[0] < SPEED_TARGET
    ] + [
        document.name
        for document in whole
        if min(document.whole, document.by_paragraph) < SPEED_TARGET
    ]
    if slow:
        print(f"\npartita is below {SPEED_TARGET} MB/s on: {', '.join(slow)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
