"""Outlines of small real programs in every language, and invalid code."""

from __future__ import annotations

import pytest

from partita.text.code import (
    Definition,
    InvalidCodeError,
    language_for_filename,
    language_named,
    outline_of,
)
from tests.text.code.samples import OUTLINES, SOURCES


def flat(definitions: tuple[Definition, ...]) -> list[tuple[object, ...]]:
    return [
        (
            d.code_type,
            d.name,
            d.first + 1,
            d.last + 1,
            [(c.code_type, c.name, c.first + 1, c.last + 1) for c in d.children],
        )
        for d in definitions
    ]


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_the_outline_finds_each_definition_with_its_comments_and_members(language: str) -> None:
    known = language_named(language)
    assert known is not None
    assert flat(outline_of(SOURCES[language], known)) == OUTLINES[language]


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_headers_end_where_bodies_open(language: str) -> None:
    known = language_named(language)
    assert known is not None
    lines = SOURCES[language].split("\n")
    for definition in outline_of(SOURCES[language], known):
        assert definition.first <= definition.start < definition.body <= definition.last + 1
        assert definition.body <= definition.header_end <= definition.last + 1
        for child in definition.children:
            assert child.first >= definition.header_end
            assert child.last <= definition.last
        signature = "\n".join(lines[definition.start : definition.body])
        assert definition.name.rsplit(".", 1)[-1] in signature or definition.name == "default"


def test_a_python_docstring_belongs_to_the_class_header() -> None:
    (point, _) = outline_of(SOURCES["python"], language_named("python"))  # type: ignore[arg-type]
    lines = SOURCES["python"].split("\n")
    assert lines[point.first] == "@dataclass"
    assert lines[point.header_end - 1].strip() == '"""A point."""'


@pytest.mark.parametrize(
    ("language", "source", "line"),
    [
        ("python", "def f(:\n    pass\n", 1),
        ("python", "x = 1\nclass A\n", 2),
        ("go", "package main\n\nfunc main() {\n\tx := \n}\n", 5),
        ("java", "class A {\n  void f() { int x = ; }\n}\n", 2),
        ("rust", "fn main() {\n    let x = ;\n}\n", 2),
    ],
)
def test_invalid_code_raises_with_the_line_of_the_first_error(
    language: str, source: str, line: int
) -> None:
    known = language_named(language)
    assert known is not None
    with pytest.raises(InvalidCodeError) as caught:
        outline_of(source, known)
    assert caught.value.line is not None
    assert abs(caught.value.line - line) <= 1


def test_deep_nesting_is_bounded() -> None:
    source = "".join("    " * i + f"class C{i}:\n" for i in range(40)) + "    " * 40 + "pass\n"
    (top,) = outline_of(source, language_named("python"))  # type: ignore[arg-type]
    depth, node = 0, top
    while node.children:
        (node,) = node.children
        depth += 1
    assert depth == 8


def test_languages_come_from_names_aliases_and_extensions() -> None:
    assert language_named("PY") is language_named("python3") is language_for_filename("a/b.py")
    assert language_named("golang") is language_for_filename("main.go")
    assert language_for_filename("App.KT") is language_named("kotlin")
    assert language_for_filename("x.tsx") is language_named("tsx")
    assert language_for_filename("notes.txt") is None
    assert language_named("cobol") is None
