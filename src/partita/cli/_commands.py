"""Running `partition` and `chunk`: inputs found, processed in workers, written, reported."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable, Iterator

from partita.batch import default_jobs, iter_task_results
from partita.cli._arguments import chunking_of, report_usage_error
from partita.cli._inputs import Input, UsageError, find_inputs
from partita.cli._output import OutputDir, open_output, write_stream
from partita.cli._progress import Progress, RunStats
from partita.cli._tasks import Processed, chunk_input, partition_input
from partita.elements import Element

__all__ = ["run_chunk", "run_partition"]


def run_partition(args: argparse.Namespace) -> int:
    """Run `partita partition`; return the exit status."""
    return _run_each(args, "partition", partition_input, _find(args, "partition"))


def run_chunk(args: argparse.Namespace) -> int:
    """Run `partita chunk`; return the exit status (2 for invalid options, before any input)."""
    if args.engine != "local":
        from partita.cli._distributed import run_chunk_on_ray

        return run_chunk_on_ray(args)
    if args.incremental or args.ray_address or args.files_per_task or args.format == "parquet":
        return report_usage_error(
            "partita chunk",
            "--incremental, --ray-address, --files-per-task and --format parquet need --engine ray",
        )
    inputs = _find(args, "chunk")
    if inputs is None:
        return 2
    chosen = chunking_of(args, inputs)
    if chosen is None:
        return 2
    strategy, options = chosen
    return _run_each(args, "chunk", functools.partial(chunk_input, strategy, options), inputs)


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
        report_usage_error(f"partita {command}", str(exc))
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
    `--output-dir`, inputs whose output is up to date are skipped (unless `--force`). Each input's
    warnings are printed as one line each; with `--strict`, an input that gave no elements fails.
    A failure to write the output is one line and exit status 1.
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

    def report(*lines: str) -> None:
        """Print each of `lines` after "partita: " on standard error (not with --quiet)."""
        if lines and not args.quiet:
            progress.clear()
            for line in lines:
                print(f"partita: {line}", file=sys.stderr)

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
            progress.step(result.name, 0 if value is None else value.pages)
            if value is not None:
                report(*(f"warning: {line}" for line in value.warnings))
                if value.empty is not None and args.strict:
                    stats.failed += 1
                    report(
                        f"{result.name}: EmptyDocumentWarning: no elements: {value.empty}"
                        " (--strict)"
                    )
                    continue
                if value.empty is not None:
                    report(f"warning: {result.name}: no elements: {value.empty}")
                stats.elements += value.element_count
                stats.chunks += len(value.elements)
                stats.pages += value.pages
                yield item, value.elements
                continue
            stats.failed += 1
            error = result.error
            report(f"{result.name}: {type(error).__name__}: {error}")
        progress.clear()

    if output_dir is not None:
        for item, elements in iter_done():
            try:
                output_dir.write(item, elements)
            except OSError as exc:
                stats.failed += 1
                target = output_dir.target_of(item)
                report(f"{item.name}: cannot write {target}: {exc.strerror or exc}")
    else:
        try:
            with open_output(args.output) as out:
                write_stream(out, _processing(iter_done()), args.format, several=len(inputs) > 1)
        except BrokenPipeError:
            raise
        except OSError as exc:
            destination = args.output if args.output not in (None, "-") else "standard output"
            print(
                f"partita {command}: error: cannot write {destination}: {exc.strerror or exc}",
                file=sys.stderr,
            )
            return 1
    if not args.quiet:
        print(stats.summary(), file=sys.stderr)
    return 1 if stats.failed else 0


def _processing(
    batches: Iterator[tuple[Input, list[Element]]],
) -> Iterator[tuple[Input, list[Element]]]:
    """Generate `batches`; an `OSError` raised while producing them (not while writing them) is
    re-raised as a `RuntimeError`, so that only the output's own errors read "cannot write"."""
    try:
        yield from batches
    except OSError as exc:
        raise RuntimeError(f"processing the inputs failed: {exc}") from exc


def _name_of(item: Input) -> str:
    return item.name
