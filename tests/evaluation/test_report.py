"""The report: the Markdown table's content, the HTML page's structure, and how it looks.

The sample results are shaped like a real run's: four configurations (fixed token windows 250
with overlap 125, recursive 200 tokens, by_title at 1,000 characters, headings at 384 tokens),
472 questions, 20-bin size histograms and retrieval curves for k = 1..10. The last test renders
the page in headless Chromium and checks the screenshot is a picture, not a blank.
"""

from __future__ import annotations

import copy
import math
import random
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from PIL import Image

from partita import _charts as plots
from partita.evaluation.report import results_to_html, results_to_markdown, write_report
from tests.shared import require_program

# -- name, strategy, options, typical size in tokens, its spread, hard maximum, recall at k=10 --
_CONFIGURATIONS = [
    ("token:max_tokens=250,overlap=125", "token", {"max_tokens": 250, "overlap": 125},
     246, 8, 250, 0.91),
    ("recursive:max_tokens=200", "recursive", {"max_tokens": 200}, 150, 40, 200, 0.86),
    ("by_title:max_characters=1000", "by_title", {"max_characters": 1000}, 170, 60, 330, 0.88),
    ("headings:max_tokens=384,split_depth=3", "headings", {"max_tokens": 384, "split_depth": 3},
     210, 90, 384, 0.9),
]  # fmt: skip


def sample_results(configurations: int = 4) -> dict[str, Any]:
    """A realistic results dict (deterministic), with `configurations` of them (up to 12)."""
    rng = random.Random(4)
    entries = []
    for index in range(configurations):
        name, strategy, options, typical, spread, cap, top = _CONFIGURATIONS[index % 4]
        if index >= 4:
            name = f"{name},variant={index}"
            options = {**options, "variant": index}
            typical = int(typical * (0.7 + 0.1 * index))
            cap = int(cap * (0.7 + 0.1 * index))
            top -= 0.01 * index
        sizes = [max(5, min(cap, int(rng.gauss(typical, spread)))) for _ in range(2600 // 2)]
        step = max(sizes) / 20
        edges = [round(step * i, 2) for i in range(21)]
        counts = [0] * 20
        for size in sizes:
            counts[min(int(size / step), 19)] += 1
        ordered = sorted(sizes)
        mean = sum(sizes) / len(sizes)
        curve = []
        for k in range(1, 11):
            recall = top * (1 - math.exp(-k / 2.6)) / (1 - math.exp(-10 / 2.6))
            tokens = k * mean * (0.97 + 0.03 * rng.random())
            curve.append({"k": k, "retrieved_tokens": tokens, "recall": recall,
                          "iou": recall * 95 / tokens * (1.1 - 0.03 * index)})  # fmt: skip
        at_5 = curve[4]
        scores = {
            "recall": at_5["recall"], "precision": at_5["iou"] * 1.1, "iou": at_5["iou"],
            "precision_omega": 0.35 + 0.05 * index, "hit_rate": min(1.0, at_5["recall"] + 0.08),
            "mrr": 0.55 + 0.03 * (index % 4), "precision_at_k": 0.31, "recall_at_k": 0.7,
            "f1_at_k": 0.42, "retrieved_tokens": at_5["retrieved_tokens"],
        }  # fmt: skip
        entries.append({
            "name": name, "strategy": strategy, "options": options,
            "intrinsic": {
                "chunks": len(sizes),
                "characters": {"mean": mean * 4.3, "median": ordered[len(sizes) // 2] * 4.3,
                               "p95": ordered[int(len(sizes) * 0.95)] * 4.3, "max": cap * 5},
                "tokens": {"mean": mean, "median": float(ordered[len(sizes) // 2]),
                           "p95": float(ordered[int(len(sizes) * 0.95)]), "max": max(sizes),
                           "over_window_share": sum(s > 256 for s in sizes) / len(sizes)},
                "histogram": {"unit": "tokens", "edges": edges, "counts": counts},
                "coherence": 0.41 + 0.04 * (index % 4), "boundary_quality": 0.12 - 0.05 * index,
                "mid_sentence_share": [0.62, 0.08, 0.05, 0.03][index % 4],
                "orphaned_headings": [14, 6, 0, 0][index % 4],
            },
            "retrieval": {
                "top_k": scores,
                "token_budget": {**scores, "recall": at_5["recall"] * (1.02 - 0.02 * index)},
                "curve": curve,
                "per_question": [
                    {"id": f"q{q}", "recall": rng.random(), "precision": rng.random() / 3,
                     "iou": rng.random() / 4, "hit": rng.random() < 0.8,
                     "reciprocal_rank": rng.choice([1.0, 0.5, 1 / 3, 0.0])}
                    for q in range(472)
                ],
            },
            "efficiency": {"chunking_seconds": 0.8 + 0.9 * index, "chunks_per_second": 1500.0,
                           "tokens_to_embed": int(sum(sizes)), "embedding_seconds": 11.5},
        })  # fmt: skip
    return {
        "partita_version": "0.1.0",
        "created": "2026-03-14",
        "documents": [
            {"name": "annual-report-2024.pdf", "characters": 812_340},
            {"name": "employee-handbook.docx", "characters": 233_918},
            {"name": "api-guide.md", "characters": 96_507},
        ],
        "embedding": {"model": "all-MiniLM-L6-v2", "dimensions": 384, "window_tokens": 256},
        "k": 5,
        "token_budget": 1024,
        "questions": 472,
        "configurations": entries,
        "recommendation": {
            "strategy": "headings",
            "options": {"max_tokens": 200, "split_depth": 3},
            "configuration": entries[min(3, configurations - 1)]["name"],
            "basis": "retrieval",
            "reasons": [
                "it found the most of the answers' text: recall 88.4% within 1,024 retrieved"
                f" tokens, vs 81.0% for {entries[0]['name']} (the next best)",
                "0% of its chunks exceed the embedder's 256-token window",
            ],
            "excluded": [
                {
                    "configuration": "headings:max_tokens=384",
                    "reason": "34.5% of its chunks exceed the embedder's 256-token window",
                },
            ],
        },
    }


def without_retrieval(results: dict[str, Any]) -> dict[str, Any]:
    results = copy.deepcopy(results)
    results["questions"] = 0
    results["token_budget"] = None
    for config in results["configurations"]:
        config["retrieval"] = None
    results["recommendation"]["configuration"] = None
    return results


def without_embedder(results: dict[str, Any]) -> dict[str, Any]:
    results = copy.deepcopy(results)
    results["embedding"] = None
    for config in results["configurations"]:
        config["intrinsic"]["coherence"] = None
        config["intrinsic"]["boundary_quality"] = None
        config["efficiency"]["embedding_seconds"] = None
    return results


class _Page(HTMLParser):
    """Elements by tag, the classes of every `<svg>`, and whether each has a `<title>` child."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.svgs: list[dict[str, Any]] = []
        self._stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "svg":
            self.svgs.append({"class": dict(attrs).get("class") or "", "title": False})
        if tag == "title" and self._stack and self._stack[-1] == "svg":
            self.svgs[-1]["title"] = True
        if tag not in ("meta", "br", "hr", "img", "link", "input"):
            self._stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._stack:
            while self._stack.pop() != tag:
                pass


def parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    page.close()
    return page


def svgs_of(page: _Page, kind: str) -> list[dict[str, Any]]:
    return [svg for svg in page.svgs if f"chart-{kind}" in svg["class"].split()]


def small_results() -> dict[str, Any]:
    """Two configurations by hand, every number chosen to be checked in the table."""

    def entry(name: str, chunks: int, recall: float, seconds: float) -> dict[str, Any]:
        return {
            "name": name, "strategy": name.split(":")[0], "options": {},
            "intrinsic": {
                "chunks": chunks,
                "characters": {"mean": 900.0, "median": 880.0, "p95": 1000.0, "max": 1000},
                "tokens": {"mean": 212.4, "median": 210.0, "p95": 250.6, "max": 256,
                           "over_window_share": 0.0},
                "histogram": {"unit": "tokens", "edges": [0.0, 128.0, 256.0],
                              "counts": [chunks // 2, chunks - chunks // 2]},
                "coherence": 0.4567, "boundary_quality": None,
                "mid_sentence_share": 0.25, "orphaned_headings": 3,
            },
            "retrieval": {
                "top_k": {"recall": recall, "precision": 0.1, "iou": 0.0712,
                          "precision_omega": 0.3333, "hit_rate": 0.9, "mrr": 0.6789,
                          "precision_at_k": 0.2, "recall_at_k": 0.8, "f1_at_k": 0.3,
                          "retrieved_tokens": 1100.0},
                "token_budget": None,
                "curve": [{"k": k, "retrieved_tokens": 210.0 * k, "recall": recall * k / 3,
                           "iou": 0.1 / k} for k in (1, 2, 3)],
                "per_question": [],
            },
            "efficiency": {"chunking_seconds": seconds, "chunks_per_second": 100.0,
                           "tokens_to_embed": 21240, "embedding_seconds": None},
        }  # fmt: skip

    return {
        "partita_version": "0.1.0", "created": "2026-01-02",
        "documents": [{"name": "guide.md", "characters": 90_000}],
        "embedding": {"model": "mini", "dimensions": 384, "window_tokens": 256},
        "k": 3, "token_budget": None, "questions": 12,
        "configurations": [entry("token:max_tokens=256", 100, 0.8125, 0.5),
                           entry("by_title:max_characters=1000", 40, 0.75, 0.25)],
        "recommendation": {"strategy": "token", "options": {"max_tokens": 256},
                           "configuration": "token:max_tokens=256", "basis": "retrieval",
                           "reasons": ["best recall in the top 3 chunks"], "excluded": []},
    }  # fmt: skip


# -- Markdown --


def test_markdown_table_shows_each_configuration_with_its_numbers() -> None:
    text = results_to_markdown(small_results())
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("| configuration"))
    cells = [cell.strip() for cell in header.strip("|").split("|")]
    assert cells[:4] == ["configuration", "chunks", "mean tok", "p95 tok"]
    assert {"recall@3", "IoU@3", "prec. Ω@3", "MRR@3", "chunking s", "tokens to embed"} <= set(
        cells
    )
    # -- boundary quality is null in both: no column; no budget: no budget column --
    assert "boundary" not in cells
    assert not any(c.startswith("recall@None") for c in cells)
    token = next(line for line in lines if line.startswith("| token:max_tokens=256"))
    row = dict(zip(cells, (c.strip() for c in token.strip("|").split("|")), strict=True))
    assert row["configuration"] == "token:max_tokens=256 ★"
    assert row["chunks"] == "100"
    assert row["mean tok"] == "212"
    assert row["p95 tok"] == "251"
    assert row["recall@3"] == "**81.2%**"  # -- the better recall, bold --
    assert row["IoU@3"] == "7.1%"  # -- a tie: nobody is bold --
    assert row["prec. Ω@3"] == "33.3%"
    assert row["MRR@3"] == "0.679"
    assert row["mid-sentence"] == "25.0%"
    assert row["orphan headings"] == "3"
    assert row["chunking s"] == "0.500"  # -- slower: not bold --
    assert row["tokens to embed"] == "21,240"
    other = next(line for line in lines if line.startswith("| by_title"))
    assert "**0.250**" in other
    assert "75.0%" in other
    assert "**75.0%**" not in other
    # -- a rule with right-aligned numeric columns, then the recommendation in three lines --
    assert lines[lines.index(header) + 1].startswith("| ---")
    assert "-: |" in lines[3]
    assert lines[-2] == "**Recommended:** `token` with max_tokens=256 (★), on retrieval"
    assert lines[-1] == "- Why: best recall in the top 3 chunks"


def test_markdown_says_what_was_not_measured() -> None:
    text = results_to_markdown(without_embedder(without_retrieval(sample_results(2))))
    assert "recall@" not in text
    assert "coherence |" not in text
    assert "over window" not in text
    assert (
        "Not measured: retrieval (no questions with known answers); coherence and boundary" in text
    )
    results = sample_results(2)
    results["configurations"][1]["intrinsic"]["coherence"] = float("nan")
    results["configurations"][1]["retrieval"] = None
    row = results_to_markdown(results).splitlines()[5]
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[0] == "recursive:max_tokens=200 ★"
    assert cells[5] == "n/a"  # -- coherence NaN --
    assert cells[9:14] == ["–"] * 5  # -- retrieval None --
    # -- the only measured coherence (A's) is no contest: not bold --
    assert results_to_markdown(results).splitlines()[4].split("|")[6].strip() == "0.410"


def test_markdown_of_nothing() -> None:
    text = results_to_markdown({})
    assert "No configurations." in text
    assert "No recommendation was made." in text
    assert "documents: 0" in text


def test_what_was_left_out_is_listed_under_the_recommendation() -> None:
    results = small_results()
    results["recommendation"]["excluded"] = [
        {"configuration": "headings:max_tokens=384", "reason": "34.5% of its chunks exceed it"}
    ]
    results["skipped_questions"] = [
        {"id": "q0004", "question": "Who?", "where": "q.jsonl:4",
         "reason": "its answer 'x' is in no document"},
    ]  # fmt: skip
    results["failed_documents"] = [{"document": "bad.pdf", "error": "DocumentError: broken"}]
    results["failed_configurations"] = [{"name": "semantic:x", "error": "ValueError: no"}]
    lines = results_to_markdown(results).splitlines()
    assert lines[-4:] == [
        "- Not recommended: headings:max_tokens=384: 34.5% of its chunks exceed it",
        "- Question skipped: q.jsonl:4: its answer 'x' is in no document",
        "- Document not read: bad.pdf: DocumentError: broken",
        "- Configuration failed: semantic:x: ValueError: no",
    ]
    assert "questions: 12 (1 skipped)" in lines[0]
    tree = lxml.html.fromstring(results_to_html(results))
    box = tree.find(".//section")
    assert [h.text_content() for h in box.iter("h3")] == [
        "Why, on retrieval", "Not recommended", "Question skipped", "Document not read",
        "Configuration failed",
    ]  # fmt: skip
    results["recommendation"] = {
        "configuration": None, "strategy": None, "options": None, "basis": None,
        "reasons": ["retrieval was not measured"], "excluded": [],
    }  # fmt: skip
    assert "**No recommendation:** retrieval was not measured" in results_to_markdown(results)
    html = results_to_html(results)
    assert "No configuration is recommended." in html
    assert "recommended</span>" not in html


def test_markdown_escapes_pipes_in_names() -> None:
    results = small_results()
    results["configurations"][0]["name"] = "a|b"
    assert "| a\\|b " in results_to_markdown(results)


# -- HTML --


def test_html_parses_and_has_every_chart_each_with_a_title() -> None:
    results = sample_results()
    html = results_to_html(results)
    page = parse(html)
    assert len(svgs_of(page, "histogram")) == 4
    assert len(svgs_of(page, "curve")) == 2
    assert len(svgs_of(page, "bars")) == 5
    assert len(page.svgs) == 11
    assert all(svg["title"] for svg in page.svgs)
    assert all(("role", "img") in attrs.items() for tag, attrs in page.tags if tag == "svg")
    tree = lxml.html.fromstring(html)
    assert tree.findtext(".//title").startswith("Chunking evaluation")
    # -- the recommendation comes first, before the table and the charts --
    sections = [s.findtext("h2") for s in tree.iter("section")]
    assert sections == [
        "Recommendation", "Configurations compared", "Metrics side by side",
        "Retrieval: answers found for the tokens read", "Chunk sizes",
    ]  # fmt: skip
    box = tree.find(".//section")
    assert "headings" in box.text_content()
    assert "split_depth=3" in box.text_content()
    assert [h.text_content() for h in box.iter("h3")] == ["Why, on retrieval", "Not recommended"]
    assert [li.text_content() for li in box.iter("li")][-1] == (
        "headings:max_tokens=384: 34.5% of its chunks exceed the embedder's 256-token window"
    )
    # -- one table row per configuration; the recommended one is marked --
    rows = tree.findall(".//tbody/tr")
    assert len(rows) == 4
    assert "recommended" in rows[3].text_content()
    assert "472" in tree.find(".//dl").text_content()


def test_html_refers_to_nothing_outside_itself() -> None:
    html = results_to_html(sample_results(12))
    lowered = html.lower()
    for needle in ("http", "<script", "<link", "<img", "<iframe", "src=", "href=", "url(",
                   "@import", "xlink"):  # fmt: skip
        assert needle not in lowered, needle


def test_user_text_is_escaped() -> None:
    results = small_results()
    results["configurations"][0]["name"] = '<script>alert("x")</script>:a=1'
    results["documents"][0]["name"] = "<b>report</b>.pdf"
    results["recommendation"]["reasons"] = ["<i>because</i>"]
    html = results_to_html(results)
    assert "<script" not in html
    assert "<b>report" not in html
    assert "<i>because" not in html
    assert "&lt;script&gt;" in html
    assert "&lt;b&gt;report&lt;/b&gt;.pdf" in html
    parse(html)


@pytest.mark.parametrize(
    ("drop", "bars", "curves", "says"),
    [
        (without_retrieval, 3, 0, "Not measured: no questions with known answers."),
        (without_embedder, 3, 2, "coherence and boundary quality (no embedding model)"),
        (lambda r: without_embedder(without_retrieval(r)), 1, 0, "Not measured: retrieval"),
    ],
)
def test_missing_measurements_are_said_not_drawn(
    drop: Any, bars: int, curves: int, says: str
) -> None:
    html = results_to_html(drop(sample_results()))
    page = parse(html)
    assert len(svgs_of(page, "bars")) == bars
    assert len(svgs_of(page, "curve")) == curves
    assert len(svgs_of(page, "histogram")) == 4
    assert says in html


def test_questions_without_an_embedding_model_say_so() -> None:
    results = without_embedder(without_retrieval(sample_results(2)))
    results["questions"] = 9
    assert "retrieval (no embedding model)" in results_to_markdown(results)
    assert "Not measured: no embedding model." in results_to_html(results)


def test_zero_chunks_nan_and_missing_fields() -> None:
    results = sample_results(3)
    empty = results["configurations"][0]
    empty["intrinsic"].update(
        chunks=0, histogram={"unit": "tokens", "edges": [0.0, 1.0], "counts": [0]},
        tokens={"mean": float("nan"), "median": None, "p95": None, "max": 0,
                "over_window_share": None},
    )  # fmt: skip
    results["configurations"][1]["intrinsic"]["coherence"] = float("nan")
    results["configurations"][1]["retrieval"]["curve"][3]["recall"] = float("nan")
    del results["configurations"][2]["efficiency"]
    html = results_to_html(results)
    page = parse(html)
    assert len(svgs_of(page, "histogram")) == 2
    assert "No chunks to draw." in html
    assert "n/a (not a number)" in html  # -- the coherence bar of B --
    assert "NaN" not in html
    assert "nan%" not in html.lower()
    assert "9 of 10" not in html  # -- B's curve just skips the NaN point --
    assert html.count("<polyline") == 6


def test_one_and_twelve_configurations() -> None:
    one = parse(results_to_html(sample_results(1)))
    assert len(svgs_of(one, "histogram")) == 1
    assert len(svgs_of(one, "bars")) == 5
    html = results_to_html(sample_results(12))
    twelve = parse(html)
    assert len(svgs_of(twelve, "histogram")) == 12
    keys = [style.key for style in plots.styles([str(i) for i in range(12)])]
    assert keys == list("ABCDEFGHIJKL")
    # -- every configuration has its key in the curves' legend, and a distinct look --
    looks = {(s.colour, s.marker, s.dash) for s in plots.styles([str(i) for i in range(12)])}
    assert len(looks) == 12
    assert html.count('<tspan font-weight="700">L</tspan>') == 2


def test_no_recommendation_and_empty_results() -> None:
    results = small_results()
    results["recommendation"] = None
    assert "No recommendation was made for this run." in results_to_html(results)
    page = parse(results_to_html({}))
    assert page.svgs == []


def test_write_report(tmp_path: Path) -> None:
    target = write_report(sample_results(2), tmp_path / "report.html")
    assert target == tmp_path / "report.html"
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_nice_ticks() -> None:
    assert plots.nice_ticks(0, 97) == [0, 20, 40, 60, 80, 100]
    assert plots.nice_ticks(0, 0.53) == [0, 0.2, 0.4, 0.6]
    assert plots.nice_ticks(-0.03, 0.12, 4) == [-0.05, 0, 0.05, 0.1, 0.15]
    assert plots.nice_ticks(0, 0) == [0, 0.2, 0.4, 0.6, 0.8, 1.0]


# -- what the page looks like --


@pytest.mark.parametrize("width", [1200, 420])
def test_the_page_renders_in_chromium(tmp_path: Path, width: int) -> None:
    chromium = require_program("chromium", "chromium-browser", install="apt-get install chromium")
    page = write_report(sample_results(), tmp_path / "report.html")
    shot = tmp_path / "shot.png"
    profile = tempfile.mkdtemp(prefix="partita-chromium-", dir=tmp_path)
    subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={profile}", f"--screenshot={shot}",
         f"--window-size={width},2400", page.as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    with Image.open(shot) as image:
        assert image.size == (width, 2400)
        pixels = image.convert("RGB")
        colours = pixels.getcolors(maxcolors=1 << 20) or []
    assert shot.stat().st_size > 30_000
    # -- not a blank: many colours, the palette's among them, and white the ground --
    assert len(colours) > 50
    counts = {colour: count for count, colour in colours}
    assert max(counts, key=lambda c: counts[c]) == (255, 255, 255)
    assert any(_near(colour, (0x00, 0x72, 0xB2)) for colour in counts)


def _near(colour: tuple[int, int, int], target: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 6 for a, b in zip(colour, target, strict=True))
