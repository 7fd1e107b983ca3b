"""The evaluation's results as a Markdown table (for the terminal) and as one HTML page.

PRINCIPLES

- **Input is the results dict** the run writes (its JSON, loaded), read defensively: a missing
  or null field is "not measured", never an error and never a zero. A run without questions (or
  without an embedding model) has no retrieval columns or charts, one without an embedding model
  no coherence or boundary quality; the table and the page say so where they would be.
- **One self-contained file.** CSS inline (`assets/report.css`, package data), charts inline
  SVG (`partita._charts`), no script, no font, no image, no link: the page opens
  offline, mails as an attachment and prints. Standard library only.
- **The decision first.** The page opens with the run's facts and the recommendation (what to
  use, why, and the path that led there), then the table, then the charts that explain it:
  metrics side by side, retrieval against the tokens read, chunk sizes.
- **Numbers as people read them.** Fractions (recall, precision, IoU, shares) as percentages
  with one decimal; scores (coherence, boundary quality, MRR) with three decimals; None as "–",
  NaN as "n/a". In each column whose direction is known (higher or lower is better) the best
  value is bold, ties at the shown precision included, when at least two configurations differ.
- **Long names stay whole where there is room** (the table wraps them after `:` and `,`) and
  are shortened only inside charts, where each configuration also has the key letter and colour
  that the table's first column shows.
"""

from __future__ import annotations

import functools
import importlib.resources
import itertools
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from partita import _charts as plots
from partita.evaluation._questions import skipped_lines

__all__ = ["results_to_html", "results_to_markdown", "write_report"]

Results = Mapping[str, Any]
Styled = Sequence[tuple[plots.Style, Mapping[str, Any]]]  # -- each configuration, its style --
NOT_MEASURED = "–"
_BETTER = {"high": "higher", "low": "lower"}
# -- the table's columns that also have a bar chart, by where their value is --
_BARS = (("retrieval", "top_k", "recall"), ("retrieval", "top_k", "iou"),
         ("intrinsic", "coherence"), ("intrinsic", "boundary_quality"),
         ("intrinsic", "mid_sentence_share"))  # fmt: skip


@dataclass(frozen=True)
class _Column:
    """One table column: where its value is in a configuration, how to show and rank it."""

    label: str  # -- its header in Markdown --
    group: str  # -- in HTML, a header over the columns of a group, each with its `short` one --
    short: str
    path: tuple[str, ...]
    kind: str  # -- "int", "tokens", "percent", "score" or "seconds" --
    better: str | None  # -- "high", "low" or None (no best) --
    help: str


def results_to_markdown(results: Results) -> str:
    """A compact Markdown table, one row per configuration, then the recommendation."""
    configurations = _configurations(results)
    columns, missing = _columns(results)
    chosen = _recommended_name(results)
    header = ["configuration", *(column.label for column in columns)]
    rows = [
        [_name(c, i).replace("|", "\\|") + (" ★" if _name(c, i) == chosen else "")]
        for i, c in enumerate(configurations)
    ]
    for column in columns:
        for row, (text, best) in zip(rows, _cells(configurations, column), strict=True):
            row.append(f"**{text}**" if best else text)
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        pairs = enumerate(zip(cells, widths, strict=True))
        padded = (cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in pairs)
        return "| " + " | ".join(padded) + " |"

    rule = line(["-" * (w - 1) + ":" if i else "-" * w for i, w in enumerate(widths)])
    out = ["partita evaluation: " + "; ".join(f"{a.lower()}: {b}" for a, b in _facts(results))]
    out.append("")
    out += [line(header), rule, *map(line, rows)] if rows else ["No configurations."]
    out += ["", "Not measured: " + "; ".join(missing) + "."] if missing else []
    rec = results.get("recommendation")
    basis = _dig(rec, ("basis",))
    if not isinstance(rec, Mapping):
        out += ["", "No recommendation was made."]
    elif chosen is None:
        out += ["", "**No recommendation:** " + "; ".join(map(str, rec.get("reasons") or []))]
    else:
        out += ["", f"**Recommended:** {_chosen(rec)} (★)" + (f", on {basis}" if basis else "")]
        out += ["- Why: " + "; ".join(map(str, rec["reasons"]))] if rec.get("reasons") else []
    out += [f"- {head}: {item}" for head, items in _left_out(results) for item in items]
    return "\n".join(out) + "\n"


def results_to_html(results: Results) -> str:
    """One self-contained HTML page: facts, recommendation, table, then the charts."""
    configurations = _configurations(results)
    styles = plots.styles([_name(config, i) for i, config in enumerate(configurations)])
    styled = list(zip(styles, configurations, strict=True))
    title = f"Chunking evaluation: {len(configurations)} configurations"
    created = f"partita {results.get('partita_version', '?')}, run {results.get('created', '?')}"
    body = [
        f'<header><h1>{escape(title)}</h1><p class="sub">{escape(created)}</p>',
        _facts_html(results) + "</header>",
        _recommendation_html(results, styles),
        _table_html(results, styled),
        _bars_html(results, styled),
        _curves_html(results, styled),
        _histograms_html(results, styled),
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>\n{_stylesheet()}</style></head>\n<body><main>\n"
        + "\n".join(body)
        + "\n</main></body></html>\n"
    )


def write_report(results: Results, path: str | os.PathLike[str]) -> Path:
    """Write `results_to_html(results)` to `path` (UTF-8); return the path written."""
    target = Path(path)
    target.write_text(results_to_html(results), encoding="utf-8")
    return target


# -- the table --


@functools.cache
def _stylesheet() -> str:
    """The report's stylesheet, `assets/report.css` (package data), read on first use."""
    assets = importlib.resources.files("partita.evaluation").joinpath("assets")
    return assets.joinpath("report.css").read_text(encoding="utf-8")


def _columns(results: Results) -> tuple[list[_Column], list[str]]:
    """The columns worth showing for these results, and what was not measured, in words."""
    k, budget = results.get("k"), results.get("token_budget")
    chars = f"{results['character_budget']:,}" if results.get("character_budget") else "?"
    at, top = (f"@{k}", f"top {k}") if isinstance(k, int) else ("", "top k")
    tokens = f"{budget:,}" if isinstance(budget, int) else "?"
    size, ranked = ("intrinsic", "tokens"), ("retrieval", "top_k")
    columns = [
        _Column("chunks", "chunks", "count", ("intrinsic", "chunks"), "int", None,
                "Chunks made from all documents."),
        _Column("mean tok", "chunks", "mean tok", (*size, "mean"), "tokens", None,
                "Mean chunk size in tokens."),
        _Column("p95 tok", "chunks", "p95 tok", (*size, "p95"), "tokens", None,
                "95th percentile of chunk size: 95% of the chunks are no larger."),
        _Column("over window", "chunks", "over window", (*size, "over_window_share"), "percent",
                "low", "Chunks longer than the embedding model's window, whose end it cannot see."),
        _Column("coherence", "semantics", "coherence", ("intrinsic", "coherence"), "score",
                "high", "How alike the sentences inside a chunk are (embedding similarity)."),
        _Column("boundary", "semantics", "boundary", ("intrinsic", "boundary_quality"), "score",
                "high", "How much less alike the text is across a chunk boundary than within."),
        _Column("mid-sentence", "structure", "mid-sentence", ("intrinsic", "mid_sentence_share"),
                "percent", "low", "Chunks that end in the middle of a sentence."),
        _Column("orphan headings", "structure", "orphan headings",
                ("intrinsic", "orphaned_headings"), "int", "low",
                "Headings cut off from the text they introduce."),
        _Column(f"recall{at}", top, "recall", (*ranked, "recall"), "percent", "high",
                f"Share of the answers' text found in the top {k} chunks."),
        _Column(f"IoU{at}", top, "IoU", (*ranked, "iou"), "percent", "high",
                "Answer text over all text retrieved or answering (intersection over union): "
                "finding the answer without reading much else."),
        _Column(f"prec. Ω{at}", top, "prec. Ω", (*ranked, "precision_omega"), "percent", "high",
                "Precision if exactly the chunks holding the answer were retrieved: the best "
                "precision these chunks allow."),
        _Column(f"MRR{at}", top, "MRR", (*ranked, "mrr"), "score", "high",
                "Mean reciprocal rank of the first chunk holding an answer."),
        _Column(f"page hit{at}", top, "page hit", (*ranked, "page_hit"), "percent", "high",
                f"Questions with an evidence page among the top {k} results' pages."),
        _Column(f"evidence{at}", top, "evidence", (*ranked, "evidence_recall"), "percent", "high",
                f"Share of the evidence's words in the text the top {k} results retrieved from "
                "its pages."),
        _Column(f"any page{at}", top, "evidence, any page",
                (*ranked, "evidence_recall_any_page"), "percent", "high",
                f"Share of the evidence's words in all the text the top {k} results retrieved, "
                "on any page."),
        _Column(f"chars{at}", top, "chars", (*ranked, "retrieved_characters"), "int", None,
                f"Characters the top {k} results hold, a question: what reading them costs."),
        _Column(f"recall@{budget} tok", "budget", f"recall ({tokens} tok)",
                ("retrieval", "token_budget", "recall"), "percent", "high",
                f"Share of the answers' text found in as many chunks as fit {tokens} tokens."),
        _Column(f"recall@{chars} chr", "budget", f"recall ({chars} chr)",
                ("retrieval", "character_budget", "recall"), "percent", "high",
                f"Share of the answers' text found in as many chunks as fit {chars} characters."),
        _Column(f"page hit@{chars} chr", "budget", f"page hit ({chars} chr)",
                ("retrieval", "character_budget", "page_hit"), "percent", "high",
                f"Questions with an evidence page among the results that fit {chars} characters."),
        _Column(f"evidence@{chars} chr", "budget", f"evidence ({chars} chr)",
                ("retrieval", "character_budget", "evidence_recall"), "percent", "high",
                f"Share of the evidence's words retrieved from its pages within {chars} "
                "characters."),
        _Column(f"any page@{chars} chr", "budget", f"evidence, any page ({chars} chr)",
                ("retrieval", "character_budget", "evidence_recall_any_page"), "percent", "high",
                f"Share of the evidence's words retrieved within {chars} characters, on any "
                "page."),
        _Column(f"chars@{chars} chr", "budget", f"chars ({chars} chr)",
                ("retrieval", "character_budget", "retrieved_characters"), "int", None,
                f"Characters retrieved within the budget of {chars}, a question."),
        _Column("chunking s", "cost", "chunking (s)", ("efficiency", "chunking_seconds"),
                "seconds", "low", "Seconds spent chunking all documents."),
        _Column("tokens to embed", "cost", "tokens to embed", ("efficiency", "tokens_to_embed"),
                "int", "low", "Tokens in all chunks: what embedding them costs."),
    ]  # fmt: skip
    configurations = _configurations(results)
    shown = [
        column for column in columns
        if any(_value(config, column.path) is not None for config in configurations)
        and (results.get("embedding") or column.label != "over window")
    ]  # fmt: skip
    labels, missing = {column.label for column in shown}, []
    if configurations and f"recall{at}" not in labels:
        missing.append(f"retrieval ({_why_no_retrieval(results)})")
    if configurations and "coherence" not in labels and "boundary" not in labels:
        missing.append("coherence and boundary quality (no embedding model)")
    return shown, missing


def _cells(configurations: Sequence[Mapping[str, Any]], column: _Column) -> list[tuple[str, bool]]:
    """Each configuration's value as shown, and whether it is the column's best."""
    values = [_value(config, column.path) for config in configurations]
    texts = [_format(value, column.kind) for value in values]
    finite = [v for v in values if v is not None and math.isfinite(v)]
    if column.better is None or len(finite) < 2:
        return [(text, False) for text in texts]
    best = _format(max(finite) if column.better == "high" else min(finite), column.kind)
    tied = all(_format(v, column.kind) == best for v in finite)
    return [(text, not tied and text == best) for text in texts]


def _table_html(results: Results, styled: Styled) -> str:
    columns, missing = _columns(results)
    chosen = _recommended_name(results)
    groups = [(g, len(list(c))) for g, c in itertools.groupby(columns, lambda c: c.group)]
    head = (
        '<tr><th scope="col" rowspan="2">configuration</th>'
        + "".join(f'<th scope="colgroup" colspan="{n}">{escape(g)}</th>' for g, n in groups)
        + "</tr><tr>"
        + "".join(f'<th scope="col" title="{escape(c.help)}">{escape(c.short)}</th>'
                  for c in columns)
        + "</tr>"
    )  # fmt: skip
    grid = [_cells([config for _, config in styled], column) for column in columns]
    rows = []
    for i, (style, _) in enumerate(styled):
        mark = ' <span class="badge">recommended</span>' if style.name == chosen else ""
        cells = "".join(
            f"<td><strong>{escape(t)}</strong></td>" if best else f"<td>{escape(t)}</td>"
            for t, best in (column[i] for column in grid)
        )
        name = f"{_key_html(style)} {_breakable(style.name)}{mark}"
        rows.append(f'<tr><th scope="row">{name}</th>{cells}</tr>')
    notes = ["The best value in each column is bold (where higher or lower is better)."]
    notes += ["Not measured: " + "; ".join(missing) + "."] if missing else []
    glossary = "".join(f"<dt>{escape(c.label)}</dt><dd>{escape(c.help)}</dd>" for c in columns)
    return (
        '<section><h2>Configurations compared</h2><div class="table-wrap"><table>'
        f"<thead>{head}</thead><tbody>{''.join(rows)}</tbody></table></div>"
        + "".join(f'<p class="note">{escape(note)}</p>' for note in notes)
        + f'<details><summary>What the columns mean</summary><dl class="glossary">{glossary}'
        "</dl></details></section>"
    )


# -- the charts --


def _bars_html(results: Results, styled: Styled) -> str:
    columns, missing = _columns(results)
    figures = []
    charted = sorted((c for c in columns if c.path in _BARS), key=lambda c: _BARS.index(c.path))
    for index, column in enumerate(charted):
        rows = [(style, _value(config, column.path)) for style, config in styled]
        name, hint = (
            column.label[0].upper() + column.label[1:],
            f"{_BETTER[column.better or 'high']} is better",
        )
        svg = plots.bar_svg(chart_id=f"bar{index}", title=f"{name}, {hint}: {column.help}",
                            rows=rows, percent=column.kind == "percent",
                            fmt=functools.partial(_format, kind=column.kind))  # fmt: skip
        figures.append(
            f'<figure class="bars"><figcaption>{escape(name)} <span>({hint})</span>'
            f'<span class="facts-line">{escape(column.help)}</span></figcaption>{svg}</figure>'
        )
    note = "Not measured: " + "; ".join(missing) + "." if missing else ""
    return _section("Metrics side by side", note, figures)


def _curves_html(results: Results, styled: Styled) -> str:
    series: dict[str, list[tuple[plots.Style, list[tuple[float, float, int]]]]] = {}
    for style, config in styled:
        curve = _dig(config, ("retrieval", "curve"))
        for metric in ("recall", "iou"):
            points = sorted([
                (float(p["retrieved_tokens"]), float(p[metric]), int(p["k"]))
                for p in (curve if isinstance(curve, list) else [])
                if isinstance(p, Mapping) and _finite(p.get("retrieved_tokens"))
                and _finite(p.get(metric)) and isinstance(p.get("k"), int)
            ], key=lambda point: point[2])  # fmt: skip
            if points:
                series.setdefault(metric, []).append((style, points))
    title = "Retrieval: answers found for the tokens read"
    if not series:
        return _section(title, f"Not measured: {_why_no_retrieval(results)}.", [])
    # -- a budget far beyond every curve would squeeze them to the left: not drawn then --
    reach = max(x for lines in series.values() for _, points in lines for x, _, _ in points)
    budget = results.get("token_budget")
    budget = budget if isinstance(budget, int) and budget <= 1.5 * reach else None
    drawn = {style.key for lines in series.values() for style, _ in lines}
    absent = [f"{style.key} {style.name}" for style, _ in styled if style.key not in drawn]
    intro = (
        "Each point is one k (the number of chunks retrieved), from 1 up: higher and further "
        "left is better, more of the answers for fewer tokens read."
        + (" The dashed line is the token budget." if budget else "")
        + (f" Not measured for: {', '.join(absent)}." if absent else "")
    )
    figures = [
        f'<figure class="curve"><figcaption>{label} against tokens retrieved</figcaption>'
        + plots.curve_svg(chart_id=f"curve-{metric}", series=series[metric],
                          title=f"{label} against mean tokens retrieved, per k",
                          y_label=f"{label} (%)", x_label="mean tokens retrieved", budget=budget)
        + "</figure>"
        for metric, label in (("recall", "Recall"), ("iou", "IoU")) if metric in series
    ]  # fmt: skip
    return _section(title, intro, figures, "grid wide")


def _histograms_html(results: Results, styled: Styled) -> str:
    window_value = _value(results.get("embedding"), ("window_tokens",))
    window = int(window_value) if window_value is not None and _finite(window_value) else None
    histograms = [_histogram(config) for _, config in styled]
    top = max((h[0][-1] for h in histograms if h), default=0.0)
    # -- one scale for all, the window on it unless it lies far beyond every chunk --
    shown_window = window if window is not None and window <= max(top, 1.0) * 1.5 else None
    x_max = max(top, (shown_window or 0) * 1.04, 1.0)
    figures = []
    for index, ((style, config), histogram) in enumerate(zip(styled, histograms, strict=True)):
        facts = [f"{_format(_value(config, ('intrinsic', 'chunks')), 'int')} chunks"]
        tokens = _dig(config, ("intrinsic", "tokens"))
        if isinstance(tokens, Mapping):
            facts += [f"mean {_format(_value(tokens, ('mean',)), 'tokens')}",
                      f"p95 {_format(_value(tokens, ('p95',)), 'tokens')} tokens"]  # fmt: skip
            share = _value(tokens, ("over_window_share",))
            if window is not None and share is not None:
                facts.append(f"{_format(share, 'percent')} over the {window:,}-token window")
        caption = (
            f"<figcaption>{_key_html(style)} {_breakable(style.name)}"
            f'<span class="facts-line">{escape(" · ".join(facts))}</span></figcaption>'
        )
        if histogram is None:
            figures.append(f'<figure>{caption}<p class="note">No chunks to draw.</p></figure>')
            continue
        edges, counts, unit = histogram
        svg = plots.histogram_svg(
            chart_id=f"hist{index}", title=f"Chunk sizes, {style.key} {style.name}",
            edges=edges, counts=counts, colour=style.colour, x_max=x_max,
            window=shown_window if unit == "tokens" else None, unit=unit,
        )  # fmt: skip
        figures.append(f'<figure class="histogram">{caption}{svg}</figure>')
    intro = "Chunk sizes on one scale, to compare the configurations."
    if window is not None and shown_window:
        intro += (
            f" The dashed line is the embedding model's window ({window:,} tokens): the shaded"
            " sizes would be cut when embedded (roughly: the model counts its own tokens)."
        )
    elif window is not None:
        intro += f" The embedding model's window ({window:,} tokens) is far beyond every chunk."
    return _section("Chunk sizes", intro, figures)


def _histogram(config: Mapping[str, Any]) -> tuple[list[float], list[int], str] | None:
    """The histogram's edges, counts and unit, or None when there is nothing to draw."""
    histogram = _dig(config, ("intrinsic", "histogram"))
    edges, counts = _dig(histogram, ("edges",)), _dig(histogram, ("counts",))
    if not (isinstance(edges, list) and isinstance(counts, list)) or len(edges) != len(counts) + 1:
        return None
    if not all(map(_finite, edges + counts)) or sum(counts) <= 0:
        return None
    unit = str(_dig(histogram, ("unit",)) or "tokens")
    return [float(e) for e in edges], [int(c) for c in counts], unit


# -- the page's other parts --


def _facts(results: Results) -> list[tuple[str, str]]:
    """The run's facts, named: the documents, model, questions, k, budget, configurations."""
    documents = [d for d in results.get("documents") or [] if isinstance(d, Mapping)]
    characters = sum(int(d["characters"]) for d in documents if _finite(d.get("characters")))
    embedding, questions, budget = (results.get(key) for key in ("embedding", "questions",
                                                                  "token_budget"))  # fmt: skip
    model = "none (coherence and boundary quality not measured)"
    if isinstance(embedding, Mapping):
        model = str(embedding.get("model", "?"))
        if isinstance(embedding.get("dimensions"), int):
            model += f", {embedding['dimensions']} dimensions"
        if isinstance(embedding.get("window_tokens"), int):
            model += f", window {embedding['window_tokens']:,} tokens"
    return [
        ("Documents", f"{len(documents):,} ({characters:,} characters)"),
        ("Embedding model", model),
        ("Questions", (f"{questions:,}" if isinstance(questions, int) and questions else
         "none (retrieval not measured)") + _skipped(results)),
        ("Chunks retrieved (k)", str(results.get("k", NOT_MEASURED))),
        ("Token budget", f"{budget:,} tokens" if isinstance(budget, int) else "none"),
        ("Configurations", str(len(_configurations(results)))),
    ]  # fmt: skip


def _skipped(results: Results) -> str:
    skipped = results.get("skipped_questions")
    return f" ({len(skipped)} skipped)" if isinstance(skipped, list) and skipped else ""


def _facts_html(results: Results) -> str:
    items = "".join(
        f"<div><dt>{escape(a)}</dt><dd>{escape(b)}</dd></div>" for a, b in _facts(results)
    )
    documents = [d for d in results.get("documents") or [] if isinstance(d, Mapping)]
    listed = "".join(
        f"<li>{escape(str(d.get('name', '?')))} "
        f"<span>({_format(_value(d, ('characters',)), 'int')} characters)</span></li>"
        for d in documents
    )
    details = f"<details><summary>The documents</summary><ul>{listed}</ul></details>"
    return f'<dl class="facts">{items}</dl>' + (details if documents else "")


def _recommendation_html(results: Results, styles: Sequence[plots.Style]) -> str:
    rec = results.get("recommendation")
    head = '<section class="recommendation" aria-labelledby="rec"><h2 id="rec">Recommendation</h2>'
    if not isinstance(rec, Mapping):
        return head + "<p>No recommendation was made for this run.</p></section>"
    style = next((s for s in styles if s.name == _recommended_name(results)), None)
    reasons = "".join(f"<li>{_breakable(str(r))}</li>" for r in rec.get("reasons") or [])
    basis = rec.get("basis")
    notes = "".join(f"<h3>{escape(h)}</h3><ul>" + "".join(f"<li>{_breakable(i)}</li>"
                    for i in items) + "</ul>" for h, items in _left_out(results))  # fmt: skip
    use = (f'<p class="use">Use {_chosen(rec, html=True)}</p>' if style else
           '<p class="use">No configuration is recommended.</p>')  # fmt: skip
    return (
        head + use
        + (f"<p>Configuration {_key_html(style)} {_breakable(style.name)} in the table and"
           " charts.</p>" if style else "")
        + (f"<h3>Why{f', on {escape(basis)}' if basis else ''}</h3><ul>{reasons}</ul>"
           if reasons else "")
        + notes + "</section>"
    )  # fmt: skip


def _left_out(results: Results) -> list[tuple[str, list[str]]]:
    """What the recommendation and the run left out, in words, under a heading each."""
    excluded = _dig(results, ("recommendation", "excluded"))
    groups = [
        ("Not recommended", [f"{e.get('configuration')}: {e.get('reason')}"
                             for e in excluded or [] if isinstance(e, Mapping)]),
        ("Question skipped", skipped_lines((str(q.get("where")), str(q.get("reason")))
                                           for q in results.get("skipped_questions") or []
                                           if isinstance(q, Mapping))),
        ("Document not read", [f"{d.get('document')}: {d.get('error')}"
                               for d in results.get("failed_documents") or []
                               if isinstance(d, Mapping)]),
        ("Configuration failed", [f"{c.get('name')}: {c.get('error')}"
                                  for c in results.get("failed_configurations") or []
                                  if isinstance(c, Mapping)]),
    ]  # fmt: skip
    shown = 10  # -- items listed under a heading; the rest counted (all are in the JSON) --
    return [(head, items[:shown] + [f"… and {len(items) - shown:,} more"] * (len(items) > shown))
            for head, items in groups if items]  # fmt: skip


def _chosen(rec: Mapping[str, Any], *, html: bool = False) -> str:
    """The recommended strategy and its options, as Markdown or as HTML."""
    strategy, options = str(rec.get("strategy", "?")), rec.get("options")
    options = options if isinstance(options, Mapping) else {}
    pairs = [f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in options.items()]
    if not html:
        return f"`{strategy}`" + (f" with {', '.join(pairs)}" if pairs else "")
    code = "".join(f" <code>{escape(pair)}</code>" for pair in pairs)
    return f"<strong>{escape(strategy)}</strong>" + (f" with{code}" if pairs else "")


def _recommended_name(results: Results) -> str | None:
    name = _dig(results, ("recommendation", "configuration"))
    return name if isinstance(name, str) else None


def _why_no_retrieval(results: Results) -> str:
    return "no embedding model" if results.get("questions") else "no questions with known answers"


def _section(title: str, intro: str, figures: Sequence[str], grid: str = "grid") -> str:
    text = f'<p class="note">{escape(intro)}</p>' if intro else ""
    body = f'<div class="{grid}">{"".join(figures)}</div>' if figures else ""
    return f"<section><h2>{escape(title)}</h2>{text}{body}</section>"


def _breakable(name: str) -> str:
    """A configuration's name escaped, with line-break opportunities after its `:` and `,`."""
    return escape(name).replace(",", ",<wbr>").replace(":", ":<wbr>")


def _key_html(style: plots.Style) -> str:
    colours = f"background:{style.colour};color:{style.on}"
    return f'<span class="key" style="{colours}">{escape(style.key)}</span>'


# -- values --


def _configurations(results: Results) -> list[Mapping[str, Any]]:
    return [c for c in results.get("configurations") or [] if isinstance(c, Mapping)]


def _name(config: Mapping[str, Any], index: int) -> str:
    return str(config.get("name") or f"configuration {index + 1}")


def _dig(node: Any, path: Sequence[str]) -> Any:
    for key in path:
        node = node.get(key) if isinstance(node, Mapping) else None
    return node


def _value(node: Any, path: Sequence[str]) -> float | None:
    """The number at `path`, or None when it is absent, null or not a number (NaN is kept)."""
    value = _dig(node, path)
    return None if isinstance(value, bool) or not isinstance(value, int | float) else float(value)


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _format(value: float | None, kind: str) -> str:
    if value is None:
        return NOT_MEASURED
    if not math.isfinite(value):
        return "n/a"
    if kind in ("percent", "score"):
        return f"{value * 100:.1f}%" if kind == "percent" else f"{value:.3f}"
    if kind == "seconds":
        return f"{value:.3f}" if value < 1 else f"{value:.2f}" if value < 10 else f"{value:,.1f}"
    return f"{value:.1f}" if kind == "tokens" and abs(value) < 100 else f"{value:,.0f}"


# -- a few rules a line: a small stylesheet rather than a readable one --
