"""How much a page asks PDFium to do, weighed by PDFium's own reading rules before it loads.

PDFium parses a page's whole content when the page loads, with no bound on the work or memory
that takes: forms drawing forms ten times over ten levels, a flooded content stream, an inline
image inflating to gigabytes, marked content nested a hundred thousand deep, each cost it
gigabytes and end the process. So a page goes to PDFium only when `Preflight.refusal` finds
nothing too heavy in it; otherwise it is read by partita's bounded pdfminer interpreter
(`interpreter`), which keeps what fits its page bounds and warns. The weighing follows what
PDFium does, not what a well-formed file would say (`_content_scan`):

- **Content weight** (`MAX_PDFIUM_PAGE_BYTES`): the decoded size of the page's content streams
  plus, for every `Do` of a form XObject in them, the form's own weight, recursively (each form
  weighed once per document; nested beyond `MAX_FORM_DEPTH`, or drawing itself, too heavy).
  Names are decoded (`/#58#31` is `/X1`), comments skipped, string operands read as names, and
  an operand the scan cannot read assumes the heaviest form within reach. Resources are looked
  up as PDFium does: a form without a `/Resources` dictionary (or with one that does not
  resolve) uses the resources of what draws it, and a resource dictionary without a `/XObject`
  (or `/Font`, ...) entry falls back to the page's. Type3 fonts within reach add the weight of
  their glyph procedures (`/CharProcs`), each weighed as a form with the font's resources.
- **Inline images** (`MAX_INLINE_BYTES`, `MAX_INLINE_PIXELS`): PDFium decodes a filtered inline
  image whole to find where its data ends: Flate, LZW and RunLength data is inflated (here up to
  the bound), and JPEG and CCITT data decoded scanline by scanline, a cost set by the pixels
  the header claims.
- **Nesting** (`MAX_NESTING_COPIES`): the stack of marked-content sequences is copied at every
  `BMC`/`BDC`, and the clip path at every `W`: the sum of the depths they reach.
- **Fonts**: a font program decoding to more than `MAX_FONT_PROGRAM_BYTES` (PDFium reads it
  whole), a ToUnicode map whose longest entry times the page's content exceeds
  `MAX_TEXT_EXPANSION` code units (PDFium keeps every shown code's text), and a CID-keyed font
  whose program the file does not embed (PDFium substitutes a font and drops the glyphs it
  cannot map, silently).
- **Shadings** painted by `sh`: a mesh shading's data decoding to more than `MAX_INLINE_BYTES`
  (PDFium reads it whole for the shading's box).
- **Absurd numbers**: a number token of 13 digits or more in the page's own content (a
  coordinate beyond 1e12, which PDFium draws nowhere, silently).

Streams are decoded by pdfminer under the document's bounds (`_pdfminer_bounds`): a stream
inflating beyond `MAX_STREAM_BYTES` refuses the document (`DocumentLimitError`), as with the
pdfplumber backend; data PDFium would decode but pdfminer never does (inline images, font
programs, shadings) is measured piece by piece up to the bound (`_decoded_size`), never kept.
Every measure is linear in the bytes it reads and stops once past its bound.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from pdfminer.pdftypes import PDFObjRef, PDFStream, resolve1
from pdfminer.psparser import PSLiteral

from partita.partitioners.pdf._limits import MAX_FORM_DEPTH, MAX_STREAM_BYTES
from partita.partitioners.pdf.pdfium._content_scan import (
    InlineImage,
    iter_drawn,
    iter_inline_images,
    nesting_costs,
)
from partita.partitioners.pdf.pdfium._decoded_size import decoded_size, jpeg_size, pixel_filter

__all__ = [
    "MAX_FONT_PROGRAM_BYTES",
    "MAX_INLINE_BYTES",
    "MAX_INLINE_PIXELS",
    "MAX_NESTING_COPIES",
    "MAX_PDFIUM_PAGE_BYTES",
    "MAX_TEXT_EXPANSION",
    "Preflight",
    "shows_text",
]

MAX_PDFIUM_PAGE_BYTES = 4 << 20
"""Content weight up to which a page is read by PDFium (the corpus's heaviest page weighs 180 KB;
the hostile floods and fan-outs 8 MB to 500 GB)."""
MAX_INLINE_BYTES = 16 << 20
"""Bytes the inline images of a page (and its forms) may decode to, and a mesh shading's data
(the PDF specification advises inline images of at most 4 KB)."""
MAX_INLINE_PIXELS = 16 << 20
"""Pixels the JPEG and CCITT inline images of a page may claim (a 4,000 x 4,000 image; PDFium
decodes about a billion a second)."""
MAX_NESTING_COPIES = 2 << 20
"""Sum of the marked-content depths, and of the clip depths, a page may reach (a tagged page's
thousands of sequences three or four deep sum to tens of thousands)."""
MAX_FONT_PROGRAM_BYTES = MAX_STREAM_BYTES
"""Bytes an embedded font program may decode to (complete CJK fonts stay under 30 MB)."""
MAX_TEXT_EXPANSION = 4 << 20
"""Code units of text the page's content may map to through a ToUnicode entry longer than
`_LONG_MAPPING` (PDFium keeps each shown code's text)."""

_LONG_MAPPING = 64
_MAX_PAGE_FONTS = 1_000
"""Fonts of one resource dictionary looked at (the rest are not)."""
_MAX_XOBJECTS = 10_000
"""XObjects weighed for an operand the scan cannot read."""
_ABSURD_NUMBER = re.compile(rb"(?<![\w.(<])[+-]?\d{13,}(?=[\s\[\]/.])")
"""A number token of 13 digits or more (not a run of digits inside a hex string, a word or a
literal string's first word): a coordinate, size or matrix entry beyond 1e12, which PDFium
reads as is (or as infinity) and draws nowhere, where pdfminer's interpreter clamps it or leaves
it out with a warning."""
_SHOW_TEXT = re.compile(rb"T[jJ]\b|[)\]>]\s*['\"]")
_HEX_STRING = re.compile(rb"<([0-9A-Fa-f\s]*)>")


@dataclass(slots=True)
class Cost:
    """What parsing some content costs PDFium, in the measures the bounds are written in."""

    content: int = 0
    inline_bytes: int = 0
    inline_pixels: int = 0
    nesting: int = 0
    expansion: int = 0
    """The longest ToUnicode entry (code units) of a font within reach, when over
    `_LONG_MAPPING`."""
    refusal: str | None = None
    """A reason found on the way (a font, a shading, depth): the page is refused whatever
    the sums."""

    def add(self, other: Cost, times: int = 1) -> None:
        """Count `other` `times` more (a form drawn `times` times)."""
        self.content += other.content * times
        self.inline_bytes += other.inline_bytes * times
        self.inline_pixels += other.inline_pixels * times
        self.nesting += other.nesting * times
        self.expansion = max(self.expansion, other.expansion)
        self.refusal = self.refusal or other.refusal

    def verdict(self) -> str | None:
        """Why a page of this cost is too heavy for PDFium, or None."""
        if self.refusal:
            return self.refusal
        if self.content > MAX_PDFIUM_PAGE_BYTES:
            return (
                f"its content, forms counted each time they are drawn, weighs more than "
                f"{MAX_PDFIUM_PAGE_BYTES:,} bytes"
            )
        if self.inline_bytes > MAX_INLINE_BYTES:
            return f"its inline images decode to more than {MAX_INLINE_BYTES:,} bytes"
        if self.inline_pixels > MAX_INLINE_PIXELS:
            return f"its JPEG and CCITT inline images claim more than {MAX_INLINE_PIXELS:,} pixels"
        if self.nesting > MAX_NESTING_COPIES:
            return "its marked content or clip paths nest too deeply"
        if self.expansion and self.expansion * self.content > MAX_TEXT_EXPANSION:
            return f"a ToUnicode entry maps one code to {self.expansion:,} characters"
        return None

    def over(self) -> bool:
        """True once no later addition can bring the cost back within the bounds."""
        return self.verdict() is not None


@dataclass(frozen=True, slots=True)
class _Resources:
    """The resources content is parsed with, and the page's, which PDFium falls back to."""

    own: dict[str, Any] | None
    page: dict[str, Any] | None

    def category(self, kind: str) -> list[dict[str, Any]]:
        """The dictionaries a `kind` ("XObject", "Font", ...) resource is looked up in."""
        found = _dict(self.own.get(kind)) if self.own is not None else None
        if found is not None:
            return [found]
        if self.page is None or self.page is self.own:
            return []
        page = _dict(self.page.get(kind))
        return [] if page is None else [page]

    def lookup(self, kind: str, name: bytes) -> Any:
        """The `kind` resource called `name`, as PDFium's `FindResourceObj` finds it."""
        for table in self.category(kind):
            for key in (name.decode("utf-8", "replace"), name.decode("latin-1"), name):
                if key in table:
                    return table[key]
        return None


@dataclass
class Preflight:
    """A document's preflight: what its forms, glyph procedures and fonts cost, each weighed
    once, by object number."""

    forms: dict[int, Cost] = field(default_factory=dict)
    fonts: dict[int, Cost] = field(default_factory=dict)

    def refusal(self, page: Any) -> str | None:
        """Why the pdfminer `page` (`PDFPage`) is too heavy or unfaithful for PDFium to read, or
        None when PDFium may read it."""
        resources = _dict(page.resources)
        data = b" ".join(_stream_data(ref) for ref in _contents(page.contents))
        if _ABSURD_NUMBER.search(data):
            return "its content holds a number of 13 digits or more"
        cost = self._cost(data, _Resources(resources, resources), 0)
        return cost.verdict()

    def _cost(self, data: bytes, resources: _Resources, depth: int) -> Cost:
        cost = Cost(content=len(data))
        if cost.over():
            return cost
        self._add_fonts(cost, resources, depth)
        for image in iter_inline_images(data):
            _add_inline_image(cost, data, image)
            if cost.over():
                return cost
        cost.nesting += sum(nesting_costs(data, _inline_end))
        draws: dict[tuple[str, bytes | None], int] = {}
        for key in iter_drawn(data):
            draws[key] = draws.get(key, 0) + 1
        for (op, name), count in draws.items():
            if op == "sh":
                shading = resources.lookup("Shading", name) if name is not None else None
                cost.refusal = cost.refusal or _shading_refusal(shading)
            elif depth >= MAX_FORM_DEPTH:
                return _too_deep()
            elif name is None:
                cost.add(self._heaviest_form(resources, depth), count)
            else:
                cost.add(self._form(resources.lookup("XObject", name), resources, depth), count)
            if cost.over():
                return cost
        return cost

    def _form(self, ref: Any, resources: _Resources, depth: int) -> Cost:
        key = ref.objid if isinstance(ref, PDFObjRef) else None
        if key is not None and key in self.forms:
            return self.forms[key]
        stream = resolve1(ref)
        if not isinstance(stream, PDFStream) or _name(stream.get("Subtype")) != "Form":
            return Cost()
        if key is not None:
            self.forms[key] = _too_deep()  # -- a form drawing itself: too heavy, not endless --
        own = _dict(stream.get("Resources"))
        inner = _Resources(own if own is not None else resources.own, resources.page)
        cost = self._cost(stream.get_data(), inner, depth + 1)
        if key is not None:
            self.forms[key] = cost
        return cost

    def _heaviest_form(self, resources: _Resources, depth: int) -> Cost:
        heaviest = Cost()
        for table in resources.category("XObject"):
            for ref in itertools.islice(table.values(), _MAX_XOBJECTS):
                cost = self._form(ref, resources, depth)
                if cost.over():
                    return cost
                if cost.content > heaviest.content:
                    heaviest = cost
        return heaviest

    def _add_fonts(self, cost: Cost, resources: _Resources, depth: int) -> None:
        for table in resources.category("Font"):
            for ref in itertools.islice(table.values(), _MAX_PAGE_FONTS):
                cost.add(self._font(ref, resources, depth))
                if cost.over():
                    return

    def _font(self, ref: Any, resources: _Resources, depth: int) -> Cost:
        key = ref.objid if isinstance(ref, PDFObjRef) else None
        if key is not None and key in self.fonts:
            return self.fonts[key]
        if key is not None:
            self.fonts[key] = Cost()  # -- a glyph procedure showing its own font: once --
        font = _dict(resolve1(ref))
        cost = Cost() if font is None else self._font_cost(font, resources, depth)
        if key is not None:
            self.fonts[key] = cost
        return cost

    def _font_cost(self, font: dict[str, Any], resources: _Resources, depth: int) -> Cost:
        cost = Cost(expansion=_expansion(font.get("ToUnicode")))
        descriptor, cid = _descriptor(font)
        programs = [descriptor.get(k) for k in ("FontFile", "FontFile2", "FontFile3")]
        if cid and not any(programs):
            cost.refusal = "it uses a CID-keyed font whose program the file does not embed"
        for program in programs:
            stream = resolve1(program)
            if isinstance(stream, PDFStream) and _over(stream, MAX_FONT_PROGRAM_BYTES):
                cost.refusal = (
                    f"a font program decodes to more than {MAX_FONT_PROGRAM_BYTES:,} bytes"
                )
        procedures = _dict(font.get("CharProcs")) if _name(font.get("Subtype")) == "Type3" else None
        if procedures is not None and cost.refusal is None:
            # -- PDFium parses each glyph procedure once per font, whatever the text shows --
            if depth >= MAX_FORM_DEPTH:
                return _too_deep()
            own = _dict(font.get("Resources"))
            inner = _Resources(own if own is not None else resources.own, resources.page)
            glyphs = Cost()
            for ref in procedures.values():
                stream = resolve1(ref)
                if isinstance(stream, PDFStream):
                    glyphs.add(self._cost(stream.get_data(), inner, depth + 1))
                if glyphs.over():
                    cost.refusal = (
                        f"a Type3 font's glyph procedures are too heavy: {glyphs.verdict()}"
                    )
                    break
        return cost


def shows_text(page: Any) -> bool:
    """True when the pdfminer `page`'s own content streams have a text-showing operator
    (forms not looked into): a page PDFium reads as empty is then read by pdfminer."""
    return any(_SHOW_TEXT.search(_stream_data(ref)) for ref in _contents(page.contents))


def _add_inline_image(cost: Cost, data: bytes, image: InlineImage) -> None:
    filters = _filters(image.entries.get("Filter"))
    if not filters:
        return  # -- unfiltered: its data is the content's own bytes, already weighed --
    pixels_by = pixel_filter(filters)
    if pixels_by is not None:
        width, height = _int(image.entries.get("Width")), _int(image.entries.get("Height"))
        if pixels_by == "DCTDecode":
            header = jpeg_size(memoryview(data)[image.data_start : image.data_start + (1 << 16)])
            if header is not None:
                width, height = max(width, header[0]), max(height, header[1])
        cost.inline_pixels += width * height
        return
    measured = decoded_size(memoryview(data)[image.data_start :], filters, MAX_INLINE_BYTES)
    if measured is not None:
        cost.inline_bytes += measured.size


def _inline_end(data: bytes, image: InlineImage) -> int | None:
    """Where PDFium finds an inline image's data to end: after its filters' data, or its
    declared size when unfiltered; None when not known (the next `EI` then ends it)."""
    filters = _filters(image.entries.get("Filter"))
    if not filters:
        entries = image.entries
        components = 1 if entries.get("ImageMask") is True else _components(entries)
        bits = 1 if entries.get("ImageMask") is True else _int(entries.get("BitsPerComponent"))
        row = (_int(entries.get("Width")) * components * bits + 7) // 8
        return image.data_start + row * _int(entries.get("Height"))
    if pixel_filter(filters) is not None:
        return None
    measured = decoded_size(memoryview(data)[image.data_start :], filters, MAX_INLINE_BYTES)
    if measured is None or measured.consumed is None:
        return None
    return image.data_start + measured.consumed


def _components(entries: dict[str, Any]) -> int:
    space = entries.get("ColorSpace")
    return {"DeviceGray": 1, "DeviceRGB": 3, "DeviceCMYK": 4, "Indexed": 1}.get(str(space), 3)


def _filters(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []


def _int(value: Any) -> int:
    return max(0, min(int(value), 1 << 20)) if isinstance(value, int | float) else 0


def _shading_refusal(ref: Any) -> str | None:
    stream = resolve1(ref)
    if isinstance(stream, PDFStream) and _over(stream, MAX_INLINE_BYTES):
        return f"a shading's data decodes to more than {MAX_INLINE_BYTES:,} bytes"
    return None


def _over(stream: PDFStream, bound: int) -> bool:
    """True when `stream` decodes to more than `bound` bytes (measured, not kept, where its
    filters allow; else decoded by pdfminer under the document's bounds)."""
    filters = [_name(f) or "" for f in _as_list(stream.get("Filter"))]
    if not filters:
        return len(stream.rawdata or b"") > bound if stream.rawdata is not None else False
    if getattr(stream, "decipher", None) is None and stream.rawdata is not None:
        measured = decoded_size(stream.rawdata, filters, bound)
        if measured is not None:
            return measured.over
    return len(stream.get_data()) > bound


def _expansion(ref: Any) -> int:
    """The longest entry (in UTF-16 code units) of the ToUnicode CMap `ref`, when longer than
    `_LONG_MAPPING`; else 0."""
    stream = resolve1(ref)
    if not isinstance(stream, PDFStream):
        return 0
    longest = max((len(m.group(1)) for m in _HEX_STRING.finditer(stream.get_data())), default=0)
    units = longest // 4
    return units if units > _LONG_MAPPING else 0


def _descriptor(font: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The font's descriptor (a Type0 font's: its descendant's), and whether it is CID-keyed."""
    if _name(font.get("Subtype")) == "Type0":
        descendants = resolve1(font.get("DescendantFonts"))
        first = resolve1(descendants[0]) if isinstance(descendants, list) and descendants else None
        descendant = _dict(first)
        if descendant is None:
            return {}, False
        return _dict(descendant.get("FontDescriptor")) or {}, True
    return _dict(font.get("FontDescriptor")) or {}, False


def _too_deep() -> Cost:
    return Cost(refusal=f"its forms or glyph procedures nest more than {MAX_FORM_DEPTH} deep")


def _contents(contents: Any) -> list[Any]:
    contents = resolve1(contents)
    if isinstance(contents, list):
        return contents
    return [] if contents is None else [contents]


def _stream_data(ref: Any) -> bytes:
    stream = resolve1(ref)
    return stream.get_data() if isinstance(stream, PDFStream) else b""


def _dict(value: Any) -> dict[str, Any] | None:
    value = resolve1(value)
    return value if isinstance(value, dict) else None


def _as_list(value: Any) -> list[Any]:
    value = resolve1(value)
    if isinstance(value, list):
        return [resolve1(item) for item in value]
    return [] if value is None else [value]


def _name(value: Any) -> str | None:
    value = resolve1(value)
    return value.name if isinstance(value, PSLiteral) and isinstance(value.name, str) else None
