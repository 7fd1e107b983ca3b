"""What chunks leave out: navigation always, page furniture on request.

Every strategy takes its input elements through `iter_chunked_elements`, the one place these
rules live:

- **Navigation** (`Navigation` elements: menus, language lists, a page's tables of links) is never
  chunk text, in any strategy. It is partita's own element type; the reference library's JSON
  reader skips a type it does not know, so the reference chunking partita's elements JSON never
  sees it either: "basic" and "by_title" still give the reference's chunks of the same elements.
- **Page furniture** (`Header`, `Footer`, `PageNumber`: running heads, footers, page numbers) is
  left out with `skip_furniture`. It is off by default for "basic" and "by_title", whose chunks
  hold furniture as the reference's do; the `retrieval` profile turns it on, and the text
  strategies ("sentence", "sentence_window", "recursive", "token", "headings", "semantic",
  "code") leave furniture out unless `skip_furniture=False`.

Left out means out of the input: in no chunk's text, `orig_elements` or provenance. The elements
themselves stay in the partitioners' output, and a `PageBreak` (no text) is never left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from partita.chunking._options import SharedChunkingOptions
from partita.elements import Element, Footer, Header, Navigation, PageNumber

__all__ = ["FURNITURE_TYPES", "is_left_out", "iter_chunked_elements"]

FURNITURE_TYPES: tuple[type[Element], ...] = (Header, Footer, PageNumber)
"""The element types `skip_furniture` leaves out of chunks."""

_ALWAYS_LEFT_OUT: tuple[type[Element], ...] = (Navigation,)
_LEFT_OUT_WITH_FURNITURE: tuple[type[Element], ...] = (*FURNITURE_TYPES, Navigation)


def is_left_out(element: Element, opts: SharedChunkingOptions) -> bool:
    """`True` when chunking under `opts` leaves `element` out (see the module docstring)."""
    return isinstance(element, _types_left_out(opts))


def iter_chunked_elements(
    elements: Iterable[Element], opts: SharedChunkingOptions
) -> Iterator[Element]:
    """Generate the elements of `elements` that chunking under `opts` takes, in order: all but
    navigation, and but page furniture when `opts.skips_furniture`."""
    left_out = _types_left_out(opts)
    for element in elements:
        if not isinstance(element, left_out):
            yield element


def _types_left_out(opts: SharedChunkingOptions) -> tuple[type[Element], ...]:
    return _LEFT_OUT_WITH_FURNITURE if opts.skips_furniture else _ALWAYS_LEFT_OUT
