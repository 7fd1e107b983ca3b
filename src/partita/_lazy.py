"""Names of a package imported from their modules on first access (PEP 562).

A package whose modules pull in heavy or optional dependencies (numpy, torch, a partitioner's
parser) lists its public names and the module defining each; `lazy_exports` gives it the
module-level `__getattr__` and `__dir__` that import a name's module when the name is first
used and keep the name in the package's namespace afterwards. `import package` then costs only
the package itself, and a missing optional dependency is met where it is needed, not on import.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """(`__getattr__`, `__dir__`) for `package`, whose names `exports` maps to the modules
    defining them (absolute module names). `__getattr__` raises `AttributeError` for any other
    name, as Python does."""
    namespace = importlib.import_module(package).__dict__

    def get(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def listed() -> list[str]:
        return sorted({*namespace, *exports})

    return get, listed
