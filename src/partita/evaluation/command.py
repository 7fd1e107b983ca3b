"""`partita evaluate`: the command line of the evaluation.

    partita evaluate DOC_OR_DIR... [--config SPEC]... [--configs FILE] [--questions FILE]
                     [-k 5] [--token-budget N] [--character-budget N] [--per-document]
                     [--embedder minilm|none|MOD:FN]
                     [--no-coherence] [--priority precision|speed] [--json OUT.json]
                     [-o REPORT.html] [--quiet]
    partita evaluate --compare A.json B.json

Documents are files in any format partita reads (directories are searched for them), or
element JSON (`.json`/`.jsonl`). Without `--config`, `configurations.DEFAULT_CONFIGURATIONS` are
compared. The Markdown table goes to standard output, the results to `--json` (default
`evaluation.json`) and the report to `-o` (default `evaluation.html`). `--embedder` names the
embedding model: `minilm` (all-MiniLM-L6-v2, offline, the `embed` extra), `none` (no retrieval
and no coherence: sizes and boundaries only), or `module:function` returning any callable from
texts to vectors. Embeddings are cached under `--cache-dir` (default `$PARTITA_CACHE_DIR` or
`~/.cache/partita`). Progress goes to standard error. Exit status: 0, or 2 for bad usage.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

__all__ = ["add_evaluate_parser", "iter_document_paths"]

_READABLE = (
    ".md",
    ".markdown",
    ".txt",
    ".text",
    ".html",
    ".htm",
    ".xhtml",
    ".docx",
    ".pdf",
    ".json",
    ".jsonl",
)


def add_evaluate_parser(commands: Any) -> None:
    """Add the `evaluate` command to `commands` (argparse sub-parsers)."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "evaluate",
        help="measure chunking configurations on your documents (and questions)",
        description=(
            "Chunk DOCs under each configuration and measure sizes, boundaries, coherence and,"
            " with --questions, retrieval; write a JSON file and an HTML report."
        ),
    )
    parser.add_argument("documents", nargs="*", metavar="DOC", help="documents or directories")
    parser.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="SPEC",
        help="strategy:option=value,... (repeatable)",
    )
    parser.add_argument("--configs", metavar="FILE", help="configurations from a TOML or JSON file")
    parser.add_argument(
        "--questions",
        metavar="FILE",
        help="Chroma's questions_df.csv, or JSON Lines of question and answer",
    )
    parser.add_argument("-k", type=int, default=5, help="chunks retrieved per question (5)")
    parser.add_argument(
        "--token-budget",
        type=int,
        default=None,
        help="retrieved tokens for the matched-budget figures (default k x 250)",
    )
    parser.add_argument(
        "--character-budget",
        type=int,
        default=None,
        help="retrieved characters for matched-budget figures by chunk text length (off)",
    )
    parser.add_argument(
        "--per-document",
        action="store_true",
        help="retrieve among each question's own document's chunks only",
    )
    parser.add_argument(
        "--embedder",
        default="minilm",
        help="minilm (default), none, or module:function returning a callable",
    )
    parser.add_argument("--cache-dir", default=None, help="where embeddings are cached")
    parser.add_argument(
        "--no-coherence",
        action="store_true",
        help="skip semantic coherence (it embeds sentences of sampled chunks)",
    )
    parser.add_argument(
        "--priority",
        choices=("precision", "speed"),
        default="precision",
        help="for the decision tree when the documents have no structure",
    )
    parser.add_argument(
        "--json", default="evaluation.json", metavar="OUT", help="results file (evaluation.json)"
    )
    parser.add_argument(
        "-o",
        "--output",
        default="evaluation.html",
        metavar="REPORT",
        help="HTML report (evaluation.html)",
    )
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("A", "B"),
        help="compare two results files question by question",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    parser.set_defaults(run=run_evaluate)


def iter_document_paths(given: list[str], exclude: Iterable[str] = ()) -> Iterator[Path]:
    """The files of `given`: files as they are, directories searched (sorted) for readable
    documents and source files, leaving out the files `exclude` names (the questions, the
    outputs of an earlier run)."""
    from partita.text.code.languages import language_for_filename

    skipped = {Path(name).resolve() for name in exclude}
    for name in given:
        path = Path(name)
        if path.is_dir():
            for found in sorted(path.rglob("*")):
                if (
                    found.is_file()
                    and found.resolve() not in skipped
                    and (found.suffix.lower() in _READABLE or language_for_filename(found.name))
                ):
                    yield found
        else:
            yield path


def _elements_of(path: Path) -> list[Any]:
    from partita.partitioners import partition
    from partita.serialization import elements_from_json, iter_elements_from_jsonl

    lowered = path.name.lower()
    if lowered.endswith(".jsonl"):
        return list(iter_elements_from_jsonl(str(path)))
    if lowered.endswith(".json"):
        return elements_from_json(filename=str(path))
    return partition(str(path))


def run_evaluate(args: argparse.Namespace) -> int:
    """Run `partita evaluate` for parsed `args`."""
    progress: Callable[[str], None] = (
        (lambda message: None) if args.quiet else (lambda message: print(message, file=sys.stderr))
    )
    if args.compare:
        from partita.evaluation.compare import compare_results, comparison_to_markdown

        first, second = (json.loads(Path(p).read_text(encoding="utf-8")) for p in args.compare)
        print(comparison_to_markdown(compare_results(first, second)))
        return 0
    from partita.embeddings import embedder_named
    from partita.evaluation.configurations import (
        DEFAULT_CONFIGURATIONS,
        parse_configuration,
        read_configurations,
    )
    from partita.evaluation.documents import document_text
    from partita.evaluation.questions import read_questions
    from partita.evaluation.report import results_to_markdown, write_report
    from partita.evaluation.run import evaluate

    outputs = [args.json, args.output, *([args.questions] if args.questions else [])]
    paths = list(iter_document_paths(args.documents, exclude=outputs))
    if not paths:
        print("partita evaluate: error: no documents given (or found)", file=sys.stderr)
        return 2
    try:
        configurations = [parse_configuration(s) for s in args.config]
        if args.configs:
            configurations += read_configurations(args.configs)
        if not configurations:
            configurations = [parse_configuration(s) for s in DEFAULT_CONFIGURATIONS]
        embedder = embedder_named(args.embedder, args.cache_dir)
    except (ValueError, ImportError, AttributeError, OSError) as exc:
        print(f"partita evaluate: error: {exc}", file=sys.stderr)
        return 2
    documents = []
    for index, path in enumerate(paths, start=1):
        progress(f"partitioning [{index}/{len(paths)}] {path}")
        documents.append(document_text(path, _elements_of(path)))
    questions = []
    if args.questions:
        texts = {d.name: d.text for d in documents}
        questions = read_questions(args.questions, texts)
    results = evaluate(
        documents,
        configurations,
        questions=questions,
        embedder=embedder,
        k=args.k,
        token_budget=args.token_budget,
        character_budget=args.character_budget,
        per_document=args.per_document,
        coherence=not args.no_coherence,
        priority=args.priority,
        progress=progress,
    )
    Path(args.json).write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
    write_report(results, args.output)
    print(results_to_markdown(results))
    progress(f"results: {os.path.abspath(args.json)}; report: {os.path.abspath(args.output)}")
    return 0
