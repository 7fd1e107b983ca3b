"""Content a .docx holds that partita cannot keep: counted while reading, reported once.

Nothing is dropped silently. What the partitioner must leave out (an entity reference it refuses
to expand, a symbol that is no character, the overlong part of a label template, a hyperlink
nested in another) is counted per document by a `LossReport`, an imported part it cannot read
(`_altchunks`) is named with the reason, and when the document has been read a single
`DocxContentWarning` names the file and every kind of loss with its count.
"""

from __future__ import annotations

import warnings

from partita.errors import PartitaWarning

__all__ = ["DocxContentWarning", "LossReport"]


class DocxContentWarning(PartitaWarning):
    """A .docx held content that was dropped or shortened; the message says what and how much."""


class LossReport:
    """The losses of one document, by kind ("unexpanded entity references", ...), and the parts
    left out whole, each with the reason ("altChunk word/a.rtf: content type ... not read")."""

    MAX_DETAILS = 20
    """Parts left out that the warning names one by one; past them it counts the rest."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.details: list[str] = []
        self.more_details = 0

    def add(self, kind: str, count: int = 1) -> None:
        """Count `count` losses of `kind` (a plural noun phrase)."""
        self.counts[kind] = self.counts.get(kind, 0) + count

    def leave_out(self, detail: str) -> None:
        """Record a part left out whole; `detail` names it and says why."""
        if len(self.details) < self.MAX_DETAILS:
            self.details.append(detail)
        else:
            self.more_details += 1

    def warn(self, name: str) -> None:
        """Emit one `DocxContentWarning` for the document `name` if anything was lost."""
        if not self.counts and not self.details:
            return
        listed = "; ".join(
            [f"{kind}: {count}" for kind, count in self.counts.items()] + self.details
        )
        if self.more_details:
            listed += f"; and {self.more_details} more parts left out"
        warnings.warn(
            DocxContentWarning(f"{name}: content left out: {listed}"),
            stacklevel=3,
        )
