"""The validated value of partita's retrieval options of "basic" and "by_title".

`partita.chunking._options.RetrievalOptions` declares the options (name, type and help), as the
strategies' options `TypedDict`s do; `RetrievalSettings` is their validated value. "basic" and
"by_title" take the options as flat keyword arguments, like every other (so the
`unstructured`-compatible API is unchanged), and their options value (`ChunkingOptions`) holds
them as one `RetrievalSettings`, `opts.retrieval`; every other strategy's value holds
`NO_RETRIEVAL`. The pipeline a run takes is
chosen from it (`partita.chunking._pipeline.pipeline_for`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

__all__ = ["NO_RETRIEVAL", "RETRIEVAL_SETTING_NAMES", "RetrievalSettings"]


_CHOICES: dict[str, tuple[str, ...]] = {
    "split_at": ("separators", "sentences"),
    "overlap_unit": ("characters", "sentences"),
    "heading_context": ("prefix", "metadata"),
    "table_text": ("text", "rows"),
}
"""The values each string-valued retrieval option takes."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RetrievalSettings:
    """The validated retrieval options of a run, as given (see
    `partita.chunking._options.RetrievalOptions`): None is the reference's behaviour.
    Construction raises `ValueError` for a string option outside its choices."""

    split_at: str | None = None
    """How an oversized element is split: "separators" (the reference's, default) or
    "sentences" (sentence ends, then clauses, then words, never inside a grapheme cluster)."""
    overlap_unit: str | None = None
    """What an overlap is made of: "characters" (tokens in token mode; the reference's, default)
    or "sentences" (whole sentences within `overlap`; implies `split_at="sentences"`)."""
    keep_titles_with_body: bool | None = None
    """Whether a Title that would end a chunk whose body continues in the next moves to the next."""
    heading_context: str | None = None
    """The heading path of every chunk: "prefix" (before its text, inside the window, outside its
    provenance) or "metadata" (`extra["heading_path"]` only); None: neither (default)."""
    table_context: bool | None = None
    """Whether every chunk of a table starts with the heading path and the sentence introducing
    the table (or its caption), inside the window."""
    table_text: str | None = None
    """A table chunk's text: "text" (the table's text, default) or "rows" (each row rendered
    "header: value; ..." for embedding; `text_as_html` unchanged)."""
    page_range: bool | None = None
    """Whether every chunk records the last page it draws on (`extra["last_page_number"]`)."""

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value is not None and value not in allowed:
                choices = ", ".join(repr(choice) for choice in allowed)
                raise ValueError(f"'{name}' must be one of {choices} or None, got {value!r}")

    @property
    def splits_sentences(self) -> bool:
        """True when oversized elements are cut at sentence ends (`split_at` or `overlap_unit`
        "sentences")."""
        return self.split_at == "sentences" or self.overlap_unit == "sentences"


RETRIEVAL_SETTING_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(RetrievalSettings)
)
"""The retrieval options a `RetrievalSettings` holds (all of `RetrievalOptions` but `profile`,
which fills options)."""

NO_RETRIEVAL = RetrievalSettings()
"""No retrieval option: the reference's pipeline."""
