"""Chunking the corpus on Ray (`partita.distributed`) against the single-process path.

Every corpus document (`list_documents`), by_title defaults; each configuration runs in a fresh
subprocess of this script (`--worker`, one JSON line on stdout), `--repeat` times, best kept:

- `single`: the per-file work without an engine, `documents.iter_document_rows` (the batch
  function, `jobs=1`, no limits: in-process) and the tables' parts written as the sink does; its
  CPU seconds too. `single, limited`: the same under the default limits (600 s, 4 GiB: one
  limited worker for all documents). `cli -j 1`: `partita chunk CORPUS --output-dir TMP -j 1`;
- `ray N CPU, fpt K`: `run_chunk_job(paths, TMP, files_per_task=K)` after
  `ensure_ray(num_cpus=N)`, N = 1, 2, with the default limits or `timeout=None, max_memory=None`
  (the batch function then runs in the Ray worker). `ray.init` is timed apart ("init s"), the
  first run ("first s": Ray starts its workers then) too; "work s" sums the `documents/` seconds;
- the same on the steady subset, the corpus without the documents taking more than
  `--straggler` of the single-process time, where 2 workers can balance; the `files_per_task`
  sweep (`--files-per-task`) runs there.

Derived: documents/s, MB/s; scaling efficiency = throughput(2 CPUs) / (2 x throughput(1 CPU)),
and its ceiling, total / 2 against max(total / 2, the longest document); overhead per file =
(ray 1 CPU job - single) / documents; a projection for 10^6 documents on 1, 10, 100 nodes of 2
and 16 cores (assumptions printed). Every run's `chunks/` table is read back with pyarrow: the
same rows and set of (path, id, text) in all (the CLI's JSON: (path, element_id, text)), or the
verdict says not and the exit status is 1.

    python benchmarks/bench_distributed.py [--corpus ../shared/corpus] [--repeat 2]
        [--files-per-task 1,4,16] [--straggler 0.1] [--save FILE]
    python benchmarks/bench_distributed.py --merge FILE FILE   # several runs, best of all
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from _shared import CORPUS  # benchmarks/ is on sys.path

DEFAULT_CORPUS = CORPUS
NODES = (1, 10, 100)
CORES_PER_NODE = (2, 16)
PROJECTED = 10**6


# -- the worker side: one configuration in this process, a JSON line on stdout --


def digest(triples: Iterable[tuple[str, str, str]]) -> dict[str, Any]:
    """Rows, distinct rows and the SHA-256 of the sorted distinct (path, id, text) triples."""
    rows = list(triples)
    sha = hashlib.sha256()
    for triple in sorted(set(rows)):
        sha.update(json.dumps(triple).encode() + b"\n")
    return {"rows": len(rows), "distinct": len(set(rows)), "sha": sha.hexdigest()[:16]}


def read_back(output: Path, corpus: Path) -> tuple[dict[str, Any], dict[str, float]]:
    """`digest` of the `chunks/` table under `output` (paths relative to `corpus`), and the
    `documents/` table's seconds by path."""
    import pyarrow.parquet as pq

    chunks = pq.read_table(output / "chunks", columns=["path", "id", "text"]).to_pydict()
    paths = [os.path.relpath(path, corpus) for path in chunks["path"]]
    documents = pq.read_table(output / "documents", columns=["path", "seconds"]).to_pydict()
    seconds = [value or 0.0 for value in documents["seconds"]]  # -- None: a failed document --
    by_path = dict(zip(documents["path"], seconds, strict=True))
    return digest(zip(paths, chunks["id"], chunks["text"], strict=True)), by_path


def run_single(paths: list[str], output: Path, limits: bool) -> dict[str, Any]:
    """One single-process run: the rows of every document, the chunk and document tables."""
    from partita.distributed._documents import ChunkJob, iter_document_rows
    from partita.distributed._tables import rows_to_table, split_rows, write_part

    job = ChunkJob() if limits else ChunkJob(timeout=None, max_memory=None)
    shutil.rmtree(output, ignore_errors=True)
    cpu, start = time.process_time(), time.perf_counter()
    parts = split_rows(rows_to_table(iter_document_rows(job, paths)))
    for name in ("chunks", "documents"):
        (output / name).mkdir(parents=True)
        write_part(parts[name], output / name, "parquet", "part-0")
    return {"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu}


def run_ray(paths: list[str], output: Path, fpt: int, limits: bool) -> dict[str, Any]:
    from partita.distributed import run_chunk_job

    options: dict[str, Any] = {} if limits else {"timeout": None, "max_memory": None}
    start = time.perf_counter()
    run_chunk_job(paths, output, files_per_task=fpt, **options)
    return {"seconds": time.perf_counter() - start}


def worker(args: argparse.Namespace) -> dict[str, Any]:
    paths = json.loads(Path(args.paths).read_text())
    output, corpus = Path(args.output), Path(args.corpus)
    result: dict[str, Any] = {"init": None, "runs": []}
    if args.worker == "ray":
        from partita.distributed._ray_engine import ensure_ray

        start = time.perf_counter()
        ensure_ray(num_cpus=args.cpus)
        result["init"] = time.perf_counter() - start
    for _ in range(args.repeat):
        if args.worker == "ray":
            run = run_ray(paths, output, args.fpt, args.limits)
        else:
            run = run_single(paths, output, args.limits)
        records, per = read_back(output, corpus)
        run.update(work=sum(per.values()), **records)
        result["per_document"] = {os.path.relpath(p, corpus): s for p, s in per.items()}
        result["runs"].append(run)
    return result


# -- the parent side: configurations, the CLI, the tables --


@dataclass
class Measure:
    """A configuration's runs."""

    label: str
    documents: int
    megabytes: float
    runs: list[dict[str, Any]]
    init: float | None = None
    per_document: dict[str, float] = field(default_factory=dict)

    @property
    def best(self) -> float:
        return float(min(run["seconds"] for run in self.runs))

    @property
    def work(self) -> float:  # -- the per-document work of the best run --
        return float(min(self.runs, key=lambda run: run["seconds"]).get("work", 0.0))


def spawn(
    label: str, kind: str, paths: list[str], args: argparse.Namespace, temp: Path, **flags: Any
) -> Measure:
    """Run one configuration in a fresh subprocess of this script and return its runs."""
    slug = "".join(c if c.isalnum() else "-" for c in label)
    (temp / f"{slug}.paths.json").write_text(json.dumps(paths))
    command = [sys.executable, __file__, "--worker", kind, "--paths", f"{temp / slug}.paths.json"]
    command += ["--output", str(temp / slug), "--corpus", str(args.corpus)]
    command += ["--repeat", str(args.repeat), "--cpus", str(flags.get("cpus", 1))]
    command += ["--fpt", str(flags.get("fpt", 4)), "--limits" if flags["limits"] else "--no-limits"]
    print(f"  {label} ...", end="", flush=True, file=sys.stderr)
    with open(temp / f"{slug}.log", "wb") as log:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=log, check=False)
    if done.returncode != 0:
        tail = (temp / f"{slug}.log").read_text(errors="replace")[-3000:]
        sys.exit(f"\n{label}: exit status {done.returncode}:\n{tail}")
    result = json.loads(done.stdout.decode().strip().splitlines()[-1])
    runs, init, per = result["runs"], result["init"], result["per_document"]
    measure = Measure(label, len(paths), megabytes(paths), runs, init, per)
    print(f" {measure.best:.1f} s", file=sys.stderr)
    return measure


def run_cli(corpus: Path, paths: list[str], args: argparse.Namespace, temp: Path) -> Measure:
    """`partita chunk CORPUS --output-dir TMP -j 1`, timed whole; its chunks as triples."""
    output = temp / "cli"
    cli = Path(sys.executable).with_name("partita")
    runs: list[dict[str, Any]] = []
    for _ in range(args.repeat):
        shutil.rmtree(output, ignore_errors=True)
        start = time.perf_counter()
        command = [str(cli), "chunk", str(corpus), "--output-dir", str(output), "-j", "1", "-q"]
        subprocess.run(command, check=True, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
        triples = [
            (str(file.relative_to(output))[: -len(".json")], chunk["element_id"], chunk["text"])
            for file in sorted(output.rglob("*.json"))
            for chunk in json.loads(file.read_bytes())
        ]
        runs.append({"seconds": seconds, **digest(triples)})
    return Measure("cli -j 1", len(paths), megabytes(paths), runs)


def megabytes(paths: Sequence[str]) -> float:
    return sum(os.path.getsize(path) for path in paths) / 1e6


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    return "\n".join([*lines, *("| " + " | ".join(row) + " |" for row in rows)])


def figures(measures: Sequence[Measure], single: Measure) -> str:
    rows = []
    for m in measures:
        best, first = m.best, m.runs[0]["seconds"] if len(m.runs) > 1 else None
        work = m.work if "work" in m.runs[0] else None
        values = (best, first, m.init, m.documents / best, m.megabytes / best, work)
        overhead = (best - single.best) / m.documents * 1000
        cells = ["" if value is None else f"{value:.2f}" for value in values]
        rows.append([m.label, str(m.documents), *cells, f"{best / single.best:.2f}x"])
        rows[-1].append(f"{overhead:+.0f}")
    headers = ["configuration", "docs", "job s (best)", "first s", "init s", "docs/s", "MB/s"]
    return table([*headers, "work s", "/ single", "overhead ms/doc"], rows)


def efficiency(one: Measure, two: Measure, per: dict[str, float]) -> tuple[float, float]:
    """Measured scaling efficiency, and the ceiling the longest document (its single-process
    seconds in `per`) leaves: total / 2 against max(total / 2, longest)."""
    total = sum(per.values())
    ceiling = (total / 2) / max(total / 2, max(per.values(), default=0.0)) if total else 1.0
    return one.best / (2 * two.best), ceiling


def projection(cost: float, floor: float, efficiencies: Sequence[float], mix: str) -> str:
    low, high = min(efficiencies), max(efficiencies)
    rows = []
    for cores in CORES_PER_NODE:
        for nodes in NODES:
            slots = nodes * cores
            hours = (cost / (slots * low), cost / (slots * high), floor / slots)
            cells = (f"{PROJECTED * h / 3600:.2f}" for h in hours)
            rows.append([str(nodes), str(cores), str(slots), *cells])
    assumptions = (
        f"Assumptions: 10^6 documents like the corpus mix ({mix}); {cost:.3f} s a document per"
        f" CPU slot (ray, 1 CPU, default limits, files_per_task 4, whole corpus); every core of"
        f" every node runs map tasks (one CPU each) at the 2-CPU scaling efficiency measured"
        f" here (the lowest, {low:.2f}, and the highest, {high:.2f}, of the whole corpus's and"
        f" the steady subset's, with limits), whatever the node count: no storage, network or"
        f" driver limit (the driver lists 10^6 locations, the sink writes one part per task per"
        f" table); up to 4 GiB per slot (max_memory). The floor: the single-process CPU"
        f" seconds a document ({floor:.3f} s), perfect scaling, no engine."
    )
    headers = ["nodes", "cores/node", "CPU slots", f"hours (ray, eff. {low:.2f})"]
    headers += [f"hours (ray, eff. {high:.2f})", "hours (floor)"]
    return f"{table(headers, rows)}\n\n{assumptions}"


@dataclass
class Results:
    """Everything one invocation measured (or several, merged: `--merge`)."""

    full: list[Measure]
    subset: list[Measure]
    steady: list[str]  # the steady subset's documents, relative to the corpus
    notes: list[str]  # per invocation: commit, time, machine, load averages


def measure_group(
    prefix: str, paths: list[str], args: argparse.Namespace, temp: Path, fpts: Sequence[int]
) -> list[Measure]:
    """The configurations on `paths`: single (and, on the whole corpus, single limited and the
    CLI), ray on 1 and 2 CPUs with and without limits, then ray on 1 CPU with each of `fpts`."""
    group = [spawn(f"{prefix}single", "single", paths, args, temp, limits=False)]
    if not prefix:
        group.append(spawn("single, limited", "single", paths, args, temp, limits=True))
        group.append(run_cli(args.corpus, paths, args, temp))
    for limits in (True, False):
        for cpus in (1, 2):
            label = f"{prefix}ray {cpus} CPU, fpt 4, {'limits' if limits else 'no limits'}"
            group.append(spawn(label, "ray", paths, args, temp, cpus=cpus, limits=limits))
    for fpt in fpts:
        label = f"{prefix}ray 1 CPU, fpt {fpt}, limits"
        group.append(spawn(label, "ray", paths, args, temp, fpt=fpt, limits=True))
    return group


def measure_all(args: argparse.Namespace, paths: list[str], temp: Path) -> Results:
    full = measure_group("", paths, args, temp, ())
    per, longest = full[0].per_document, args.straggler * sum(full[0].per_document.values())
    steady = [p for p in paths if per[os.path.relpath(p, args.corpus)] <= longest]
    fpts = [int(k) for k in args.files_per_task.split(",") if k != "4"]
    subset = measure_group("steady: ", steady, args, temp, fpts)
    return Results(full, subset, [os.path.relpath(p, args.corpus) for p in steady], [])


def merged(files: Sequence[str]) -> Results:
    """The saved results of several invocations, each configuration's runs put together."""
    loaded = [json.loads(Path(file).read_text()) for file in files]
    first = loaded[0]
    if any(one["steady"] != first["steady"] for one in loaded):
        sys.exit("the saved runs have different steady subsets: not merged")
    for name in ("full", "subset"):
        for index, measure in enumerate(first[name]):
            measure["runs"] = [run for one in loaded for run in one[name][index]["runs"]]
            inits = [one[name][index]["init"] for one in loaded if one[name][index]["init"]]
            measure["init"] = min(inits, default=None)
    notes = [note for one in loaded for note in one["notes"]]
    full, subset = ([Measure(**m) for m in first[name]] for name in ("full", "subset"))
    return Results(full, subset, first["steady"], notes)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="documents' directory")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each configuration")
    parser.add_argument("--files-per-task", default="1,4,16", help="the steady subset's sweep")
    parser.add_argument("--straggler", type=float, default=0.1, help="share of the time (0.1)")
    parser.add_argument("--save", help="write the measures to this JSON file")
    parser.add_argument("--merge", nargs="+", help="report saved measures, runs put together")
    parser.add_argument("--worker", choices=("ray", "single"), help=argparse.SUPPRESS)
    parser.add_argument("--paths", help=argparse.SUPPRESS)
    parser.add_argument("--output", help=argparse.SUPPRESS)
    parser.add_argument("--cpus", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--fpt", type=int, default=4, help=argparse.SUPPRESS)
    parser.add_argument(
        "--limits", action=argparse.BooleanOptionalAction, default=True, help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    args.corpus = args.corpus.resolve()
    if args.worker:
        print(json.dumps(worker(args)))
        return 0
    if args.merge:
        results = merged(args.merge)
    else:
        from partita.distributed._documents import list_documents

        paths = list_documents(str(args.corpus))
        git = ["git", "-C", str(Path(__file__).parent), "rev-parse", "--short", "HEAD"]
        commit = subprocess.run(git, capture_output=True, text=True, check=False).stdout.strip()
        start, load = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.getloadavg()[0]
        temp = Path(tempfile.mkdtemp(prefix="partita-bench-distributed-"))
        try:
            results = measure_all(args, paths, temp)
        finally:
            shutil.rmtree(temp, ignore_errors=True)
        import partita

        results.notes.append(
            f"commit {commit} (partita from {Path(partita.__file__).parents[1]}), {start}, python"
            f" {platform.python_version()}, {os.cpu_count()} cores, load average {load:.2f}"
            f" before, {os.getloadavg()[0]:.2f} after"
        )
    if args.save:
        Path(args.save).write_text(json.dumps(asdict(results)))
    report(args, results)
    return 0 if verdict(results.full, results.subset) else 1


def named(measures: Sequence[Measure], label: str) -> Measure:
    return next(m for m in measures if m.label == label)


def report(args: argparse.Namespace, results: Results) -> None:
    full, subset, steady_names = results.full, results.subset, set(results.steady)
    single = full[0]
    left_out = sorted(set(single.per_document) - steady_names)
    cpu = min(run["cpu"] for run in single.runs)
    print(
        f"\nwhole corpus: {single.documents} documents, {single.megabytes:.1f} MB; best of"
        f" {len(single.runs)} runs; single-process CPU {cpu:.2f} s"
    )
    print("".join(f"\n- {note}" for note in results.notes) + "\n")
    print(figures(full, single))
    print(f"\nsteady subset: {len(steady_names)} documents (left out: {', '.join(left_out)})\n")
    print(figures(subset, subset[0]))
    lines, efficiencies = [], []
    for name, group, base, prefix in (
        ("whole corpus", full, single, ""),
        ("steady subset", subset, subset[0], "steady: "),
    ):
        per = {k: v for k, v in single.per_document.items() if k in steady_names or not prefix}
        for limits in ("limits", "no limits"):
            one = named(group, f"{prefix}ray 1 CPU, fpt 4, {limits}")
            two = named(group, f"{prefix}ray 2 CPU, fpt 4, {limits}")
            measured, ceiling = efficiency(one, two, per)
            if limits == "limits":
                efficiencies.append(measured)
            lines.append(
                f"- {name}, {limits}: scaling efficiency {measured:.2f}, ceiling {ceiling:.2f}"
            )
        for m in (m for m in group if "1 CPU" in m.label):
            over, outside = ((m.best - x) / m.documents * 1000 for x in (base.best, m.work))
            lines.append(
                f"- {name}, {m.label.removeprefix(prefix)}: overhead per file against"
                f" single {over:+.0f} ms; outside the per-document work {outside:.0f} ms"
            )
    print("\n" + "\n".join(lines))
    one = named(full, "ray 1 CPU, fpt 4, limits")
    floor = cpu / single.documents
    share = 1 - sum(per.values()) / sum(single.per_document.values())
    note = (
        f"{single.megabytes / single.documents:.2f} MB a document; {len(left_out)} of"
        f" {single.documents} documents take {share:.0%} of the single-process time"
    )
    print(f"\nprojection, {PROJECTED:,} documents:\n")
    print(projection(one.best / one.documents, floor, efficiencies, note))


def verdict(full: list[Measure], subset: list[Measure]) -> bool:
    """Print whether every run of a group wrote the same records; True when all did."""
    ok = True
    for name, group in (("whole corpus", full), ("steady subset", subset)):
        seen = {(r["rows"], r["distinct"], r["sha"]) for m in group for r in m.runs}
        ok = ok and len(seen) <= 1
        shown = ", ".join(f"{rows} rows ({unique} distinct) {sha}" for rows, unique, sha in seen)
        print(
            f"\nverdict, {name}: {'SAME' if len(seen) <= 1 else 'DIFFERENT'} records in all"
            f" {sum(len(m.runs) for m in group)} runs of {len(group)} configurations: {shown}"
        )
    return ok


if __name__ == "__main__":
    sys.exit(main())
