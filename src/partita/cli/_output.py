"""Where and how results are written: the output formats, one stream, or one file per input.

PRINCIPLES

- **JSON is the reference's schema, byte for byte**: `json` writes one array of every input's
  elements (as `partition` always has), `jsonl` one element per line, streamed as each input is
  done.
- **`text` and `markdown` are for people.** Each element (or chunk) gets a header line: its
  number, type, heading path (`extra["heading_path"]`, else `section_path`) and pages
  (`page_number` to `extra["last_page_number"]`); then its text; a rule separates elements.
  Nothing base64 is shown (`orig_elements` are left out); in Markdown a table is its HTML.
  When several inputs share one stream, each starts with a line naming it.
- **`--output-dir` mirrors the inputs' tree**: `docs/a/b.md` found under `docs/` goes to
  `DIR/a/b.md.json` (the input's extension kept, so `b.md` and `b.txt` do not collide). A file
  is written whole to a temporary name and renamed, so an interrupted run leaves no partial
  output that would look up to date. An input whose output is newer than it is skipped.
- **A destination that cannot be written is a usage error**, found before any input is read
  (`check_output_file`, `check_output_dir`): `-o` naming a folder, or a file in a folder that
  does not exist; `--output-dir` naming a file, or under one. A failure to write later (a full
  disk) is reported in one line too, naming what could not be written.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from partita.cli._inputs import Input
from partita.elements import Element

__all__ = [
    "OUTPUT_FORMATS",
    "OutputDir",
    "check_output_dir",
    "check_output_file",
    "heading_path_of",
    "open_output",
    "pages_of",
    "render_for_people",
    "write_stream",
]

OUTPUT_FORMATS = ("json", "jsonl", "text", "markdown")
"""The values of `--format`."""

_EXTENSIONS = {"json": ".json", "jsonl": ".jsonl", "text": ".txt", "markdown": ".md"}

_RULE = "-" * 72


def check_output_file(path: str, flag: str) -> None:
    """Raise `UsageError` when the file `path`, given with `flag` ("-o"), cannot be written: it
    is a folder, or its folder does not exist, is not a folder or is not writable. "-" (standard
    output) always can."""
    from partita.cli._inputs import UsageError

    if path == "-":
        return
    if os.path.isdir(path):
        raise UsageError(f"{flag} {path}: is a folder, not a file")
    folder = os.path.dirname(path) or "."
    _check_folder(folder, f"{flag} {path}", named=False)
    if not os.path.isdir(folder):
        raise UsageError(f"{flag} {path}: the folder {folder} does not exist")


def check_output_dir(path: str, flag: str = "--output-dir") -> None:
    """Raise `UsageError` when the folder `path`, given with `flag`, cannot hold output: it is a
    file, or a folder on its way is a file, or the folder that would hold it is not writable. A
    folder that does not exist yet is fine: it is created when the first output is written."""
    _check_folder(path, f"{flag} {path}", named=True)


def _check_folder(path: str, given: str, *, named: bool) -> None:
    """Raise `UsageError` (about `given`, which is `path` itself when `named`) when `path`, or
    the nearest of its ancestors that exists, is not a writable folder."""
    from partita.cli._inputs import UsageError

    existing = Path(path)
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        if named and existing == Path(path):
            raise UsageError(f"{given}: is a file, not a folder")
        raise UsageError(f"{given}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UsageError(f"{given}: the folder {existing} is not writable")


def write_stream(
    out: IO[str], batches: Iterator[tuple[Input, list[Element]]], fmt: str, *, several: bool
) -> None:
    """Write every input's elements to `out` in `fmt`; `several` says whether more than one
    input shares the stream (text formats then name each)."""
    from partita.serialization import elements_to_json, elements_to_jsonl

    if fmt == "json":
        elements: list[Element] = []
        for _, batch in batches:
            elements.extend(batch)
        out.write(elements_to_json(elements))
        out.write("\n")
        return
    first = True
    for item, batch in batches:
        if fmt == "jsonl":
            elements_to_jsonl(batch, out)
        else:
            if not first:
                out.write("\n")
            out.write(render_for_people(batch, fmt, source=item.name if several else None))
        first = False
        out.flush()


def render_for_people(elements: Sequence[Element], fmt: str, *, source: str | None = None) -> str:
    """Return `elements` as `fmt` ("text" or "markdown") text: a header line per element, its
    text, a rule between elements; `source` (when given) is named first."""
    markdown = fmt == "markdown"
    parts: list[str] = []
    if source is not None:
        parts.append(f"# {source}\n\n" if markdown else f"==> {source} <==\n\n")
    for number, element in enumerate(elements, 1):
        if number > 1:
            parts.append("\n---\n\n" if markdown else f"\n{_RULE}\n")
        header = " | ".join(_header_fields(number, element))
        if markdown:
            parts.append(f"**{_escape_markdown(header)}**\n\n{_markdown_body(element)}\n")
        else:
            parts.append(f"{header}\n{element.text}\n")
    if not elements:
        parts.append("(no elements)\n")
    return "".join(parts)


def _header_fields(number: int, element: Element) -> Iterator[str]:
    yield f"#{number} {element.category}"
    heading = heading_path_of(element)
    if heading:
        yield heading
    pages = pages_of(element)
    if pages is not None:
        first, last = pages
        yield f"page {first}" if first == last else f"pages {first}-{last}"
    yield f"{len(element.text)} chars"


def heading_path_of(element: Element) -> str:
    """Return the heading path of `element` as "A > B": `extra["heading_path"]` when a chunking
    option recorded it, else `section_path` (of the element, or of a chunk's first original
    element); "" when there is none."""
    from partita.chunking.retrieval._context import PATH_JOINER

    metadata = element.metadata
    recorded = (metadata.extra or {}).get("heading_path")
    if isinstance(recorded, str) and recorded:
        return recorded
    path = metadata.section_path
    if not path and metadata.orig_elements:
        path = metadata.orig_elements[0].metadata.section_path
    return PATH_JOINER.join(" ".join(part.split()) for part in path or ())


def pages_of(element: Element) -> tuple[int, int] | None:
    """Return (first, last) page of `element`, from `page_number` and `extra["last_page_number"]`,
    or None when it records no page."""
    first = element.metadata.page_number
    if first is None:
        return None
    last = (element.metadata.extra or {}).get("last_page_number")
    return first, last if isinstance(last, int) and last > first else first


def _markdown_body(element: Element) -> str:
    html = element.metadata.text_as_html
    if element.category in ("Table", "TableChunk") and html:
        return html
    return element.text


def _escape_markdown(text: str) -> str:
    return "".join("\\" + ch if ch in "\\*_`[]<>" else ch for ch in text)


class OutputDir:
    """The `--output-dir` tree: where each input's output goes, whether it is up to date, and
    writing it."""

    def __init__(self, root: str, fmt: str) -> None:
        self.root = Path(root)
        self._extension = _EXTENSIONS[fmt]
        self._fmt = fmt
        umask = os.umask(0)
        os.umask(umask)
        self._mode = 0o666 & ~umask

    def target_of(self, item: Input) -> Path:
        """Return the path `item`'s output is written to."""
        return self.root / (item.relative + self._extension)

    def is_up_to_date(self, item: Input) -> bool:
        """True when `item` is a file whose output exists and is newer than it."""
        if item.path is None:
            return False
        try:
            source = os.stat(item.path).st_mtime_ns
            target = os.stat(self.target_of(item)).st_mtime_ns
        except OSError:
            return False
        return target > source

    def check_targets(self, inputs: Sequence[Input]) -> None:
        """Raise `UsageError` when two inputs would write the same output file."""
        from partita.cli._inputs import UsageError

        seen: dict[Path, str] = {}
        for item in inputs:
            target = self.target_of(item)
            if target in seen:
                raise UsageError(
                    f"{seen[target]} and {item.name} would both be written to {target};"
                    " give their directory instead, or run them separately"
                )
            seen[target] = item.name

    def write(self, item: Input, elements: list[Element]) -> Path:
        """Write `item`'s `elements` to its target (whole, then renamed); return the target."""
        from partita.serialization import elements_to_json, elements_to_jsonl

        target = self.target_of(item)
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".partita-", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
                if self._fmt == "json":
                    out.write(elements_to_json(elements))
                    out.write("\n")
                elif self._fmt == "jsonl":
                    elements_to_jsonl(elements, out)
                else:
                    out.write(render_for_people(elements, self._fmt))
            os.chmod(temporary, self._mode)  # -- mkstemp's file is private; outputs are not --
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return target


class open_output:
    """Standard output, or the file `path` (opened for writing, closed on exit)."""

    def __init__(self, path: str | None) -> None:
        self._path = path
        self._file: IO[str] | None = None

    def __enter__(self) -> IO[str]:
        if self._path is None or self._path == "-":
            return sys.stdout
        self._file = open(self._path, "w", encoding="utf-8")
        return self._file

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            self._file.close()
