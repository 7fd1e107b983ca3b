"""`partita chunk --engine ray`: the same chunking, run on Ray Data, written as record tables.

The inputs are found as for the local engine (files, directories searched recursively,
`--glob`), plus URIs (`s3://bucket/prefix`, `file:///...`) searched by the engine; standard
input is not an input here. The chunks go to `--output-dir` as the `chunks/`, `documents/` and
`failures/` tables of `partita.distributed` (Parquet, or JSON Lines with `--format jsonl`).
`--jobs` sets the CPUs of a local Ray; `--ray-address` joins a cluster instead. `--timeout` and
`--max-memory` limit each document (default: 600 s and 4 GiB). The exit status is 0 when every
document succeeded, 1 when any failed, 2 for bad usage (or a missing `distributed` extra).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from partita.cli._arguments import chunking_of
from partita.cli._inputs import STDIN, UsageError, find_inputs
from partita.distributed._documents import is_uri

__all__ = ["run_chunk_on_ray"]


def run_chunk_on_ray(args: argparse.Namespace) -> int:
    """Run `partita chunk --engine ray`; return the exit status."""
    uris = [name for name in args.files if is_uri(name)]
    local = [name for name in args.files if not is_uri(name)]
    try:
        fmt = _format_of(args)
        inputs = find_inputs(local, globs=args.glob, exclude=args.output_dir) if local else []
    except UsageError as exc:
        print(f"partita chunk: error: {exc}", file=sys.stderr)
        return 2
    chosen = chunking_of(args, inputs)
    if chosen is None:
        return 2
    strategy, options = chosen
    try:
        from partita.distributed import run_chunk_job
        from partita.distributed._ray_engine import ensure_ray
    except ImportError as exc:
        print(
            f"partita chunk: error: --engine ray needs the distributed extra"
            f" (pip install 'partita[distributed]'): {exc}",
            file=sys.stderr,
        )
        return 2
    limits: dict[str, Any] = {
        name: getattr(args, name)
        for name in ("timeout", "max_memory", "files_per_task")
        if getattr(args, name) is not None
    }
    locations = [item.path for item in inputs if item.path is not None] + uris
    ensure_ray(args.ray_address, num_cpus=args.jobs)
    summary = run_chunk_job(
        locations,
        args.output_dir,
        fmt=fmt,
        incremental=args.incremental,
        strategy=strategy,
        **limits,
        **options,
    )
    if not args.quiet:
        print(summary.summary(), file=sys.stderr)
    return 1 if summary.failed else 0


def _format_of(args: argparse.Namespace) -> str:
    """The output format of a Ray job; raises `UsageError` for what the engine cannot do."""
    if args.output_dir is None:
        raise UsageError("--engine ray writes tables: give --output-dir")
    if STDIN in args.files:
        raise UsageError("--engine ray reads files and URIs, not standard input")
    if args.input_format is not None:
        raise UsageError("--engine ray tells each document's format itself: drop --input-format")
    fmt = "jsonl" if args.jsonl else args.format or "parquet"
    if fmt not in ("parquet", "jsonl"):
        raise UsageError(f"--engine ray writes parquet or jsonl, not {fmt}")
    return str(fmt)
