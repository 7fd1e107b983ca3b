"""The `partita` command: partition documents (and chunk them) from the shell.

    partita partition FILE... [--jsonl] [-o OUT]

Elements go to standard output (or `-o`) as one JSON array in the reference's schema, or as JSON
Lines with `--jsonl`, streamed as each file is done. With several files a progress bar is drawn
on standard error when it is a terminal. A file that fails is reported on standard error and the
others go on; the exit status is 0 when every file succeeded, 1 when any failed, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO

from partita.elements import Element
from partita.errors import PartitaError

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
    parser = argparse.ArgumentParser(
        prog="partita",
        description="Turn documents into typed elements and chunk them for retrieval.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    part = commands.add_parser(
        "partition",
        help="partition documents into elements (JSON)",
        description="Partition each FILE into elements and write them as JSON.",
    )
    _add_io_arguments(part)
    part.set_defaults(run=_run_partition)
    return parser


def _add_io_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="documents to read")
    parser.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write to OUT instead of standard output",
    )
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help="write JSON Lines (one element per line, streamed) instead of one JSON array",
    )
    parser.add_argument(
        "--quiet", "-q", action="store_true", help="draw no progress bar and report no errors"
    )


def _run_partition(args: argparse.Namespace) -> int:
    from partita.partitioners import partition

    return _run_each(args, partition)


def _run_each(args: argparse.Namespace, process: Callable[[str], list[Element]]) -> int:
    """Apply `process` to every file, write what succeeded, report what failed."""
    files: list[str] = args.files
    progress = _Progress(len(files), enabled=not args.quiet and sys.stderr.isatty())
    failures = 0

    def iter_file_elements() -> Iterator[list[Element]]:
        nonlocal failures
        for path in files:
            progress.step(path)
            try:
                yield process(path)
            except (PartitaError, OSError, ValueError) as exc:
                failures += 1
                if not args.quiet:
                    progress.clear()
                    print(f"partita: {path}: {_describe(exc)}", file=sys.stderr)
        progress.clear()

    with _open_output(args.output) as out:
        _write(out, iter_file_elements(), jsonl=args.jsonl)
    return 1 if failures else 0


def _describe(exc: BaseException) -> str:
    kind = type(exc).__name__
    return f"{kind}: {exc}"


def _write(out: IO[str], batches: Iterator[list[Element]], *, jsonl: bool) -> None:
    from partita.serialization import elements_to_json, elements_to_jsonl

    if jsonl:
        for batch in batches:
            elements_to_jsonl(batch, out)
            out.flush()
        return
    elements: list[Element] = []
    for batch in batches:
        elements.extend(batch)
    out.write(elements_to_json(elements))
    out.write("\n")


class _open_output:
    def __init__(self, path: str | None) -> None:
        self._path = path
        self._file: IO[str] | None = None

    def __enter__(self) -> IO[str]:
        if self._path is None or self._path == "-":
            return sys.stdout
        self._file = open(self._path, "w", encoding="utf-8")
        return self._file

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            self._file.close()


class _Progress:
    """A one-line progress bar on standard error, drawn only when that is a terminal."""

    def __init__(self, total: int, *, enabled: bool) -> None:
        self._total = total
        self._done = 0
        self._enabled = enabled and total > 1

    def step(self, label: str) -> None:
        if not self._enabled:
            return
        width = 24
        filled = width * self._done // self._total
        name = os.path.basename(label)[:40]
        sys.stderr.write(
            f"\r[{'#' * filled}{'-' * (width - filled)}] {self._done}/{self._total} {name}\x1b[K"
        )
        sys.stderr.flush()
        self._done += 1

    def clear(self) -> None:
        if self._enabled:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
