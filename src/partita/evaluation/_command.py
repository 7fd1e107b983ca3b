"""`partita evaluate`: the command line of the evaluation.

    partita evaluate DOC_OR_DIR... [--config SPEC]... [--configs FILE] [--baselines]
                     [--questions FILE]
                     [-k 5] [--token-budget N] [--character-budget N] [--per-document]
                     [--embedder minilm|none|MOD:FN]
                     [--no-coherence] [--priority precision|speed] [--json OUT.json]
                     [-o REPORT.html] [--quiet]
    partita evaluate --compare A.json B.json

Documents are files in any format partita reads (directories are searched for them), or
element JSON (`.json`/`.jsonl`, when named). Without `--config`,
`_configurations.DEFAULT_CONFIGURATIONS` are compared; `--baselines` adds the peers' chunkings
(`_baselines.PEER_BASELINES`: 512-token windows over the plain text, one chunk per page). A
configuration may say how to retrieve: `parent_tokens=768` (small-to-big) and `budget_tokens=N`
(results within N tokens instead of the top k). Questions are Chroma's CSV, JSON Lines of
question and answer, or FinanceBench's evidence pages (`_questions`). The Markdown table goes to
standard output, the results to `--json` (default `evaluation.json`) and the report to `-o` (default
`evaluation.html`). `--embedder` names the embedding model: `minilm` (all-MiniLM-L6-v2, offline,
the `embed` extra), `none` (no retrieval and no coherence: sizes and boundaries only, on the core
install), or `module:function` returning any callable from texts to vectors. Embeddings are
cached under `--cache-dir` (default `$PARTITA_CACHE_DIR` or `~/.cache/partita`). Progress goes
to standard error.

Problems are one line on standard error, `partita evaluate: ...`, never a traceback. A usage
error (a missing document, questions or results file, an output whose folder is missing, an
invalid configuration, an embedding model that is not installed, two runs of different
questions to `--compare`) exits 2 before any document is read (`_preflight`). A document that
cannot be read, or a configuration that fails, is reported and the rest are evaluated (exit 1);
a question whose answer is in no document is reported and skipped (exit 0).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["add_evaluate_parser", "iter_document_paths"]


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
        "--baselines",
        action="store_true",
        help="add the peers' chunkings: 512-token windows over the plain text, one chunk per page",
    )
    parser.add_argument(
        "--questions",
        metavar="FILE",
        help="Chroma's questions_df.csv, or JSON Lines of question and answer (or of evidence"
        " pages, FinanceBench's form)",
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
        help="retrieved characters for the matched-budget figures, which rank the"
        " configurations (default k x 800)",
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
        help="breaks a near tie in recall: precision (least other text retrieved) or speed"
        " (fewest tokens to embed)",
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
    """The files of `given`: files as they are, directories searched as every partita command
    searches them (`partitioners._files.iter_directory_files`: sorted, recursive, documents and
    source files, not elements files nor hidden ones), leaving out the files `exclude` names
    (the questions, the outputs of an earlier run)."""
    from partita.partitioners._files import iter_directory_files

    skipped = {Path(name).resolve() for name in exclude}
    for name in given:
        path = Path(name)
        if path.is_dir():
            for found, _ in iter_directory_files(path):
                if found.resolve() not in skipped:
                    yield found
        else:
            yield path


SKIPPED_SHOWN = 10
"""Lines naming skipped questions on standard error (those skipped for one reason share a
line); past them, one line counts the rest (all are in the results file)."""


def _say(message: str) -> None:
    print(f"partita evaluate: {message}", file=sys.stderr)


@dataclass
class _Plan:
    """Everything checked before a document is read."""

    paths: list[Path]
    configurations: list[Any]
    asked: list[Any]
    embedder: Any


def run_evaluate(args: argparse.Namespace) -> int:
    """Run `partita evaluate` for parsed `args`; return the exit status: 0, 1 when a document
    or a configuration failed (each reported on one line, the rest evaluated), 2 for a usage
    error (one line, before any document is read)."""
    from partita.evaluation._preflight import UsageError

    try:
        if args.compare:
            return _run_compare(args)
        plan = _plan(args)
    except UsageError as exc:
        _say(f"error: {exc}")
        return 2
    return _run(args, plan)


def _plan(args: argparse.Namespace) -> _Plan:
    """Check the command line (see `preflight`); raise `UsageError` for the first problem."""
    from partita.evaluation import _preflight as preflight
    from partita.evaluation._configurations import (
        DEFAULT_CONFIGURATIONS,
        parse_configuration,
        read_configurations,
    )
    from partita.evaluation._questions import QuestionsFileError, read_question_file

    preflight.check_documents(args.documents)
    for number, flag in ((args.k, "-k"), (args.token_budget, "--token-budget"),
                         (args.character_budget, "--character-budget")):  # fmt: skip
        if number is not None and number < 1:
            raise preflight.UsageError(f"{flag} must be at least 1, got {number}")
    preflight.check_output(args.json, "--json")
    preflight.check_output(args.output, "-o")
    if Path(args.json).resolve() == Path(args.output).resolve():
        raise preflight.UsageError(f"--json and -o both name {args.output}")
    asked = []
    if args.questions:
        if args.embedder == "none":
            raise preflight.UsageError(
                "--questions needs an embedding model to retrieve with (--embedder none"
                " measures sizes and boundaries only)"
            )
        if not os.path.isfile(args.questions):
            raise preflight.UsageError(f"--questions {args.questions}: no such file")
        try:
            asked = read_question_file(args.questions)
        except (QuestionsFileError, OSError) as exc:
            raise preflight.UsageError(f"--questions {exc}") from None
    try:
        configurations = [parse_configuration(s) for s in args.config or DEFAULT_CONFIGURATIONS]
    except (ValueError, TypeError) as exc:
        raise preflight.UsageError(str(exc)) from None
    if args.configs:
        configurations = configurations if args.config else []
        try:
            configurations += read_configurations(args.configs)
        except (OSError, ValueError, TypeError) as exc:
            text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            place = "" if text.startswith(args.configs) else f"{args.configs}: "
            raise preflight.UsageError(f"--configs {place}{text}") from None
    if args.baselines:
        from partita.evaluation._baselines import PEER_BASELINES

        taken = {c.name for c in configurations}
        configurations += [parse_configuration(s) for s in PEER_BASELINES if s not in taken]
    preflight.check_configuration_embedders(configurations)
    embedder = preflight.run_embedder(args.embedder, args.cache_dir)
    outputs = [args.json, args.output, *([args.questions] if args.questions else [])]
    paths = list(iter_document_paths(args.documents, exclude=outputs))
    if not paths:
        raise preflight.UsageError("no documents found in " + ", ".join(args.documents))
    return _Plan(paths, configurations, asked, embedder)


def _run(args: argparse.Namespace, plan: _Plan) -> int:
    """Read the documents, place the questions, evaluate and write; return the exit status."""
    from partita.evaluation._documents import document_text
    from partita.evaluation._questions import place_questions, skipped_lines
    from partita.evaluation._run import evaluate
    from partita.evaluation.report import results_to_markdown, write_report
    from partita.partitioners._reading import read_elements

    progress: Callable[[str], None] = (
        (lambda message: None) if args.quiet else (lambda message: print(message, file=sys.stderr))
    )
    documents = []
    failed_documents: list[dict[str, str]] = []
    for index, path in enumerate(plan.paths, start=1):
        progress(f"partitioning [{index}/{len(plan.paths)}] {path}")
        try:
            documents.append(document_text(path, read_elements(path)))
        except Exception as exc:  # -- any failure of this document: reported, the rest go on --
            error = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
            _say(f"{path}: {error}")
            failed_documents.append({"document": str(path), "error": error})
    if not documents:
        _say("error: no document could be read")
        return 1
    questions, skipped = place_questions(
        plan.asked,
        {d.name: d.text for d in documents},
        {d.name: d.page_regions() for d in documents},
    )
    lines = skipped_lines((q.where, q.reason) for q in skipped)
    for line in lines[:SKIPPED_SHOWN]:
        _say(f"question skipped: {line}")
    if len(lines) > SKIPPED_SHOWN:
        named = set(list(dict.fromkeys(q.reason for q in skipped))[:SKIPPED_SHOWN])
        more = sum(1 for q in skipped if q.reason not in named)
        _say(f"{more:,} more questions skipped (listed in {args.json})")
    if plan.asked and not questions:
        _say(f"error: none of the {len(plan.asked)} questions has its answer in the documents")
        return 1
    failed_configurations = 0

    def report_failure(configuration: Any, exc: Exception) -> None:
        nonlocal failed_configurations
        failed_configurations += 1
        _say(f"{configuration.name}: {type(exc).__name__}: {' '.join(str(exc).split())}")

    results = evaluate(
        documents,
        plan.configurations,
        questions=questions,
        embedder=plan.embedder,
        k=args.k,
        token_budget=args.token_budget,
        character_budget=args.character_budget,
        per_document=args.per_document,
        coherence=not args.no_coherence,
        priority=args.priority,
        progress=progress,
        on_error=report_failure,
    )
    results["failed_documents"] = failed_documents
    results["skipped_questions"] = [
        {"id": q.id, "question": q.text, "where": q.where, "reason": q.reason} for q in skipped
    ]
    try:
        Path(args.json).write_text(
            json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8"
        )
        write_report(results, args.output)
    except OSError as exc:
        _say(f"error: cannot write {exc.filename}: {exc.strerror or exc}")
        return 1
    print(results_to_markdown(results))
    progress(f"results: {os.path.abspath(args.json)}; report: {os.path.abspath(args.output)}")
    return 1 if failed_documents or failed_configurations else 0


def _run_compare(args: argparse.Namespace) -> int:
    """`--compare A.json B.json`: the paired comparison table; raise `UsageError` for two files
    that cannot be compared."""
    from partita.evaluation._compare import ComparisonError, compare_results, comparison_to_markdown
    from partita.evaluation._preflight import UsageError, needs_embed_extra

    if args.documents:
        raise UsageError("--compare takes two results files, not documents")
    runs = []
    for name in args.compare:
        try:
            data = json.loads(Path(name).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise UsageError(f"--compare {name}: no such file") from None
        except OSError as exc:
            raise UsageError(f"--compare {name}: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise UsageError(f"--compare {name}: not JSON ({exc})") from None
        if not isinstance(data, dict) or not isinstance(data.get("configurations"), list):
            raise UsageError(f"--compare {name}: not a results file of partita evaluate")
        runs.append(data)
    needs_embed_extra("--compare (a paired bootstrap)")
    try:
        rows = compare_results(runs[0], runs[1], names=(args.compare[0], args.compare[1]))
    except ComparisonError as exc:
        raise UsageError(str(exc)) from None
    print(comparison_to_markdown(rows))
    return 0
