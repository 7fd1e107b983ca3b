"""Chunking options: one validated value object, built once per chunking call.

The options are declared once, with their help, in `TypedDict`s (`CommonOptions`, the option
sets `OverlapOptions`, `SeparatorOptions` and `RetrievalOptions`, and each strategy's own). A
strategy's options value holds exactly the options it takes: `SharedChunkingOptions` is what
every value holds, `ChunkingOptions` "basic"'s (the reference's options, and the retrieval
options as one `RetrievalSettings`).

A value holds the options as the caller gave them (None meaning "the default") and the values
derived from them (`hard_max`, `soft_max`, ...), and nothing else: it is pure data, equal
to any other built from equal arguments, hashable (when its tokenizer is) and picklable (when its
tokenizer is: a tiktoken name always is), so a runner can ship it to worker processes. What a
run builds from it, the sizer and the text splitter, lives in `partita.chunking._run`.

Validation runs on construction and raises `ValueError` with the reference library's messages,
checked in the reference's order (the tokenizer is resolved then, for its errors, and dropped),
so `iter_*` forms fail when called, not when first advanced.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, TypedDict

from partita.chunking._profiles import WINDOW_OPTIONS, profile_values
from partita.chunking._retrieval_settings import (
    NO_RETRIEVAL,
    RETRIEVAL_SETTING_NAMES,
    RetrievalSettings,
)
from partita.text.sizing._sizer import sizer_for
from partita.text.splitting._splitter import DEFAULT_SEPARATORS

__all__ = [
    "CHUNK_MAX_CHARS_DEFAULT",
    "ChunkingOptions",
    "CommonOptions",
    "Help",
    "OverlapOptions",
    "RetrievalOptions",
    "SeparatorOptions",
    "SharedChunkingOptions",
]

CHUNK_MAX_CHARS_DEFAULT = 500
"""The hard maximum chunk size in characters when neither `max_characters` nor `max_tokens`
is given."""


@dataclass(frozen=True, slots=True)
class Help:
    """The one-line help of a chunking option, written once beside it in its strategy's options
    `TypedDict` (`Annotated[int | None, Help("...")]`); the command line and the docs' option
    table read it from there."""

    text: str


class CommonOptions(TypedDict, total=False):
    """The options every strategy takes (its window, tables, provenance); None means the
    default. A strategy's options `TypedDict` extends it with its own."""

    max_characters: Annotated[
        int | None, Help("hard maximum chunk size in characters (default 500; semantic: 1000)")
    ]
    max_tokens: Annotated[
        int | None,
        Help("hard maximum chunk size in tokens (needs tokenizer); replaces max_characters"),
    ]
    tokenizer: Annotated[
        Any,
        Help(
            "what counts tokens for max_tokens: a tiktoken encoding or model name (cl100k_base"
            " works offline), a tiktoken Encoding, a HuggingFace Tokenizer or a counting function"
        ),
    ]
    include_orig_elements: Annotated[
        bool | None, Help("attach each chunk's source elements (default on)")
    ]
    repeat_table_headers: Annotated[
        bool | None, Help("repeat a split table's header rows on its later chunks (default on)")
    ]
    skip_table_chunking: Annotated[
        bool | None, Help("pass tables through unchanged, however large (default off)")
    ]
    provenance: Annotated[
        bool | None,
        Help(
            "record where each chunk's text came from: element text ranges in metadata sources"
            " (default off for basic and by_title, on for the text strategies)"
        ),
    ]
    skip_furniture: Annotated[
        bool | None,
        Help(
            "leave page headers, footers and page numbers out of the chunks (default off for"
            " basic and by_title, on for the others; navigation menus are always left out)"
        ),
    ]


class OverlapOptions(TypedDict, total=False):
    """The overlap option, for the strategies that overlap chunks."""

    overlap: Annotated[
        int | None, Help("characters (tokens) of a split chunk repeated at the start of the next")
    ]


class SeparatorOptions(TypedDict, total=False):
    """The separators option, for the strategies that split text at separators."""

    text_splitting_separators: Annotated[
        Sequence[str] | None,
        Help(
            "literal separators for splitting oversized text, in order of preference (default:"
            " newline, then space; recursive: paragraphs, lines, sentence ends, clauses, words,"
            " characters); a plain string is one separator"
        ),
    ]


class RetrievalOptions(TypedDict, total=False):
    """partita's retrieval options of "basic" and "by_title" (`partita.chunking.retrieval`),
    each off by default, so the default output stays the reference's; `profile` turns on the set
    that measured best. Their validated value is `RetrievalSettings` (`profile` fills options)."""

    profile: Annotated[
        str | None,
        Help(
            "a named set of options filling those not given: retrieval (128 tokens, sentence"
            " splits, titles with bodies, heading prefix, table context, page ranges, no page"
            " furniture)"
        ),
    ]
    split_at: Annotated[
        str | None,
        Help(
            "split oversized elements at: separators (default) or sentences (then clauses, then"
            " words, never inside a grapheme cluster)"
        ),
    ]
    overlap_unit: Annotated[
        str | None,
        Help("overlap made of: characters (tokens; default) or whole sentences within overlap"),
    ]
    keep_titles_with_body: Annotated[
        bool | None,
        Help("a title never ends a chunk whose section continues in the next (default off)"),
    ]
    heading_context: Annotated[
        str | None,
        Help(
            "the heading path of each chunk: prefix (before its text, inside the window) or"
            " metadata (extra heading_path); default none"
        ),
    ]
    table_context: Annotated[
        bool | None,
        Help(
            "start every table chunk with its heading path and introducing sentence (default off)"
        ),
    ]
    table_text: Annotated[
        str | None,
        Help("a table chunk's text: text (default) or rows (each row as header: value; ...)"),
    ]
    page_range: Annotated[
        bool | None, Help("record each chunk's last page in extra last_page_number (default off)")
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class SharedChunkingOptions:
    """The validated options every strategy's options value holds: the window, tables,
    provenance and furniture (`CommonOptions`), and the values derived from them. A strategy's
    value type extends it with the options it takes (see the `partita.chunking` docstring for each
    one): "basic"'s is `ChunkingOptions`, a text strategy's `_text_chunks.TextChunkingOptions`.

    The options only some strategies take (`new_after_n_chars`, `new_after_n_tokens`,
    `overlap`, `overlap_all`, `isolate_table`, `text_splitting_separators`,
    `split_orig_elements`) are fields here at their default, None, outside the constructor: a
    value type that takes one declares it again as a constructor field, so a value type's
    constructor takes exactly its strategy's options (`TypeError` for any other).

    Derived values: `hard_max` (the window: `max_tokens`, else `max_characters`, else 500),
    `soft_max` (`new_after_n_tokens`/`new_after_n_chars`, clamped to `hard_max`), `overlap_len`,
    `inter_chunk_overlap` (`overlap_len` when `overlap_all`, else 0), the table switches with
    their defaults applied, `separators` (the non-empty text splitting separators),
    `record_sources` (`provenance`, or the strategy's `PROVENANCE_DEFAULT` when not given),
    `bounded_orig` (partita's bound on split chunks' `orig_elements`), `skips_furniture` (page
    furniture left out), `retrieval` (the retrieval settings: `NO_RETRIEVAL` but for "basic" and
    "by_title") and `sizing_tokenizer` (the tokenizer that measures, None for characters).
    """

    PROVENANCE_DEFAULT: ClassVar[bool] = False
    """Whether chunks record their sources when `provenance` is not given: off for "basic" and
    "by_title", whose default output is the reference's byte for byte. A strategy whose options
    value type extends this one sets its own default here."""

    MAX_CHARACTERS_DEFAULT: ClassVar[int] = CHUNK_MAX_CHARS_DEFAULT
    """The window when neither `max_characters` nor `max_tokens` is given (the reference's 500;
    a strategy whose options value type extends this one may set its own)."""

    BOUNDED_ORIG_DEFAULT: ClassVar[bool] = False
    """Whether split chunks' `orig_elements` follow partita's bound when `split_orig_elements`
    is not given: off for "basic" and "by_title" (the reference's rule); partita's own
    strategies set it."""

    SKIP_FURNITURE_DEFAULT: ClassVar[bool] = False
    """Whether page furniture (Header, Footer, PageNumber) is left out of chunks when
    `skip_furniture` is not given: off for "basic" and "by_title" (the reference's chunks hold
    it); partita's text strategies set it."""

    OVERLAP_MAY_FILL_WINDOW: ClassVar[bool] = False
    """Whether `overlap` may equal the window (llama_index allows `chunk_overlap ==
    chunk_size`: an overlap that only ever shrinks to fit); the reference requires it smaller."""

    max_characters: int | None = None
    max_tokens: int | None = None
    tokenizer: Any = None
    include_orig_elements: bool | None = None
    repeat_table_headers: bool | None = None
    skip_table_chunking: bool | None = None
    provenance: bool | None = None
    """Whether every chunk records, in `metadata.extra["sources"]`, the ranges of its source
    elements' texts it took (`partita.chunking.provenance`); None: `PROVENANCE_DEFAULT`."""
    skip_furniture: bool | None = None
    """Whether page furniture (Header, Footer, PageNumber) is left out of chunks; None:
    `SKIP_FURNITURE_DEFAULT`. Navigation is left out always (`partita.chunking._furniture`)."""

    # -- the options only some strategies take, at their default unless a value type declares
    # -- them as constructor fields --
    new_after_n_chars: int | None = field(default=None, init=False)
    new_after_n_tokens: int | None = field(default=None, init=False)
    overlap: int | None = field(default=None, init=False)
    overlap_all: bool | None = field(default=None, init=False)
    isolate_table: bool | None = field(default=None, init=False)
    text_splitting_separators: Sequence[str] | None = field(default=None, init=False)
    """Separators for splitting oversized text, in order of preference (default newline, then
    space). Unlike the reference, they are literal strings, never regular expressions; a plain
    string is one separator. Stored as a tuple."""
    split_orig_elements: str | None = field(default=None, init=False)
    """What the chunks split from one element carry in `orig_elements`: "reference" (the whole
    element, none when it is over 1,000,000 characters; default) or "bounded" (the whole element
    while the repetition stays within `_split_origins.REPEAT_LIMIT`, else each chunk its own
    part); see `partita.chunking._split_origins`."""

    hard_max: int = field(init=False)
    soft_max: int = field(init=False)
    overlap_len: int = field(init=False)
    inter_chunk_overlap: int = field(init=False)
    include_orig: bool = field(init=False)
    repeat_headers: bool = field(init=False)
    skip_tables: bool = field(init=False)
    isolate_tables: bool = field(init=False)
    separators: tuple[str, ...] = field(init=False)
    """The non-empty text splitting separators, in order of preference."""
    record_sources: bool = field(init=False)
    """True when chunks record their sources (`provenance`, else `PROVENANCE_DEFAULT`)."""
    bounded_orig: bool = field(init=False)
    """True when split chunks' `orig_elements` follow partita's bound
    (`split_orig_elements="bounded"`), False for the reference's rule."""
    skips_furniture: bool = field(init=False)
    """True when page furniture is left out of chunks (`skip_furniture`, else
    `SKIP_FURNITURE_DEFAULT`)."""
    retrieval: RetrievalSettings = field(default=NO_RETRIEVAL, init=False)
    """The retrieval settings of the run; `NO_RETRIEVAL` but for "basic" and "by_title"."""

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        max_tokens, max_characters = self.max_tokens, self.max_characters
        if max_tokens is not None and max_characters is not None:
            raise ValueError(
                "'max_tokens' and 'max_characters' are mutually exclusive;"
                " specify one or the other, not both"
            )
        if max_tokens is not None and not self.tokenizer:
            raise ValueError("'tokenizer' is required when using 'max_tokens'")
        if max_tokens is not None and max_tokens <= 0:
            raise ValueError(f"'max_tokens' argument must be > 0, got {max_tokens}")
        new_after_n_tokens = self.new_after_n_tokens
        if new_after_n_tokens is not None and max_tokens is None:
            raise ValueError("'new_after_n_tokens' requires 'max_tokens' to be specified")
        if new_after_n_tokens is not None and new_after_n_tokens < 0:
            raise ValueError(
                f"'new_after_n_tokens' argument must be >= 0, got {new_after_n_tokens}"
            )
        token_mode = max_tokens is not None
        if token_mode:
            assert max_tokens is not None
            hard_max = max_tokens
        else:
            hard_max = self.MAX_CHARACTERS_DEFAULT if max_characters is None else max_characters
        if hard_max <= 0:
            raise ValueError(f"'max_characters' argument must be > 0, got {hard_max}")
        if self.new_after_n_chars is not None and self.new_after_n_chars < 0:
            raise ValueError(
                f"'new_after_n_chars' argument must be >= 0, got {self.new_after_n_chars}"
            )
        isolate_tables = True if self.isolate_table is None else bool(self.isolate_table)
        skip_tables = bool(self.skip_table_chunking)
        if skip_tables and not isolate_tables:
            raise ValueError(
                "'skip_table_chunking=True' requires 'isolate_table=True' (the default);"
                " tables cannot be passed through unchanged while also sharing a pre-chunk with"
                " adjacent elements"
            )
        if self.overlap is not None and self.overlap < 0:
            raise ValueError(f"'overlap' argument must be >= 0, got {self.overlap}")
        overlap = self.overlap or 0
        if overlap > hard_max or (overlap == hard_max and not self.OVERLAP_MAY_FILL_WINDOW):
            raise ValueError(
                f"'overlap' argument must be less than `max_characters`,"
                f" got {overlap} >= {hard_max}"
            )
        sizer_for(self.tokenizer if token_mode else None)  # -- its errors, in their turn --

        soft_arg = new_after_n_tokens if token_mode else self.new_after_n_chars
        soft_max = hard_max if soft_arg is None or soft_arg > hard_max else soft_arg

        set_(self, "hard_max", hard_max)
        set_(self, "soft_max", soft_max)
        set_(self, "overlap_len", overlap)
        set_(self, "inter_chunk_overlap", overlap if self.overlap_all else 0)
        set_(
            self,
            "include_orig",
            True if self.include_orig_elements is None else bool(self.include_orig_elements),
        )
        set_(
            self,
            "repeat_headers",
            True if self.repeat_table_headers is None else bool(self.repeat_table_headers),
        )
        set_(self, "skip_tables", skip_tables)
        set_(self, "isolate_tables", isolate_tables)
        if self.text_splitting_separators is None:
            separators = DEFAULT_SEPARATORS
        else:
            separators = _separators_of(self.text_splitting_separators)
            set_(self, "text_splitting_separators", separators)  # -- hashable, comparable --
        set_(self, "separators", tuple(sep for sep in separators if sep))
        provenance = self.provenance
        set_(
            self,
            "record_sources",
            self.PROVENANCE_DEFAULT if provenance is None else bool(provenance),
        )
        if self.split_orig_elements not in (None, "reference", "bounded"):
            raise ValueError(
                "'split_orig_elements' must be one of 'reference', 'bounded' or None,"
                f" got {self.split_orig_elements!r}"
            )
        split_orig = self.split_orig_elements
        bounded = self.BOUNDED_ORIG_DEFAULT if split_orig is None else split_orig == "bounded"
        set_(self, "bounded_orig", bounded)
        skip_furniture = self.skip_furniture
        set_(
            self,
            "skips_furniture",
            self.SKIP_FURNITURE_DEFAULT if skip_furniture is None else bool(skip_furniture),
        )

    @property
    def sizing_tokenizer(self) -> Any:
        """The tokenizer that measures the window (`max_tokens` given), else None: characters."""
        return self.tokenizer if self.max_tokens is not None else None


@dataclass(frozen=True, slots=True, kw_only=True)
class ChunkingOptions(SharedChunkingOptions):
    """The validated options of "basic": the reference's options (shared with "by_title",
    whose `strategies._by_title.ByTitleChunkingOptions` extends this), and partita's retrieval
    options, given flat as the reference's are and held as one value, `retrieval`
    (`RetrievalSettings`), which chooses the pipeline (`partita.chunking._pipeline`). See
    `strategies._basic.BasicOptions` for each option's help.

    A `profile` fills the options left unset first (`partita.chunking._profiles`); validation
    then runs in the reference's order, the retrieval settings last.
    """

    new_after_n_chars: int | None = None
    new_after_n_tokens: int | None = None
    overlap: int | None = None
    overlap_all: bool | None = None
    isolate_table: bool | None = None
    text_splitting_separators: Sequence[str] | None = None
    split_orig_elements: str | None = None
    profile: str | None = None
    """A named set of option values filling the options left unset
    (`partita.chunking._profiles`)."""
    split_at: str | None = None
    overlap_unit: str | None = None
    keep_titles_with_body: bool | None = None
    heading_context: str | None = None
    table_context: bool | None = None
    table_text: str | None = None
    page_range: bool | None = None

    def __post_init__(self) -> None:
        if self.profile is not None:
            self._apply_profile()
        SharedChunkingOptions.__post_init__(self)
        settings = {name: getattr(self, name) for name in RETRIEVAL_SETTING_NAMES}
        object.__setattr__(self, "retrieval", RetrievalSettings(**settings))

    def _apply_profile(self) -> None:
        """Fill the options left unset from the profile (the window only when none is given)."""
        assert self.profile is not None
        values = profile_values(self.profile)
        window_given = self.max_characters is not None or self.max_tokens is not None
        for name, value in values.items():
            if name in WINDOW_OPTIONS and window_given and name != "tokenizer":
                continue
            if name == "tokenizer" and (self.tokenizer is not None or self.max_characters):
                continue
            if getattr(self, name, None) is None and hasattr(self, name):
                object.__setattr__(self, name, value)
                if name == "overlap":  # -- a profile's overlap is at most half the window --
                    window = self.max_tokens or self.max_characters or values.get("max_tokens")
                    window = window or self.MAX_CHARACTERS_DEFAULT
                    object.__setattr__(self, name, min(value, window // 2))


def _separators_of(given: object) -> tuple[str, ...]:
    """`text_splitting_separators` as a tuple: a plain string is one separator (not one per
    character); anything but a string or an iterable of strings is a `TypeError`."""
    if isinstance(given, str):
        return (given,)
    if not isinstance(given, Iterable):
        raise TypeError(
            "text_splitting_separators must be a string or a sequence of strings,"
            f" got {type(given).__name__}"
        )
    separators = tuple(given)
    for separator in separators:
        if not isinstance(separator, str):
            raise TypeError(
                "text_splitting_separators must hold strings only,"
                f" got {type(separator).__name__}: {separator!r}"
            )
    return separators
