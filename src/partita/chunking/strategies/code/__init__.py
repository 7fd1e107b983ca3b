"""The "code" strategy: source code cut along its classes and functions.

Principles (code split by class and function for a 384-token embedder):

- **An interface or class within the window is one chunk; a larger class is one chunk per
  method**, each under the class's signature and docstring as context (counted inside the
  window), the code between methods (fields, constants) in chunks of its own; **a function
  within the window is one chunk; a longer one is cut at blank or comment lines, then line
  ends**, its later chunks under its signature. Module code between definitions (imports,
  constants) makes chunks of its own. A definition never shares a chunk with another.
- **Outlines**: Python through `ast`; Kotlin, Java, JavaScript, TypeScript, Go and Rust through
  tree-sitter (`partita.text.code`; the grammars are the `code` extra's offline wheels).
  Code that does not parse falls back to the "recursive" strategy's splits with a
  `CodeParseWarning`, never an exception (`partita.chunking.strategies.code._emit`).
- **Elements**: each `CodeSnippet` (a source file from `partition_code`, a Markdown fence, an
  HTML `<pre>`) is chunked on its own; other text elements are chunked as the "recursive"
  strategy does, never merged with code; titles start sections (`respect_sections`) and tables
  stand alone, as in every text strategy.
- **Metadata** (`metadata.extra`): `language`, `code_type` ("class", "interface", "struct",
  "function", "method", "module", ...), `code_name` (`Class.method`), `start_line` and
  `end_line` in the file, `text_offset` when a context precedes the code, and provenance.
- The window (`max_characters` or `max_tokens`) is a hard maximum for every chunk.

Differences from chonkie's `CodeChunker` and llama_index's `CodeSplitter`: chunks follow the
definitions (one per function or class, never two functions merged, never a function cut
that fits the window), members carry their class's context, and every chunk says what it holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Unpack

from partita.chunking._ids import ChunkIds
from partita.chunking._options import Help
from partita.chunking._run import ChunkingRun
from partita.chunking._strategy import StrategyParts, eager
from partita.chunking._text_chunks import (
    TextChunkingOptions,
    TextOptions,
    iter_groups_chunks,
    iter_split_chunks,
)
from partita.chunking.strategies.code._emit import iter_code_chunks, language_of
from partita.elements import CodeSnippet, Element
from partita.text._splits import iter_recursive_splits
from partita.text.code._languages import LANGUAGES, Language, language_named

__all__ = [
    "PARTS",
    "CodeChunkingOptions",
    "CodeOptions",
    "chunk_code",
    "iter_chunks_of_code",
    "iter_code_chunks",
    "language_of",
    "run_code",
]


class CodeOptions(TextOptions, total=False):
    """The options of the "code" strategy."""

    code_language: Annotated[
        str | None,
        Help(
            "the language of code that does not say (default: from the element or file name): "
            + ", ".join(LANGUAGES)
        ),
    ]
    code_context: Annotated[
        bool | None,
        Help("start the chunks of a class's members with its signature and docstring (default on)"),
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class CodeChunkingOptions(TextChunkingOptions):
    """The validated "code" options: `language` (of `code_language`, None when not given) and
    `contexts` (`code_context`, True by default)."""

    code_language: str | None = None
    code_context: bool | None = None
    language: Language | None = field(init=False)
    contexts: bool = field(init=False)

    def __post_init__(self) -> None:
        TextChunkingOptions.__post_init__(self)
        language = language_named(self.code_language)
        if self.code_language is not None and language is None:
            raise ValueError(
                f"'code_language' must be one of {', '.join(LANGUAGES)}, got {self.code_language!r}"
            )
        object.__setattr__(self, "language", language)
        object.__setattr__(self, "contexts", self.code_context is not False)


def run_code(elements: Iterable[Element], opts: CodeChunkingOptions) -> Iterator[Element]:
    """Generate the "code" chunks of `elements` under validated options `opts`."""
    run = ChunkingRun.of(opts)

    def chunk_group(group: Sequence[Element], ids: ChunkIds) -> Iterator[Element]:
        prose: list[Element] = []
        for element in group:
            if not isinstance(element, CodeSnippet):
                prose.append(element)
                continue
            if prose:
                yield from iter_split_chunks(prose, ids, run, iter_recursive_splits)
                prose = []
            language = language_of(element, opts.language)
            yield from iter_code_chunks(
                element, run, ids, language=language, contexts=opts.contexts
            )
        if prose:
            yield from iter_split_chunks(prose, ids, run, iter_recursive_splits)

    return iter_groups_chunks(elements, run, chunk_group)


def iter_chunks_of_code(
    elements: Iterable[Element], **options: Unpack[CodeOptions]
) -> Iterator[Element]:
    """Generate "code" chunks of `elements`: each `CodeSnippet` cut along its classes and
    functions, other text as the "recursive" strategy cuts it."""
    return run_code(elements, CodeChunkingOptions(**options))


chunk_code = eager(iter_chunks_of_code, "chunk_code")
"""Return the "code" chunks of `elements`; see `iter_chunks_of_code`."""


PARTS = StrategyParts(CodeOptions, CodeChunkingOptions, run_code, iter_chunks_of_code, chunk_code)
"""The parts of the "code" strategy, for the registry."""
