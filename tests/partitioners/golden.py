"""Golden files: whole-document partitioner outputs kept under `tests/partitioners/golden/`.

`assert_matches_golden(elements, name)` compares the elements' JSON (`elements_to_json`, which
partita writes deterministically: ids are hashes of content and position) with the stored file,
`orig_elements` by the JSON they hold (their compressed bytes depend on the zlib encoder:
`tests.payloads`).
Set `PARTITA_REGEN_GOLDEN=1` to write the files afresh instead; review the diff before
committing them.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Sequence
from pathlib import Path

from partita import Element, elements_to_json
from tests.payloads import same_decoded

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
REGENERATE = os.environ.get("PARTITA_REGEN_GOLDEN") == "1"


def golden_summary(elements: Sequence[Element]) -> str:
    """One line per element, `Type[depth]: text` (shortened), for readable failure messages."""
    lines = []
    for element in elements:
        depth = element.metadata.category_depth
        text = element.text.replace("\n", "\\n")
        shown = text if len(text) <= 80 else text[:77] + "..."
        lines.append(f"{element.category}[{'' if depth is None else depth}]: {shown}")
    return "\n".join(lines)


def assert_matches_golden(
    elements: Sequence[Element], name: str, directory: Path = GOLDEN_DIR
) -> None:
    """Assert that `elements` serialize exactly as `<directory>/<name>.json` (or regenerate
    it); `directory` is `golden/` beside this module unless given."""
    path = directory / f"{name}.json"
    actual = elements_to_json(elements)
    if REGENERATE or not path.exists():
        if not REGENERATE:
            raise AssertionError(
                f"no golden file {path.name}; run with PARTITA_REGEN_GOLDEN=1 to create it"
            )
        path.write_text(actual, encoding="utf-8")
        return
    expected = path.read_text(encoding="utf-8")
    if actual == expected or same_decoded(actual, expected):
        return
    from partita import elements_from_json

    before = golden_summary(elements_from_json(text=expected))
    after = golden_summary(elements)
    diff = "\n".join(
        difflib.unified_diff(
            before.splitlines(), after.splitlines(), "golden", "actual", lineterm="", n=1
        )
    )
    if not diff:  # -- same types and texts: the metadata differs --
        old, new = json.loads(expected), json.loads(actual)
        first = next(
            (i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), len(old)
        )
        diff = (
            f"element {first}: metadata differs\n"
            f" golden: {old[first : first + 1]}\n actual: {new[first : first + 1]}"
        )
    raise AssertionError(f"{name}: output differs from golden/{path.name}:\n{diff[:4000]}")
