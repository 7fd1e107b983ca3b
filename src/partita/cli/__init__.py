"""The `partita` command: partition documents (and chunk them) from the shell.

    partita partition FILE|DIR|-... [--glob PATTERN] [--input-format FORMAT]
                      [--format json|jsonl|text|markdown] [-o OUT | --output-dir DIR [--force]]
    partita chunk FILE|DIR|-... [--strategy by_title|basic|...|code] [chunking options] [...]
    partita chunk --engine ray DIR|URI... --output-dir OUT [--incremental] [chunking options]
    partita evaluate DOC_OR_DIR... [--config SPEC]... [--questions FILE] [-o REPORT.html]
    partita inspect DOC [chunking options] [-o REPORT.html]
    partita --version

`chunk` partitions each document (or reads an elements file: `.json` as written by
`partition`, or `.jsonl`) and chunks it. The strategies and their option flags come from the
chunking registry (`partita.chunking._registry`): every option of every registered strategy has a
flag, named, typed and explained as its strategy's options declare it.

`evaluate` measures chunking configurations on the documents (`partita.evaluation._command`);
`inspect` writes a page showing a document's elements and its chunks over them
(`partita.inspection._command`).

Inputs are files, directories (searched recursively for what partita reads, or for `--glob`
patterns) and `-` for standard input (`_inputs`). Elements go to standard output (or `-o`) as one
JSON array in the reference's schema, as JSON Lines, or as text or Markdown for people; with
`--output-dir`, one file per input, skipping those already up to date (`_output`). A progress bar
and a summary line go to standard error (`_progress`).

Several files are processed in `--jobs` worker processes (default: the cores available), and
`--timeout` / `--max-memory` limit each file (`partita.batch`); a file that fails for any reason
(a typed error, a limit, a worker that died, a bug) is reported on standard error and the others
go on. The exit status is 0 when every file succeeded, 1 when any failed, 2 for bad usage.

What reaches a person is one line per problem, never a traceback (but for a bug): a usage error
is "partita chunk: error: ... (see partita chunk --help)" and status 2, before any input is read
(`_arguments.CommandParser`), an output that cannot be written is a usage error too
(`_output.check_output_file`), and each warning partita emits about a document ("empty.pdf: no
elements: the file is empty (0 bytes)") is "partita: warning: ...". `--strict` makes a document
that gives no elements a failure.

`partition` and `chunk` run in `_commands`; `_warning_lines` makes each warning one line.
`chunk --engine ray` runs the same per-file work on Ray Data (`partita.distributed`, the
`distributed` extra) and writes record tables instead (`_distributed`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from partita.cli._arguments import (
    CommandParser,
    add_engine_arguments,
    add_io_arguments,
    report_usage_error,
)
from partita.cli._arguments import add_chunking_arguments as _add_chunking_arguments
from partita.cli._inputs import UsageError
from partita.cli._output import check_output_dir, check_output_file
from partita.cli._warning_lines import one_line_warning, routing_warnings
from partita.errors import PartitaWarning

__all__ = ["main"]

_CHECKED_OUTPUTS = ("partition", "chunk", "inspect")
"""The commands whose `-o` / `--output-dir` are checked before they run (`evaluate` checks its
own outputs)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default: `sys.argv[1:]`); return the exit status.

    Raises `SystemExit` (status 2) for a command line argparse rejects, after one line on
    standard error; `--help` and `--version` exit with status 0.
    """
    parser = _build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # -- the command's own parser says it, with its name and its --help --
        command_parser: argparse.ArgumentParser = getattr(args, "command_parser", parser)
        command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        _check_outputs(args)
    except UsageError as exc:
        return report_usage_error(f"partita {args.command}", str(exc))
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        with routing_warnings(_warning_printer(quiet=getattr(args, "quiet", False))):
            return run(args)
    except BrokenPipeError:
        # -- the reader went away (e.g. `| head`); that is not an error of ours --
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(f"partita {args.command}: interrupted", file=sys.stderr)
        return 130


def _warning_printer(*, quiet: bool) -> Callable[[PartitaWarning], None]:
    """Print each `PartitaWarning` as one line, "partita: warning: MESSAGE" (nothing when
    `quiet`). (The inputs of `partition` and `chunk` collect theirs where they are processed:
    `tasks`.)"""

    def show(warning: PartitaWarning) -> None:
        if not quiet:
            print(f"partita: warning: {one_line_warning(warning)}", file=sys.stderr)

    return show


def _check_outputs(args: argparse.Namespace) -> None:
    """Raise `UsageError` when the command's `-o` or `--output-dir` cannot be written."""
    if args.command not in _CHECKED_OUTPUTS:
        return
    output = getattr(args, "output", None)
    if output is not None:
        check_output_file(output, "-o")
    output_dir = getattr(args, "output_dir", None)
    if output_dir is not None:
        from partita.distributed._documents import is_uri

        if not is_uri(output_dir):  # -- `chunk --engine ray` writes to s3://... too --
            check_output_dir(output_dir)


def _build_parser() -> argparse.ArgumentParser:
    from partita.cli._commands import run_chunk, run_partition

    parser = CommandParser(
        prog="partita",
        description="Turn documents into typed elements and chunk them for retrieval.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    part = commands.add_parser(
        "partition",
        help="partition documents into elements (JSON, or text for people)",
        description="Partition each FILE into elements and write them as JSON (or --format).",
    )
    add_io_arguments(part, reads_elements=False)
    part.set_defaults(run=run_partition)

    chunk = commands.add_parser(
        "chunk",
        help="partition and chunk documents (or chunk an elements JSON file)",
        description=(
            "Partition each FILE (or read it as elements, for .json/.jsonl files of elements)"
            " and chunk the elements. Options mirror unstructured's chunking options."
        ),
    )
    add_io_arguments(chunk, reads_elements=True)
    _add_chunking_arguments(chunk)
    add_engine_arguments(chunk)
    chunk.set_defaults(run=run_chunk)

    from partita.evaluation._command import add_evaluate_parser
    from partita.inspection._command import add_inspect_parser

    add_evaluate_parser(commands)
    add_inspect_parser(commands, _add_chunking_arguments)
    for command_parser in commands.choices.values():
        command_parser.set_defaults(command_parser=command_parser)
    return parser


def _version() -> str:
    """Return the installed distribution's version ("unknown" when partita runs from a source
    tree without being installed; the package itself sits in a layer above the command's)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("partita")
    except PackageNotFoundError:  # pragma: no cover -- run from a source tree
        return "unknown (not installed)"
