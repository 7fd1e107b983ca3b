"""A page's reading frame: PDF user space to pdfplumber's coordinates, the page's rotation
applied.

pdfplumber (through pdfminer) draws a page rotated by `/Rotate` into the orientation it is shown
in, with the origin at the media box's lower-left corner, and gives boxes as (x0, top, x1,
bottom) measured from the top of the shown page. `Frame` does the same for PDFium's coordinates
(user space, unrotated): `matrix` maps user space to the shown page, y upwards; `box` gives a
user-space rectangle in pdfplumber's convention.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Frame", "Matrix", "compose", "frame_for"]

Matrix = tuple[float, float, float, float, float, float]
"""(a, b, c, d, e, f): x' = a x + c y + e, y' = b x + d y + f."""


@dataclass(frozen=True, slots=True)
class Frame:
    """The shown page: its size and the map from user space onto it (y upwards)."""

    matrix: Matrix
    width: float
    height: float

    @property
    def is_identity_rotation(self) -> bool:
        """True when the map only shifts (no rotation)."""
        a, b, c, d, _, _ = self.matrix
        return a == 1.0 and d == 1.0 and b == 0.0 and c == 0.0

    def point(self, x: float, y: float) -> tuple[float, float]:
        """(x, y) of user space on the shown page, y upwards."""
        a, b, c, d, e, f = self.matrix
        return (a * x + c * y + e, b * x + d * y + f)

    def box(self, left: float, bottom: float, right: float, top: float) -> tuple[float, ...]:
        """The user-space rectangle as (x0, top, x1, bottom) from the shown page's top left."""
        x_a, y_a = self.point(left, bottom)
        x_b, y_b = self.point(right, top)
        return (
            min(x_a, x_b),
            self.height - max(y_a, y_b),
            max(x_a, x_b),
            self.height - min(y_a, y_b),
        )

    def compose(self, m: Matrix) -> Matrix:
        """The matrix `m` (an object's, to user space) followed by this frame's."""
        return compose(m, self.matrix)


def compose(inner: Matrix, outer: Matrix) -> Matrix:
    """The map `inner` followed by `outer`."""
    a, b, c, d, e, f = inner
    oa, ob, oc, od, oe, of = outer
    return (
        a * oa + b * oc,
        a * ob + b * od,
        c * oa + d * oc,
        c * ob + d * od,
        e * oa + f * oc + oe,
        e * ob + f * od + of,
    )


def frame_for(mediabox: tuple[float, float, float, float], rotation: int) -> Frame:
    """The frame of a page with `mediabox` (left, bottom, right, top) shown rotated clockwise by
    `rotation` degrees (0, 90, 180 or 270), as pdfminer's page interpreter sets it."""
    x0, y0, x1, y1 = mediabox
    x0, x1 = min(x0, x1), max(x0, x1)
    y0, y1 = min(y0, y1), max(y0, y1)
    width, height = x1 - x0, y1 - y0
    if rotation == 90:
        return Frame((0.0, -1.0, 1.0, 0.0, -y0, x1), height, width)
    if rotation == 180:
        return Frame((-1.0, 0.0, 0.0, -1.0, x1, y1), width, height)
    if rotation == 270:
        return Frame((0.0, 1.0, -1.0, 0.0, y1, -x0), height, width)
    return Frame((1.0, 0.0, 0.0, 1.0, -x0, -y0), width, height)
