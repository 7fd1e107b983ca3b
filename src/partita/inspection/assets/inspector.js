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

  // -- where an element's text is cut: its ends and every range boundary, sorted, once each --
  function cutsOf(text, ranges) {
    var cuts = [0, text.length];
    ranges.forEach(function (r) { cuts.push(r[0], r[1]); });
    return cuts.filter(function (v, j, a) { return a.indexOf(v) === j; })
      .sort(function (a, b) { return a - b; });
  }

  // -- an element's text cut at every range boundary, each piece tinted by its chunks --
  function markedText(i, pills) {
    var text = E[i][1], ranges = cover[i] || [], first = pills ? starts(i) : {};
    var cuts = cutsOf(text, ranges);
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
    var cuts = cutsOf(text, ranges);
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
