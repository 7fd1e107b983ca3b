"""Chunk metadata: where chunking classifies the metadata fields (`partita.chunking._metadata`)."""

from __future__ import annotations

from partita.chunking._metadata import BULKY_FIELDS, CONSOLIDATED_FIELDS, DROPPED_FIELDS
from partita.elements import METADATA_FIELD_NAMES


def test_every_metadata_field_is_consolidated_or_dropped_exactly_once() -> None:
    consolidated, dropped = set(CONSOLIDATED_FIELDS), set(DROPPED_FIELDS)
    assert consolidated.isdisjoint(dropped)
    assert consolidated | dropped == set(METADATA_FIELD_NAMES)
    assert len(DROPPED_FIELDS) == len(dropped)
    assert set(METADATA_FIELD_NAMES) >= BULKY_FIELDS
