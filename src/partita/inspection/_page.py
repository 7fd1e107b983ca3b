"""The inspector's page: one self-contained HTML file drawn from the model's JSON.

PRINCIPLES

- **One file, no network.** CSS and script inline (kept in `assets/`, package data), the
  histograms inline SVG, the data one `<script type="application/json">` element; no font,
  image, link or CDN. The page opens offline and mails as an attachment. Standard library only.
- **The summary is static, the document is drawn on demand.** The summary bar (chunk count,
  overlaps, size statistics, size histograms in characters and tokens, the legend of types) is
  written here in HTML; the elements are drawn by the script one view at a time (`per_view`
  elements, default 200), so a 600-page PDF costs one JSON parse and a few hundred elements of
  DOM, whatever its length. The pager moves between views, and "chunk" and "page" boxes jump.
- **Every element in order, typed and coloured by type**: a coloured left border and a type
  label, its page, its index. A table is drawn as a table from its sanitized HTML, with a strip
  under it showing which part of its text each chunk took (its text, marked, one click away).
- **Chunks are marked over the text they took.** Each range a chunk took is tinted in the
  chunk's colour (four colours in turn, so neighbours differ), a numbered pill marks where a chunk
  starts, and a range taken by two or more chunks is striped in both colours and underlined.
  Hovering a range shows its chunks' sizes (characters and tokens), heading paths and pages;
  clicking pins a chunk in the side panel, with its text and links to its neighbours.
"""

from __future__ import annotations

import functools
import importlib.resources
import os
import statistics
from collections.abc import Sequence
from html import escape
from pathlib import Path

from partita._charts import PALETTE, histogram_bins, histogram_svg
from partita.inspection._data import InspectionModel, model_to_json

__all__ = ["DEFAULT_PER_VIEW", "model_to_html", "write_page"]

DEFAULT_PER_VIEW = 200
"""Elements drawn at a time: few enough for a fast view, enough to read a few pages."""


def model_to_html(model: InspectionModel, *, per_view: int = DEFAULT_PER_VIEW) -> str:
    """Return the page showing `model`, drawing `per_view` elements at a time."""
    if per_view < 1:
        raise ValueError(f"per_view must be at least 1, got {per_view}")
    title = f"Chunks of {model.title}" if model.title else "Chunk inspector"
    data = model_to_json(model)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>\n{_asset('inspector.css')}</style></head>\n<body>\n"
        f"{_summary_html(model, title)}\n{_PAGER}\n"
        '<div id="layout"><main id="doc" aria-live="polite"></main>'
        '<aside id="detail"><p class="muted">Hover a marked range to see its chunk;'
        " click it to pin the chunk here.</p></aside></div>\n"
        '<div id="tip" role="tooltip" hidden></div>\n'
        f'<script type="application/json" id="inspection-data">{data}</script>\n'
        f"<script>const PER_VIEW = {int(per_view)};\n\n{_asset('inspector.js')}</script>\n"
        "</body></html>\n"
    )


def write_page(
    model: InspectionModel, path: str | os.PathLike[str], *, per_view: int = DEFAULT_PER_VIEW
) -> Path:
    """Write `model_to_html(model)` to `path` (UTF-8); return the path written."""
    target = Path(path)
    target.write_text(model_to_html(model, per_view=per_view), encoding="utf-8")
    return target


@functools.cache
def _asset(name: str) -> str:
    """The text of `assets/<name>`, package data: the page's stylesheet (`inspector.css`, a few
    rules a line) and its script (`inspector.js`), read on first use."""
    assets = importlib.resources.files("partita.inspection").joinpath("assets")
    return assets.joinpath(name).read_text(encoding="utf-8")


def _summary_html(model: InspectionModel, title: str) -> str:
    chunks = model.chunks
    characters = [c.characters for c in chunks]
    tokens = [c.tokens for c in chunks]
    settings = ", ".join(f"{k}={v}" for k, v in model.settings.items() if v is not None)
    counts: dict[str, int] = {}
    for element in model.elements:
        counts[element.category] = counts.get(element.category, 0) + 1
    facts = [
        ("elements", f'<b id="element-count">{len(model.elements):,}</b>'),
        ("chunks", f'<b id="chunk-count">{len(chunks):,}</b>'),
        ("overlapping ranges", f'<b id="overlap-count">{len(model.overlaps):,}</b>'),
        ("characters", _stats(characters)),
        ("tokens (cl100k_base)", _stats(tokens)),
    ]
    if model.unmapped_chunks or model.unresolved_records:
        unmapped = f"{len(model.unmapped_chunks):,} chunks, {model.unresolved_records:,} records"
        facts.append(("not mapped to elements", f'<b id="unmapped">{unmapped}</b>'))
    legend = "".join(
        f'<li class="type-key" data-type="{escape(name)}"><i></i>{escape(name)} '
        f'<span class="muted">{count:,}</span></li>'
        for name, count in counts.items()
    )
    return (
        f'<header id="summary"><h1>{escape(title)}</h1>'
        f'<p class="muted">{escape(settings) or "default options"}</p>'
        '<div class="summary-row"><dl class="facts">'
        + "".join(f"<div><dt>{label}</dt><dd>{value}</dd></div>" for label, value in facts)
        + "</dl>"
        + _histogram_svg(characters, "characters")
        + _histogram_svg(tokens, "tokens")
        + f'</div><ul class="legend">{legend}'
        '<li><i class="k0"></i><i class="k1"></i><i class="k2"></i><i class="k3"></i>'
        ' chunks, in turn</li><li><i class="ov"></i> taken by several chunks</li></ul></header>'
    )


def _stats(values: Sequence[int]) -> str:
    if not values:
        return "–"
    return (
        f"mean {statistics.fmean(values):,.0f} · median {statistics.median(values):,.0f}"
        f" · max {max(values):,}"
    )


def _histogram_svg(values: Sequence[int], unit: str) -> str:
    """The chunk sizes of `values` in `unit` as the evaluation report draws them
    (`_charts.histogram_svg`, equal-width bins), in a figure captioned with the unit."""
    if not values:
        return ""
    edges, counts = histogram_bins(values)
    svg = histogram_svg(
        chart_id=f"sizes-{unit}",
        title=f"chunk sizes in {unit}",
        edges=edges,
        counts=counts,
        colour=PALETTE[0],
        x_max=edges[-1],
        window=None,
        unit=unit,
    )
    return (
        f'<figure class="histogram" data-unit="{unit}"><figcaption>chunk sizes, {unit}'
        f"</figcaption>{svg}</figure>"
    )


_PAGER = """<nav id="pager" aria-label="views">
<button type="button" id="prev" title="previous elements (←)">◀</button>
<span id="view-label"></span>
<button type="button" id="next" title="next elements (→)">▶</button>
<label>view <input id="view-input" type="number" min="1" step="1"> of <span id="view-count">
</span></label>
<form id="chunk-form"><label>chunk <input id="chunk-input" type="number" min="1" step="1">
</label><button>go</button></form>
<form id="page-form"><label>page <input id="page-input" type="number" min="1" step="1"></label>
<button>go</button></form>
</nav>"""
