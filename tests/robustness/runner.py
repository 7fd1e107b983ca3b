"""Running hostile cases, mutation trials and generated trials, and tallying their outcomes per
format (per family for generated trials)."""

from __future__ import annotations

import random
import re
import shutil
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tests.robustness.cases import HostileCase
from tests.robustness.mutate import Seed, iter_mutants
from tests.robustness.trial import MAX_CPU, MAX_MEMORY, OUTCOMES, TIMEOUT, Trial, classify
from tests.robustness.trial import iter_trial_results as _iter_trial_results

__all__ = ["Failure", "Tally", "generated_trial", "run_generated", "run_hostile", "run_mutations"]


@dataclass(frozen=True)
class Failure:
    """A trial that broke the contract: what it was, how it ended, and where its file is."""

    label: str
    outcome: str
    message: str
    kept: Path | None


@dataclass
class Tally:
    """Outcome counts per format, and the failures."""

    counts: dict[str, Counter[str]] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    """The slowest trial per format."""
    slow: list[tuple[float, str]] = field(default_factory=list)
    """Trials that kept the contract but took over half the CPU limit in wall time: (seconds,
    label)."""

    def add(self, fmt: str, outcome: str, seconds: float) -> None:
        self.counts.setdefault(fmt, Counter())[outcome] += 1
        self.seconds[fmt] = max(self.seconds.get(fmt, 0.0), seconds)

    def table(self) -> str:
        """The tally as a Markdown table: one row per format, and a total."""
        header = ["format", "trials", *OUTCOMES, "slowest s"]
        rows = [header, ["---"] * len(header)]
        total: Counter[str] = Counter()
        for fmt in sorted(self.counts):
            counts = self.counts[fmt]
            total.update(counts)
            slowest = f"{self.seconds[fmt]:.1f}"
            rows.append([fmt, str(counts.total()), *(str(counts[o]) for o in OUTCOMES), slowest])
        slowest = f"{max(self.seconds.values(), default=0.0):.1f}"
        rows.append(["all", str(total.total()), *(str(total[o]) for o in OUTCOMES), slowest])
        return "\n".join("| " + " | ".join(row) + " |" for row in rows)


def run_hostile(
    cases: list[HostileCase],
    workdir: Path,
    *,
    jobs: int | None = None,
    timeout: float = TIMEOUT,
    max_cpu: float = MAX_CPU,
    max_memory: int = MAX_MEMORY,
) -> Iterator[tuple[HostileCase, str, str]]:
    """Run every case; yield (case, outcome, message) in the cases' order."""
    paths = [
        workdir / f"{number:04d}-{_safe(case.name)}-{case.filename}"
        for number, case in enumerate(cases)
    ]

    def trials() -> Iterator[Trial]:
        for path, case in zip(paths, cases, strict=True):
            path.write_bytes(case.build())
            yield Trial(str(path), case.name.split("/")[0], case.chunking)

    run = _iter_trial_results(
        trials(), jobs=jobs, timeout=timeout, max_cpu=max_cpu, max_memory=max_memory
    )
    for case, (trial, result) in zip(cases, run, strict=True):
        Path(trial.path).unlink(missing_ok=True)
        yield case, classify(result), "" if result.ok else str(result.error)


def run_mutations(
    seeds: list[Seed],
    workdir: Path,
    *,
    seed: int,
    trials: int,
    jobs: int | None = None,
    timeout: float = TIMEOUT,
    max_cpu: float = MAX_CPU,
    max_memory: int = MAX_MEMORY,
    keep: Path | None = None,
) -> Tally:
    """Run `trials` mutation trials from `seed`; keep failing files in `keep` (if given)."""
    labels: dict[str, str] = {}

    def iter_trials() -> Iterator[Trial]:
        for number, source, data in iter_mutants(seeds, seed, trials):
            path = workdir / f"{number:06d}-{_safe(source.name)}"
            path = path.with_suffix(source.suffix)
            path.write_bytes(data)
            labels[str(path)] = f"trial {number} (seed {seed}) of {source.name}"
            yield Trial(str(path), source.format, {})

    return _tally(
        iter_trials(),
        labels,
        lambda trial: trial.format,
        keep,
        jobs=jobs,
        timeout=timeout,
        max_cpu=max_cpu,
        max_memory=max_memory,
    )


def generated_trial(family: str, seed: int, number: int) -> random.Random:
    """The random source of generated trial `number` of `family` in a run from `seed`."""
    return random.Random(f"{seed}:{family}:{number}")


def run_generated(
    generators: Mapping[str, Callable[[random.Random], bytes]],
    workdir: Path,
    *,
    seed: int,
    per_family: int,
    jobs: int | None = None,
    timeout: float = TIMEOUT,
    max_cpu: float = MAX_CPU,
    max_memory: int = MAX_MEMORY,
    keep: Path | None = None,
) -> Tally:
    """Run `per_family` trials of each of `generators` (family name -> generator of a file's
    bytes; the family's format is the name's part before "/"), trial `i` of family `f` drawn
    from `generated_trial(f, seed, i)`; tally them per family, keep failing files in `keep`."""
    labels: dict[str, str] = {}
    families: dict[str, str] = {}

    def iter_trials() -> Iterator[Trial]:
        for number in range(per_family):
            for family, generator in generators.items():
                fmt = family.split("/")[0]
                data = generator(generated_trial(family, seed, number))
                path = workdir / f"gen-{number:05d}-{_safe(family)}.{fmt}"
                path.write_bytes(data)
                labels[str(path)] = f"generated {family} #{number} (seed {seed})"
                families[str(path)] = family
                yield Trial(str(path), fmt, {})

    return _tally(
        iter_trials(),
        labels,
        lambda trial: families.pop(trial.path),
        keep,
        jobs=jobs,
        timeout=timeout,
        max_cpu=max_cpu,
        max_memory=max_memory,
    )


def _tally(
    trials: Iterator[Trial],
    labels: dict[str, str],
    group: Callable[[Trial], str],
    keep: Path | None,
    *,
    jobs: int | None,
    timeout: float,
    max_cpu: float,
    max_memory: int,
) -> Tally:
    """Run `trials` under the limits, count their outcomes under `group(trial)` (`labels` name
    each trial's path in failures), keep failing files in `keep`."""
    tally = Tally()
    run = _iter_trial_results(
        trials, jobs=jobs, timeout=timeout, max_cpu=max_cpu, max_memory=max_memory
    )
    for trial, result in run:
        outcome = classify(result)
        tally.add(group(trial), outcome, result.seconds)
        path = Path(trial.path)
        if outcome in ("ok", "typed error") and result.seconds > max_cpu / 2:
            tally.slow.append((result.seconds, labels[trial.path]))
        kept = None
        if outcome not in ("ok", "typed error"):
            if keep is not None:
                keep.mkdir(parents=True, exist_ok=True)
                kept = Path(shutil.copy2(path, keep / path.name))
            tally.failures.append(Failure(labels[trial.path], outcome, str(result.error), kept))
        path.unlink(missing_ok=True)
        del labels[trial.path]
    return tally


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)[-60:]
