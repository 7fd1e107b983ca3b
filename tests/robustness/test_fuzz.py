"""Fixed-seed samples of the fuzzers: corpus documents mutated, and hostile PDFs generated
(`generate_pdfium`); none may break the contract.

The long run is `python -m tests.robustness --trials 10000` (see docs/untrusted-documents.md);
these samples run `TRIALS` mutation trials and `GENERATED` trials of each generator family from
seed 0 under the contract's limits (20 s of CPU, 3 GiB per trial) and fail on any crash, timeout
or exhausted memory, listing each with the trial that reproduces it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.robustness.generate_pdfium import GENERATORS
from tests.robustness.mutate import load_seeds, mutate_docx, mutate_json, mutate_xml
from tests.robustness.runner import Tally, generated_trial, run_generated, run_mutations

TRIALS = 500
GENERATED = 2
"""Generated trials per family in the sample."""


def test_mutation_sample_keeps_the_contract(tmp_path: Path) -> None:
    seeds = load_seeds()
    assert {s.format for s in seeds} >= {"pdf", "docx", "html", "md", "json"}
    tally = run_mutations(seeds, tmp_path, seed=0, trials=TRIALS, jobs=2)
    assert sum(c.total() for c in tally.counts.values()) == TRIALS
    report = "\n".join(f"{f.outcome}: {f.label}: {f.message[:300]}" for f in tally.failures)
    assert not tally.failures, f"\n{tally.table()}\n{report}"


def test_mutations_are_deterministic() -> None:
    import random

    seeds = [s for s in load_seeds(json_seeds=1) if s.format in ("docx", "json")]
    docx = next(s for s in seeds if s.format == "docx")
    json_seed = next(s for s in seeds if s.format == "json")
    for mutator, seed in ((mutate_docx, docx), (mutate_json, json_seed)):
        first = mutator(seed.data, random.Random("x"))
        assert first == mutator(seed.data, random.Random("x"))
        assert first != seed.data


def test_xml_mutations_keep_the_xml_well_formed() -> None:
    import random

    from lxml import etree

    xml = b"<a x='1'><b y='2'>text</b><c/><d><e z='3'/></d></a>"
    for number in range(50):
        mutated = mutate_xml(xml, random.Random(number))
        etree.fromstring(mutated)  # -- raises if the mutation broke the XML --


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Tally:
    workdir: Path = tmp_path_factory.mktemp("generated")
    return run_generated(GENERATORS, workdir, seed=0, per_family=GENERATED, jobs=2)


@pytest.mark.parametrize("family", sorted(GENERATORS))
def test_generated_sample_keeps_the_contract(family: str, generated: Tally) -> None:
    assert generated.counts[family].total() == GENERATED
    failures = [f for f in generated.failures if f.label.startswith(f"generated {family} #")]
    report = "\n".join(f"{f.outcome}: {f.label}: {f.message[:300]}" for f in failures)
    assert not failures, f"\n{report}"


@pytest.mark.parametrize("family", sorted(GENERATORS))
def test_generators_are_deterministic(family: str) -> None:
    generator = GENERATORS[family]
    first = generator(generated_trial(family, 0, 0))
    assert first.startswith(b"%PDF-")
    assert first == generator(generated_trial(family, 0, 0))
    varied = {generator(random.Random(f"other:{n}")) for n in range(4)}
    assert len(varied | {first}) > 1  # -- the shape is drawn, not fixed --
