"""The `partita` command: partition documents (and chunk them) from the shell.

    partita partition FILE... [--jsonl] [-o OUT]
    partita chunk FILE... [--strategy by_title|basic] [chunking options] [--jsonl] [-o OUT]

`chunk` partitions each document (or reads an elements file: `.json` as written by
`partition`, or `.jsonl`) and chunks it; every chunking option has a flag.

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
    return parser


def _add_chunking_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("chunking options")
    group.add_argument(
        "--strategy",
        choices=("by_title", "basic"),
        default="by_title",
        help="by_title starts a chunk at every title (default); basic fills chunks in order",
    )
    sizes = {
        "--max-characters": "hard maximum chunk size in characters (default 500)",
        "--new-after-n-chars": "soft maximum: a chunk longer than this takes no more elements",
        "--max-tokens": "hard maximum chunk size in tokens (needs --tokenizer)",
        "--new-after-n-tokens": "soft maximum in tokens",
        "--overlap": "characters (tokens) of a split chunk repeated at the start of the next",
        "--combine-text-under-n-chars": (
            "by_title: combine consecutive sections while the first is shorter than this"
            " (default: the window; 0 disables)"
        ),
    }
    for flag, text in sizes.items():
        group.add_argument(flag, type=int, metavar="N", help=text)
    group.add_argument(
        "--tokenizer",
        metavar="NAME",
        help="tiktoken encoding or model name for token sizes (cl100k_base works offline)",
    )
    group.add_argument(
        "--overlap-all", action="store_true", help="overlap between all chunks, not only splits"
    )
    switches = {
        "multipage-sections": "by_title: let a section span pages (default on)",
        "include-orig-elements": "attach each chunk's source elements (default on)",
        "repeat-table-headers": "repeat a split table's header rows (default on)",
        "isolate-table": "chunk every table alone (default on)",
    }
    for name, text in switches.items():
        group.add_argument(
            f"--{name}", action=argparse.BooleanOptionalAction, default=None, help=text
        )
    group.add_argument(
        "--skip-table-chunking",
        action="store_true",
        default=None,
        help="pass tables through unchanged, however large",
    )


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


def _run_chunk(args: argparse.Namespace) -> int:
    from partita.chunking import ChunkingOptions, iter_chunks

    try:
        opts = ChunkingOptions(
            strategy=args.strategy,
            max_characters=args.max_characters,
            new_after_n_chars=args.new_after_n_chars,
            max_tokens=args.max_tokens,
            new_after_n_tokens=args.new_after_n_tokens,
            tokenizer=args.tokenizer,
            overlap=args.overlap,
            overlap_all=args.overlap_all or None,
            combine_text_under_n_chars=(
                args.combine_text_under_n_chars if args.strategy == "by_title" else None
            ),
            multipage_sections=args.multipage_sections,
            include_orig_elements=args.include_orig_elements,
            repeat_table_headers=args.repeat_table_headers,
            isolate_table=args.isolate_table,
            skip_table_chunking=args.skip_table_chunking,
        )
    except ValueError as exc:
        print(f"partita chunk: error: {exc}", file=sys.stderr)
        return 2

    def chunk_file(path: str) -> list[Element]:
        return list(iter_chunks(_read_elements(path), opts))

    return _run_each(args, chunk_file)


def _read_elements(path: str) -> list[Element]:
    """Return the elements of `path`: read back from a .json/.jsonl elements file, or
    partitioned from a document."""
    from partita.partitioners import partition
    from partita.serialization import elements_from_json, iter_elements_from_jsonl

    lowered = path.lower()
    if lowered.endswith(".jsonl"):
        return list(iter_elements_from_jsonl(path))
    if lowered.endswith(".json"):
        return elements_from_json(filename=path)
    return partition(path)


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
