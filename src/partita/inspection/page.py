"""The inspector's page: one self-contained HTML file drawn from the model's JSON.

PRINCIPLES

- **One file, no network.** CSS and script inline, the histograms inline SVG, the data one
  `<script type="application/json">` element; no font, image, link or CDN. The page opens
  offline and mails as an attachment. Standard library only.
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

import math
import os
import statistics
from collections.abc import Sequence
from html import escape
from pathlib import Path

from partita.inspection.data import InspectionModel, model_to_json

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
        f"<title>{escape(title)}</title><style>{_CSS}</style></head>\n<body>\n"
        f"{_summary_html(model, title)}\n{_PAGER}\n"
        '<div id="layout"><main id="doc" aria-live="polite"></main>'
        '<aside id="detail"><p class="muted">Hover a marked range to see its chunk;'
        " click it to pin the chunk here.</p></aside></div>\n"
        '<div id="tip" role="tooltip" hidden></div>\n'
        f'<script type="application/json" id="inspection-data">{data}</script>\n'
        f"<script>const PER_VIEW = {int(per_view)};\n{_SCRIPT}</script>\n"
        "</body></html>\n"
    )


def write_page(
    model: InspectionModel, path: str | os.PathLike[str], *, per_view: int = DEFAULT_PER_VIEW
) -> Path:
    """Write `model_to_html(model)` to `path` (UTF-8); return the path written."""
    target = Path(path)
    target.write_text(model_to_html(model, per_view=per_view), encoding="utf-8")
    return target


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


def _histogram_svg(values: Sequence[int], unit: str, bins: int = 20) -> str:
    """An SVG bar chart of `values` in about `bins` bins of a round width, each bar titled."""
    if not values:
        return ""
    top = max(values)
    width = _round_width(max(top, 1) / bins)
    counts = [0] * (top // width + 1)
    for value in values:
        counts[value // width] += 1
    most = max(counts)
    w, h, pad = 300, 86, 16
    bar = (w - 2) / len(counts)
    rects = []
    for index, count in enumerate(counts):
        height = (h - pad - 4) * count / most
        low = index * width
        rects.append(
            f'<rect class="bar" x="{1 + index * bar:.1f}" y="{h - pad - height:.1f}"'
            f' width="{max(bar - 1, 0.5):.1f}" height="{height:.1f}"><title>{low:,}–'
            f"{low + width - 1:,} {unit}: {count:,} chunks</title></rect>"
        )
    return (
        f'<figure class="histogram" data-unit="{unit}"><figcaption>chunk sizes, {unit}'
        f'</figcaption><svg viewBox="0 0 {w} {h}" role="img" aria-label="chunk sizes in {unit}">'
        + "".join(rects)
        + f'<line x1="0" x2="{w}" y1="{h - pad}" y2="{h - pad}"/>'
        f'<text x="1" y="{h - 3}">0</text>'
        f'<text x="{w - 1}" y="{h - 3}" text-anchor="end">{len(counts) * width:,}</text>'
        "</svg></figure>"
    )


def _round_width(raw: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... at least `raw`."""
    if raw <= 1:
        return 1
    power = 10 ** math.floor(math.log10(raw))
    for step in (1, 2, 5, 10):
        if step * power >= raw:
            return int(step * power)
    return int(10 * power)  # pragma: no cover


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


# -- a few rules a line: a small stylesheet rather than a readable one --
_CSS = """
:root{color-scheme:light;--ink:#1b1b1b;--muted:#5c5c5c;--line:#d4d4d4;--accent:#0072B2;
--k0:#cfe3ff;--k1:#ffdcae;--k2:#cdeec8;--k3:#f2cdee;--k0d:#2f6fc0;--k1d:#c46a00;--k2d:#2f8a3a;
--k3d:#a0409a}
*{box-sizing:border-box}body{margin:0;background:#fafafa;color:var(--ink);font:15px/1.5
system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",Arial,sans-serif}
.muted{color:var(--muted)}h1{font-size:1.35rem;margin:0;line-height:1.3;overflow-wrap:anywhere}
#summary{background:#fff;border-bottom:1px solid var(--line);padding:10px 18px 6px}
#summary>p{margin:2px 0 6px;font-size:.85rem;overflow-wrap:anywhere}
.summary-row{display:flex;flex-wrap:wrap;gap:10px 24px;align-items:flex-start}
.facts{display:grid;grid-template-columns:repeat(2,minmax(150px,auto));gap:2px 18px;margin:0;
font-size:.85rem}.facts dt{color:var(--muted)}.facts dd{margin:0 0 4px}
.histogram{margin:0;width:300px}.histogram figcaption{font-size:.8rem;color:var(--muted)}
.histogram svg{display:block;width:300px;height:86px}.histogram .bar{fill:var(--accent)}
.histogram .bar:hover{fill:#e69f00}.histogram line{stroke:#888}
.histogram text{font-size:10px;fill:var(--muted)}
.legend{list-style:none;display:flex;flex-wrap:wrap;gap:2px 14px;padding:0;margin:6px 0 0;
font-size:.8rem}.legend i{display:inline-block;width:12px;height:12px;border-radius:2px;
margin-right:3px;vertical-align:-1px;background:var(--tc,#999)}
.legend i.k0{background:var(--k0)}.legend i.k1{background:var(--k1)}
.legend i.k2{background:var(--k2)}.legend i.k3{background:var(--k3);margin-right:6px}
.legend i.ov,.s.ov{background:repeating-linear-gradient(135deg,var(--a,var(--k0)) 0 5px,
var(--b,var(--k1)) 5px 10px)}
#pager{position:sticky;top:0;z-index:3;display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;
background:#f0f3f7;border-bottom:1px solid var(--line);padding:6px 18px;font-size:.85rem}
#pager form{display:inline-flex;gap:4px;margin:0}#pager input{width:5.5em}
#pager button{cursor:pointer}
#layout{display:grid;grid-template-columns:minmax(0,1fr) 330px;gap:16px;padding:12px 18px;
align-items:start}
#doc{min-width:0}
.el{display:grid;grid-template-columns:8.5em minmax(0,1fr);gap:0 10px;background:#fff;
border:1px solid #e4e4e4;border-left:5px solid var(--tc,#999);border-radius:4px;margin:0 0 4px;
padding:2px 10px 3px 8px}.el>*{grid-column:2}.el>.meta{grid-column:1;grid-row:1/span 9}
.meta{display:flex;flex-direction:column;font-size:.72rem;color:var(--muted);line-height:1.35;
padding-top:3px;overflow-wrap:anywhere}.meta .type{font-weight:700;color:var(--tc,#555)}
.body{white-space:pre-wrap;overflow-wrap:anywhere}.el.title .body{font-weight:700;
font-size:1.08rem}.el.list .body::before{content:"• ";color:var(--muted)}
.s{border-radius:2px;padding:1px 0;cursor:pointer;-webkit-box-decoration-break:clone;
box-decoration-break:clone}.s.k0{background:var(--k0)}.s.k1{background:var(--k1)}
.s.k2{background:var(--k2)}.s.k3{background:var(--k3)}
.s.ov{border-bottom:2px solid #b3261e}.s.none{cursor:auto}
.s.hot{outline:2px solid #555}.s.sel{outline:2px solid #111;
box-shadow:0 0 0 4px rgba(0,0,0,.12)}
.pill{display:inline-block;font:700 .68rem/1.3 ui-monospace,"DejaVu Sans Mono",monospace;
border:0;border-radius:8px;padding:0 5px;margin:0 3px 0 1px;color:#fff;cursor:pointer;
vertical-align:1px}.pill.k0{background:var(--k0d)}.pill.k1{background:var(--k1d)}
.pill.k2{background:var(--k2d)}.pill.k3{background:var(--k3d)}
.pill.sel{box-shadow:0 0 0 2px #111}
.tbl{overflow-x:auto;margin:4px 0}.tbl table{border-collapse:collapse;font-size:.82rem}
.tbl th,.tbl td{border:1px solid #c8c8c8;padding:2px 6px;vertical-align:top;text-align:left}
.tbl th{background:#f3f3f3}
.strip-row{display:flex;align-items:center;gap:2px;margin:4px 0 2px}
.strip{position:relative;flex:1;height:12px;background:#eee;border-radius:3px}
.strip .s{position:absolute;top:0;bottom:0;padding:0;border-radius:0}
.strip .s.ov{border-bottom:0;top:3px}
.el details summary{font-size:.75rem;color:var(--muted);cursor:pointer}
#detail{position:sticky;top:46px;max-height:calc(100vh - 60px);overflow:auto;background:#fff;
border:1px solid var(--line);border-radius:6px;padding:8px 12px;font-size:.85rem}
#detail h2{font-size:1rem;margin:.2em 0}#detail dl{display:grid;
grid-template-columns:max-content 1fr;gap:2px 10px;margin:6px 0}#detail dt{color:var(--muted)}
#detail dd{margin:0;overflow-wrap:anywhere}#detail pre{white-space:pre-wrap;
overflow-wrap:anywhere;background:#f6f6f6;border:1px solid #e4e4e4;border-radius:4px;
padding:6px;font-size:.78rem;max-height:45vh;overflow:auto}
#detail nav{display:flex;gap:8px}#detail a{color:var(--accent);cursor:pointer}
#tip{position:fixed;z-index:5;max-width:380px;background:#222;color:#fff;border-radius:5px;
padding:6px 9px;font-size:.78rem;line-height:1.4;pointer-events:none;
box-shadow:0 2px 8px rgba(0,0,0,.3)}#tip p{margin:0 0 4px}#tip p:last-child{margin:0}
@media (max-width:900px){#layout{grid-template-columns:1fr}#detail{position:static;
max-height:none}}
"""

_SCRIPT = r"""
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("inspection-data").textContent);
  var E = D.elements, C = D.chunks, T = D.types;
  var TYPE_COLOURS = {Title: "#1f5fbf", NarrativeText: "#6b6b6b", ListItem: "#2f8a3a",
    Table: "#8a3ab9", TableChunk: "#8a3ab9", Header: "#b07a00", Footer: "#b07a00",
    PageNumber: "#b07a00", Image: "#c2410c", FigureCaption: "#c2410c", CodeSnippet: "#0f766e",
    Formula: "#0f766e", Address: "#9d174d", EmailAddress: "#9d174d", PageBreak: "#999999",
    UncategorizedText: "#999999"};
  var SPARE = ["#0e7490", "#7c3aed", "#be123c", "#4d7c0f", "#a16207"];
  var colours = T.map(function (name, i) { return TYPE_COLOURS[name] || SPARE[i % SPARE.length]; });
  document.querySelectorAll(".type-key").forEach(function (li) {
    var i = T.indexOf(li.getAttribute("data-type"));
    if (i >= 0) li.style.setProperty("--tc", colours[i]);
  });

  // -- each element's ranges, [start, end, chunk]; each chunk's first element and offset --
  var cover = new Array(E.length);
  C.forEach(function (c, ci) {
    var first = null;
    c.r.forEach(function (r) {
      (cover[r[0]] || (cover[r[0]] = [])).push([r[1], r[2], ci]);
      if (first === null || r[0] < first[0] || (r[0] === first[0] && r[1] < first[1])) first = r;
    });
    c.first = first;
    c.last = c.r.reduce(function (m, r) { return Math.max(m, r[0]); }, -1);
  });

  var views = Math.max(1, Math.ceil(E.length / PER_VIEW));
  var view = -1, selected = -1;
  var doc = document.getElementById("doc"), tip = document.getElementById("tip");
  var detail = document.getElementById("detail");
  document.getElementById("view-count").textContent = views;

  function esc(s) {
    return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;");
  }
  function k(ci) { return "k" + (ci % 4); }
  function sharing(ranges, lo, hi) {
    var out = [];
    for (var j = 0; j < ranges.length; j++) {
      if (ranges[j][0] <= lo && hi <= ranges[j][1] && out.indexOf(ranges[j][2]) < 0) {
        out.push(ranges[j][2]);
      }
    }
    return out.sort(function (a, b) { return a - b; });
  }
  function segClass(cs) {
    if (!cs.length) return "s none";
    var cls = "s " + (cs.length > 1 ? "ov" : k(cs[0]));
    cs.forEach(function (ci) { cls += " c" + ci; });
    return cls;
  }
  function segAttrs(cs, style) {
    var a = ' class="' + segClass(cs) + '"';
    if (cs.length) a += ' data-c="' + cs.join(" ") + '"';
    style = style || "";
    if (cs.length > 1) style += "--a:var(--" + k(cs[0]) + ");--b:var(--" + k(cs[1]) + ");";
    return style ? a + ' style="' + style + '"' : a;
  }
  function pill(ci) {
    return '<button type="button" class="pill ' + k(ci) + " c" + ci + '" data-c="' + ci +
      '" title="chunk ' + (ci + 1) + ' starts">' + (ci + 1) + "</button>";
  }
  function starts(i) {
    var out = {};
    (cover[i] || []).forEach(function (r) {
      var f = C[r[2]].first;
      if (f && f[0] === i) out[r[2]] = f[1];
    });
    return out;
  }

  // -- an element's text cut at every range boundary, each piece tinted by its chunks --
  function markedText(i, pills) {
    var text = E[i][1], ranges = cover[i] || [], first = pills ? starts(i) : {};
    var cuts = [0, text.length];
    ranges.forEach(function (r) { cuts.push(r[0], r[1]); });
    cuts = cuts.filter(function (v, j, a) { return a.indexOf(v) === j; })
      .sort(function (a, b) { return a - b; });
    var html = "";
    for (var j = 0; j + 1 < cuts.length; j++) {
      var lo = cuts[j], hi = cuts[j + 1];
      Object.keys(first).forEach(function (ci) {
        if (first[ci] === lo) html += pill(+ci);
      });
      html += "<span" + segAttrs(sharing(ranges, lo, hi)) + ">" + esc(text.slice(lo, hi)) +
        "</span>";
    }
    return html;
  }

  function tableBody(i) {
    var text = E[i][1], ranges = cover[i] || [], n = Math.max(text.length, 1);
    var cuts = [0, text.length];
    ranges.forEach(function (r) { cuts.push(r[0], r[1]); });
    cuts = cuts.filter(function (v, j, a) { return a.indexOf(v) === j; })
      .sort(function (a, b) { return a - b; });
    var strip = "";
    for (var j = 0; j + 1 < cuts.length; j++) {
      var cs = sharing(ranges, cuts[j], cuts[j + 1]);
      if (!cs.length) continue;
      var place = "left:" + (100 * cuts[j] / n) + "%;width:" +
        (100 * (cuts[j + 1] - cuts[j]) / n) + "%;";
      strip += "<span" + segAttrs(cs, place) + "></span>";
    }
    var pills = Object.keys(starts(i)).map(function (ci) { return pill(+ci); }).join("");
    return '<div class="tbl">' + E[i][3] + "</div>" + '<div class="strip-row">' + pills +
      '<div class="strip" title="the part of the table\'s text each chunk took">' + strip +
      "</div></div><details><summary>text</summary><div class=\"body\">" + markedText(i, false) +
      "</div></details>";
  }

  function elementHtml(i) {
    var e = E[i], type = T[e[0]];
    var cls = "el" + (type === "Title" ? " title" : type === "ListItem" ? " list" : "");
    var meta = '<div class="meta"><span class="type">' + esc(type) + "</span>" +
      "<span>element " + (i + 1) + (e[2] !== null ? " · page " + e[2] : "") +
      "</span></div>";
    var body = e[3] ? tableBody(i) : '<div class="body">' + markedText(i, true) + "</div>";
    return '<section class="' + cls + '" id="e' + i + '" data-i="' + i + '" data-type="' +
      esc(type) + '" style="--tc:' + colours[e[0]] + '">' + meta + body + "</section>";
  }

  function pagesOf(lo, hi) {
    var a = null, b = null;
    for (var i = lo; i < hi; i++) {
      var p = E[i][2];
      if (p === null) continue;
      if (a === null || p < a) a = p;
      if (b === null || p > b) b = p;
    }
    return a === null ? "" : a === b ? " · page " + a : " · pages " + a + "–" + b;
  }

  function show(v) {
    v = Math.max(0, Math.min(views - 1, v));
    if (v === view) return;
    view = v;
    var lo = v * PER_VIEW, hi = Math.min(E.length, lo + PER_VIEW), html = [];
    for (var i = lo; i < hi; i++) html.push(elementHtml(i));
    doc.innerHTML = html.join("") || '<p class="muted">No elements.</p>';
    document.getElementById("view-label").textContent = E.length ?
      "elements " + (lo + 1).toLocaleString() + "–" + hi.toLocaleString() + " of " +
      E.length.toLocaleString() + pagesOf(lo, hi) : "no elements";
    document.getElementById("view-input").value = v + 1;
    document.getElementById("prev").disabled = v === 0;
    document.getElementById("next").disabled = v === views - 1;
    if (selected >= 0) mark("sel", selected, true);
  }

  function mark(cls, ci, on) {
    doc.querySelectorAll("." + cls).forEach(function (n) { n.classList.remove(cls); });
    if (on) doc.querySelectorAll(".c" + ci).forEach(function (n) { n.classList.add(cls); });
  }

  function describe(ci) {
    var c = C[ci];
    var pages = c.p ? (c.p[0] === c.p[1] ? "page " + c.p[0] : "pages " + c.p[0] + "–" + c.p[1])
      : "no page";
    return {title: "chunk " + (ci + 1) + " of " + C.length + " · " + c.y,
      size: c.n.toLocaleString() + " characters · " + c.k.toLocaleString() + " tokens",
      heading: c.h.length ? c.h.join(" › ") : "(no heading)", pages: pages};
  }

  function select(ci, scroll) {
    if (ci < 0 || ci >= C.length) return;
    selected = ci;
    var c = C[ci], d = describe(ci);
    if (c.first) show(Math.floor(c.first[0] / PER_VIEW));
    mark("sel", ci, true);
    var els = c.r.map(function (r) { return r[0]; });
    var span = els.length ? "elements " + (Math.min.apply(null, els) + 1) + "–" +
      (Math.max.apply(null, els) + 1) : "no source records (provenance)";
    detail.innerHTML = "<h2>" + esc(d.title) + '</h2><dl id="chunk-detail" data-chunk="' + ci +
      '"><dt>size</dt><dd class="size">' + esc(d.size) + "</dd><dt>heading path</dt><dd>" +
      esc(d.heading) + "</dd><dt>pages</dt><dd>" + esc(d.pages) + "</dd><dt>from</dt><dd>" +
      esc(span) + "</dd><dt>ranges</dt><dd>" + c.r.length + "</dd></dl><nav>" +
      (ci > 0 ? '<a data-go="' + (ci - 1) + '">◀ chunk ' + ci + "</a>" : "") +
      (ci + 1 < C.length ? '<a data-go="' + (ci + 1) + '">chunk ' + (ci + 2) + " ▶</a>" : "") +
      '</nav><p class="muted">what it took from the elements, its records joined:</p><pre>' +
      esc(chunkText(ci)) + "</pre>";
    if (scroll) {
      var target = doc.querySelector(".pill.c" + ci) || doc.querySelector(".c" + ci);
      if (target) target.scrollIntoView({block: "center"});
    }
  }

  // -- the chunk's text as its records rebuild it (what it took, in order) --
  function chunkText(ci) {
    return C[ci].r.map(function (r) { return E[r[0]][1].slice(r[1], r[2]); }).join(" ");
  }

  function chunksAt(node) {
    var seg = node.closest && node.closest("[data-c]");
    return seg ? seg.getAttribute("data-c").split(" ").map(Number) : null;
  }

  doc.addEventListener("mouseover", function (ev) {
    var cs = chunksAt(ev.target);
    if (!cs) { tip.hidden = true; mark("hot", 0, false); return; }
    tip.innerHTML = cs.map(function (ci) {
      var d = describe(ci);
      return "<p><b>" + esc(d.title) + "</b><br>" + esc(d.size) + "<br>" + esc(d.heading) +
        "<br>" + esc(d.pages) + "</p>";
    }).join("");
    tip.hidden = false;
    mark("hot", cs[0], true);
  });
  doc.addEventListener("mousemove", function (ev) {
    if (tip.hidden) return;
    var x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
    var y = ev.clientY + 16;
    if (y + tip.offsetHeight > window.innerHeight) y = ev.clientY - tip.offsetHeight - 10;
    tip.style.left = Math.max(4, x) + "px";
    tip.style.top = Math.max(4, y) + "px";
  });
  doc.addEventListener("mouseleave", function () { tip.hidden = true; mark("hot", 0, false); });
  doc.addEventListener("click", function (ev) {
    var cs = chunksAt(ev.target);
    if (!cs) return;
    // -- a range of several chunks: each click pins the next of them --
    var at = cs.indexOf(selected);
    select(cs[(at + 1) % cs.length], false);
  });
  detail.addEventListener("click", function (ev) {
    var go = ev.target.closest && ev.target.closest("[data-go]");
    if (go) select(+go.getAttribute("data-go"), true);
  });
  document.getElementById("prev").addEventListener("click", function () {
    show(view - 1); window.scrollTo(0, 0);
  });
  document.getElementById("next").addEventListener("click", function () {
    show(view + 1); window.scrollTo(0, 0);
  });
  document.getElementById("view-input").addEventListener("change", function (ev) {
    show((+ev.target.value || 1) - 1);
  });
  document.getElementById("chunk-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    select((+document.getElementById("chunk-input").value || 1) - 1, true);
  });
  document.getElementById("page-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var p = +document.getElementById("page-input").value || 1;
    for (var i = 0; i < E.length; i++) {
      if (E[i][2] !== null && E[i][2] >= p) {
        show(Math.floor(i / PER_VIEW));
        var n = document.getElementById("e" + i);
        if (n) n.scrollIntoView({block: "start"});
        return;
      }
    }
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowRight") show(view + 1);
    else if (ev.key === "ArrowLeft") show(view - 1);
  });
  show(0);
  document.body.setAttribute("data-ready", "1");
})();
"""
