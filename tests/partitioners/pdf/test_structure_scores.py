"""Structure scores of `partition_pdf` on generated PDFs with a known structure.

Each document of `structured_docs` is partitioned and its Titles, Tables and ListItems are
matched against the ground truth by normalized text (whitespace collapsed, case kept; a
ListItem's leading bullet or enumerator is ignored on the partitioner's side, as the ground
truth holds the item text without it; a Table matches when its cell grid, read from
`text_as_html` with empty rows left out, equals the expected grid). Precision and recall per
category are micro-averaged over all the documents and must each be >= 0.95; the depth of the
matched Titles (`category_depth` against the heading style's rank, 0 the largest) is a separate
accuracy figure with the same bar.

`pytest tests/partitioners/pdf/test_structure_scores.py -s` prints the score table.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from partita.partitioners import pdf
from tests.partitioners.pdf.structured_docs import (
    Expected,
    StructuredDoc,
    structured_docs,
)

BAR = 0.95
SCORED = ("Title", "Table", "ListItem")
BODY_EXCLUDED = {"Header", "Footer", "PageNumber", "PageBreak"}

_MARKER = re.compile(r"^(?:[•\-▪■◦●‣∙·*–]|\(?(?:\d{1,3}|[a-z]|[ivxlcdm]{1,6})[.)、])\s*")


def norm(text: str | None) -> str:
    return " ".join((text or "").split())


def strip_marker(text: str) -> str:
    return _MARKER.sub("", norm(text), count=1)


def html_cells(html: str | None) -> tuple[tuple[str, ...], ...] | None:
    """The row-major cell texts of a table's `text_as_html` (empty rows left out)."""
    if not html:
        return None
    from lxml import html as lxml_html

    root = lxml_html.fromstring(html)
    rows = []
    for tr in root.iter("tr"):
        cells = tuple(norm(cell.text_content()) for cell in tr if cell.tag in ("td", "th"))
        if any(cells):
            rows.append(cells)
    return tuple(rows)


def expected_key(e: Expected) -> Any:
    if e.category == "Table":
        return tuple(tuple(norm(c) for c in row) for row in e.cells or ())
    return norm(e.text)


def element_key(el: Any) -> Any:
    if el.category == "Table":
        cells = html_cells(el.metadata.text_as_html)
        return cells if cells is not None else norm(el.text)
    if el.category == "ListItem":
        return strip_marker(el.text)
    return norm(el.text)


# ------------------------------------------------------------------------------------------------
# partitioning and matching
# ------------------------------------------------------------------------------------------------


@dataclass
class Partitioned:
    doc: StructuredDoc
    elements: list[Any]

    def body(self) -> list[Any]:
        return [el for el in self.elements if el.category not in BODY_EXCLUDED]


@pytest.fixture(scope="module")
def partitioned(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Partitioned]:
    directory = tmp_path_factory.mktemp("structured-pdf")
    out = {}
    for doc in structured_docs():
        path = Path(directory) / f"{doc.name}.pdf"
        path.write_bytes(doc.data)
        out[doc.name] = Partitioned(doc, list(pdf.partition_pdf(filename=str(path))))
    return out


@dataclass
class Score:
    expected: int = 0
    predicted: int = 0
    matched: int = 0
    depth_right: int = 0

    @property
    def precision(self) -> float:
        return self.matched / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.expected if self.expected else 1.0

    @property
    def depth_accuracy(self) -> float:
        return self.depth_right / self.matched if self.matched else 1.0


def match(
    expected: Sequence[Expected], elements: Iterable[Any]
) -> tuple[list[tuple[Expected, Any]], list[Expected], list[Any]]:
    """Pair elements with expected items of equal key (each used once, first come first served)."""
    pending = list(expected)
    pairs, extra = [], []
    for el in elements:
        key = element_key(el)
        for i, e in enumerate(pending):
            if expected_key(e) == key:
                pairs.append((e, el))
                del pending[i]
                break
        else:
            extra.append(el)
    return pairs, pending, extra


def scores(
    partitioned: dict[str, Partitioned], categories: Sequence[str] = SCORED
) -> tuple[dict[str, Score], dict[str, list[str]]]:
    """Micro-averaged scores per category, and the misses per category (for messages)."""
    totals = {cat: Score() for cat in categories}
    misses: dict[str, list[str]] = {cat: [] for cat in categories}
    for name, p in partitioned.items():
        for cat in categories:
            expected = p.doc.of(cat)
            predicted = [el for el in p.elements if el.category == cat]
            pairs, missing, extra = match(expected, predicted)
            s = totals[cat]
            s.expected += len(expected)
            s.predicted += len(predicted)
            s.matched += len(pairs)
            s.depth_right += sum(e.depth == el.metadata.category_depth for e, el in pairs)
            misses[cat] += [f"{name}: missed {e.text[:60]!r}" for e in missing]
            misses[cat] += [f"{name}: extra {el.text[:60]!r}" for el in extra]
            if cat in ("Title", "ListItem"):
                misses[cat] += [
                    f"{name}: depth {el.metadata.category_depth} for {e.text[:40]!r} "
                    f"(expected {e.depth})"
                    for e, el in pairs
                    if e.depth != el.metadata.category_depth
                ]
    return totals, misses


def _score_table(partitioned: dict[str, Partitioned]) -> str:
    totals, _ = scores(partitioned, (*SCORED, "Header", "PageNumber"))
    lines = [
        "",
        f"structure scores over {len(partitioned)} generated PDFs "
        f"({', '.join(partitioned)}; {sum(p.doc.pages for p in partitioned.values())} pages)",
        "| category | expected | predicted | matched | precision | recall | depth accuracy |",
        "|---|---|---|---|---|---|---|",
    ]
    for cat, s in totals.items():
        depth = f"{s.depth_accuracy:.3f}" if cat in ("Title", "ListItem") else "-"
        lines.append(
            f"| {cat} | {s.expected} | {s.predicted} | {s.matched} | {s.precision:.3f} | "
            f"{s.recall:.3f} | {depth} |"
        )
    # -- informational: whole paragraphs (not cut by a page break) found as one element --
    found = total = 0
    for p in partitioned.values():
        texts = {norm(el.text) for el in p.body()}
        for e in p.doc.of("NarrativeText"):
            if not e.spans_pages:
                total += 1
                found += norm(e.text) in texts
    lines.append(f"paragraphs found whole (exact text): {found}/{total}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------
# tests
# ------------------------------------------------------------------------------------------------


def test_score_table_and_precision_recall(partitioned: dict[str, Partitioned]) -> None:
    print(_score_table(partitioned))
    totals, misses = scores(partitioned)
    failures = [
        f"{cat}: precision {s.precision:.3f} recall {s.recall:.3f}; "
        + "; ".join(m for m in misses[cat] if "depth" not in m)[:1500]
        for cat, s in totals.items()
        if s.precision < BAR or s.recall < BAR
    ]
    assert not failures, "\n".join(failures)


def test_title_depth_accuracy(partitioned: dict[str, Partitioned]) -> None:
    totals, misses = scores(partitioned, ("Title",))
    s = totals["Title"]
    assert s.depth_accuracy >= BAR, "; ".join(m for m in misses["Title"] if "depth" in m)


def _has(elements: Iterable[Any], category: str, text: str, page: int) -> bool:
    return any(
        el.category == category
        and norm(text) in norm(el.text)
        and el.metadata.page_number in (page, None)
        for el in elements
    )


def test_headers_and_footers_detected(partitioned: dict[str, Partitioned]) -> None:
    missing = [
        f"{p.doc.name} p{e.page}: {e.category} {e.text!r}"
        for p in partitioned.values()
        for e in p.doc.expected
        if e.category in ("Header", "PageNumber")
        and not _has(p.elements, e.category, e.text, e.page)
    ]
    assert not missing


def test_headers_and_footers_not_in_body(partitioned: dict[str, Partitioned]) -> None:
    leaks = []
    for p in partitioned.values():
        header = norm(p.doc.of("Header")[0].text)
        footers = {norm(e.text) for e in p.doc.of("PageNumber")}
        for el in p.body():
            text = norm(el.text)
            # -- the report's header repeats its title words; the whole line must not appear --
            if header in text and text != header:
                leaks.append(f"{p.doc.name}: header inside {el.category} {text[:80]!r}")
            if text in footers or any(
                text.startswith(f + " ") or text.endswith(" " + f) for f in footers
            ):
                leaks.append(f"{p.doc.name}: footer in {el.category} {text[:80]!r}")
            if p.doc.cjk and any(f.replace(" ", "") in text.replace(" ", "") for f in footers):
                leaks.append(f"{p.doc.name}: footer inside {el.category} {text[:80]!r}")
    assert not leaks


def _position(elements: Sequence[Any], text: str) -> int | None:
    """Index of the first element whose text contains the start of `text` (its first 6 words)."""
    head = " ".join(text.split()[:6])
    for i, el in enumerate(elements):
        if head in norm(el.text):
            return i
    return None


def test_two_column_reading_order(partitioned: dict[str, Partitioned]) -> None:
    p = partitioned["columns"]
    body = p.body()
    positions = [_position(body, text) for text in p.doc.column_order]
    lost = [t[:40] for t, i in zip(p.doc.column_order, positions, strict=True) if i is None]
    assert not lost
    assert positions == sorted(positions), [
        (norm(body[i].text)[:30]) for i in positions if i is not None
    ]
    # -- the full-width heading and table between the column sections stay in place --
    order = [_position(body, e.text) for e in p.doc.expected if e.category == "Title"]
    assert None not in order
    summary = _position(body, "Summary of Station Readings")
    third_left = _position(body, "Left column third paragraph.")
    second_right = _position(body, "Right column second paragraph.")
    assert summary is not None
    assert third_left is not None
    assert second_right is not None
    assert second_right < summary < third_left
    tables = [i for i, el in enumerate(body) if el.category == "Table"]
    assert any(summary < i < third_left for i in tables)


def _distinctive_cells(doc: StructuredDoc) -> set[str]:
    """Cell texts of the tables that occur nowhere else in the document's ground truth."""
    others = " ".join(norm(e.text) for e in doc.expected if e.category != "Table")
    return {
        norm(cell)
        for e in doc.of("Table")
        for row in e.cells or ()
        for cell in row
        if len(cell) >= 2
        and not cell.replace(",", "").replace(".", "").isdigit()
        and norm(cell) not in others
    }


def test_table_words_not_repeated_in_paragraphs(partitioned: dict[str, Partitioned]) -> None:
    repeated = [
        f"{p.doc.name}: {cell!r} in {el.category} {norm(el.text)[:60]!r}"
        for p in partitioned.values()
        for cell in sorted(_distinctive_cells(p.doc))
        for el in p.body()
        if el.category != "Table" and cell in norm(el.text)
    ]
    assert not repeated


def test_hyphenation_joined(partitioned: dict[str, Partitioned]) -> None:
    bad = []
    for p in partitioned.values():
        text = "\n".join(norm(el.text) for el in p.body())
        words = set(re.findall(r"\w+", text))
        for word in p.doc.hyphenated:
            if word not in words:
                bad.append(f"{p.doc.name}: {word!r} not joined")
        bad += [f"{p.doc.name}: {m!r}" for m in re.findall(r"\b[a-z]{3,}- [a-z]{2,}\b", text)]
    assert not bad


def test_cjk_joined_without_spaces(partitioned: dict[str, Partitioned]) -> None:
    p = partitioned["chinese"]
    texts = [norm(el.text) for el in p.body()]
    missing = [
        e.text[:20]
        for e in p.doc.expected
        if e.category in ("NarrativeText", "ListItem") and not any(norm(e.text) in t for t in texts)
    ]
    assert not missing
    spaced = [
        t[:40]
        for t in texts
        if re.search(r"[\u4e00-\u9fff，。] [\u4e00-\u9fff，。]", t)
        and t not in {norm(e.text) for e in (*p.doc.of("Title"), *p.doc.of("Table"))}
    ]
    assert not spaced


def _links_of(el: Any) -> set[tuple[str | None, str]]:
    md = el.metadata
    links = {(link.text, link.url) for link in md.links or ()}
    links |= {(None, url) for url in md.link_urls or ()}
    return links


def test_links_present(partitioned: dict[str, Partitioned]) -> None:
    p = partitioned["lists"]
    assert p.doc.links
    for text, url in p.doc.links:
        holders = [el for el in p.elements if text in norm(el.text)]
        assert holders, text
        found = set().union(*(_links_of(el) for el in holders))
        assert url in {u for _, u in found}, (text, url, found)
        texts = {t for t, u in found if u == url and t is not None}
        assert not texts or {norm(t) for t in texts} == {text}, texts


def test_ligatures_and_fake_bold_cleaned(partitioned: dict[str, Partitioned]) -> None:
    p = partitioned["lists"]
    # -- DejaVu Sans draws the ligature glyphs; .ci/run installs fonts-dejavu-core --
    assert p.doc.ligature_words, "DejaVu Sans is not installed: no ligature glyphs drawn"
    text = " ".join(norm(el.text) for el in p.body())
    assert "\ufb01" not in text
    assert "\ufb02" not in text
    words = set(re.findall(r"\w+", text))
    assert set(p.doc.ligature_words) <= words
    for title in p.doc.fake_bold:
        assert _has(p.elements, "Title", title, 1)
        doubled = "".join(ch * 2 for ch in title.split()[0])
        assert doubled not in text


def test_metadata_page_numbers(partitioned: dict[str, Partitioned]) -> None:
    """Every matched Title and ListItem carries the page it was drawn on."""
    wrong = []
    for p in partitioned.values():
        for cat in ("Title", "ListItem"):
            pairs, _, _ = match(p.doc.of(cat), [el for el in p.elements if el.category == cat])
            wrong += [
                f"{p.doc.name}: {e.text[:30]!r} page {el.metadata.page_number} != {e.page}"
                for e, el in pairs
                if el.metadata.page_number != e.page
            ]
    assert not wrong


def test_generation_is_deterministic() -> None:
    from tests.partitioners.pdf import structured_docs as module

    first = [d.data for d in module.structured_docs()]
    module.structured_docs.cache_clear()
    again = [d.data for d in module.structured_docs()]
    assert first == again
