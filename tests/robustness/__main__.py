"""The long robustness run: `python -m tests.robustness --trials 10000` (10,000 mutation trials,
plus `--generated` trials of each hostile generator family: 25 by default).

Runs every hostile case, then `--trials` mutation trials of the shared corpus from `--seed`,
then `--generated` trials of each family of `generate_pdfium.GENERATORS` from `--seed`, each in
a worker process under the contract's limits (20 s of CPU, 3 GiB by default, and a wall-clock
backstop of 120 s), and prints a Markdown table per format (per family for generated trials:
trials, ok, typed error, crash, timeout, memory, the slowest trial) and every failure. Files of
failing trials are kept in `--keep` for reproduction. The exit status is 1 when any trial broke
the contract.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from partita.batch import default_jobs, parse_memory_size
from tests.robustness.cases import all_cases
from tests.robustness.generate_pdfium import GENERATORS
from tests.robustness.mutate import load_seeds
from tests.robustness.runner import Failure, Tally, run_generated, run_hostile, run_mutations
from tests.robustness.trial import MAX_CPU, MAX_MEMORY, TIMEOUT
from tests.shared import find_corpus

GENERATED = 25
"""Generated trials per family in the long run."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.robustness", description=__doc__)
    parser.add_argument("--trials", type=int, default=1000, help="mutation trials (1000)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (0)")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="worker processes")
    parser.add_argument(
        "--generated", type=int, default=GENERATED, help=f"trials per generator ({GENERATED})"
    )
    parser.add_argument("--max-cpu", type=float, default=MAX_CPU, help="CPU seconds per trial")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="wall seconds per trial")
    parser.add_argument(
        "--max-memory", type=parse_memory_size, default=MAX_MEMORY, help="memory per trial"
    )
    parser.add_argument("--keep", type=Path, help="folder for the files of failing trials")
    parser.add_argument("--no-hostile", action="store_true", help="skip the hostile cases")
    args = parser.parse_args(argv)
    limits = {
        "jobs": args.jobs,
        "timeout": args.timeout,
        "max_cpu": args.max_cpu,
        "max_memory": args.max_memory,
    }
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="partita-fuzz-") as workdir:
        hostile = Tally()
        if not args.no_hostile:
            for case, outcome, message in run_hostile(all_cases(), Path(workdir), **limits):
                hostile.add(case.name.split("/")[0], outcome, 0.0)
                if outcome not in ("ok", "typed error"):
                    hostile.failures.append(Failure(case.name, outcome, message, None))
            print("## Hostile cases\n")
            print(hostile.table())
        seeds = load_seeds(find_corpus())
        tally = run_mutations(
            seeds, Path(workdir), seed=args.seed, trials=args.trials, keep=args.keep, **limits
        )
        minutes = (time.monotonic() - started) / 60
        print(f"\n## Mutation trials (seed {args.seed}, {len(seeds)} seeds, {minutes:.1f} min)\n")
        print(tally.table())
        generated = Tally()
        if args.generated:
            started = time.monotonic()
            generated = run_generated(
                GENERATORS,
                Path(workdir),
                seed=args.seed,
                per_family=args.generated,
                keep=args.keep,
                **limits,
            )
            minutes = (time.monotonic() - started) / 60
            print(f"\n## Generated trials (seed {args.seed}, {minutes:.1f} min)\n")
            print(generated.table())
    for seconds, label in sorted(tally.slow + generated.slow, reverse=True):
        print(f"\n- slow ({seconds:.1f} s, over half the CPU limit): {label}")
    failures = hostile.failures + tally.failures + generated.failures
    for failure in failures:
        where = f" (kept: {failure.kept})" if failure.kept else ""
        print(f"\n- {failure.outcome}: {failure.label}{where}\n  {failure.message[:500]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
