"""The error an integration raises when its library is not installed: it names the extra."""

from __future__ import annotations

__all__ = ["missing_extra"]


def missing_extra(module: str, extra: str, library: str, error: ImportError) -> ImportError:
    """Return the `ImportError` to raise from `module` when importing its `library` failed with
    `error`: it names the extra and the line that installs it (`pip install 'partita[extra]'`),
    and keeps the missing module's name in `name`, as `ModuleNotFoundError` does."""
    return ImportError(
        f"{module} needs the {extra!r} extra ({library}): pip install 'partita[{extra}]' ({error})",
        name=error.name,
    )
