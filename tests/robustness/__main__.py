"""The long robustness run: `python -m tests.robustness --trials 10000`.

Runs every hostile case, then `--trials` mutation trials of the shared corpus from `--seed`,
each in a worker process under the contract's limits (20 s, 3 GiB by default), and prints a
Markdown table per format (trials, ok, typed error, crash, timeout, memory, the slowest trial)
and every failure. Files of failing trials are kept in `--keep` for reproduction. The exit
status is 1 when any trial broke the contract.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from partita.batch import default_jobs, parse_memory_size
from tests.robustness.cases import all_cases
from tests.robustness.mutate import load_seeds
from tests.robustness.runner import Failure, Tally, run_hostile, run_mutations
from tests.robustness.trial import MAX_MEMORY, TIMEOUT


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.robustness", description=__doc__)
    parser.add_argument("--trials", type=int, default=1000, help="mutation trials (1000)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (0)")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="worker processes")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per trial")
    parser.add_argument(
        "--max-memory", type=parse_memory_size, default=MAX_MEMORY, help="memory per trial"
    )
    parser.add_argument("--keep", type=Path, help="folder for the files of failing trials")
    parser.add_argument("--no-hostile", action="store_true", help="skip the hostile cases")
    args = parser.parse_args(argv)
    limits = {"jobs": args.jobs, "timeout": args.timeout, "max_memory": args.max_memory}
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
        seeds = load_seeds()
        tally = run_mutations(
            seeds, Path(workdir), seed=args.seed, trials=args.trials, keep=args.keep, **limits
        )
    minutes = (time.monotonic() - started) / 60
    print(f"\n## Mutation trials (seed {args.seed}, {len(seeds)} seeds, {minutes:.1f} min)\n")
    print(tally.table())
    for seconds, label in sorted(tally.slow, reverse=True):
        print(f"\n- slow ({seconds:.1f} s, over half the limit): {label}")
    failures = hostile.failures + tally.failures
    for failure in failures:
        where = f" (kept: {failure.kept})" if failure.kept else ""
        print(f"\n- {failure.outcome}: {failure.label}{where}\n  {failure.message[:500]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
