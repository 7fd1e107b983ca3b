"""How much content a page asks PDFium to parse, measured before PDFium loads it.

PDFium parses a page's whole content when the page loads, forms included each time they are
drawn, with no bound on the work or memory that takes: a 10-level fan-out of forms drawing each
other ten times, a flooded content stream, a stream inflating to gigabytes, each cost it
gigabytes. So a page goes to PDFium only when its **content weight** is at most
`MAX_PDFIUM_PAGE_BYTES`: the decoded size of its content streams plus, for every `Do` of a form
XObject in them, the form's own weight (recursively, each form measured once per document;
forms nested beyond `MAX_FORM_DEPTH` make the page too heavy). A heavier page, or one whose
content holds a number of 13 digits or more (a coordinate or size beyond 1e12, which PDFium
draws nowhere, silently), is read by partita's bounded pdfminer interpreter instead
(`interpreter`), which keeps what fits its page bounds, clamps or leaves out absurd numbers,
and warns. So is a page using a CID-keyed font whose program the file does not embed (standard
Chinese, Japanese and Korean fonts): PDFium substitutes one and leaves out the glyphs it cannot
map, silently.

The streams are decoded by pdfminer under the document's bounds (`_pdfminer_bounds`): a stream
inflating beyond `MAX_STREAM_BYTES` refuses the document (`DocumentLimitError`), as with the
pdfplumber backend. The measure is linear in the decoded bytes (one regular-expression scan for
`/Name Do`) and stops once the weight passes the bound.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from pdfminer.pdftypes import PDFObjRef, PDFStream, resolve1
from pdfminer.psparser import PSLiteral

from partita.partitioners.pdf.limits import MAX_FORM_DEPTH

__all__ = ["MAX_PDFIUM_PAGE_BYTES", "FormWeights", "content_weight", "shows_text"]

MAX_PDFIUM_PAGE_BYTES = 4 << 20
"""Content weight up to which a page is read by PDFium (the corpus's heaviest page weighs 180 KB;
the hostile floods and fan-outs 8 MB to 500 GB)."""

_MAX_PAGE_FONTS = 1_000
"""Fonts of a page's resources looked at (the rest are not)."""
_DO = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*Do\b")
_ABSURD_NUMBER = re.compile(rb"(?<![\w.(<])[+-]?\d{13,}(?=[\s\[\]/.])")
"""A number token of 13 digits or more (not a run of digits inside a hex string, a word or a
literal string's first word): a coordinate, size or matrix entry beyond 1e12, which PDFium
reads as is (or as infinity) and draws nowhere, where pdfminer's interpreter clamps it or leaves
it out with a warning."""
_SHOW_TEXT = re.compile(rb"T[jJ]\b|[)\]>]\s*['\"]")

FormWeights = dict[int, int]
"""Weights of the form XObjects measured so far in a document, by object number (and, by its
negated object number, whether each font met is a CID font without its program)."""


def content_weight(page: Any, forms: FormWeights, limit: int = MAX_PDFIUM_PAGE_BYTES) -> int:
    """The content weight of the pdfminer `page` (`PDFPage`), or a number above `limit` once it
    passes it, when its own content holds a number of 13 digits or more, or when it uses a CID
    font the file does not embed; `forms` caches the weights of the document's forms (and
    whether its fonts are such) across pages."""
    if _uses_unembedded_cid_font(page.resources, forms):
        return limit + 1
    data = b"".join(_stream_data(ref) for ref in _contents(page.contents))
    if _ABSURD_NUMBER.search(data):
        return limit + 1
    return _weight(data, page.resources, forms, limit, 0)


def shows_text(page: Any) -> bool:
    """True when the pdfminer `page`'s own content streams have a text-showing operator
    (forms not looked into): a page PDFium reads as empty is then read by pdfminer."""
    return any(_SHOW_TEXT.search(_stream_data(ref)) for ref in _contents(page.contents))


def _contents(contents: Any) -> list[Any]:
    contents = resolve1(contents)
    if isinstance(contents, list):
        return contents
    return [] if contents is None else [contents]


def _stream_data(ref: Any) -> bytes:
    stream = resolve1(ref)
    return stream.get_data() if isinstance(stream, PDFStream) else b""


def _weight(data: bytes, resources: Any, forms: FormWeights, limit: int, depth: int) -> int:
    weight = len(data)
    if weight > limit:
        return weight
    counts: dict[bytes, int] = {}
    for match in _DO.finditer(data):
        name = match.group(1)
        counts[name] = counts.get(name, 0) + 1
    if not counts:
        return weight
    if depth >= MAX_FORM_DEPTH:
        return limit + 1  # -- forms nested deeper: pdfminer's interpreter stops there and warns --
    resources = resolve1(resources)
    xobjects = resolve1(resources.get("XObject")) if isinstance(resources, dict) else None
    if not isinstance(xobjects, dict):
        return weight
    for name, count in counts.items():
        ref = xobjects.get(name.decode("latin-1"))
        key = ref.objid if isinstance(ref, PDFObjRef) else None
        if key is not None and key in forms:
            form_weight = forms[key]
        else:
            stream = resolve1(ref)
            if not isinstance(stream, PDFStream) or not _is_form(stream):
                continue
            if key is not None:
                forms[key] = limit + 1  # -- a form drawing itself: too heavy, not endless --
            inner = stream.get("Resources") or resources
            form_weight = _weight(stream.get_data(), inner, forms, limit, depth + 1)
            if key is not None:
                forms[key] = form_weight
        weight += count * form_weight
        if weight > limit:
            return weight
    return weight


def _uses_unembedded_cid_font(resources: Any, known: FormWeights) -> bool:
    """True when the page `resources` name a CID-keyed font (Type0) whose descendant font
    embeds no font program: PDFium substitutes a font for it and drops the glyphs it cannot map
    (a Chinese character in a table cell, silently), where pdfminer maps every code through
    the font's CMap. `known` remembers each font's answer (as 1 or 0) by object number."""
    resources = resolve1(resources)
    fonts = resolve1(resources.get("Font")) if isinstance(resources, dict) else None
    if not isinstance(fonts, dict):
        return False
    for ref in itertools.islice(fonts.values(), _MAX_PAGE_FONTS):
        key = -ref.objid if isinstance(ref, PDFObjRef) else None  # -- fonts: negative keys --
        if key is not None and key in known:
            answer = known[key]
        else:
            answer = int(_is_unembedded_cid_font(resolve1(ref)))
            if key is not None:
                known[key] = answer
        if answer:
            return True
    return False


def _is_unembedded_cid_font(font: Any) -> bool:
    if not isinstance(font, dict) or _name(font.get("Subtype")) != "Type0":
        return False
    descendants = resolve1(font.get("DescendantFonts"))
    if not isinstance(descendants, list) or not descendants:
        return False
    descendant = resolve1(descendants[0])
    descriptor = (
        resolve1(descendant.get("FontDescriptor")) if isinstance(descendant, dict) else None
    )
    if not isinstance(descriptor, dict):
        return True
    return not any(name in descriptor for name in ("FontFile", "FontFile2", "FontFile3"))


def _name(value: Any) -> str | None:
    value = resolve1(value)
    return value.name if isinstance(value, PSLiteral) and isinstance(value.name, str) else None


def _is_form(stream: PDFStream) -> bool:
    return _name(stream.get("Subtype")) == "Form"
