"""A lower layer never imports a higher one, nor a peer of its own layer.

Layers, bottom up (each may import only the layers below it, and its own package):

0. `partita.text` (whitespace, scripts, sentences), `partita.errors` and the private helpers;
1. `partita.elements`, `partita.embeddings`, `partita._workers` (worker processes; peers);
2. `partita.hierarchy`, `partita.serialization`;
3. `partita.partitioners`, `partita.chunking` (peers: neither imports the other);
4. `partita.batch`, `partita.evaluation`, `partita.integrations`, `partita.inspection` (peers);
5. `partita.distributed` (an engine running the batch work over a cluster);
6. `partita.cli` and the package itself (`partita/__init__.py`).

Imports are read from the source (every `import` statement, those inside functions included), so
a lazy import cannot hide a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

LAYERS: tuple[frozenset[str], ...] = (
    frozenset(
        {
            "partita.text",
            "partita.errors",
            "partita._gc",
            "partita._json_writer",
            "partita._lazy",
            "partita._metadata_fields",
            "partita._table_html",
        }
    ),
    frozenset({"partita.elements", "partita.embeddings", "partita._workers"}),
    frozenset({"partita.hierarchy", "partita.serialization"}),
    frozenset({"partita.partitioners", "partita.chunking"}),
    frozenset(
        {"partita.batch", "partita.evaluation", "partita.integrations", "partita.inspection"}
    ),
    frozenset({"partita.distributed"}),
    frozenset({"partita.cli", "partita"}),
)


def package_of(module: str) -> str:
    """The layered unit a module belongs to: `partita.x` for `partita.x.y.z`."""
    parts = module.split(".")
    return ".".join(parts[:2])


def layer_of(package: str) -> int:
    for rank, layer in enumerate(LAYERS):
        if package in layer:
            return rank
    raise AssertionError(f"{package} is in no layer: add it to LAYERS")


def iter_modules() -> Iterator[tuple[str, Path]]:
    for path in sorted((SRC / "partita").rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


def iter_imports(module: str, path: Path) -> Iterator[str]:
    """The partita modules `path` imports, relative imports resolved."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            if name == "partita":
                # -- `from partita import x`: x is a submodule or a name of the package --
                for alias in node.names:
                    candidate = f"partita.{alias.name}"
                    yield (
                        candidate
                        if (SRC / "partita" / alias.name).exists()
                        or (SRC / "partita" / f"{alias.name}.py").exists()
                        else "partita"
                    )
            else:
                yield name


MODULES = list(iter_modules())


@pytest.mark.parametrize(("module", "path"), MODULES, ids=[m for m, _ in MODULES])
def test_module_imports_only_lower_layers(module: str, path: Path) -> None:
    own = package_of(module)
    rank = layer_of(own)
    for imported in iter_imports(module, path):
        if imported != "partita" and not imported.startswith("partita."):
            continue
        target = package_of(imported)
        if target == own:
            continue
        assert layer_of(target) < rank, f"{module} (layer {rank}) imports {imported}"


def test_the_text_layer_imports_nothing_else_of_partita() -> None:
    for module, path in MODULES:
        if package_of(module) != "partita.text":
            continue
        for imported in iter_imports(module, path):
            if imported.startswith("partita"):
                assert package_of(imported) == "partita.text", f"{module} imports {imported}"


def test_the_rule_can_fail() -> None:
    # -- chunking importing a partitioner would break the rule the tests above check --
    assert layer_of(package_of("partita.partitioners.docx")) == layer_of("partita.chunking")
    assert layer_of("partita.cli") > layer_of("partita.chunking") > layer_of("partita.text")
