"""Reading the elements of an input: an elements file read back, or a document partitioned.

Every command that takes "a document or an elements file" (`partita partition` and `chunk`,
`inspect`, `evaluate`) reads it here, so they agree on what an elements file is.

PRINCIPLES

- **The format given wins**: "json" (`partition`'s JSON array) or "jsonl" (JSON Lines) reads
  the input back as elements (`partita.serialization`); any other input is a document.
- **Else the name tells**: a path ending in `.json` or `.jsonl` (any case) is an elements
  file, anything else a document. A caller that reads documents only (`partita partition`,
  where a `.json` is a document) turns this off (`elements_by_name=False`).
- **A document is partitioned by `partita.partition`**, with the options given (a
  `content_type`, a code `language`); bytes are read as a file would be, without a name.
"""

from __future__ import annotations

import io
import os
from typing import Any

from partita.elements import Element
from partita.partitioners import partition
from partita.serialization import elements_from_json, iter_elements_from_jsonl

__all__ = ["ELEMENTS_FORMATS", "elements_format_of", "read_elements"]

ELEMENTS_FORMATS = ("json", "jsonl")
"""The formats of elements written by partita (`partition`'s JSON, or JSON Lines)."""


def elements_format_of(name: str | os.PathLike[str]) -> str | None:
    """ "json" or "jsonl" when `name` ends in `.json` or `.jsonl` (any case), else None."""
    lowered = os.fspath(name).lower()
    if lowered.endswith(".jsonl"):
        return "jsonl"
    if lowered.endswith(".json"):
        return "json"
    return None


def read_elements(
    source: str | os.PathLike[str] | bytes,
    *,
    input_format: str | None = None,
    elements_by_name: bool = True,
    **partition_options: Any,
) -> list[Element]:
    """Return the elements of `source`, a path or an input's bytes: read back when `input_format` is
    one of `ELEMENTS_FORMATS` (or, with `elements_by_name` and no `input_format`, when a path's name
    says so: `elements_format_of`), else partitioned with `partition_options`.

    Raises what `partita.partition` or `partita.serialization`'s readers raise."""
    if input_format is None and elements_by_name and not isinstance(source, bytes):
        input_format = elements_format_of(source)
    if input_format in ELEMENTS_FORMATS:
        return _read_back(source, jsonl=input_format == "jsonl")
    if isinstance(source, bytes):
        return partition(file=io.BytesIO(source), **partition_options)
    return partition(os.fspath(source), **partition_options)


def _read_back(source: str | os.PathLike[str] | bytes, *, jsonl: bool) -> list[Element]:
    if isinstance(source, bytes):
        text = source.decode("utf-8", "replace")
        if jsonl:
            return list(iter_elements_from_jsonl(io.StringIO(text)))
        return elements_from_json(text=text)
    path = os.fspath(source)
    if jsonl:
        return list(iter_elements_from_jsonl(path))
    return elements_from_json(filename=path)
