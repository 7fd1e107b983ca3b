"""The "code" rows of `bench_strategies.py`: partita's code strategy against chonkie's CodeChunker.

partita's "code" vs chonkie's `CodeChunker(tokenizer=enc, chunk_size=384, language=...)`, per
language: the project's own `src/partita/**/*.py` (copies taken when the benchmark starts) and
one vendored real source file per other language (`benchmarks/data/code/`, `MANIFEST.tsv`).
partita: `partita.partition(path)` per file (one `CodeSnippet` each), then one
`partita.chunk(elements, "code", max_tokens=384, tokenizer="cl100k_base")`. chonkie: the file
read, `CodeChunker.chunk(text)`, the chunker built inside every run. Both start from the paths.
The quality column counts "cut functions that fit": functions and methods found independently of
both tools (Python: `ast` FunctionDef/AsyncFunctionDef; the others: tree-sitter nodes of
`FUNCTION_NODES` from the same grammar wheels), whose own text (from the first character of their
first line, decorators, annotations and Rust attributes included, to their end) is at most 384
cl100k tokens, and that no single chunk holds whole. partita's chunks are mapped back through
their provenance records (`extra["sources"]`; gaps of whitespace between records count as held),
chonkie's through `start_index`/`end_index`, which are UTF-8 byte offsets
(`tree_sitter_language_pack` `CodeChunk.start_byte`), converted to characters.

chonkie runs offline through `_chonkie_offline.offline_language_pack()`.
"""

from __future__ import annotations

import ast
import atexit
import importlib
import importlib.util
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import partita
from _chonkie_offline import GRAMMARS, offline_language_pack
from _structured import BUDGET, PARTITA_TOKENIZER, tokens_of, utf8_megabytes
from _timing import best_time
from partita.chunking import token_counter
from partita.elements import Element

BENCHMARKS = Path(__file__).resolve().parent
ROOT = BENCHMARKS.parent

CODE_DIR = BENCHMARKS / "data" / "code"
PYTHON_FILES = sorted((ROOT / "src" / "partita").rglob("*.py"))
VENDORED = {
    "kotlin": CODE_DIR / "Cookie.kt",
    "java": CODE_DIR / "Splitter.java",
    "javascript": CODE_DIR / "HookCodeFactory.js",
    "typescript": CODE_DIR / "uri.ts",
    "go": CODE_DIR / "scan.go",
    "rust": CODE_DIR / "authority.rs",
}
LANGUAGE_ORDER = ("python", "kotlin", "java", "javascript", "typescript", "go", "rust")

FUNCTION_NODES: dict[str, frozenset[str]] = {
    "kotlin": frozenset({"function_declaration", "secondary_constructor"}),
    "java": frozenset(
        {"method_declaration", "constructor_declaration", "compact_constructor_declaration"}
    ),
    "javascript": frozenset(
        {"function_declaration", "generator_function_declaration", "method_definition"}
    ),
    "typescript": frozenset(
        {"function_declaration", "generator_function_declaration", "method_definition"}
    ),
    "go": frozenset({"function_declaration", "method_declaration"}),
    "rust": frozenset({"function_item"}),
}
"""The tree-sitter nodes counted as functions (named declarations and methods; lambdas, arrow
functions and bodiless signatures are not). Java and Kotlin annotations are inside the node."""

SINGLE_FILE_LOOPS = 10
"""A vendored file (12-24 KB) chunks in 10-60 ms, where one run is noise: each timed run of its
row chunks it this many times (the time divided by as many), and the row takes the best of at
least 3 such runs. (A run each time would pay `best_time`'s full collection, about 0.1 s over
this process's heap, hundreds of times.)"""


def looped(run: Callable[[], Any], loops: int) -> Callable[[], Any]:
    """`run` called `loops` times in a row, keeping only the last result."""

    def again() -> Any:
        result = None
        for _ in range(loops):
            result = None
            result = run()
        return result

    return again


LEADING_NODES = frozenset({"attribute_item", "decorator"})
"""Siblings right before a function that belong to it: Rust attributes, TypeScript decorators."""


# ------------------------------------------------------------------------------------------------
# code: the inputs and the functions in them
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Function:
    name: str
    start: int
    end: int
    tokens: int


@dataclass
class SourceFile:
    path: Path
    language: str
    text: str
    functions: list[Function]
    bytes_to_chars: list[int] | None = None  # -- None: the text is ASCII, offsets agree --
    content_type: str | None = None  # -- given to partita.partition when it misreads the file --

    def char_at(self, byte: int) -> int:
        return byte if self.bytes_to_chars is None else self.bytes_to_chars[byte]

    def partition(self) -> list[Element]:
        if self.content_type is None:
            return partita.partition(str(self.path))
        return partita.partition(str(self.path), content_type=self.content_type)


def byte_map(text: str) -> list[int] | None:
    """Character offset of every UTF-8 byte offset of `text` (None when the text is ASCII)."""
    if text.isascii():
        return None
    offsets: list[int] = []
    for i, ch in enumerate(text):
        offsets.extend([i] * len(ch.encode("utf-8")))
    offsets.append(len(text))
    return offsets


def line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in re.finditer("\n", text))]


def first_line_start(text: str, offset: int) -> int:
    """The first character that is not blank on the line holding `offset`."""
    start = text.rfind("\n", 0, offset) + 1
    while start < offset and text[start] in " \t\f":
        start += 1
    return start


def python_functions(text: str, enc: Any) -> list[Function]:
    tree = ast.parse(text)
    starts = line_starts(text)

    def offset(line: int, col_bytes: int) -> int:
        begin = starts[line - 1]
        line_text = text[begin : begin + col_bytes + 1]  # -- col_bytes >= its characters --
        return begin + len(line_text.encode("utf-8")[:col_bytes].decode("utf-8", "ignore"))

    found: list[Function] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        assert node.end_lineno is not None
        assert node.end_col_offset is not None
        first = min([*node.decorator_list, node], key=lambda n: (n.lineno, n.col_offset))
        start = first_line_start(text, offset(first.lineno, first.col_offset))
        end = offset(node.end_lineno, node.end_col_offset)
        found.append(Function(node.name, start, end, tokens_of(enc, text[start:end])))
    return found


def tree_sitter_language(language: str) -> Any:
    import tree_sitter

    module, function = GRAMMARS[language]
    return tree_sitter.Language(getattr(importlib.import_module(module), function)())


def tree_functions(text: str, language: str, enc: Any, chars: list[int] | None) -> list[Function]:
    import tree_sitter

    tree = tree_sitter.Parser(tree_sitter_language(language)).parse(text.encode("utf-8"))
    if tree.root_node.has_error:
        raise ValueError(f"{language}: the source does not parse without errors")
    kinds = FUNCTION_NODES[language]

    def char(byte: int) -> int:
        return byte if chars is None else chars[byte]

    found: list[Function] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        stack.extend(reversed(node.children))
        if node.type not in kinds:
            continue
        first = node
        while first.prev_named_sibling is not None and first.prev_named_sibling.type in (
            LEADING_NODES
        ):
            first = first.prev_named_sibling
        name_node = node.child_by_field_name("name")
        name = name_node.text.decode("utf-8", "replace") if name_node and name_node.text else "?"
        start = first_line_start(text, char(first.start_byte))
        end = char(node.end_byte)
        found.append(Function(name, start, end, tokens_of(enc, text[start:end])))
    return found


CONTENT_TYPES = {"python": "text/x-python"}
"""What a Python file is, for a file `partita.partition(path)` does not take for code."""


def check_partition(f: SourceFile) -> str | None:
    """Partition `f` once; when partita misreads it, retry with its content type and say so."""
    try:
        elements = f.partition()
    except Exception as error:
        if f.language not in CONTENT_TYPES:
            raise
        f.content_type = CONTENT_TYPES[f.language]
        elements = f.partition()
        return f"{f.path.name}: {type(error).__name__}: {error}"
    if len(elements) != 1 or elements[0].category != "CodeSnippet":
        return f"{f.path.name}: {len(elements)} elements, not one CodeSnippet"
    return None


def snapshot(paths: Sequence[Path]) -> list[Path]:
    """Copies of `paths` (relative to the repository root) in a temporary directory: src/ may be
    edited while the benchmark runs, and every run must read the text the functions were found
    in."""
    workdir = Path(tempfile.mkdtemp(prefix="partita-bench-code-"))
    atexit.register(shutil.rmtree, workdir, True)
    copies: list[Path] = []
    for path in paths:
        copy = workdir / path.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
        copies.append(copy)
    return copies


def load_sources(enc: Any) -> tuple[dict[str, list[SourceFile]], list[str]]:
    """Every input file by language (copies taken at the start), with its functions, and what
    partita misread; a Python file `ast` cannot parse (work in progress in src/) is left out,
    with a note."""
    sources: dict[str, list[SourceFile]] = {lang: [] for lang in LANGUAGE_ORDER}
    for path in snapshot(PYTHON_FILES):
        text = path.read_text(encoding="utf-8")
        try:
            functions = python_functions(text, enc)
        except SyntaxError as error:
            print(f"code: {path} left out: {error}", file=sys.stderr)
            continue
        sources["python"].append(SourceFile(path, "python", text, functions, byte_map(text)))
    for language, path in zip(VENDORED, snapshot(list(VENDORED.values())), strict=True):
        text = path.read_text(encoding="utf-8")
        chars = byte_map(text)
        try:
            functions = tree_functions(text, language, enc, chars)
        except ImportError as error:  # -- partita's "code" extra brings the grammars --
            print(f"code: {path.name} left out: no grammar ({error.name})", file=sys.stderr)
            continue
        sources[language].append(SourceFile(path, language, text, functions, chars))
    notes: list[str] = []
    for files in sources.values():
        for f in files:
            try:
                note = check_partition(f)
            except Exception as error:
                note = f"{f.path.name}: partita cannot partition it: {error}"
            if note is not None:
                notes.append(note)
                print(f"code: partita.partition: {note}", file=sys.stderr)
    return sources, notes


# ------------------------------------------------------------------------------------------------
# code: the runs
# ------------------------------------------------------------------------------------------------

Span = tuple[Path, int, int]
"""A chunk's piece of a file: the file and a range of its characters."""


@dataclass
class CodeOutcome:
    seconds: float
    texts: list[str]
    spans: list[list[Span]]  # -- per chunk --
    unmapped: int = 0  # -- chunks (or chonkie chunks whose text is not the file's) --


def partita_code(files: Sequence[SourceFile]) -> Callable[[], list[Element]]:
    memo: Any = token_counter(PARTITA_TOKENIZER)  # -- an lru_cache: cache_clear() --

    def run() -> list[Element]:
        memo.cache_clear()
        elements = [e for f in files for e in f.partition()]
        return partita.chunk(elements, "code", max_tokens=BUDGET, tokenizer=PARTITA_TOKENIZER)

    return run


def partita_spans(files: Sequence[SourceFile], chunks: Sequence[Element]) -> CodeOutcome:
    """Each chunk's pieces of the files, from its provenance records (element text ranges moved
    to file offsets: the element's text is the file's less leading blank lines and trailing
    white space), else from its start_line/end_line."""
    by_id: dict[str, tuple[SourceFile, int]] = {}
    for f in files:
        for element in f.partition():
            offset = f.text.find(element.text) if element.text else -1
            if offset >= 0:
                by_id[element.id] = (f, offset)
    by_name: dict[str, list[SourceFile]] = {}
    for f in files:
        by_name.setdefault(f.path.name, []).append(f)
    spans: list[list[Span]] = []
    unmapped = 0
    for chunk in chunks:
        extra = chunk.metadata.extra or {}
        pieces: list[Span] = []
        for record in extra.get("sources") or []:
            found = by_id.get(record["element_id"])
            if found is not None:
                f, offset = found
                pieces.append((f.path, offset + record["start"], offset + record["end"]))
        if not pieces and "start_line" in extra and "end_line" in extra:
            named = by_name.get(chunk.metadata.filename or "", [])
            f_or_none = named[0] if len(named) == 1 else None
            if f_or_none is not None:
                starts = line_starts(f_or_none.text)
                first, last = extra["start_line"], extra["end_line"]
                end = starts[last] - 1 if last < len(starts) else len(f_or_none.text)
                pieces.append((f_or_none.path, starts[first - 1], end))
        unmapped += not pieces
        spans.append(pieces)
    return CodeOutcome(0.0, [c.text for c in chunks], spans, unmapped)


def plain_encoding(enc: Any) -> Any:
    """`enc` without special tokens: "<|endoftext|>" in a file (partita's own sources quote it)
    is text, as `enc.encode(text, disallowed_special=())` counts it. chonkie calls
    `encode(text)`, which raises on it."""
    import tiktoken

    return tiktoken.Encoding(
        name=f"{enc.name}_plain",
        pat_str=enc._pat_str,
        mergeable_ranks=enc._mergeable_ranks,
        special_tokens={},
    )


def chonkie_code(files: Sequence[SourceFile], language: str, enc: Any) -> Callable[[], Any]:
    from chonkie import CodeChunker

    enc = plain_encoding(enc)

    def run() -> list[list[Any]]:
        chunker = CodeChunker(tokenizer=enc, chunk_size=BUDGET, language=language)
        return [chunker.chunk(f.path.read_text(encoding="utf-8")) for f in files]

    return run


def chonkie_spans(files: Sequence[SourceFile], per_file: Sequence[Sequence[Any]]) -> CodeOutcome:
    texts: list[str] = []
    spans: list[list[Span]] = []
    mismatched = 0
    for f, chunks in zip(files, per_file, strict=True):
        for chunk in chunks:
            start, end = f.char_at(chunk.start_index), f.char_at(chunk.end_index)
            mismatched += f.text[start:end] != chunk.text
            texts.append(chunk.text)
            spans.append([(f.path, start, end)])
    return CodeOutcome(0.0, texts, spans, mismatched)


def held_whole(spans: Sequence[Span], fn: Function, path: Path, text: str) -> bool:
    """Whether one chunk's pieces of `path` (joined across gaps of white space) hold `fn`."""
    ranges = sorted((s, e) for p, s, e in spans if p == path)
    merged: list[list[int]] = []
    for s, e in ranges:
        if merged and (s <= merged[-1][1] or not text[merged[-1][1] : s].strip()):
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return any(s <= fn.start and fn.end <= e for s, e in merged)


def cut_functions(files: Sequence[SourceFile], outcome: CodeOutcome) -> list[tuple[Path, str]]:
    """The functions within the budget that no single chunk holds whole."""
    by_file: dict[Path, list[list[Span]]] = {}
    for pieces in outcome.spans:
        for path in {p for p, _, _ in pieces}:
            by_file.setdefault(path, []).append(pieces)
    cut: list[tuple[Path, str]] = []
    for f in files:
        candidates = by_file.get(f.path, [])
        for fn in f.functions:
            if fn.tokens <= BUDGET and not any(
                held_whole(c, fn, f.path, f.text) for c in candidates
            ):
                cut.append((f.path, fn.name))
    return cut


@dataclass
class CodeRow:
    language: str
    files: list[SourceFile]
    partita: CodeOutcome | str
    other: CodeOutcome | str
    enc: Any = field(repr=False)

    @property
    def megabytes(self) -> float:
        return utf8_megabytes([f.text for f in self.files])

    def side(self, outcome: CodeOutcome | str) -> tuple[str, str, str, str, str, str]:
        if isinstance(outcome, str):
            return outcome, "–", "–", "–", "–", "–"
        counts = [tokens_of(self.enc, t) for t in outcome.texts]
        cut = cut_functions(self.files, outcome)
        return (
            f"{self.megabytes / outcome.seconds:.2f}",
            str(len(outcome.texts)),
            str(max(counts, default=0)),
            str(sum(n > BUDGET for n in counts)),
            str(len(cut)),
            str(outcome.unmapped),
        )

    def cells(self) -> list[str]:
        p, o = self.side(self.partita), self.side(self.other)
        ratio = "–"
        if isinstance(self.partita, CodeOutcome) and isinstance(self.other, CodeOutcome):
            ratio = f"{self.other.seconds / self.partita.seconds:.2f}"
        functions = [fn for f in self.files for fn in f.functions]
        fit = sum(fn.tokens <= BUDGET for fn in functions)
        return [
            self.language,
            str(len(self.files)),
            f"{1000 * self.megabytes:.0f}",
            p[0],
            o[0],
            ratio,
            f"{p[1]} / {o[1]}",
            f"{p[2]} / {o[2]}",
            f"{p[3]} / {o[3]}",
            f"{fit} / {len(functions)}",
            f"{p[4]} / {o[4]}",
        ]


CODE_HEADER = (
    "| language | files | KB | MB/s partita | MB/s chonkie | ratio | chunks partita / chonkie "
    "| max tokens partita / chonkie | chunks over 384 partita / chonkie "
    "| functions within 384 / all | cut functions that fit partita / chonkie |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|"
)


def run_code(enc: Any, repeat: int) -> tuple[list[CodeRow], list[str]]:
    sources, notes = load_sources(enc)
    reason = offline_language_pack()
    rows: list[CodeRow] = []
    for language in LANGUAGE_ORDER:
        files = sources[language]
        if not files:
            continue
        runs, loops = (repeat, 1) if len(files) > 1 else (max(repeat, 3), SINGLE_FILE_LOOPS)
        ours: CodeOutcome | str
        try:
            partita_run = partita_code(files)
            partita_run()  # -- warm-up: grammar loading, imports --
            seconds, chunks = best_time(looped(partita_run, loops), runs)
            seconds /= loops
            ours = partita_spans(files, chunks)
            ours.seconds = seconds
        except Exception as error:  # -- a missing strategy or grammar is a row, not a crash --
            ours = f"failed: {type(error).__name__}: {error}"
        other: CodeOutcome | str
        if reason is not None:
            other = reason
        elif importlib.util.find_spec(GRAMMARS[language][0]) is None:
            other = f"no grammar (pip install {GRAMMARS[language][0].replace('_', '-')})"
        else:
            try:
                chonkie_run = chonkie_code(files, language, enc)
                chonkie_run()
                seconds, per_file = best_time(looped(chonkie_run, loops), runs)
                seconds /= loops
                other = chonkie_spans(files, per_file)
                other.seconds = seconds
            except Exception as error:
                other = f"failed: {type(error).__name__}: {error}"
        row = CodeRow(language, files, ours, other, enc)
        rows.append(row)
        print("| " + " | ".join(row.cells()) + " |", file=sys.stderr)
        for name, outcome in (("partita", ours), ("chonkie", other)):
            if isinstance(outcome, CodeOutcome):
                cut = cut_functions(files, outcome)
                if cut:
                    shown = ", ".join(f"{p.name}:{n}" for p, n in cut[:8])
                    more = f" and {len(cut) - 8} more" if len(cut) > 8 else ""
                    print(f"  {language} {name} cut: {shown}{more}", file=sys.stderr)
                if outcome.unmapped:
                    print(
                        f"  {language} {name}: {outcome.unmapped} chunks not mapped to the files",
                        file=sys.stderr,
                    )
    return rows, notes


def code_table(rows: Sequence[CodeRow], notes: Sequence[str] = ()) -> str:
    lines = [CODE_HEADER, *("| " + " | ".join(r.cells()) + " |" for r in rows)]
    if notes:
        lines += ["", "partita.partition(path) misread, retried with content_type=:"]
        lines += [f"- {note}" for note in notes]
    return "\n".join(lines)
