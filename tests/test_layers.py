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

Inside a package the same holds module by module: the graph of module imports (`from p import m`
read as an import of the module `p.m`) has no cycle, and the packages that state an import rule
in their docstring keep it (`PACKAGE_RULES`).
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
            "partita._charts",
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


def imported_from(module: str, node: ast.ImportFrom, *, is_package: bool) -> str:
    """The module a `from ... import` in `module` reads from, a relative one resolved."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join([*base, node.module] if node.module else base)


def iter_imports(module: str, path: Path) -> Iterator[str]:
    """The partita modules `path` imports, relative imports resolved."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            name = imported_from(module, node, is_package=is_package)
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
MODULE_NAMES = frozenset(module for module, _ in MODULES)


def iter_module_imports(module: str, path: Path) -> Iterator[str]:
    """The partita modules `path` imports, as modules: `from p import m` is an import of `p.m`
    when that is a module, else of `p`."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in MODULE_NAMES)
        elif isinstance(node, ast.ImportFrom):
            name = imported_from(module, node, is_package=is_package)
            for alias in node.names:
                candidate = f"{name}.{alias.name}"
                target = candidate if candidate in MODULE_NAMES else name
                if target in MODULE_NAMES and target != module:
                    yield target


def import_graph() -> dict[str, set[str]]:
    """Each module of `src/partita` and the modules it imports."""
    return {module: set(iter_module_imports(module, path)) for module, path in MODULES}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of `graph` with more than one module (Tarjan's
    algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, ())))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))
    return cycles


PACKAGE_RULES: dict[str, tuple[str, ...]] = {
    # -- a table stage imports only the stages before it, and nothing of chunking's pipelines --
    "partita.chunking.tables": (
        "partita.chunking._chunks",
        "partita.chunking._prechunk",
        "partita.chunking._text_chunks",
        "partita.chunking.retrieval",
        "partita.chunking.strategies",
        "partita.chunking._strategy",
        "partita.chunking._registry",
    ),
    # -- what the strategies share sits below them and the registry --
    "partita.chunking._text_chunks": (
        "partita.chunking.retrieval",
        "partita.chunking.strategies",
        "partita.chunking._registry",
    ),
    "partita.chunking.retrieval": ("partita.chunking.strategies", "partita.chunking._registry"),
    "partita.chunking._options": (
        "partita.chunking.strategies",
        "partita.chunking.retrieval",
        "partita.chunking._text_chunks",
        "partita.chunking._registry",
    ),
    "partita.chunking.strategies": ("partita.chunking._registry",),
    # -- the outline's types import nothing of the readers that produce them --
    "partita.text.code._definitions": ("partita.text.code",),
}
"""For a module or package (its modules included), the partita modules or packages it must not
import, as its docstring states."""


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


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


def test_no_two_modules_import_each_other_even_through_others() -> None:
    assert import_cycles(import_graph()) == []


def test_the_cycle_check_can_fail() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("package", sorted(PACKAGE_RULES))
def test_a_package_keeps_its_stated_import_rule(package: str) -> None:
    graph = import_graph()
    assert any(_within(module, package) for module in graph), f"{package} does not exist"
    broken = [
        f"{module} imports {imported}"
        for module, imports in graph.items()
        if _within(module, package)
        for imported in imports
        for forbidden in PACKAGE_RULES[package]
        if _within(imported, forbidden) and not _within(imported, package)
    ]
    assert broken == []


def test_nothing_below_the_package_imports_the_integrations() -> None:
    users = [
        module
        for module, imports in import_graph().items()
        if not _within(module, "partita.integrations")
        and any(_within(imported, "partita.integrations") for imported in imports)
    ]
    assert users == []
