"""Checking a strategy and its options when an integration object is made, not at its first
document: the rule of `partita.chunk` (an option only other strategies take is ignored, one no
strategy takes is a `TypeError`), without running anything."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from partita.chunking._registry import options_for

__all__ = ["validate_chunking"]


def validate_chunking(strategy: str, options: Mapping[str, Any]) -> None:
    """Raise as `partita.chunk(elements, strategy, **options)` would for a bad strategy or
    option: `ValueError` for an unregistered strategy or an invalid value, `TypeError` for an
    option no registered strategy takes."""
    registered, accepted = options_for(strategy, options)
    registered.validated(**accepted)
