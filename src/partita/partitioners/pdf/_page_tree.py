"""The document's pages, read from its page tree without recursion and with sane boxes.

pdfplumber lists a document's pages with pdfminer's `PDFPage.create_pages`, a recursive walk
(a page tree a few thousand levels deep ends in `RecursionError`) that falls back, when the
catalog has no page tree, to fetching every object the cross-reference lists (a range of
10**9 entries never ends). `read_pages` walks the tree with the same rules, iteratively:

- a `/Pages` node's `/Kids` are visited in order, each object once (a kid seen before, a cycle
  back up the tree, is skipped); `/Resources`, `/MediaBox`, `/CropBox` and `/Rotate` are
  inherited from the nearest ancestor that has them (the catalog included, as pdfminer does);
  a `/Page` node is a page; anything else is ignored;
- a tree deeper than `MAX_PAGE_TREE_DEPTH` levels is refused (`DocumentLimitError`);
- with no page in the tree, the objects the cross-reference lists are scanned for `/Page`
  dictionaries, at most `MAX_PAGE_SCAN_OBJECTS` of them.

Each page's boxes are made safe for pdfplumber, which computes with them before any content is
read: a `/MediaBox` that is missing or not four finite numbers within ±`MAX_COORDINATE` becomes
US Letter (pdfminer's own default), an unusable `/CropBox`, `/TrimBox`, `/BleedBox` or
`/ArtBox` is dropped (the media box stands for it), and a `/Rotate` that is not a finite number
is dropped (no rotation). Page labels are not read: partita does not use them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pdfminer.pdfpage import PDFPage
from pdfminer.pdftypes import PDFObjectNotFound, dict_value, list_value, resolve1
from pdfminer.psparser import LIT
from pdfplumber.page import Page

from partita.partitioners.pdf import _limits as limits
from partita.partitioners.pdf._limits import MAX_COORDINATE, DocumentBudget

__all__ = ["read_pages"]

_PAGE = LIT("Page")
_PAGES = LIT("Pages")
_INHERITED = ("Resources", "MediaBox", "CropBox", "Rotate")
_LETTER = [0, 0, 612, 792]
_OTHER_BOXES = ("CropBox", "TrimBox", "BleedBox", "ArtBox")


def read_pages(pdf: Any, budget: DocumentBudget) -> list[Page]:
    """Return the pdfplumber pages of the pdfplumber `pdf`, in page tree order."""
    doc = pdf.doc
    pages: list[Page] = []
    doctop = 0.0
    found = iter_page_dicts(doc, budget)
    for number, (objid, attrs) in enumerate(found, start=1):
        _make_boxes_safe(attrs)
        page = Page(
            pdf, PDFPage(doc, objid, attrs, None), page_number=number, initial_doctop=doctop
        )
        pages.append(page)
        doctop += page.height
    return pages


def iter_page_dicts(doc: Any, budget: DocumentBudget) -> Iterator[tuple[int, dict[str, Any]]]:
    """Generate (object number, attributes with inherited ones) for each page of the pdfminer
    `doc`; see the module docstring."""
    found = False
    if "Pages" in doc.catalog:
        for page in _walk(doc, budget):
            found = True
            yield page
    if not found:
        yield from _scan(doc, budget)


def _walk(doc: Any, budget: DocumentBudget) -> Iterator[tuple[int, dict[str, Any]]]:
    visited: set[int] = set()
    levels: list[Iterator[tuple[Any, dict[str, Any]]]] = [
        iter([(doc.catalog["Pages"], doc.catalog)])
    ]
    while levels:
        item = next(levels[-1], None)
        if item is None:
            levels.pop()
            continue
        obj, parent = item
        if isinstance(obj, int):
            objid = obj
            attrs = dict_value(doc.getobj(obj)).copy()
        elif hasattr(obj, "objid"):
            objid = obj.objid
            attrs = dict_value(obj).copy()
        else:
            continue  # -- a direct dictionary among /Kids: not a page object --
        if objid in visited:
            continue
        visited.add(objid)
        for key in _INHERITED:
            if key in parent and key not in attrs:
                attrs[key] = parent[key]
        kind = attrs.get("Type")
        if kind is None:
            kind = attrs.get("type")
        if kind is _PAGES and "Kids" in attrs:
            if len(levels) >= limits.MAX_PAGE_TREE_DEPTH:
                raise budget.refuse(
                    f"its page tree is more than {limits.MAX_PAGE_TREE_DEPTH} levels deep",
                    "page tree depth",
                )
            levels.append(iter([(kid, attrs) for kid in list_value(attrs["Kids"])]))
        elif kind is _PAGE:
            yield objid, attrs


def _scan(doc: Any, budget: DocumentBudget) -> Iterator[tuple[int, dict[str, Any]]]:
    scanned = 0
    for xref in doc.xrefs:
        for objid in xref.get_objids():
            scanned += 1
            if scanned > limits.MAX_PAGE_SCAN_OBJECTS:
                raise budget.refuse(
                    "it has no page tree and more than "
                    f"{limits.MAX_PAGE_SCAN_OBJECTS:,} objects to scan for pages",
                    "objects scanned for pages",
                )
            try:
                obj = doc.getobj(objid)
            except PDFObjectNotFound:
                continue
            if isinstance(obj, dict) and obj.get("Type") is _PAGE:
                yield objid, dict(obj)


def _make_boxes_safe(attrs: dict[str, Any]) -> None:
    media = _box(attrs.get("MediaBox"))
    attrs["MediaBox"] = media if media is not None else list(_LETTER)
    for key in _OTHER_BOXES:
        if key in attrs:
            box = _box(attrs[key])
            if box is None:
                del attrs[key]
            else:
                attrs[key] = box
    if "Rotate" in attrs:
        rotate = resolve1(attrs["Rotate"])
        if _is_number(rotate) and -MAX_COORDINATE <= rotate <= MAX_COORDINATE:
            attrs["Rotate"] = rotate
        else:
            del attrs["Rotate"]


def _box(value: Any) -> list[int | float] | None:
    """`value` resolved into four numbers within range, or None."""
    value = resolve1(value)
    if not isinstance(value, list) or len(value) != 4:
        return None
    box = [resolve1(v) for v in value]
    for v in box:
        if not _is_number(v) or not -MAX_COORDINATE <= v <= MAX_COORDINATE:
            return None
    return box


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
