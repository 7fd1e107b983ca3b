"""A page's rulings (lines and rectangles), whether it shows images, and what its text objects
tell that PDFium's text page does not, from its page objects.

Text objects are looked at only for their bounds: two of one width on one line starting
within 1 pt of each other are "fake bold", a glyph run drawn twice to look heavier, which
PDFium's text page lists once (`Rulings.doubled`, their characters read as bold, as the
pdfplumber source reads the doubled glyphs); one drawn with no width (a word space shown on its
own, or an empty string) is a space character at its origin (`Rulings.spaces`), since PDFium's
text page leaves it out and pdfminer lists it.

pdfplumber's table finder and the horizontal-rule finder read `page.lines`, `page.rects` and
`page.edges`; this module gives them in pdfplumber's form from PDFium's path objects, walked
with form XObjects entered (their matrices composed), as pdfminer classifies a path's
subpaths: two points make a line, four corners of an axis-aligned rectangle (closed or drawn
back to the start) make a rectangle, and the straight axis-aligned segments of any other
subpath are kept as lines too (pdfplumber's curve edges); Bézier segments and slanted lines
are no rulings.

Bounded: at most `MAX_PAGE_OBJECTS` objects are visited (forms' objects included, forms
nested at most `MAX_FORM_DEPTH` deep) and at most `MAX_PAGE_SEGMENTS` path segments read; a
page beyond either keeps the rulings read so far and says so (`Rulings.cut`).
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass, field
from typing import Any

import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]

from partita.partitioners.pdf._limits import MAX_COORDINATE, MAX_FORM_DEPTH
from partita.partitioners.pdf.pdfium import _native as native
from partita.partitioners.pdf.pdfium._frame import Frame, Matrix, compose

__all__ = ["MAX_PAGE_OBJECTS", "MAX_PAGE_SEGMENTS", "MAX_PAGE_SPACES", "Rulings", "read_rulings"]

MAX_PAGE_OBJECTS = 200_000
"""Page objects visited on one page, those inside forms counted each time they are drawn (the
corpus's busiest page has about 3,000)."""

MAX_PAGE_SPACES = 100_000
"""Spaces noted from text objects drawn with no width, per page."""

MAX_PAGE_SEGMENTS = 200_000
"""Path segments read on one page (about 4 foreign calls each)."""

_TEXT = pdfium_c.FPDF_PAGEOBJ_TEXT
_PATH = pdfium_c.FPDF_PAGEOBJ_PATH
_IMAGE = pdfium_c.FPDF_PAGEOBJ_IMAGE
_FORM = pdfium_c.FPDF_PAGEOBJ_FORM
_MOVETO = pdfium_c.FPDF_SEGMENT_MOVETO
_LINETO = pdfium_c.FPDF_SEGMENT_LINETO
_BEZIER = pdfium_c.FPDF_SEGMENT_BEZIERTO
_DOUBLED_SHIFT = 1.0
"""How far apart (pt) two text objects of one width and line may start and be one glyph run
drawn twice."""
_DOUBLED_CANDIDATES = 8
"""Text objects of one width and line kept to compare a later one with (a bound per key)."""
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(slots=True)
class Rulings:
    """A page's lines and rectangles (pdfplumber dictionaries) and whether it has images."""

    lines: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    rects: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    images: int = 0
    """Image objects drawn on the page."""
    cut: str = ""
    """Why reading stopped early, or ""."""
    spaces: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    """Space characters (pdfplumber dictionaries) for the text objects drawn with no width."""
    doubled: set[int] = field(default_factory=set[int])
    """Text objects drawn twice at the same place ("fake bold"; PDFium lists only one)."""


def read_rulings(page: Any, frame: Frame) -> Rulings:
    """The rulings and image count of the pypdfium2 `page`, on its `frame`."""
    found = Rulings()
    walker = _Walker(found, frame)
    handle = native.address(page.raw)
    objects = [native.get_page_object(handle, i) for i in range(native.count_page_objects(handle))]
    walker.walk(objects, _IDENTITY, 0)
    return found


class _Walker:
    def __init__(self, found: Rulings, frame: Frame) -> None:
        self.found = found
        self.frame = frame
        self.objects = MAX_PAGE_OBJECTS
        self.segments = MAX_PAGE_SEGMENTS
        self.matrix = native.FS_MATRIX()
        self.x = ctypes.c_float()
        self.y = ctypes.c_float()
        self.bounds = [ctypes.c_float() for _ in range(4)]
        self.bounds_refs = [ctypes.byref(v) for v in self.bounds]
        self.texts: dict[tuple[int, int, float], list[tuple[float, int]]] = {}

    def walk(self, objects: list[int], outer: Matrix, depth: int) -> None:
        for obj in objects:
            if self.found.cut:
                return
            self.objects -= 1
            if self.objects < 0:
                self.found.cut = (
                    f"rulings were read only from its first {MAX_PAGE_OBJECTS:,} page objects"
                )
                return
            kind = native.get_object_type(obj)
            if kind == _TEXT:
                self._text(obj, outer)
                continue
            if kind == _IMAGE:
                self.found.images += 1
            elif kind == _PATH:
                self._path(obj, outer)
            elif kind == _FORM and depth < MAX_FORM_DEPTH:
                inner = compose(self._matrix(obj), outer)
                count = native.count_form_objects(obj)
                self.walk(
                    [native.get_form_object(obj, i) for i in range(max(0, count))],
                    inner,
                    depth + 1,
                )

    def _text(self, obj: int, outer: Matrix) -> None:
        bounds = self.bounds
        native.get_bounds(obj, *self.bounds_refs)
        left, bottom, right, top = (v.value for v in bounds)
        if not right > left:
            self._space(obj, outer)
            return
        key = (round(bottom), round(top), round(right - left, 1))
        drawn = self.texts.setdefault(key, [])
        for other_left, other in drawn:
            if abs(other_left - left) <= _DOUBLED_SHIFT and other != obj:
                self.found.doubled.update((other, obj))
                return
        if len(drawn) < _DOUBLED_CANDIDATES:
            drawn.append((left, obj))

    def _space(self, obj: int, outer: Matrix) -> None:
        """Note a text object drawn with no width at (x, y) as a space: a word space drawn on
        its own (Word writes French "Membres :" so), which PDFium's text page leaves out."""
        if len(self.found.spaces) >= MAX_PAGE_SPACES:
            return
        size = ctypes.c_float()
        if not native.get_text_font_size(obj, ctypes.byref(size)):
            return
        a, b, c, d, e, f = self.frame.compose(compose(self._matrix(obj), outer))
        scale = math.hypot(c, d)
        ox, oy = e, f  # -- the object's origin on the frame --
        if not (a * d > 0 and b * c <= 0):
            return  # -- not upright: the line finder leaves it out anyway --
        em = size.value * scale
        if not (math.isfinite(ox) and math.isfinite(oy) and 0 < em < MAX_COORDINATE):
            return
        if not (abs(ox) < MAX_COORDINATE and abs(oy) < MAX_COORDINATE):
            return
        bottom = self.frame.height - oy
        self.found.spaces.append(
            {
                "text": " ",
                "x0": ox,
                "x1": ox,
                "top": bottom - em,
                "bottom": bottom,
                "size": em,
                "fontname": "",
                "upright": True,
                "matrix": (a, b, c, d, ox, oy),
            }
        )

    def _matrix(self, obj: int) -> Matrix:
        m = self.matrix
        if not native.get_matrix(obj, ctypes.byref(m)):
            return _IDENTITY
        return (m.a, m.b, m.c, m.d, m.e, m.f)

    def _path(self, obj: int, outer: Matrix) -> None:
        count = native.count_segments(obj)
        if count <= 0:
            return
        if count > self.segments:
            self.found.cut = (
                f"rulings were read only from its first {MAX_PAGE_SEGMENTS:,} path segments"
            )
            return
        self.segments -= count
        a, b, c, d, e, f = self.frame.compose(compose(self._matrix(obj), outer))
        x_ref, y_ref = ctypes.byref(self.x), ctypes.byref(self.y)
        subpath: list[tuple[float, float]] = []
        kinds: list[int] = []
        closed = False
        for i in range(count):
            segment = native.get_path_segment(obj, i)
            kind = native.get_segment_type(segment)
            native.get_segment_point(segment, x_ref, y_ref)
            px, py = self.x.value, self.y.value
            point = (a * px + c * py + e, b * px + d * py + f)
            if kind == _MOVETO and subpath:
                self._subpath(subpath, kinds, closed)
                subpath, kinds, closed = [], [], False
            subpath.append(point)
            kinds.append(kind)
            if native.get_segment_close(segment):
                closed = True
        self._subpath(subpath, kinds, closed)

    def _subpath(self, points: list[tuple[float, float]], kinds: list[int], closed: bool) -> None:
        if len(points) < 2 or not all(
            math.isfinite(x)
            and math.isfinite(y)
            and abs(x) < MAX_COORDINATE
            and abs(y) < MAX_COORDINATE
            for x, y in points
        ):
            return
        height = self.frame.height
        straight = all(kind != _BEZIER for kind in kinds)
        if straight and _is_rectangle(points):
            xs = [x for x, _ in points]
            ys = [y for _, y in points]
            self.found.rects.append(_object("rect", min(xs), max(xs), min(ys), max(ys), height))
            return
        if closed and kinds[-1] != _BEZIER:
            points = [*points, points[0]]
            kinds = [*kinds, _LINETO]
        for i in range(1, len(points)):
            if kinds[i] != _LINETO:
                continue
            (x0, y0), (x1, y1) = points[i - 1], points[i]
            if x0 == x1 or y0 == y1:  # -- axis-aligned: a ruling --
                self.found.lines.append(
                    _object("line", min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1), height)
                )


def _is_rectangle(points: list[tuple[float, float]]) -> bool:
    """pdfminer's test: four corners (a fifth back at the first), each side axis-aligned."""
    if len(points) == 5 and points[4] == points[0]:
        points = points[:4]
    if len(points) != 4:
        return False
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points
    return (x0 == x1 and y1 == y2 and x2 == x3 and y3 == y0) or (
        y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0
    )


def _object(kind: str, x0: float, x1: float, y0: float, y1: float, height: float) -> dict[str, Any]:
    top, bottom = height - y1, height - y0
    return {
        "object_type": kind,
        "x0": x0,
        "x1": x1,
        "top": top,
        "bottom": bottom,
        "width": x1 - x0,
        "height": bottom - top,
        "y0": y0,
        "y1": y1,
        "doctop": top,
        "pts": [(x0, top), (x1, bottom)],
    }
