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
chunking registry (`partita.chunking.registry`): every option of every registered strategy has a
flag, named, typed and explained as its strategy's options declare it.

`evaluate` measures chunking configurations on the documents (`partita.evaluation.command`);
`inspect` writes a page showing a document's elements and its chunks over them
(`partita.inspection.command`).

Inputs are files, directories (searched recursively for what partita reads, or for `--glob`
patterns) and `-` for standard input (`inputs`). Elements go to standard output (or `-o`) as one
JSON array in the reference's schema, as JSON Lines, or as text or Markdown for people; with
`--output-dir`, one file per input, skipping those already up to date (`output`). A progress bar
and a summary line go to standard error (`progress`).

Several files are processed in `--jobs` worker processes (default: the cores available), and
`--timeout` / `--max-memory` limit each file (`partita.batch`); a file that fails for any reason
(a typed error, a limit, a worker that died, a bug) is reported on standard error and the others
go on. The exit status is 0 when every file succeeded, 1 when any failed, 2 for bad usage.

`chunk --engine ray` runs the same per-file work on Ray Data (`partita.distributed`, the
`distributed` extra) and writes record tables instead (`distributed`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from partita.cli.arguments import add_chunking_arguments as _add_chunking_arguments
from partita.cli.arguments import add_engine_arguments, add_io_arguments

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default: `sys.argv[1:]`); return the exit status."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except BrokenPipeError:
        # -- the reader went away (e.g. `| head`); that is not an error of ours --
        sys.stderr.close()
        return 0


def _build_parser() -> argparse.ArgumentParser:
    from partita.cli.commands import run_chunk, run_partition

    parser = argparse.ArgumentParser(
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

    from partita.evaluation.command import add_evaluate_parser
    from partita.inspection.command import add_inspect_parser

    add_evaluate_parser(commands)
    add_inspect_parser(commands, _add_chunking_arguments)
    return parser


def _version() -> str:
    """Return the installed distribution's version ("unknown" when partita runs from a source
    tree without being installed; the package itself sits in a layer above the command's)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("partita")
    except PackageNotFoundError:  # pragma: no cover -- run from a source tree
        return "unknown (not installed)"
