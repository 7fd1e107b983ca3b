"""The integrations stay optional: nothing else in partita imports them (but the record form),
and the package and its record form import no integration library."""

from __future__ import annotations

import subprocess
import sys

import pytest

import partita.integrations
from tests.test_layers import MODULES, iter_imports

RECORDS = "partita.serialization.records"
"""The record form: it needs no integration library (below), and the distributed engine writes
it; the only integrations module another package may import."""


def test_no_other_partita_module_imports_the_integrations() -> None:
    for module, path in MODULES:
        if module.startswith("partita.integrations"):
            continue
        imported = [
            m
            for m in iter_imports(module, path)
            if m.startswith("partita.integrations") and m != RECORDS
        ]
        assert not imported, f"{module} imports {imported}"


def test_the_records_need_no_integration_library() -> None:
    code = (
        "import sys, partita, partita.serialization.records;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in"
        " ('langchain_core', 'llama_index', 'chromadb')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_package_names_its_public_api() -> None:
    assert partita.integrations.__all__ == sorted(
        partita.integrations.__all__, key=lambda n: (not n[0].isupper(), n)
    )
    assert all(getattr(partita.integrations, name) for name in partita.integrations.__all__)


@pytest.mark.parametrize(
    ("module", "library", "extra"),
    [
        ("partita.integrations.langchain", "langchain_core", "langchain"),
        ("partita.integrations.llamaindex", "llama_index", "llamaindex"),
    ],
)
def test_an_integration_without_its_extra_says_how_to_install_it(
    module: str, library: str, extra: str
) -> None:
    # -- `None` in sys.modules makes the library unimportable, as if it were not installed --
    code = (
        f"import sys; sys.modules[{library!r}] = None\n"
        "import partita.integrations, partita.serialization.records\n"
        "try:\n"
        f"    import {module}\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc.name, exc, sep='\\n')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    kind, name, message = out.stdout.splitlines()
    assert kind == "ImportError"
    assert name.split(".")[0] == library
    assert message.startswith(f"{module} needs the '{extra}' extra")
    assert f"pip install 'partita[{extra}]'" in message
