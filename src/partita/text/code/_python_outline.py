"""Python's outline, read by the standard library's `ast`.

Classes are containers (`code_type` "class"); functions are "function" at module level and in
other functions, "method" in a class (async ones alike). A class's header is its decorators,
signature and docstring; a function's signature ends where its first statement (its docstring
included) starts. The functions and classes defined directly in a function's body are its
children, as methods are a class's; nesting is outlined to `MAX_DEPTH`.
"""

from __future__ import annotations

import ast
import warnings

from partita.text.code._definitions import MAX_DEPTH, Definition, InvalidCodeError

__all__ = ["python_outline"]

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def python_outline(text: str) -> tuple[Definition, ...]:
    """The top-level definitions of Python source `text`; raises `InvalidCodeError`."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # -- SyntaxWarning for invalid escapes, ... --
            tree = ast.parse(text)
    except SyntaxError as exc:
        raise InvalidCodeError(
            f"invalid Python at line {exc.lineno}: {exc.msg}", exc.lineno
        ) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise InvalidCodeError(f"invalid Python: {exc}") from None
    return tuple(_definitions(tree.body, "", 0))


def _definitions(
    body: list[ast.stmt], owner: str, depth: int, in_class: bool = False
) -> list[Definition]:
    found: list[Definition] = []
    for node in body:
        if isinstance(node, ast.ClassDef) and depth < MAX_DEPTH:
            found.append(_class(node, owner, depth))
        elif isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
            found.append(_function(node, owner, depth, in_class))
    return found


def _first_line(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> int:
    lines = [node.lineno, *(d.lineno for d in node.decorator_list)]
    return min(lines) - 1


def _last_line(node: ast.stmt) -> int:
    return (node.end_lineno or node.lineno) - 1


def _function(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
    owner: str,
    depth: int,
    in_class: bool,
) -> Definition:
    kind = "class" if isinstance(node, ast.ClassDef) else "method" if in_class else "function"
    last = _last_line(node)
    body = min(max(node.body[0].lineno - 1, node.lineno), last + 1)
    name = f"{owner}.{node.name}" if owner else node.name
    start = node.lineno - 1
    children: tuple[Definition, ...] = ()
    if depth < MAX_DEPTH and not isinstance(node, ast.ClassDef):
        nested = _definitions(node.body, name, depth + 1)
        children = tuple(c for c in nested if c.first >= body)
    return Definition(kind, name, _first_line(node), start, body, body, last, children)


def _class(node: ast.ClassDef, owner: str, depth: int) -> Definition:
    name = f"{owner}.{node.name}" if owner else node.name
    start = node.lineno - 1
    last = _last_line(node)
    body = min(max(node.body[0].lineno - 1, start + 1), last + 1)
    header_end = body
    rest = node.body
    first_statement = node.body[0]
    if (
        isinstance(first_statement, ast.Expr)
        and isinstance(first_statement.value, ast.Constant)
        and isinstance(first_statement.value.value, str)
    ):
        header_end = min(_last_line(first_statement) + 1, last + 1)
        rest = node.body[1:]
    children = [c for c in _definitions(rest, name, depth + 1, True) if c.first >= header_end]
    return Definition(
        "class",
        name,
        _first_line(node),
        start,
        body,
        max(header_end, body),
        last,
        tuple(children),
    )
