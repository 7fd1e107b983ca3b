"""The `partita` command: partition documents (and chunk them) from the shell.

    partita partition FILE... [--jsonl] [-o OUT]
    partita chunk FILE... [--strategy by_title|basic|...|code] [chunking options] [--jsonl] [-o OUT]
    partita evaluate DOC_OR_DIR... [--config SPEC]... [--questions FILE] [-o REPORT.html]

`chunk` partitions each document (or reads an elements file: `.json` as written by
`partition`, or `.jsonl`) and chunks it. The strategies and their option flags come from the
chunking registry (`partita.chunking.registry`): every option of every registered strategy has a
flag, named, typed and explained as its strategy's options declare it.

`evaluate` measures chunking configurations on the documents (`partita.evaluation.command`).

Elements go to standard output (or `-o`) as one JSON array in the reference's schema, or as JSON
Lines with `--jsonl`, streamed as each file is done, in the order the files were given. With
several files a progress bar is drawn on standard error when it is a terminal.

Several files are processed in `--jobs` worker processes (default: the cores available), and
`--timeout` / `--max-memory` limit each file (`partita.batch`); a file that fails for any reason
(a typed error, a limit, a worker that died, a bug) is reported on standard error and the others
go on. The exit status is 0 when every file succeeded, 1 when any failed, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import codecs
import functools
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

from partita.batch import default_jobs, iter_task_results, parse_memory_size
from partita.elements import Element

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

    chunk = commands.add_parser(
        "chunk",
        help="partition and chunk documents (or chunk an elements JSON file)",
        description=(
            "Partition each FILE (or read it as elements, for .json/.jsonl files of elements)"
            " and chunk the elements. Options mirror unstructured's chunking options."
        ),
    )
    _add_io_arguments(chunk)
    _add_chunking_arguments(chunk)
    chunk.set_defaults(run=_run_chunk)

    from partita.evaluation.command import add_evaluate_parser

    add_evaluate_parser(commands)
    return parser


def _add_chunking_arguments(parser: argparse.ArgumentParser) -> None:
    """The `--strategy` choices and one flag per option, read from the strategy registry: each
    option's name, kind and help are written once, in its strategy's options `TypedDict`."""
    from partita.chunking import chunking_strategies
    from partita.chunking.strategy import OptionField, option_fields

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
            group.add_argument(flag, type=int, metavar="N", help=help_text)
        elif field.kind is float:
            group.add_argument(flag, type=float, metavar="X", help=help_text)
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


def _unescaped(text: str) -> str:
    """`text` with its backslash escapes (`\\n`, `\\u2029`) read: separators typed in a shell."""
    return codecs.decode(text.encode("latin-1", "backslashreplace"), "unicode_escape")


def _add_io_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="documents to read")
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
    return _run_each(args, _partition_file)


def _run_chunk(args: argparse.Namespace) -> int:
    from partita.chunking.registry import strategy_named

    if args.strategy is None:
        from partita.text.code.languages import language_for_filename

        is_code = all(language_for_filename(path) is not None for path in args.files)
        args.strategy = "code" if is_code else "by_title"
    strategy = strategy_named(args.strategy)
    taken = set(strategy.option_names)
    options: dict[str, Any] = {
        name: getattr(args, name) for name in args.chunking_options if name in taken
    }
    try:
        strategy.validated(**options)  # -- bad options are a usage error, before any file --
    except ValueError as exc:
        print(f"partita chunk: error: {exc}", file=sys.stderr)
        return 2
    return _run_each(args, functools.partial(_chunk_file, args.strategy, options))


def _partition_file(path: str) -> list[Element]:
    from partita.partitioners import partition

    return partition(path)


def _chunk_file(strategy: str, options: dict[str, Any], path: str) -> list[Element]:
    """Return the chunks of `path` (a document or an elements file); runs in a worker."""
    from partita.chunking import chunk

    return chunk(_read_elements(path), strategy, **options)


def _read_elements(path: str) -> list[Element]:
    """Return the elements of `path`: read back from a .json/.jsonl elements file, or
    partitioned from a document."""
    from partita.serialization import elements_from_json, iter_elements_from_jsonl

    lowered = path.lower()
    if lowered.endswith(".jsonl"):
        return list(iter_elements_from_jsonl(path))
    if lowered.endswith(".json"):
        return elements_from_json(filename=path)
    return _partition_file(path)


def _run_each(args: argparse.Namespace, process: Callable[[str], list[Element]]) -> int:
    """Apply `process` to every file, write what succeeded in order, report what failed.

    Several files go to worker processes (`--jobs`); so does a single file with a limit.
    """
    files: list[str] = args.files
    progress = _Progress(len(files), enabled=not args.quiet and sys.stderr.isatty())
    jobs = min(args.jobs or default_jobs(), len(files))
    failures = 0

    def iter_file_elements() -> Iterator[list[Element]]:
        nonlocal failures
        results = iter_task_results(
            process, files, jobs=jobs, timeout=args.timeout, max_memory=args.max_memory
        )
        for result in results:
            progress.step(result.name)
            if result.value is not None:
                yield result.value
                continue
            failures += 1
            if not args.quiet:
                progress.clear()
                print(f"partita: {result.name}: {_describe(result.error)}", file=sys.stderr)
        progress.clear()

    with _open_output(args.output) as out:
        _write(out, iter_file_elements(), jsonl=args.jsonl)
    return 1 if failures else 0


def _describe(exc: BaseException | None) -> str:
    kind = type(exc).__name__
    return f"{kind}: {exc}"


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _memory_size(text: str) -> int:
    try:
        return parse_memory_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


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
        """Count one more file done, `label` the last one."""
        self._done += 1
        if not self._enabled:
            return
        width = 24
        filled = width * self._done // self._total
        name = os.path.basename(label)[:40]
        sys.stderr.write(
            f"\r[{'#' * filled}{'-' * (width - filled)}] {self._done}/{self._total} {name}\x1b[K"
        )
        sys.stderr.flush()

    def clear(self) -> None:
        if self._enabled:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
