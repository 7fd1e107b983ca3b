"""Inline SVG charts for partita's HTML pages: size histograms (the evaluation report's and the
inspector's), retrieval curves and metric bars (the evaluation report's).

PRINCIPLES

- **Standard library only, one string per chart.** Each chart is an `<svg>` element meant to be
  inlined in HTML: no script, no stylesheet link, no font, no `xmlns` (inline SVG needs none), so
  the page refers to nothing outside itself. Every text the caller gives is escaped.
- **Accessible.** Every chart has `role="img"`, a `<title>` naming it and a `<desc>` stating its
  values in words; every bar and point carries its own `<title>` (a tooltip with the number).
- **Colour is never the only cue.** Series take colours from the Okabe–Ito palette (safe for the
  common colour-vision deficiencies; its yellow left out, too pale on white), and each also has
  its own key letter, marker shape and, past the seventh, a dashed line.
- **Readable from a phone to a printed page.** Charts are drawn in a viewBox about as wide as
  the page shows them (`width` units: 380 for the small multiples, three to a row at 1200
  pixels, 440 for the curves, two to a row) and scale to their container (`width: 100%` in the
  page's CSS), so text is 13 to 16 pixels on a desktop and about 11 on a phone. Long names are
  cut with an ellipsis to the room there is (the page's table gives them whole); a curve's key
  letter is put beside its line where no other line or letter is.
- **Missing is not zero.** A value that was not measured (None) or is not a number (NaN) is
  written as such where its bar would be and left out of lines; the caller decides whether a
  chart with nothing measured is drawn at all.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

__all__ = [
    "Style",
    "bar_svg",
    "curve_svg",
    "histogram_bins",
    "histogram_svg",
    "nice_ticks",
    "styles",
]

FONT = 14  # -- tick labels, legends, row labels --
SMALL = 13.0  # -- tick labels, annotations --
# -- a white outline behind a text, so a line or grid crossing it does not hide it --
HALO = ' stroke="#ffffff" stroke-width="3.5" stroke-linejoin="round" paint-order="stroke"'
CHAR = 0.6  # -- a character's mean width, as a share of the font size (DejaVu Sans, wide) --
INK = "#222222"
MUTED = "#595959"
GRID = "#e4e4e4"

# -- Okabe & Ito (2008), "Color Universal Design", without the yellow (#F0E442) --
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000")
# -- each colour darkened to a contrast of at least 4.5 on white, for text (WCAG AA), and the
# -- text colour of more contrast on it (black on all but the blue and the black) --
INKS = ("#0072B2", "#9C6C00", "#008460", "#BF5400", "#A15F83", "#3A7A9E", "#000000")
ON = ("#ffffff", "#000000", "#000000", "#000000", "#000000", "#000000", "#ffffff")
MARKERS = ("circle", "square", "triangle", "diamond", "triangle-down")


@dataclass(frozen=True)
class Style:
    """How one configuration is drawn in every chart: a key letter, colour, marker and dash.

    `ink` is the colour for text in it on white, `on` the colour for text on it."""

    key: str
    name: str
    colour: str
    ink: str
    on: str
    marker: str
    dash: str | None


def styles(names: Sequence[str]) -> list[Style]:
    """One distinct `Style` per name, in order: keys A, B, … Z, AA, AB, …"""
    return [
        Style(
            key=_key(index),
            name=name,
            colour=PALETTE[index % len(PALETTE)],
            ink=INKS[index % len(PALETTE)],
            on=ON[index % len(PALETTE)],
            marker=MARKERS[index % len(MARKERS)],
            dash=None if index < len(PALETTE) else "7 4",
        )
        for index, name in enumerate(names)
    ]


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2, 2.5 or 5 times a power of ten) covering `low`..`high`."""
    if not (math.isfinite(low) and math.isfinite(high)):
        low, high = 0.0, 1.0
    if high <= low:
        high = low + (abs(low) or 1.0)
    span = high - low
    magnitude = 10 ** math.floor(math.log10(span / count))
    step = magnitude
    for multiple in (1.0, 2.0, 2.5, 5.0, 10.0):
        step = multiple * magnitude
        if span / step <= count:
            break
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    return [round(index * step, 10) for index in range(first, last + 1)]


def histogram_bins(values: Sequence[int], bins: int = 20) -> tuple[list[float], list[int]]:
    """`bins` equal-width bins from 0 to the largest value of `values`: their edges (`bins + 1`,
    rounded to 3 decimals) and the count of values in each (the largest in the last)."""
    top = max(values, default=0) or 1
    width = top / bins
    counts = [0] * bins
    for value in values:
        counts[min(int(value / width), bins - 1)] += 1
    return [round(i * width, 3) for i in range(bins + 1)], counts


def histogram_svg(
    *,
    chart_id: str,
    title: str,
    edges: Sequence[float],
    counts: Sequence[int],
    colour: str,
    x_max: float,
    window: int | None,
    unit: str = "tokens",
    width: int = 380,
) -> str:
    """Chunk sizes as bars over `edges` (an x axis from 0 to `x_max`), the `window` marked."""
    height, top, left, right, plot_h = 246.0, 30.0, 56.0, 16.0, 156.0
    plot_w = width - left - right
    x_ticks = nice_ticks(0.0, x_max, 5)
    x_hi = x_ticks[-1]
    y_ticks = [t for t in nice_ticks(0.0, max(max(counts, default=0), 1), 4) if t == int(t)]
    y_hi = y_ticks[-1]

    def x_at(value: float) -> float:
        return left + plot_w * min(max(value, 0.0), x_hi) / x_hi

    def y_at(value: float) -> float:
        return top + plot_h * (1 - value / y_hi)

    desc = _histogram_desc(edges, counts, unit)
    parts = [_open(chart_id, "histogram", width, height, title, desc)]
    if window is not None and window < x_hi:
        # -- the sizes the embedder would truncate: shaded, and said so in words --
        x = x_at(window)
        parts.append(
            f'<rect x="{_n(x)}" y="{_n(top)}" width="{_n(left + plot_w - x)}" height="{_n(plot_h)}"'
            ' fill="#D55E00" fill-opacity="0.08"/>'
        )
    parts.append(_y_grid(y_ticks, y_at, left, plot_w, _compact))
    for index, count in enumerate(counts):
        if count <= 0:
            continue
        x0, x1 = x_at(edges[index]), x_at(edges[index + 1])
        parts.append(
            f'<rect x="{_n(x0)}" y="{_n(y_at(count))}" width="{_n(max(x1 - x0 - 1, 0.5))}"'
            f' height="{_n(y_at(0) - y_at(count))}" fill="{colour}"><title>'
            f"{_fmt(edges[index])}–{_fmt(edges[index + 1])} {escape(unit)}: {count:,} chunks"
            "</title></rect>"
        )
    parts.append(_x_axis(x_ticks, x_at, top + plot_h, left, plot_w, f"chunk size ({unit})"))
    parts.append(_y_label("chunks", top + plot_h / 2, 13.0))
    if window is not None:
        x = x_at(window)
        anchor = "end" if x > left + plot_w * 0.6 else "start"
        shift = -4 if anchor == "end" else 4
        parts.append(_line(x, top - 10, x, top + plot_h, INK, 1.5, "5 3"))
        parts.append(_text(x + shift, top - 12, f"window {window:,}", anchor=anchor, size=SMALL))
    return "".join(parts) + "</svg>"


def curve_svg(
    *,
    chart_id: str,
    title: str,
    series: Sequence[tuple[Style, Sequence[tuple[float, float, int]]]],
    y_label: str,
    x_label: str,
    budget: int | None = None,
    width: int = 440,
) -> str:
    """Lines of (x, y fraction, k) points per style, y in percent, a legend below the plot.

    Each line's key letter is written beside one of its points where no line passes; the
    `budget`, if any, is a dashed vertical line labelled above the plot."""
    top, left, right, plot_h = 30.0, 54.0, 34.0, 210.0
    plot_w = width - left - right
    xs = [x for _, points in series for x, _, _ in points]
    ys = [y * 100 for _, points in series for _, y, _ in points]
    x_ticks = nice_ticks(0.0, max([*xs, float(budget or 0), 1.0]), 5)
    y_ticks = nice_ticks(0.0, min(max([*ys, 1.0]), 100.0), 5)
    x_hi, y_hi = x_ticks[-1], y_ticks[-1]

    def x_at(value: float) -> float:
        return left + plot_w * value / x_hi

    def y_at(value: float) -> float:
        return top + plot_h * (1 - value / y_hi)

    columns = 1 if len(series) <= 6 else 2
    rows = math.ceil(len(series) / columns)
    legend_top = top + plot_h + 62
    height = legend_top + rows * 20 + 4
    desc = "; ".join(
        f"{style.key} ({style.name}): "
        + ", ".join(f"k={k} {x:,.0f} tokens {y:.1%}" for x, y, k in points)
        for style, points in series
    )
    parts = [_open(chart_id, "curve", width, height, title, desc)]
    parts.append(_y_grid(y_ticks, y_at, left, plot_w, lambda t: f"{t:g}%"))
    if budget is not None:
        x = x_at(budget)
        anchor = "end" if x > left + plot_w * 0.75 else "middle"
        parts.append(_line(x, top - 6, x, top + plot_h, MUTED, 1.5, "5 3"))
        parts.append(_text(x, top - 10, f"budget {budget:,} tokens", anchor=anchor, size=SMALL))
    lines: list[tuple[Style, list[tuple[float, float]]]] = []
    for style, points in series:
        coords = [(x_at(x), y_at(y * 100)) for x, y, _ in points]
        lines.append((style, coords))
        path = " ".join(f"{_n(x)},{_n(y)}" for x, y in coords)
        dash = f' stroke-dasharray="{style.dash}"' if style.dash else ""
        parts.append(
            f'<polyline points="{path}" fill="none" stroke="{style.colour}"'
            f' stroke-width="2.25"{dash}/>'
        )
        for (x, y), (raw_x, raw_y, k) in zip(coords, points, strict=True):
            tip = f"{style.key} {style.name}, k={k}: {raw_x:,.0f} tokens, {raw_y:.1%}"
            parts.append(_marker(style, x, y, 4.0, tip))
    area = (left + 2, top, width - 2, top + plot_h - 2)
    for style, x, y in _place_keys(lines, area):
        parts.append(_text(x, y, style.key, weight="700", fill=style.ink))
    parts.append(_x_axis(x_ticks, x_at, top + plot_h, left, plot_w, x_label))
    parts.append(_y_label(y_label, top + plot_h / 2))
    parts.append(_legend(series, legend_top, columns, width))
    return "".join(parts) + "</svg>"


def bar_svg(
    *,
    chart_id: str,
    title: str,
    rows: Sequence[tuple[Style, float | None]],
    percent: bool,
    fmt: Callable[[float], str],
    width: int = 380,
) -> str:
    """One horizontal bar per style, its label above it and its value in a column at the right.

    `percent` values are fractions drawn on a 0..100 % axis (cut at the largest value's round
    tick); the others on an axis from min(0, lowest) to the highest, so negative scores show.
    """
    top, left, row_h, value_w = 6.0, 8.0, 44.0, 64.0
    axis_left = 22.0  # -- room for the first tick's label, centred on it --
    plot_w = width - axis_left - value_w - 8
    scale = 100.0 if percent else 1.0
    values = [v * scale for _, v in rows if v is not None and math.isfinite(v)]
    low = min([0.0, *values])
    high = max([0.0, *values])
    ticks = nice_ticks(low, min(high, 100.0) if percent else high, 4)
    lo, hi = ticks[0], ticks[-1]
    height = top + len(rows) * row_h + 32

    def x_at(value: float) -> float:
        return axis_left + plot_w * (value - lo) / (hi - lo)

    desc = "; ".join(f"{style.key} ({style.name}): {_value_text(v, fmt)}" for style, v in rows)
    parts = [_open(chart_id, "bars", width, height, title, desc)]
    bottom = top + len(rows) * row_h
    for tick in ticks:
        x = x_at(tick)
        label = _tick(tick, ticks) + ("%" if percent else "")
        parts.append(_line(x, top, x, bottom, INK if tick == 0 else GRID))
        parts.append(_text(x, bottom + 16, label, anchor="middle", size=SMALL, fill=MUTED))
    label_chars = int((width - 2 * left) / (FONT * CHAR))
    for index, (style, value) in enumerate(rows):
        y = top + index * row_h
        parts.append(
            f'<text x="{_n(left)}" y="{_n(y + 15)}" fill="{INK}"{HALO}>'
            f'<tspan font-weight="700" fill="{style.ink}">{escape(style.key)}</tspan> '
            f"{escape(_cut(style.name, label_chars - 2))}</text>"
        )
        bar_y = y + 21
        if value is None or not math.isfinite(value):
            text = _value_text(value, fmt)
            parts.append(_text(axis_left + 4, bar_y + 13, text, fill=MUTED, italic=True))
            continue
        x0, x1 = sorted((x_at(0.0), x_at(value * scale)))
        parts.append(
            f'<rect x="{_n(x0)}" y="{_n(bar_y)}" width="{_n(max(x1 - x0, 1.0))}" height="17"'
            f' fill="{style.colour}"><title>{escape(style.key)} {escape(style.name)}:'
            f" {escape(fmt(value))}</title></rect>"
            + _text(width - 8, bar_y + 14, fmt(value), anchor="end", size=FONT, weight="600")
        )
    return "".join(parts) + "</svg>"


# -- pieces --


def _open(chart_id: str, kind: str, width: int, height: float, title: str, desc: str) -> str:
    return (
        f'<svg class="chart chart-{kind}" viewBox="0 0 {width} {_n(height)}" role="img"'
        f' aria-labelledby="{chart_id}-t {chart_id}-d" font-size="{FONT}">'
        f'<title id="{chart_id}-t">{escape(title)}</title>'
        f'<desc id="{chart_id}-d">{escape(desc)}</desc>'
    )


def _text(
    x: float, y: float, text: str, *, anchor: str = "start", size: float = FONT,
    weight: str = "400", fill: str = INK, italic: bool = False,
) -> str:  # fmt: skip
    """A text with a white outline (`HALO`), so that no line drawn under it hides it."""
    style = ' font-style="italic"' if italic else ""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="{anchor}" font-size="{size}"'
        f' font-weight="{weight}" fill="{fill}"{style}{HALO}>{escape(text)}</text>'
    )


def _line(
    x1: float, y1: float, x2: float, y2: float, stroke: str, width: float = 1.0,
    dash: str | None = None,
) -> str:  # fmt: skip
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="{stroke}"'
        f' stroke-width="{width}"{dashes}/>'
    )


def _y_grid(
    ticks: Sequence[float], y_at: Callable[[float], float], left: float, plot_w: float,
    label: Callable[[float], str],
) -> str:  # fmt: skip
    return "".join(
        _line(left, y_at(tick), left + plot_w, y_at(tick), INK if tick == 0 else GRID)
        + _text(left - 6, y_at(tick) + 4.5, label(tick), anchor="end", size=SMALL, fill=MUTED)
        for tick in ticks
    )


def _x_axis(
    ticks: Sequence[float], x_at: Callable[[float], float], base: float, left: float,
    plot_w: float, label: str,
) -> str:  # fmt: skip
    return (
        _line(left, base, left + plot_w, base, INK)
        + "".join(
            _line(x_at(t), base, x_at(t), base + 4, INK)
            + _text(x_at(t), base + 18, _tick(t, ticks), anchor="middle", size=SMALL, fill=MUTED)
            for t in ticks
        )
        + _text(left + plot_w / 2, base + 38, label, anchor="middle")
    )


def _y_label(label: str, middle: float, x: float = 15.0) -> str:
    return (
        f'<text transform="translate({_n(x)} {_n(middle)}) rotate(-90)" text-anchor="middle"'
        f' font-size="{FONT}" fill="{INK}">{escape(label)}</text>'
    )


def _legend(
    series: Sequence[tuple[Style, Sequence[tuple[float, float, int]]]], top: float, columns: int,
    width: int,
) -> str:  # fmt: skip
    column_w = (width - 16) / columns
    chars = int((column_w - 48) / (FONT * CHAR))
    rows = math.ceil(len(series) / columns)
    parts = []
    for index, (style, _) in enumerate(series):
        column, row = divmod(index, rows)
        x, y = 8 + column * column_w, top + row * 20
        parts.append(
            f"<g><title>{escape(style.key)}: {escape(style.name)}</title>"
            + _line(x, y, x + 26, y, style.colour, 2.25, style.dash)
            + _marker(style, x + 13, y, 4.0, None)
            + f'<text x="{_n(x + 32)}" y="{_n(y + 5)}" font-size="{FONT}" fill="{INK}">'
            f'<tspan font-weight="700">{escape(style.key)}</tspan> '
            f"{escape(_cut(style.name, chars - 2))}</text></g>"
        )
    return "".join(parts)


def _marker(style: Style, x: float, y: float, r: float, tip: str | None) -> str:
    inner = f"<title>{escape(tip)}</title>" if tip else ""
    paint = f'fill="{style.colour}" stroke="#ffffff" stroke-width="1"'
    if style.marker == "circle":
        return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" {paint}>{inner}</circle>'
    if style.marker == "square":
        s = r * 0.9
        return (
            f'<rect x="{_n(x - s)}" y="{_n(y - s)}" width="{_n(2 * s)}" height="{_n(2 * s)}"'
            f" {paint}>{inner}</rect>"
        )
    r *= 1.25
    shapes = {
        "triangle": [(0.0, -r), (r * 0.9, r * 0.65), (-r * 0.9, r * 0.65)],
        "triangle-down": [(0.0, r), (r * 0.9, -r * 0.65), (-r * 0.9, -r * 0.65)],
        "diamond": [(0.0, -r), (r * 0.85, 0.0), (0.0, r), (-r * 0.85, 0.0)],
    }
    points = " ".join(f"{_n(x + dx)},{_n(y + dy)}" for dx, dy in shapes[style.marker])
    return f'<polygon points="{points}" {paint}>{inner}</polygon>'


def _place_keys(
    lines: Sequence[tuple[Style, Sequence[tuple[float, float]]]],
    area: tuple[float, float, float, float],
) -> list[tuple[Style, float, float]]:
    """Where to write each line's key letter (x, baseline): beside one of its points, the last
    first, on a spot inside `area` (x0, y0, x1, y1) that no line crosses and no other letter
    takes; right of the last point when there is no such spot."""
    dots = [
        (x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n)
        for _, coords in lines
        for (x0, y0), (x1, y1) in itertools.pairwise(coords)
        for n in [max(1, int(math.hypot(x1 - x0, y1 - y0) / 4))]
        for i in range(n + 1)
    ] + [point for _, coords in lines for point in coords]
    taken: list[tuple[float, float, float, float]] = []
    placed = []
    for style, coords in lines:
        w, h = len(style.key) * FONT * CHAR, FONT * 0.72
        offsets = ((8.0, h / 2), (-w / 2, -9.0), (-w / 2, 9.0 + h), (-w - 8.0, h / 2))
        spots = [(x + dx, y + dy) for x, y in reversed(coords) for dx, dy in offsets]

        def free(x: float, y: float, w: float = w, h: float = h) -> bool:
            x0, y0, x1, y1 = x - 3, y - h - 3, x + w + 3, y + 3
            return (
                area[0] <= x0 and x1 <= area[2] and area[1] <= y0 and y1 <= area[3]
                and not any(a < x1 and x0 < c and b < y1 and y0 < d for a, b, c, d in taken)
                and not any(x0 <= px <= x1 and y0 <= py <= y1 for px, py in dots)
            )  # fmt: skip

        if spots:
            x, y = next((spot for spot in spots if free(*spot)), spots[0])
            taken.append((x - 3, y - h - 3, x + w + 3, y + 3))
            placed.append((style, x, y))
    return placed


def _histogram_desc(edges: Sequence[float], counts: Sequence[int], unit: str) -> str:
    total = sum(counts)
    if not total:
        return "No chunks."
    mode = max(range(len(counts)), key=lambda index: counts[index])
    return (
        f"{total:,} chunks from {_fmt(edges[0])} to {_fmt(edges[-1])} {unit}; the most,"
        f" {counts[mode]:,}, between {_fmt(edges[mode])} and {_fmt(edges[mode + 1])} {unit}."
    )


def _value_text(value: float | None, fmt: Callable[[float], str]) -> str:
    if value is None:
        return "not measured"
    return fmt(value) if math.isfinite(value) else "n/a (not a number)"


def _tick(value: float, ticks: Sequence[float]) -> str:
    step = abs(ticks[1] - ticks[0]) if len(ticks) > 1 else 1.0
    decimals = 0
    while decimals < 6 and abs(round(step * 10**decimals) - step * 10**decimals) > 1e-9:
        decimals += 1
    return f"{value:,.{decimals}f}"


def _compact(value: float) -> str:
    """A count for an axis: 950, 1.5k, 12k, 1.2M."""
    for divisor, suffix in ((1e6, "M"), (1e3, "k")):
        if abs(value) >= divisor:
            return f"{value / divisor:.3g}{suffix}"
    return f"{value:g}"


def _fmt(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 10 or value == int(value) else f"{value:.2g}"


def _cut(text: str, limit: int) -> str:
    """`text` in at most `limit` characters: its start and its end, an ellipsis between (the
    end of a configuration's name tells it from its siblings as much as the start)."""
    limit = max(limit, 5)
    if len(text) <= limit:
        return text
    head = (limit - 1) * 3 // 5
    return text[:head] + "…" + text[len(text) - (limit - 1 - head) :]


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _key(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters
