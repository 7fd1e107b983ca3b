"""The flags `partition` and `chunk` share, the chunking flags read from the registry (and the
strategy and options they give, `chunking_of`), and how a command line that cannot be run is
reported.

A usage error is one line on standard error and exit status 2, before any input is read:
`partita chunk: error: argument --strategy: invalid choice: 'nope' (choose from ...) (see
partita chunk --help)`. The full help is printed only when asked for (`--help`).
"""

from __future__ import annotations

import argparse
import codecs
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from partita.batch import parse_memory_size
from partita.cli._inputs import INPUT_FORMATS, Input
from partita.cli._output import OUTPUT_FORMATS
from partita.errors import one_line

__all__ = [
    "CommandParser",
    "add_chunking_arguments",
    "add_io_arguments",
    "chunking_of",
    "report_usage_error",
]


class CommandParser(argparse.ArgumentParser):
    """An `ArgumentParser` whose errors are one line, not the usage block: "PROG: error: MESSAGE
    (see PROG --help)", exit status 2. Sub-commands added to it are `CommandParser`s too."""

    def error(self, message: str) -> NoReturn:
        """Report `message` as one line on standard error and exit with status 2."""
        report_usage_error(self.prog, message, hint=True)
        sys.exit(2)


def report_usage_error(prog: str, message: str, *, hint: bool = False) -> int:
    """Print "`prog`: error: `message`" as one line on standard error (with `hint`, followed by
    "(see `prog` --help)"); return 2, the exit status of bad usage."""
    suffix = f" (see {prog} --help)" if hint else ""
    print(f"{prog}: error: {one_line(message)}{suffix}", file=sys.stderr)
    return 2


def add_chunking_arguments(parser: argparse.ArgumentParser) -> None:
    """The `--strategy` choices and one flag per option, read from the strategy registry: each
    option's name, kind and help are written once, in its strategy's options `TypedDict`."""
    from partita.chunking import chunking_strategies
    from partita.chunking._strategy import OptionField, option_fields

    strategies = [s for s in chunking_strategies() if s.options is not None]
    group = parser.add_argument_group("chunking options")
    group.add_argument(
        "--strategy",
        choices=[s.name for s in strategies],
        default=None,
        help="; ".join(f"{s.name}: {s.summary}" for s in strategies)
        + " (default: code when every FILE is source code, .py, .go, ..., else by_title)",
    )
    takers: dict[str, list[str]] = {}
    fields: dict[str, OptionField] = {}
    for strategy in strategies:
        assert strategy.options is not None
        for field in option_fields(strategy.options):
            fields.setdefault(field.name, field)
            takers.setdefault(field.name, []).append(strategy.name)
    for name, field in fields.items():
        only = takers[name] if len(takers[name]) < len(strategies) else []
        help_text = f"{', '.join(only)}: {field.help}" if only else field.help
        flag = "--" + name.replace("_", "-")
        if field.kind is bool:
            group.add_argument(
                flag, action=argparse.BooleanOptionalAction, default=None, help=help_text
            )
        elif field.kind is int:
            group.add_argument(flag, type=_whole_number, metavar="N", help=help_text)
        elif field.kind is float:
            group.add_argument(flag, type=_number, metavar="X", help=help_text)
        elif field.kind == Sequence[str]:
            group.add_argument(
                flag,
                nargs="+",
                type=_unescaped,
                metavar="SEP",
                help=help_text + r" (backslash escapes such as \n are read)",
            )
        else:
            group.add_argument(flag, metavar="NAME", help=help_text)
    parser.set_defaults(chunking_options=tuple(fields))


def chunking_of(args: argparse.Namespace, inputs: list[Input]) -> tuple[str, dict[str, Any]] | None:
    """Return the strategy (default: "code" when every input is source code, else "by_title")
    and its options as the command line gives them, validated; None after reporting bad ones."""
    from partita.chunking._registry import strategy_named

    if args.strategy is None:
        args.strategy = "code" if inputs and all(i.is_code for i in inputs) else "by_title"
    strategy = strategy_named(args.strategy)
    taken = set(strategy.option_names)
    options: dict[str, Any] = {
        name: getattr(args, name) for name in args.chunking_options if name in taken
    }
    try:
        strategy.validated(**options)  # -- bad options are a usage error, before any file --
    except ValueError as exc:
        report_usage_error("partita chunk", str(exc), hint=True)
        return None
    return args.strategy, options


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None


def _unescaped(text: str) -> str:
    """`text` with its backslash escapes (`\\n`, `\\u2029`) read: separators typed in a shell."""
    return codecs.decode(text.encode("latin-1", "backslashreplace"), "unicode_escape")


def add_io_arguments(parser: argparse.ArgumentParser, *, reads_elements: bool) -> None:
    """The inputs, the output, the batch limits and the progress flags of a command;
    `reads_elements` says whether the command reads elements files (`chunk` does)."""
    elements_note = "; .json/.jsonl files named here are read as elements" if reads_elements else ""
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="documents to read: files, directories (searched recursively) or - for standard"
        " input" + elements_note,
    )
    inputs = parser.add_argument_group("inputs")
    inputs.add_argument(
        "--glob",
        action="append",
        metavar="PATTERN",
        help="in directories, read only the files matching PATTERN (a shell pattern matched"
        " against the file's name and its path under the directory, e.g. '*.md' or"
        " 'reports/*.pdf'; repeatable). Default: every file whose format partita reads",
    )
    inputs.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        metavar="FORMAT",
        help="read every input (standard input included) as FORMAT instead of telling it from"
        " the content and the name: " + ", ".join(INPUT_FORMATS),
    )

    output = parser.add_argument_group("output")
    destination = output.add_mutually_exclusive_group()
    destination.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write to OUT instead of standard output",
    )
    destination.add_argument(
        "--output-dir",
        metavar="DIR",
        help="write one file per input under DIR, mirroring the inputs' tree (a.md ->"
        " DIR/a.md.json); inputs whose output is newer than they are are skipped",
    )
    output.add_argument(
        "--force",
        action="store_true",
        help="with --output-dir, process every input even when its output is up to date",
    )
    output.add_argument(
        "--format",
        choices=(*OUTPUT_FORMATS, *(("parquet",) if reads_elements else ())),
        default=None,
        help="json: one JSON array (default); jsonl: one element per line, streamed; text and"
        " markdown: for people, a header line per element (heading path, pages) and a rule"
        " between them"
        + ("; with --engine ray: parquet (default) or jsonl records" if reads_elements else ""),
    )
    output.add_argument(
        "--jsonl",
        action="store_true",
        help="the same as --format jsonl",
    )

    limits = parser.add_argument_group("batches and limits")
    limits.add_argument(
        "--jobs",
        "-j",
        type=_positive_int,
        metavar="N",
        help="worker processes for several files (default: the cores available)",
    )
    limits.add_argument(
        "--timeout",
        type=_positive_float,
        metavar="SECONDS",
        help="fail a file that takes longer than this (its worker is stopped)",
    )
    limits.add_argument(
        "--max-memory",
        type=_memory_size,
        metavar="SIZE",
        help="fail a file whose worker needs more memory than this (e.g. 2G, 512M)",
    )

    report = parser.add_argument_group("progress and reports")
    report.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="draw a progress bar on standard error (default: when it is a terminal)",
    )
    report.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="draw no progress bar, report no errors or warnings and print no summary",
    )
    report.add_argument(
        "--strict",
        action="store_true",
        help="fail an input that gives no elements (an empty file, only whitespace, no text"
        " found), which is otherwise a warning",
    )


def _positive_int(text: str) -> int:
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _memory_size(text: str) -> int:
    try:
        return parse_memory_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive_float(text: str) -> float:
    value = _number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags that run `chunk` on a distributed engine (`partita.distributed`)."""
    group = parser.add_argument_group("distributed (--engine ray; the distributed extra)")
    group.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="local: worker processes on this machine (default); ray: Ray Data, on a local Ray"
        " (--jobs CPUs) or a cluster (--ray-address), writing chunks/, documents/ and"
        " failures/ tables of vector-store records under --output-dir",
    )
    group.add_argument(
        "--incremental",
        action="store_true",
        help="with --engine ray, skip the documents whose content hash the output directory's"
        " previous run recorded, carrying their records over",
    )
    group.add_argument(
        "--ray-address",
        metavar="ADDRESS",
        help="the Ray cluster to join (auto, or ray://HOST:10001); default: RAY_ADDRESS, else a"
        " local Ray",
    )
    group.add_argument(
        "--files-per-task",
        type=_positive_int,
        default=None,
        metavar="N",
        help="documents per Ray task (default 4)",
    )
