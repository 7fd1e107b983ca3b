"""Finding the documents under a directory: the files `partita partition DIR` reads.

PRINCIPLES

- **Searched recursively, in sorted order**, for the files whose format partita reads, told by
  extension (`READABLE_EXTENSIONS`: documents and source code; elements files are left out, as
  a tree of documents often holds unrelated `.json`), or for the files glob patterns match.
- **Hidden files and directories** (a leading dot), and a directory the caller names as
  skipped (the CLI's output directory), **are never searched.** Symbolic links to directories
  are not followed.
- **A glob pattern** (`fnmatch`) selects a file when it matches the file's name, its path under
  the directory (posix), or that path with a leading "**/" removed from the pattern: "*.pdf",
  "reports/*.pdf" and "**/*.md" all mean what they say.

It lives below the CLI so that every layer finds files the same way (`partita.integrations`'
loaders, the CLI's `find_inputs`).
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from partita.partitioners._detect import READABLE_EXTENSIONS

__all__ = ["iter_directory_files"]


def iter_directory_files(
    root: str | os.PathLike[str],
    globs: Sequence[str] | None = None,
    *,
    skipped: Path | None = None,
) -> Iterator[tuple[Path, str]]:
    """Generate `(path, relative)` for each file to read under the directory `root`, in sorted
    order: `path` is `root` joined with the file's place under it, `relative` that place as
    posix text. `globs` select the files (default: `READABLE_EXTENSIONS`); `skipped` (a resolved
    path) is a directory never searched."""
    root = Path(root)
    for directory, subdirectories, files in os.walk(root):
        here = Path(directory)
        subdirectories[:] = sorted(
            d
            for d in subdirectories
            if not d.startswith(".") and (skipped is None or (here / d).resolve() != skipped)
        )
        for filename in sorted(files):
            if filename.startswith("."):
                continue
            path = here / filename
            relative = path.relative_to(root).as_posix()
            if _is_selected(filename, relative, globs):
                yield path, relative


def _is_selected(filename: str, relative: str, globs: Sequence[str] | None) -> bool:
    if not globs:
        return os.path.splitext(filename)[1].lower() in READABLE_EXTENSIONS
    return any(
        fnmatch.fnmatch(filename, pattern)
        or fnmatch.fnmatch(relative, pattern)
        or fnmatch.fnmatch(relative, pattern.removeprefix("**/"))
        for pattern in globs
    )
