"""What each hostile PDF family costs partita: outcome, wall and CPU seconds, peak memory.

Every canonical case of `tests/robustness/hostile_pdfium.py` (and, with `--generated N`, N files
of each family's generator, `tests/robustness/generate_pdfium.py`) is written to a temporary
folder and read in a FRESH child process, once per entry point (`--entries`):

- `filename`: `partita.partitioners.pdf.partition_pdf(filename=F, backend=B)`;
- `file`: `partition_pdf(file=open(F, "rb"), backend=B)`;
- `partition`: `partita.partition(F)` (auto-detection, the default backend; with
  `--backend pdfplumber` this entry is skipped: `partition` has no backend option).

The child runs under an address-space limit (`--max-memory`, RLIMIT_AS, default 4 GiB, inherited
by any process it starts) and is killed, with its whole process group, after `--wall` seconds
(default 60). Meanwhile the parent samples /proc every `--interval` seconds (20 ms) for the
child and all its descendants: the peak of their summed resident sets is "peak MB" (or the
child's own `ru_maxrss` when that is higher: a spike between two samples). CPU seconds are the
user + system time of the whole tree: the parent makes itself a child subreaper
(`PR_SET_CHILD_SUBREAPER`), so descendants orphaned by a crash are reparented to it, killed and
reaped with `os.wait4` too; each reaped process's rusage includes the descendants it reaped
itself, so the sum counts every process once. (Where the subreaper is refused, the last
sampled utime + stime of each descendant is added to the child's rusage instead.)

The outcome is "N elements, C chars" (C the characters of text returned; "W warnings" when
partita warned), a typed error's class, "killed by SIGABRT" (or another signal), "timeout" (the
wall cap) or "exit N". The child reports `partita.__file__`; the header prints it, so a run
against another checkout (PYTHONPATH=/tmp/before/src) can be checked. Output: a Markdown table
(stdout and `--output`).

    python benchmarks/measure_hostile_pdf.py                               # every family
    PYTHONPATH=/tmp/before/src python benchmarks/measure_hostile_pdf.py \\
        --expect-partita /tmp/before/src --output benchmarks/results/hostile_pdf_before.md
    python benchmarks/measure_hostile_pdf.py --cases fanout --backend pdfplumber
    python benchmarks/measure_hostile_pdf.py --generated 3 --seed 1 --entries filename
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import functools
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = ("filename", "file", "partition")
_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")
_PR_SET_CHILD_SUBREAPER = 36


@dataclass(frozen=True)
class Measure:
    """One child run: how it ended and what its process tree cost."""

    outcome: str
    wall: float
    cpu: float
    peak_mb: float
    partita: str


# -- the child -------------------------------------------------------------------------------------


def child(entry: str, backend: str, path: str, report: str) -> None:
    """Read `path` through `entry`, and write what happened as JSON to `report`."""
    import warnings

    import partita
    from partita.partitioners.pdf import partition_pdf

    result: dict[str, object] = {"partita": partita.__file__}
    Path(report).write_text(json.dumps(result))  # -- the location, even if the read crashes --
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if entry == "filename":
                elements = partition_pdf(filename=path, backend=backend)
            elif entry == "file":
                with open(path, "rb") as file:
                    elements = partition_pdf(file=file, backend=backend)
            else:
                elements = partita.partition(path)
        except BaseException as exc:  # -- MemoryError too: the outcome names its class --
            result["error"] = type(exc).__name__
            result["message"] = str(exc)[:300]
        else:
            result["elements"] = len(elements)
            result["chars"] = sum(len(element.text) for element in elements)
    result["warnings"] = len(caught)
    Path(report).write_text(json.dumps(result))


# -- the parent ------------------------------------------------------------------------------------


def _stat(pid: int) -> tuple[int, float, int] | None:
    """(parent pid, CPU seconds, resident bytes) of `pid`, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            fields = file.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # -- fields from the state on: ppid is [1], utime [11], stime [12], rss (pages) [21] --
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / _TICKS, int(fields[21]) * _PAGE


def _tree(root: int) -> dict[int, tuple[float, int]]:
    """{pid: (CPU seconds, resident bytes)} of `root` and its living descendants."""
    stats: dict[int, tuple[int, float, int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None:
                stats[int(entry)] = stat
    tree: dict[int, tuple[float, int]] = {}
    frontier = [root]
    while frontier:
        pid = frontier.pop()
        if pid in stats and pid not in tree:
            tree[pid] = stats[pid][1:]
            frontier.extend(p for p, stat in stats.items() if stat[0] == pid)
    return tree


def _subreaper() -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def measure(
    entry: str, backend: str, path: Path, *, wall: float, max_memory: int, interval: float
) -> Measure:
    """Run `child` on `path` in a fresh process under the limits and measure its tree."""
    reaping = _subreaper()
    report = path.with_suffix(".json")
    report.unlink(missing_ok=True)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (max_memory, max_memory))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    command = [sys.executable, __file__, "--child", entry, backend, str(path), str(report)]
    started = time.monotonic()
    process = subprocess.Popen(
        command, preexec_fn=limit, start_new_session=True, stderr=subprocess.PIPE
    )
    pid = process.pid
    peak = 0
    last_cpu: dict[int, float] = {}
    timed_out = False
    status = rusage = None
    while True:
        done, status, rusage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        tree = _tree(pid)
        peak = max(peak, sum(rss for _, rss in tree.values()))
        for other, (cpu, _) in tree.items():
            last_cpu[other] = cpu
        if time.monotonic() - started > wall:
            timed_out = True
            _kill_group(pid)
            _, status, rusage = os.wait4(pid, 0)
            break
        time.sleep(interval)
    seconds = time.monotonic() - started
    assert rusage is not None
    assert status is not None
    cpu = rusage.ru_utime + rusage.ru_stime
    peak = max(peak, rusage.ru_maxrss * 1024)
    orphans = [other for other in last_cpu if other != pid]
    _kill_group(pid)
    for other in orphans:
        _kill(other)
    if reaping:
        cpu += _reap_orphans()
    else:
        cpu += sum(last_cpu[other] for other in orphans)
    stderr = process.stderr.read().decode("utf-8", "replace") if process.stderr else ""
    process.stderr and process.stderr.close()
    found = json.loads(report.read_text()) if report.exists() else {}
    report.unlink(missing_ok=True)
    outcome = _outcome(status, found, stderr, timed_out, wall)
    return Measure(outcome, seconds, cpu, peak / 1e6, str(found.get("partita", "?")))


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)


def _reap_orphans() -> float:
    """Reap every child left (orphans reparented to this subreaper); return their CPU seconds."""
    total = 0.0
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            pid, _, rusage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            time.sleep(0.01)
            continue
        total += rusage.ru_utime + rusage.ru_stime
    return total


def _outcome(status: int, found: dict[str, Any], stderr: str, timed_out: bool, wall: float) -> str:
    if timed_out:
        return f"timeout (killed at {wall:g} s)"
    if os.WIFSIGNALED(status):
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    if "elements" in found:
        text = f"{found['elements']} elements, {found['chars']:,} chars"
        return text + (f", {found['warnings']} warnings" if found.get("warnings") else "")
    if "error" in found:
        return f"{found['error']}: {found['message'][:70]}"
    code = os.WEXITSTATUS(status)
    last = stderr.strip().splitlines()[-1][:80] if stderr.strip() else ""
    return f"exit {code}" + (f" ({last})" if last else "")


# -- cases -----------------------------------------------------------------------------------------


def iter_files(
    names: list[str], generated: int, seed: int, *, canonical: bool = True
) -> Iterator[tuple[str, Callable[[], bytes]]]:
    """(label, build) of the canonical cases whose name holds one of `names` (all when empty;
    none unless `canonical`), then `generated` files of each matching family's generator."""
    sys.path.insert(0, str(ROOT))
    from tests.robustness.generate_pdfium import GENERATORS
    from tests.robustness.hostile_pdfium import CASES

    def wanted(name: str) -> bool:
        return not names or any(part in name for part in names)

    for case in CASES if canonical else ():
        if wanted(case.name):
            yield case.name, case.build
    for family, generator in GENERATORS.items():
        if not wanted(family):
            continue
        for number in range(generated):
            # -- the suite's `runner.generated_trial(family, seed, number)` (not imported: the
            # -- parent imports no partita) --
            rng = random.Random(f"{seed}:{family}:{number}")
            yield f"{family} #{number} (seed {seed})", functools.partial(generator, rng)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="*", default=[], help="name parts to select cases")
    parser.add_argument("--files", nargs="*", type=Path, default=[], help="measure these PDFs")
    parser.add_argument("--generated", type=int, default=0, help="generated files per family")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only-generated", action="store_true", help="no canonical cases")
    parser.add_argument("--backend", default="pdfium", choices=("pdfium", "pdfplumber"))
    parser.add_argument("--entries", default=",".join(ENTRIES), help="comma-separated")
    parser.add_argument("--wall", type=float, default=60.0, help="seconds before the kill")
    parser.add_argument("--max-memory", type=float, default=4.0, help="GiB of address space")
    parser.add_argument("--interval", type=float, default=0.02, help="seconds between samples")
    parser.add_argument("--expect-partita", help="fail unless the child imports partita here")
    parser.add_argument("--output", type=Path, help="also write the table here")
    args = parser.parse_args(argv)
    entries = [e for e in args.entries.split(",") if e]
    if args.backend != "pdfium":
        entries = [e for e in entries if e != "partition"]
    header = ["case", "KB", "entry", "outcome", "wall s", "CPU s", "peak MB"]
    rows = [header, ["---"] * len(header)]
    locations: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="hostile-pdf-") as workdir:
        given = [(str(f), f.read_bytes) for f in args.files]
        for label, build in given or iter_files(
            args.cases, args.generated, args.seed, canonical=not args.only_generated
        ):
            path = Path(workdir) / "case.pdf"
            path.write_bytes(build())
            size = path.stat().st_size
            for entry in entries:
                result = measure(
                    entry,
                    args.backend,
                    path,
                    wall=args.wall,
                    max_memory=int(args.max_memory * 1024**3),
                    interval=args.interval,
                )
                locations.add(result.partita)
                row = [label, f"{size / 1024:,.0f}", entry, result.outcome]
                row += [f"{result.wall:.1f}", f"{result.cpu:.1f}", f"{result.peak_mb:,.0f}"]
                rows.append(row)
                print("| " + " | ".join(row) + " |", file=sys.stderr, flush=True)
    commit = subprocess.run(
        ["git", "-C", str(Path(next(iter(locations), ".")).parent), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    lines = [
        f"partita from {', '.join(sorted(locations))} (commit {commit or '?'}); backend "
        f"{args.backend}; limits: {args.max_memory:g} GiB address space, {args.wall:g} s wall; "
        f"{os.cpu_count()} CPUs",
        "",
        *("| " + " | ".join(row) + " |" for row in rows),
    ]
    table = "\n".join(lines)
    print(table)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(table + "\n")
    if args.expect_partita and any(not loc.startswith(args.expect_partita) for loc in locations):
        print(f"partita was not imported from {args.expect_partita}: {locations}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--child":
        child(*sys.argv[2:])
        sys.exit(0)
    sys.exit(main())
