"""`partita inspect`: the command line of the chunk inspector.

    partita inspect DOC [--strategy NAME] [chunking options] [-o REPORT.html] [--per-view N]

DOC is a document in any format partita reads, or element JSON (`.json` as `partition` writes
it, or `.jsonl`). It is partitioned once and chunked with the options given, provenance on
(`provenance=True`: the page maps chunks to elements through it, so `--no-provenance` is
overridden), and the page is written to `-o` (default `inspection.html`). Sizes in tokens are
cl100k_base's (offline). The strategy defaults as `partita chunk`'s does: `code` for a source
file, else `by_title`. Exit status: 0, 1 when the document cannot be read, 2 for bad usage.

The chunking flags are the `chunk` command's, added by the function the command line passes in
(`partita.cli` sits above this package and owns them): `add_inspect_parser(commands,
_add_chunking_arguments)`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

from partita.errors import one_line

__all__ = ["add_inspect_parser", "run_inspect"]


def add_inspect_parser(
    commands: Any, add_chunking_arguments: Callable[[argparse.ArgumentParser], None]
) -> None:
    """Add the `inspect` command to `commands` (argparse sub-parsers), its chunking flags added
    by `add_chunking_arguments` (the `chunk` command's: `partita.cli._add_chunking_arguments`),
    which must also set the parser's default `chunking_options`, the option names it added."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "inspect",
        help="show a document's chunks over its elements in one HTML page",
        description=(
            "Partition DOC (or read it as elements, for .json/.jsonl files), chunk it with"
            " provenance on, and write one self-contained HTML page showing every element, each"
            " chunk's extent over them, sizes in characters and tokens, heading paths and pages."
        ),
    )
    parser.add_argument("document", metavar="DOC", help="a document or an elements file")
    parser.add_argument(
        "-o",
        "--output",
        default="inspection.html",
        metavar="REPORT",
        help="the HTML page to write (inspection.html)",
    )
    parser.add_argument(
        "--per-view",
        type=int,
        default=None,
        metavar="N",
        help="elements drawn at a time in the page (200)",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="print nothing on stderr")
    add_chunking_arguments(parser)
    parser.set_defaults(run=run_inspect)


def run_inspect(args: argparse.Namespace) -> int:
    """Run `partita inspect` for parsed `args`; return the exit status."""
    from partita.chunking import chunk
    from partita.chunking._registry import strategy_named
    from partita.inspection._data import inspection_model
    from partita.inspection._page import DEFAULT_PER_VIEW, write_page
    from partita.partitioners._reading import read_elements
    from partita.text.sizing._tokenizers import token_counter

    if args.strategy is None:
        from partita.text.code._languages import language_for_filename

        args.strategy = "code" if language_for_filename(args.document) else "by_title"
    strategy = strategy_named(args.strategy)
    taken = set(strategy.option_names)
    options: dict[str, Any] = {
        name: getattr(args, name) for name in args.chunking_options if name in taken
    }
    if "provenance" in taken:
        options["provenance"] = True
    per_view = DEFAULT_PER_VIEW if args.per_view is None else args.per_view
    try:
        if per_view < 1:
            raise ValueError(f"--per-view must be at least 1, got {per_view}")
        strategy.validated(**options)  # -- bad options are a usage error, before the file --
    except (TypeError, ValueError) as exc:
        print(f"partita inspect: error: {one_line(exc)}", file=sys.stderr)
        return 2
    try:
        elements = read_elements(args.document)
    except Exception as exc:  # -- any reason a document cannot be read, reported alike --
        print(f"partita inspect: {args.document}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    chunks = chunk(elements, args.strategy, **options)
    settings = {"strategy": args.strategy}
    settings.update((k, v) for k, v in options.items() if v is not None)
    model = inspection_model(
        elements,
        chunks,
        count_tokens=token_counter("cl100k_base"),
        title=os.path.basename(args.document),
        settings=settings,
    )
    written = write_page(model, args.output, per_view=per_view)
    if not args.quiet:
        print(
            f"partita inspect: {len(elements):,} elements, {len(chunks):,} chunks,"
            f" {len(model.overlaps):,} overlapping ranges: {os.path.abspath(written)}",
            file=sys.stderr,
        )
    return 0
