"""A fixed-seed sample of the mutation fuzzer: corpus documents mutated, none may break.

The long run is `python -m tests.robustness --trials 10000` (see the README); this sample runs
`TRIALS` trials from seed 0 under the contract's limits (20 s, 3 GiB per trial) and fails on any
crash, timeout or exhausted memory, listing each with the trial that reproduces it.
"""

from __future__ import annotations

from pathlib import Path

from tests.robustness.mutate import load_seeds, mutate_docx, mutate_json, mutate_xml
from tests.robustness.runner import run_mutations

TRIALS = 500


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
