"""The outline of a tree-sitter language: Java, Kotlin, JavaScript, TypeScript, Go, Rust.

Each grammar's node types are mapped to a `code_type` ("class", "interface", "enum", "record",
"object", "struct", "trait", "impl", "module", "namespace", "type", "macro", "function",
"method", "constructor"); a container's members (methods, nested types) and the functions
declared directly in a function's body are outlined to `MAX_DEPTH`, everything else is code of
its container. Wrappers are looked through: an
`export` statement, a TypeScript `declare` or `namespace` statement, and a `const f = () => ...`
declaration (a function named `f`) are definitions spanning the whole statement. A container's
header (signature) runs to the line its body opens on; a Go method is named `Receiver.Name`,
a Rust `impl` by its type, so its methods are `Type.name`. A tree with an error or a missing
node raises `InvalidCodeError` at the first one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from partita.text.code._definitions import MAX_DEPTH, Definition, InvalidCodeError

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["tree_outline"]


@dataclass(frozen=True, slots=True)
class _Grammar:
    definitions: dict[str, str]
    containers: frozenset[str]
    bodies: frozenset[str] = frozenset()
    """Node types of a container's body when the grammar gives it no `body` field."""
    transparent: frozenset[str] = frozenset()
    """Nodes inside a body whose children are members (Java's enum body declarations)."""
    wrappers: frozenset[str] = field(default_factory=frozenset)


_JS_DEFINITIONS = {
    "class_declaration": "class",
    "class": "class",
    "abstract_class_declaration": "class",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "type_alias_declaration": "type",
    "internal_module": "namespace",
    "module": "namespace",
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "function_signature": "function",
    "method_definition": "method",
    "abstract_method_signature": "method",
}
_JS = _Grammar(
    _JS_DEFINITIONS,
    frozenset(
        {
            "class_declaration",
            "class",
            "abstract_class_declaration",
            "interface_declaration",
            "internal_module",
            "module",
        }
    ),
    wrappers=frozenset(
        {
            "export_statement",
            "expression_statement",
            "ambient_declaration",
            "lexical_declaration",
            "variable_declaration",
            "public_field_definition",
            "field_definition",
        }
    ),
)

_GRAMMARS: dict[str, _Grammar] = {
    "java": _Grammar(
        {
            "class_declaration": "class",
            "interface_declaration": "interface",
            "enum_declaration": "enum",
            "record_declaration": "record",
            "annotation_type_declaration": "interface",
            "method_declaration": "method",
            "constructor_declaration": "constructor",
            "compact_constructor_declaration": "constructor",
        },
        frozenset(
            {
                "class_declaration",
                "interface_declaration",
                "enum_declaration",
                "record_declaration",
                "annotation_type_declaration",
            }
        ),
        transparent=frozenset({"enum_body_declarations"}),
    ),
    "kotlin": _Grammar(
        {
            "class_declaration": "class",
            "object_declaration": "object",
            "companion_object": "object",
            "function_declaration": "function",
            "secondary_constructor": "constructor",
        },
        frozenset({"class_declaration", "object_declaration", "companion_object"}),
        bodies=frozenset({"class_body", "enum_class_body"}),
    ),
    "javascript": _JS,
    "typescript": _JS,
    "tsx": _JS,
    "go": _Grammar(
        {"function_declaration": "function", "method_declaration": "method"},
        frozenset(),
        wrappers=frozenset({"type_declaration"}),
    ),
    "rust": _Grammar(
        {
            "function_item": "function",
            "function_signature_item": "function",
            "struct_item": "struct",
            "union_item": "struct",
            "enum_item": "enum",
            "trait_item": "trait",
            "impl_item": "impl",
            "mod_item": "module",
            "macro_definition": "macro",
        },
        frozenset({"impl_item", "trait_item", "mod_item"}),
    ),
}

_SCOPES = frozenset({"module", "namespace"})
"""Containers whose functions are functions, not methods."""
_FUNCTION_TYPES = frozenset({"function", "method", "constructor"})
"""Definitions whose nested definitions (declared directly in their body) are their children."""
_VALUE_FUNCTIONS = {
    "arrow_function": "function",
    "function_expression": "function",
    "function": "function",
    "generator_function": "function",
    "class": "class",
}


def tree_outline(text: str, language_pointer: object, language: str) -> tuple[Definition, ...]:
    """The top-level definitions of `text`, parsed with the tree-sitter language
    `language_pointer` (a grammar wheel's `language()`); `language` names its node table."""
    import tree_sitter

    parser = tree_sitter.Parser(tree_sitter.Language(language_pointer))
    tree = parser.parse(text.encode("utf-8", "surrogatepass"))
    root = tree.root_node
    if root.has_error:
        line = _first_error_line(root)
        raise InvalidCodeError(f"invalid {language}: syntax error at line {line}", line)
    return tuple(_members(root, _GRAMMARS[language], "", 0))


def _first_error_line(root: Node) -> int:
    node = root
    while True:
        for child in node.children:
            if child.is_error or child.is_missing:
                return int(child.start_point.row) + 1
            if child.has_error:
                node = child
                break
        else:
            return int(node.start_point.row) + 1


def _members(
    body: Node, grammar: _Grammar, owner: str, depth: int, in_type: bool = False
) -> Iterator[Definition]:
    for child in body.named_children:
        if child.type in grammar.transparent:
            yield from _members(child, grammar, owner, depth, in_type)
            continue
        definition = _definition(child, grammar, owner, depth, in_type)
        if definition is not None:
            yield definition


def _definition(
    outer: Node, grammar: _Grammar, owner: str, depth: int, in_type: bool
) -> Definition | None:
    node, code_type, name = _resolve(outer, grammar)
    if node is None:
        return None
    if in_type and code_type == "function":
        code_type = "method"
    qualified = f"{owner}.{name}" if owner else name
    start = int(outer.start_point.row)
    last = int(outer.end_point.row)
    if outer.end_point.column == 0 and last > start:
        last -= 1  # -- a node ending with its line break --
    body_node = _body_of(node, grammar)
    body = last + 1 if body_node is None else min(int(body_node.start_point.row) + 1, last + 1)
    children: tuple[Definition, ...] = ()
    is_function = code_type in _FUNCTION_TYPES
    if (
        (node.type in grammar.containers or is_function)
        and body_node is not None
        and depth < MAX_DEPTH
    ):
        scope = name if code_type == "impl" or not owner else qualified
        children = tuple(
            c
            for c in _members(
                body_node, grammar, scope, depth + 1, code_type not in _SCOPES and not is_function
            )
            if c.first >= body
        )
    return Definition(code_type, qualified, start, start, body, body, last, children)


def _resolve(node: Node, grammar: _Grammar) -> tuple[Node | None, str, str]:
    """The definition node `node` is or wraps, its code type and name ((None, "", "") if none)."""
    kind: str = node.type
    if kind in grammar.definitions:
        code_type = grammar.definitions[kind]
        if kind == "class_declaration" and _has_token(node, "interface"):
            code_type = "interface"  # -- Kotlin's `interface` is a class_declaration --
        return node, code_type, _name_of(node, kind)
    if kind not in grammar.wrappers:
        return None, "", ""
    if kind == "type_declaration":  # -- Go: one type spec --
        specs = [c for c in node.named_children if c.type == "type_spec"]
        if len(specs) != 1:
            return None, "", ""
        value = specs[0].child_by_field_name("type")
        shape = value.type if value is not None else ""
        code_type = {"struct_type": "struct", "interface_type": "interface"}.get(shape, "type")
        return node, code_type, _text(specs[0].child_by_field_name("name")) or "type"
    inner = node.child_by_field_name("declaration")
    if inner is None:
        inner = node.child_by_field_name("value")
    if inner is not None and inner.type in _VALUE_FUNCTIONS and kind != "export_statement":
        code_type = "method" if "field" in kind else _VALUE_FUNCTIONS[inner.type]
        return inner, code_type, _text(node.child_by_field_name("name")) or "<anonymous>"
    if inner is None:
        declarators = [
            c
            for c in node.named_children
            if c.type in ("variable_declarator", "internal_module", "module")
            or c.type in grammar.definitions
        ]
        if len(declarators) != 1:
            return None, "", ""
        inner = declarators[0]
        if inner.type == "variable_declarator":
            value = inner.child_by_field_name("value")
            if value is None or value.type not in _VALUE_FUNCTIONS:
                return None, "", ""
            return value, _VALUE_FUNCTIONS[value.type], _text(inner.child_by_field_name("name"))
    if inner.type in _VALUE_FUNCTIONS and inner.type not in grammar.definitions:
        return inner, _VALUE_FUNCTIONS[inner.type], "default"
    found, code_type, name = _resolve(inner, grammar)
    return found, code_type, name


def _name_of(node: Node, kind: str) -> str:
    if kind == "impl_item":
        return _text(node.child_by_field_name("type")) or "impl"
    name = _text(node.child_by_field_name("name"))
    if kind == "method_declaration":
        receiver = node.child_by_field_name("receiver")
        if receiver is not None:  # -- Go: `func (f *Foo[T]) Name()` is `Foo.Name` --
            words = _text(receiver).strip("()").replace("*", " ").split()
            if words:
                return f"{words[-1].split('[')[0]}.{name}"
    if name:
        return name
    for child in node.named_children:
        if child.type in ("identifier", "type_identifier", "simple_identifier"):
            return _text(child)
    return "Companion" if kind == "companion_object" else "<anonymous>"


def _body_of(node: Node, grammar: _Grammar) -> Node | None:
    body = node.child_by_field_name("body")
    if body is not None:
        return body
    for child in node.named_children:
        if child.type in grammar.bodies or child.type in ("class_body", "function_body", "block"):
            return child
    return None


def _has_token(node: Node, token: str) -> bool:
    return any(c.type == token for c in node.children)


def _text(node: Node | None) -> str:
    if node is None:
        return ""
    data: bytes = node.text or b""
    return data.decode("utf-8", "replace")
