"""The chunking strategies, "basic" and "by_title", and the dispatcher `chunk`.

Each strategy has a lazy form (`iter_chunk_elements`, `iter_chunks_by_title`: generators that
consume the elements as they come) and a list form. Options are validated when the function is
called, in both forms. The pipeline is

    elements -> iter_pre_chunks (boundaries: by_title's titles, and pages unless
                multipage_sections) -> [by_title: iter_combined_pre_chunks] -> iter_chunks_of
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from partita._gc import collector_paused
from partita.chunking.boundaries import BoundaryPredicate, is_on_next_page, is_title
from partita.chunking.chunks import iter_chunks_of
from partita.chunking.combine import iter_combined_pre_chunks
from partita.chunking.ids import ChunkIds
from partita.chunking.options import ChunkingOptions
from partita.chunking.prechunk import iter_pre_chunks
from partita.chunking.run import ChunkingRun
from partita.elements import Element

__all__ = [
    "chunk",
    "chunk_by_title",
    "chunk_elements",
    "iter_chunk_elements",
    "iter_chunks",
    "iter_chunks_by_title",
    "register_chunking_strategy",
]


def iter_chunks(elements: Iterable[Element], opts: ChunkingOptions) -> Iterator[Element]:
    """Generate the chunks of `elements` under validated options `opts`.

    The run's sizer and splitter are built when the first chunk is asked for.
    """
    run = ChunkingRun.of(opts)
    boundaries: list[BoundaryPredicate] = []
    if opts.strategy == "by_title":
        boundaries.append(is_title)
        if not opts.multipage:
            boundaries.append(is_on_next_page())
    pre_chunks = iter_pre_chunks(elements, run, boundaries)
    if opts.strategy == "by_title":
        pre_chunks = iter_combined_pre_chunks(pre_chunks, opts)
    ids = ChunkIds()
    for pre_chunk in pre_chunks:
        yield from iter_chunks_of(pre_chunk, run, ids)
        del pre_chunk  # -- hold one pre-chunk at a time while streaming --


def iter_chunk_elements(
    elements: Iterable[Element],
    *,
    include_orig_elements: bool | None = None,
    max_characters: int | None = None,
    max_tokens: int | None = None,
    new_after_n_chars: int | None = None,
    new_after_n_tokens: int | None = None,
    overlap: int | None = None,
    overlap_all: bool | None = None,
    tokenizer: Any = None,
    repeat_table_headers: bool | None = None,
    skip_table_chunking: bool | None = None,
    isolate_table: bool | None = None,
    text_splitting_separators: Sequence[str] | None = None,
) -> Iterator[Element]:
    """Generate chunks of `elements` filled to the window, ignoring titles and pages ("basic").

    Options are those of the reference library (see `partita.chunking`); `text_splitting_separators`
    is partita's (literal separators for splitting oversized text). Raises `ValueError` for
    invalid options when called.
    """
    opts = ChunkingOptions(
        strategy="basic",
        include_orig_elements=include_orig_elements,
        max_characters=max_characters,
        max_tokens=max_tokens,
        new_after_n_chars=new_after_n_chars,
        new_after_n_tokens=new_after_n_tokens,
        overlap=overlap,
        overlap_all=overlap_all,
        tokenizer=tokenizer,
        repeat_table_headers=repeat_table_headers,
        skip_table_chunking=skip_table_chunking,
        isolate_table=isolate_table,
        text_splitting_separators=text_splitting_separators,
    )
    return iter_chunks(elements, opts)


def chunk_elements(
    elements: Iterable[Element],
    *,
    include_orig_elements: bool | None = None,
    max_characters: int | None = None,
    max_tokens: int | None = None,
    new_after_n_chars: int | None = None,
    new_after_n_tokens: int | None = None,
    overlap: int | None = None,
    overlap_all: bool | None = None,
    tokenizer: Any = None,
    repeat_table_headers: bool | None = None,
    skip_table_chunking: bool | None = None,
    isolate_table: bool | None = None,
    text_splitting_separators: Sequence[str] | None = None,
) -> list[Element]:
    """Return the "basic" chunks of `elements`; see `iter_chunk_elements`."""
    with collector_paused(_runs_no_caller_code(elements, tokenizer)):
        return list(
            iter_chunk_elements(
                elements,
                include_orig_elements=include_orig_elements,
                max_characters=max_characters,
                max_tokens=max_tokens,
                new_after_n_chars=new_after_n_chars,
                new_after_n_tokens=new_after_n_tokens,
                overlap=overlap,
                overlap_all=overlap_all,
                tokenizer=tokenizer,
                repeat_table_headers=repeat_table_headers,
                skip_table_chunking=skip_table_chunking,
                isolate_table=isolate_table,
                text_splitting_separators=text_splitting_separators,
            )
        )


def iter_chunks_by_title(
    elements: Iterable[Element],
    *,
    combine_text_under_n_chars: int | None = None,
    include_orig_elements: bool | None = None,
    max_characters: int | None = None,
    max_tokens: int | None = None,
    multipage_sections: bool | None = None,
    new_after_n_chars: int | None = None,
    new_after_n_tokens: int | None = None,
    overlap: int | None = None,
    overlap_all: bool | None = None,
    tokenizer: Any = None,
    repeat_table_headers: bool | None = None,
    skip_table_chunking: bool | None = None,
    isolate_table: bool | None = None,
    text_splitting_separators: Sequence[str] | None = None,
) -> Iterator[Element]:
    """Generate chunks of `elements` that start a new chunk at every Title ("by_title").

    Small consecutive sections are combined while shorter than `combine_text_under_n_chars`
    (default: the window) and fitting together; with `multipage_sections=False` a page change is
    a boundary too. Raises `ValueError` for invalid options when called.
    """
    opts = ChunkingOptions(
        strategy="by_title",
        combine_text_under_n_chars=combine_text_under_n_chars,
        include_orig_elements=include_orig_elements,
        max_characters=max_characters,
        max_tokens=max_tokens,
        multipage_sections=multipage_sections,
        new_after_n_chars=new_after_n_chars,
        new_after_n_tokens=new_after_n_tokens,
        overlap=overlap,
        overlap_all=overlap_all,
        tokenizer=tokenizer,
        repeat_table_headers=repeat_table_headers,
        skip_table_chunking=skip_table_chunking,
        isolate_table=isolate_table,
        text_splitting_separators=text_splitting_separators,
    )
    return iter_chunks(elements, opts)


def chunk_by_title(
    elements: Iterable[Element],
    *,
    combine_text_under_n_chars: int | None = None,
    include_orig_elements: bool | None = None,
    max_characters: int | None = None,
    max_tokens: int | None = None,
    multipage_sections: bool | None = None,
    new_after_n_chars: int | None = None,
    new_after_n_tokens: int | None = None,
    overlap: int | None = None,
    overlap_all: bool | None = None,
    tokenizer: Any = None,
    repeat_table_headers: bool | None = None,
    skip_table_chunking: bool | None = None,
    isolate_table: bool | None = None,
    text_splitting_separators: Sequence[str] | None = None,
) -> list[Element]:
    """Return the "by_title" chunks of `elements`; see `iter_chunks_by_title`."""
    with collector_paused(_runs_no_caller_code(elements, tokenizer)):
        return list(
            iter_chunks_by_title(
                elements,
                combine_text_under_n_chars=combine_text_under_n_chars,
                include_orig_elements=include_orig_elements,
                max_characters=max_characters,
                max_tokens=max_tokens,
                multipage_sections=multipage_sections,
                new_after_n_chars=new_after_n_chars,
                new_after_n_tokens=new_after_n_tokens,
                overlap=overlap,
                overlap_all=overlap_all,
                tokenizer=tokenizer,
                repeat_table_headers=repeat_table_headers,
                skip_table_chunking=skip_table_chunking,
                isolate_table=isolate_table,
                text_splitting_separators=text_splitting_separators,
            )
        )


def _runs_no_caller_code(elements: Iterable[Element], tokenizer: Any) -> bool:
    """Whether chunking `elements` runs only partita's and tiktoken's code (see `partita._gc`)."""
    return isinstance(elements, (list, tuple)) and (tokenizer is None or isinstance(tokenizer, str))


Chunker = Callable[..., list[Element]]

_STRATEGIES: dict[str, Chunker] = {"basic": chunk_elements, "by_title": chunk_by_title}


def register_chunking_strategy(name: str, chunker: Chunker) -> None:
    """Make `chunker` (elements plus keyword options, returning chunks) available to `chunk`."""
    _STRATEGIES[name] = chunker


def chunk(elements: Iterable[Element], chunking_strategy: str, **options: Any) -> list[Element]:
    """Return the chunks of `elements` by the strategy named `chunking_strategy`.

    As in the reference, `options` the strategy does not take are ignored, so one set of options
    can serve several strategies. Raises `ValueError` for an unknown strategy.
    """
    chunker = _STRATEGIES.get(chunking_strategy)
    if chunker is None:
        raise ValueError(f"unrecognized chunking strategy {chunking_strategy!r}")
    accepted = set(inspect.signature(chunker).parameters) - {"elements"}
    return chunker(elements, **{k: v for k, v in options.items() if k in accepted})
