"""Small-to-big: small chunks to retrieve by, and the larger parents to read.

Small chunks (the `retrieval` profile's 128 tokens) are what an embedding matches best, but at a
fixed top-k they bring back little text. `with_parents` groups them into parents of about
`parent_tokens` tokens: a retriever matches the children and hands over their parents.

Contracts:

- **Every child has exactly one parent**, named by `metadata.extra["parent_id"]` (a scalar, so
  it reaches every vector-store record: `partita.serialization.records`). Elements are frozen:
  the children come back as copies carrying it, in their order, ids and texts unchanged.
- **A parent is consecutive children of one section**: children with the same heading path
  (`extra["heading_path"]`, else `section_path`) of the same document, in order, packed while
  the parent's text stays within `parent_tokens` (counted on the parent's exact text). A child
  longer than that on its own is a parent of one. Parents cover the children in order: the
  children of the first parent, then those of the second, ... With `scope="document"` a parent
  may run on into the next sections of its document (a window of about `parent_tokens`).
- **A parent's text is its children's texts without repeated heading prefixes**: the first
  child's text whole (its heading path, when the chunking put one before it), then each later
  child's text from its `extra["text_offset"]` on (its own text, the prefix left out) when it is
  of the same section as the child before it, whole when a new section starts, joined by
  "\\n\\n".
- **Ids are deterministic and unique**: a hash of the children's ids, in order
  (`parent_id_of`), so the same chunks give the same parents, and two parents never share an id
  (no child is in two parents; chunk ids are unique: `partita.chunking._ids`).
- **Metadata**: the first child's, with the pages of all (`page_number` the first child's,
  `extra["last_page_number"]` the last page any child reaches), provenance records
  (`extra["sources"]`) moved to where each child's text stands in the parent, and
  `orig_elements` of all children (each element once). A parent of one child keeps its class
  (a `Table` stays a `Table`); a parent of several is a `CompositeElement`.
- `take_ranked` is the selection every small-to-big retriever shares: results in rank order,
  mapped to what they stand for (a parent), de-duplicated, up to `k` or while a budget holds.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from hashlib import sha256
from typing import Any, NamedTuple, TypeVar

from partita.elements import CompositeElement, Element, new_element
from partita.text.sizing._tokenizers import token_counter

__all__ = [
    "DEFAULT_PARENT_TOKENS",
    "PARENT_ID_KEY",
    "PARENT_SCOPES",
    "Parented",
    "parent_id_of",
    "take_ranked",
    "with_parents",
]

DEFAULT_PARENT_TOKENS = 768
"""A parent's size when none is given, in tokens. Sections of real documents are often shorter
than a parent may be, so parents average well under their cap: with a cap of 768 tokens, five
parents hold about as much text as the five 512-token windows small-to-big competes with at
top-5 (measured on FinanceBench's development set: `docs/retrieval.md`)."""

PARENT_ID_KEY = "parent_id"
"""The `metadata.extra` key (and record metadata key) naming a child's parent."""

PARENT_SCOPES = ("section", "document")
"""What a parent may span: consecutive chunks of one section, or of one document."""

_JOINER = "\n\n"

T = TypeVar("T")


class Parented(NamedTuple):
    """The children (copies naming their parent) and the parents, each in order."""

    children: list[Element]
    parents: list[Element]


def parent_id_of(child_ids: Sequence[str]) -> str:
    """The id of the parent of the children `child_ids` (in order): 32 hex digits of a hash."""
    key = "parent\n" + "\n".join(child_ids)
    return sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def with_parents(
    chunks: Iterable[Element],
    parent_tokens: int = DEFAULT_PARENT_TOKENS,
    *,
    tokenizer: Any = "cl100k_base",
    scope: str = "section",
) -> Parented:
    """Group `chunks` (one or more documents' chunks, in order) into parents of at most
    `parent_tokens` tokens (default `DEFAULT_PARENT_TOKENS`, 768) of `tokenizer` (a tiktoken
    name, or any `token_counter` accepts), each within one section (`scope="section"`) or one
    document (`scope="document"`); see the module docstring. Raise `ValueError` for
    `parent_tokens` < 1 or another scope."""
    if parent_tokens < 1:
        raise ValueError(f"parent_tokens must be at least 1, got {parent_tokens}")
    if scope not in PARENT_SCOPES:
        raise ValueError(f"scope must be one of {', '.join(PARENT_SCOPES)}, got {scope!r}")
    count = token_counter(tokenizer)
    children = list(chunks)
    groups: list[list[Element]] = []
    texts: list[str] = []
    section: tuple[str | None, str | None, str] = (None, None, "")
    for child in children:
        key = _section_key(child)
        together = key == section if scope == "section" else key[:2] == section[:2]
        if groups and together:
            own = _own_text(child) if key == section else child.text
            candidate = texts[-1] + _JOINER + own
            if count(candidate) <= parent_tokens:
                groups[-1].append(child)
                texts[-1] = candidate
                section = key
                continue
        groups.append([child])
        texts.append(child.text)
        section = key
    named: list[Element] = []
    parents: list[Element] = []
    for group, text in zip(groups, texts, strict=True):
        parent = _parent(group, text)
        parents.append(parent)
        for child in group:
            extra = {**(child.metadata.extra or {}), PARENT_ID_KEY: parent.element_id}
            named.append(
                new_element(
                    type(child), child.text, child.element_id, child.metadata.replace(extra=extra)
                )
            )
    return Parented(named, parents)


def take_ranked(
    ranked: Iterable[T],
    *,
    key: Callable[[T], Hashable],
    k: int | None = None,
    budget: int | None = None,
    size: Callable[[T], int] | None = None,
) -> list[T]:
    """The first of `ranked` (best first) whose `key` was not taken before, in rank order: the
    first `k`, or, with `budget`, those taken while their `size`s total at most `budget`.

    Taking stops at the first result that would go over the budget (a smaller one after it is
    not taken), but the first result is always taken, whatever its size, so a budget never
    returns nothing. With both, both hold; with neither, every distinct result is taken.
    Raise `ValueError` for a negative `k` or `budget`, or a `budget` without `size`."""
    if (k is not None and k < 0) or (budget is not None and budget < 0):
        raise ValueError("k and budget must be >= 0")
    if budget is not None and size is None:
        raise ValueError("a budget needs the size of each result")
    taken: list[T] = []
    seen: set[Hashable] = set()
    total = 0
    for item in ranked:
        if k is not None and len(taken) >= k:
            break
        name = key(item)
        if name in seen:
            continue
        if budget is not None and size is not None:
            cost = size(item)
            if taken and total + cost > budget:
                break
            total += cost
        seen.add(name)
        taken.append(item)
    return taken


def _section_key(chunk: Element) -> tuple[str | None, str | None, str]:
    """The section a chunk belongs to: its document and its heading path."""
    metadata = chunk.metadata
    path: Any = (metadata.extra or {}).get("heading_path")
    if not isinstance(path, str):
        path = " > ".join(metadata.section_path or ())
    return (metadata.file_directory, metadata.filename, path)


def _offset(chunk: Element) -> int:
    """Where a chunk's own text starts (after its heading prefix or table context)."""
    value = (chunk.metadata.extra or {}).get("text_offset")
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= len(chunk.text):
        return value
    return 0


def _own_text(chunk: Element) -> str:
    return chunk.text[_offset(chunk) :]


def _parent(group: Sequence[Element], text: str) -> Element:
    """The parent of `group` (consecutive children), whose text is `text`."""
    first = group[0]
    parent_id = parent_id_of([child.element_id for child in group])
    extra: dict[str, Any] = {
        k: v for k, v in (first.metadata.extra or {}).items() if k != PARENT_ID_KEY
    }
    if len(group) == 1:
        return new_element(type(first), text, parent_id, first.metadata.replace(extra=extra))
    extra.pop("sources", None)
    sources = _moved_sources(group)
    if sources:
        extra["sources"] = sources
    last_page = max(
        (page for page in (_last_page(child) for child in group) if page is not None), default=None
    )
    if last_page is not None:
        extra["last_page_number"] = last_page
    changes: dict[str, Any] = {"extra": extra, "is_continuation": None}
    origins = _orig_elements(group)
    if origins:
        changes["orig_elements"] = origins
    return new_element(CompositeElement, text, parent_id, first.metadata.replace(**changes))


def _last_page(chunk: Element) -> int | None:
    last = (chunk.metadata.extra or {}).get("last_page_number")
    if isinstance(last, int) and not isinstance(last, bool):
        return last
    return chunk.metadata.page_number


def _moved_sources(group: Sequence[Element]) -> list[dict[str, Any]]:
    """The children's provenance records, each offset moved to where its child's text stands in
    the parent's text (a later child's heading prefix left out: records inside it dropped)."""
    moved: list[dict[str, Any]] = []
    position = 0
    for index, child in enumerate(group):
        repeated = index and _section_key(child) == _section_key(group[index - 1])
        cut = _offset(child) if repeated else 0
        for record in (child.metadata.extra or {}).get("sources", ()) or ():
            if not isinstance(record, Mapping) or record.get("offset", -1) < cut:
                continue
            moved.append({**record, "offset": record["offset"] - cut + position})
        position += len(child.text) - cut + len(_JOINER)
    return moved


def _orig_elements(group: Sequence[Element]) -> tuple[Element, ...]:
    seen: set[str] = set()
    origins: list[Element] = []
    for child in group:
        for element in child.metadata.orig_elements or ():
            if element.element_id not in seen:
                seen.add(element.element_id)
                origins.append(element)
    return tuple(origins)
