"""Chunking profiles: named sets of option values, applied under the options a caller gives.

A profile is opt-in data, nothing else: `ChunkingOptions(profile="retrieval", ...)` fills every
option the caller left unset (None) from the profile, then validates as usual, so an option given
explicitly always wins, and the command line's `--profile retrieval` is the same option. The
window is the one exception to filling option by option: the profile's `max_tokens` and
`tokenizer` apply only when neither `max_characters` nor `max_tokens` is given (they are
exclusive).

`retrieval` is the set that measured best for retrieval (docs/retrieval.md; the
figures in benchmarks/README.md): windows of 128 tokens (about as many all-MiniLM-L6-v2
wordpieces), which beat larger ones at a matched budget of retrieved text, text split at sentence
ends, no overlap (an overlap given is whole sentences), titles kept with their bodies, the heading
path before every chunk's text, tables with their context, page ranges, small sections combined
in tokens, and page headers, footers and page numbers left out of the chunks.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["PROFILES", "WINDOW_OPTIONS", "profile_values"]

WINDOW_OPTIONS = frozenset({"max_characters", "max_tokens", "tokenizer", "new_after_n_tokens"})
"""Options a profile sets only when the caller chose no window (`max_characters` or
`max_tokens`)."""

PROFILES: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        "retrieval": MappingProxyType(
            {
                "max_tokens": 128,
                "tokenizer": "cl100k_base",
                "split_at": "sentences",
                "overlap_unit": "sentences",
                "overlap": 0,
                "keep_titles_with_body": True,
                "heading_context": "prefix",
                "table_context": True,
                "page_range": True,
                "combine_unit": "window",
                "skip_furniture": True,
            }
        ),
    }
)
"""The profiles, by name: option name to value."""


def profile_values(name: str) -> Mapping[str, Any]:
    """The option values of the profile `name`; a `ValueError` naming the known ones otherwise."""
    values = PROFILES.get(name)
    if values is None:
        known = ", ".join(sorted(PROFILES))
        raise ValueError(f"unknown chunking profile {name!r}; known profiles: {known}")
    return values
