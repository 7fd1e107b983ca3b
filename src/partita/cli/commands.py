"""Running `partition` and `chunk`: inputs found, processed in workers, written, reported."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable, Iterator
from typing import Any

from partita.batch import default_jobs, iter_task_results
from partita.cli.inputs import Input, UsageError, find_inputs
from partita.cli.output import OutputDir, open_output, write_stream
from partita.cli.progress import Progress, RunStats
from partita.cli.tasks import Processed, chunk_input, partition_input
from partita.elements import Element

__all__ = ["chunking_of", "run_chunk", "run_partition"]


def run_partition(args: argparse.Namespace) -> int:
    """Run `partita partition`; return the exit status."""
    return _run_each(args, "partition", partition_input, _find(args, "partition"))


def run_chunk(args: argparse.Namespace) -> int:
    """Run `partita chunk`; return the exit status (2 for invalid options, before any input)."""
    if args.engine != "local":
        from partita.cli.distributed import run_chunk_on_ray

        return run_chunk_on_ray(args)
    if args.incremental or args.ray_address or args.files_per_task or args.format == "parquet":
        print(
            "partita chunk: error: --incremental, --ray-address, --files-per-task and"
            " --format parquet need --engine ray",
            file=sys.stderr,
        )
        return 2
    inputs = _find(args, "chunk")
    if inputs is None:
        return 2
    chosen = chunking_of(args, inputs)
    if chosen is None:
        return 2
    strategy, options = chosen
    return _run_each(args, "chunk", functools.partial(chunk_input, strategy, options), inputs)


def chunking_of(args: argparse.Namespace, inputs: list[Input]) -> tuple[str, dict[str, Any]] | None:
    """Return the strategy (default: "code" when every input is source code, else "by_title")
    and its options as the command line gives them, validated; None after reporting bad ones."""
    from partita.chunking.registry import strategy_named

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
        print(f"partita chunk: error: {exc}", file=sys.stderr)
        return None
    return args.strategy, options


def _find(args: argparse.Namespace, command: str) -> list[Input] | None:
    """Return the inputs of the command line, or None after reporting a usage error."""
    try:
        if args.jsonl and args.format not in (None, "jsonl"):
            raise UsageError(f"--jsonl contradicts --format {args.format}")
        if args.force and args.output_dir is None:
            raise UsageError("--force only applies with --output-dir")
        args.format = "jsonl" if args.jsonl else args.format or "json"
        inputs = find_inputs(
            args.files,
            globs=args.glob,
            input_format=args.input_format,
            exclude=args.output_dir,
        )
        if args.output_dir is not None:
            OutputDir(args.output_dir, args.format).check_targets(inputs)
    except UsageError as exc:
        print(f"partita {command}: error: {exc}", file=sys.stderr)
        return None
    return inputs


def _run_each(
    args: argparse.Namespace,
    command: str,
    process: Callable[[Input], Processed],
    inputs: list[Input] | None,
) -> int:
    """Apply `process` to every input, write what succeeded in order, report what failed.

    Several inputs go to worker processes (`--jobs`); so does a single one with a limit. With
    `--output-dir`, inputs whose output is up to date are skipped (unless `--force`).
    """
    if inputs is None:
        return 2
    stats = RunStats(command)
    output_dir = None if args.output_dir is None else OutputDir(args.output_dir, args.format)
    if output_dir is not None and not args.force:
        todo = [item for item in inputs if not output_dir.is_up_to_date(item)]
        stats.skipped = len(inputs) - len(todo)
        inputs = todo
    draw = args.progress if args.progress is not None else sys.stderr.isatty() and len(inputs) > 1
    progress = Progress(len(inputs), enabled=draw and not args.quiet)
    jobs = max(1, min(args.jobs or default_jobs(), len(inputs)))

    def iter_done() -> Iterator[tuple[Input, list[Element]]]:
        results = iter_task_results(
            process,
            inputs,
            jobs=jobs,
            timeout=args.timeout,
            max_memory=args.max_memory,
            name=_name_of,
        )
        for item, result in zip(inputs, results, strict=True):
            stats.files += 1
            value = result.value
            if value is not None:
                stats.elements += value.element_count
                stats.chunks += len(value.elements)
                stats.pages += value.pages
                progress.step(result.name, value.pages)
                yield item, value.elements
                continue
            progress.step(result.name, 0)
            stats.failed += 1
            if not args.quiet:
                progress.clear()
                error = result.error
                print(f"partita: {result.name}: {type(error).__name__}: {error}", file=sys.stderr)
        progress.clear()

    if output_dir is not None:
        for item, elements in iter_done():
            output_dir.write(item, elements)
    else:
        with open_output(args.output) as out:
            write_stream(out, iter_done(), args.format, several=len(inputs) > 1)
    if not args.quiet:
        print(stats.summary(), file=sys.stderr)
    return 1 if stats.failed else 0


def _name_of(item: Input) -> str:
    return item.name
