"""Evidence-page questions (FinanceBench's form), page hit and evidence recall, the peers'
baselines, and small-to-big and budgeted retrieval as configurations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import partita
from partita.chunking.provenance import rebuilds
from partita.cli import main
from partita.elements import Element
from partita.evaluation._baselines import chunk_with_baseline, page_chunks, text_windows
from partita.evaluation._configurations import Configuration, parse_configuration
from partita.evaluation._documents import joined_text
from partita.evaluation._questions import (
    Evidence,
    QuestionsFileError,
    place_questions,
    read_question_file,
)
from partita.evaluation._spans import Span
from partita.evaluation.evidence import (
    evidence_recall,
    evidence_recall_any_page,
    evidence_text_recall,
    page_hit,
)
from partita.text.sizing._tokenizers import token_counter

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "evaluation"
FAKE = "partita.embeddings:hashing_embedder"


def paged_elements() -> list[Element]:
    """The three fixture articles as one document of pages, two elements a page."""
    elements = [e for name in ("tea.md", "volcanoes.md", "bicycles.md")
                for e in partita.partition(CORPUS / name)]  # fmt: skip
    return [
        type(e)(e.text, element_id=e.element_id,
                metadata=e.metadata.replace(page_number=1 + i // 2, filename="report.pdf"))
        for i, e in enumerate(elements)
    ]  # fmt: skip


def page_text(elements: list[Element], page: int) -> str:
    return "\n".join(e.text for e in elements if e.metadata.page_number == page)


def write_questions(path: Path, elements: list[Element], asked: list[tuple[str, int]]) -> Path:
    lines = [
        json.dumps({"question": q, "answer": "-", "doc_name": "report",
                    "evidence": [{"evidence_text": page_text(elements, page),
                                  "evidence_page_num": page - 1}]})
        for q, page in asked
    ]  # fmt: skip
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_evidence_questions_are_read_with_their_pages_one_based(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(
        json.dumps({"question": "Q?", "answer": "24.26", "doc_name": "ACME_2019_10K",
                    "evidence": [{"evidence_text": "Revenue 1,000", "evidence_page_num": 0,
                                  "doc_name": "ACME_2019_10K"},
                                 {"evidence_text": "PP&E 20", "evidence_page_num": 4}]})
        + "\n",
        encoding="utf-8",
    )  # fmt: skip
    [asked] = read_question_file(path)
    assert asked.document == "ACME_2019_10K"
    assert asked.evidence == (("ACME_2019_10K", 1, "Revenue 1,000"), (None, 5, "PP&E 20"))
    pages = {"ACME_2019_10K": {1: (0, 50), 5: (200, 260)}}
    [question], skipped = place_questions([asked], {"ACME_2019_10K": "x" * 300}, pages)
    assert skipped == []
    assert question.references == (Span("ACME_2019_10K", 0, 50), Span("ACME_2019_10K", 200, 260))
    assert question.evidence[1] == Evidence("PP&E 20", 5, Span("ACME_2019_10K", 200, 260))
    # -- a page the document has no text on, or a document not given: skipped, with why --
    _, skipped = place_questions([asked], {}, {"ACME_2019_10K": {1: (0, 50)}})
    assert skipped[0].reason == "its evidence page 5 has no text in document 'ACME_2019_10K'"
    _, skipped = place_questions([asked], {}, {})
    assert "not among the documents" in skipped[0].reason


@pytest.mark.parametrize(
    "evidence",
    [[], "text", [{"evidence_text": "x"}], [{"evidence_text": "", "evidence_page_num": 1}],
     [{"evidence_text": "x", "evidence_page_num": -1}]],
)  # fmt: skip
def test_malformed_evidence_is_a_questions_file_error(tmp_path: Path, evidence: Any) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps({"question": "Q?", "evidence": evidence}) + "\n", encoding="utf-8")
    with pytest.raises(QuestionsFileError, match=r"q\.jsonl:1: \"evidence\""):
        read_question_file(path)


def test_page_hit_and_evidence_recall() -> None:
    text = "alpha beta gamma delta " + "page two words here"
    region = Span("d", 0, 23)
    evidence = (Evidence("delta gamma beta alpha", 1, region),)  # -- another reading order --
    assert page_hit(evidence, [Span("d", 10, 30)])
    assert not page_hit(evidence, [Span("d", 23, 40), Span("other", 0, 10)])
    assert evidence_recall(evidence, [Span("d", 0, 40)], {"d": text}) == 1.0
    assert evidence_recall(evidence, [Span("d", 0, 10)], {"d": text}) == 0.5
    # -- text of another page, or a chunk counted twice, adds nothing --
    assert evidence_recall(evidence, [Span("d", 23, 40)], {"d": text}) == 0.0
    assert evidence_recall(evidence, [Span("d", 0, 10), Span("d", 0, 10)], {"d": text}) == 0.5
    # -- words count with their multiplicity --
    twice = (Evidence("alpha alpha", 1, region),)
    assert evidence_recall(twice, [Span("d", 0, 23)], {"d": text}) == 0.5


def test_evidence_recall_on_any_page_counts_runs_of_words_anywhere() -> None:
    text = "Net sales were 9 million in 2023. " + "As stated, net sales were 9 million again."
    region = Span("d", 0, 34)
    evidence = (Evidence("Net sales were 9 million in 2023.", 1, region),)
    texts = {"d": text}
    weight = len("netsaleswere9million")  # -- the five words of the run found on page two --
    assert evidence_recall_any_page(evidence, [Span("d", 34, len(text))], texts) == (
        weight / len("Netsaleswere9millionin2023.")
    )
    assert evidence_recall(evidence, [Span("d", 34, len(text))], texts) == 0.0
    assert evidence_recall_any_page(evidence, [Span("d", 0, 34)], texts) == 1.0
    # -- scattered words cover nothing: no three of them in the evidence's order --
    assert evidence_text_recall(["net sales were up"], ["sales net were up"]) == 0.0
    assert evidence_text_recall(["net sales were up"], ["NET SALES   were"]) == len(
        "netsaleswere"
    ) / len("netsaleswereup")
    # -- a run must lie in one retrieved text, not across two --
    assert evidence_text_recall(["net sales were"], ["net sales", "were"]) == 0.0
    # -- another document's text counts for nothing; no words, no recall --
    assert evidence_recall_any_page(evidence, [Span("e", 0, 40)], {**texts, "e": text}) == 0.0
    assert evidence_recall_any_page((Evidence("...", 1, region),), [Span("d", 0, 9)], texts) == 0
    assert evidence_text_recall([" "], ["a b c"]) == 0.0


def test_the_peers_baselines_place_exactly_and_keep_their_sizes() -> None:
    elements = paged_elements()
    document = joined_text("report", elements)
    by_id = {e.element_id: e for e in elements}
    windows = text_windows(elements, max_tokens=40)
    count = token_counter("cl100k_base")
    assert all(count(w.text) <= 41 for w in windows)
    assert all(rebuilds(w, by_id) for w in windows)
    for window in windows:
        span = document.chunk_span(window)
        assert span is not None
        # -- a window may start or end in the "\n\n" between two elements: no element's text --
        assert document.text[span[0] : span[1]] == window.text.strip("\n")
    # -- the windows hold the whole plain text, in order --
    assert "".join(w.text for w in windows) == document.text
    pages = page_chunks(elements)
    assert [p.metadata.page_number for p in pages] == sorted({e.metadata.page_number or 0
                                                              for e in elements})  # fmt: skip
    assert pages[1].text == "\n\n".join(e.text for e in elements if e.metadata.page_number == 2)
    assert all(rebuilds(p, by_id) for p in pages)
    with pytest.raises(TypeError, match="no option"):
        chunk_with_baseline(elements, "pages", max_tokens=3)


def test_configurations_take_retrieval_options_and_baselines() -> None:
    parsed = parse_configuration("by_title:profile=retrieval,parent_tokens=512,budget_tokens=900")
    assert parsed.options == {"profile": "retrieval"}
    assert (parsed.parent_tokens, parsed.budget_tokens) == (512, 900)
    assert parse_configuration("basic:parent_tokens=9,parent_scope=document").parent_scope == (
        "document"
    )
    with pytest.raises(ValueError, match="parent_scope"):
        parse_configuration("basic:parent_tokens=9,parent_scope=page")
    assert parse_configuration("pages").strategy == "pages"
    assert parse_configuration("text_windows:max_tokens=512").options == {"max_tokens": 512}
    with pytest.raises(ValueError, match="no option"):
        parse_configuration("pages:max_tokens=5")
    with pytest.raises(ValueError, match="parent_tokens"):
        Configuration("x", "by_title", parent_tokens=0)


def test_evaluate_scores_evidence_pages_for_small_to_big_budgets_and_baselines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elements = paged_elements()
    document = tmp_path / "report.json"
    document.write_text(partita.elements_to_json(elements), encoding="utf-8")
    questions = write_questions(
        tmp_path / "questions.jsonl", elements,
        [("At what temperature should green tea be brewed?", 1),
         ("What happens when a volcano erupts?", 4),
         ("How do the gears of a bicycle work?", 7)],
    )  # fmt: skip
    out = tmp_path / "r.json"
    small = "by_title:profile=retrieval,max_tokens=24"
    status = main(
        ["evaluate", str(document), "--questions", str(questions), "--baselines",
         "--config", small, "--config", small + ",parent_tokens=80",
         "--config", small + ",budget_tokens=60",
         "--embedder", FAKE, "--cache-dir", str(tmp_path / "cache"), "--per-document",
         "--json", str(out), "-o", str(tmp_path / "r.html"), "-k", "2", "-q"]
    )  # fmt: skip
    assert status == 0
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["questions"] == 3
    assert results["character_budget"] == 2 * 800
    entries = {c["name"]: c for c in results["configurations"]}
    assert list(entries) == [small, small + ",parent_tokens=80", small + ",budget_tokens=60",
                             "text_windows:max_tokens=512", "pages"]  # fmt: skip
    for entry in entries.values():
        for figures in (entry["retrieval"]["top_k"], entry["retrieval"]["character_budget"]):
            assert 0 <= figures["page_hit"] <= 1
            assert 0 <= figures["evidence_recall"] <= 1
            assert 0 <= figures["evidence_recall_any_page"] <= 1
            assert figures["retrieved_characters"] > 0
        assert entry["retrieval"]["character_budget"]["retrieved_characters"] <= 1600 or (
            entry["name"] == "text_windows:max_tokens=512"  # -- one window: over the budget --
        )
    # -- small-to-big retrieves parents: more text at the same k; the budget bounds tokens --
    plain, parents = entries[small], entries[small + ",parent_tokens=80"]
    assert parents["retrieve"]["parents"] < plain["intrinsic"]["chunks"]
    assert (parents["retrieval"]["top_k"]["retrieved_characters"]
            > plain["retrieval"]["top_k"]["retrieved_characters"])  # fmt: skip
    budgeted = entries[small + ",budget_tokens=60"]["retrieval"]["top_k"]
    assert budgeted["retrieved_tokens"] <= 60 or budgeted["retrieved_tokens"] <= 24 + 1
    # -- the recommendation names a measured configuration, by evidence recall at the budget --
    recommendation = results["recommendation"]
    assert recommendation["configuration"] in entries
    assert "evidence recall" in recommendation["reasons"][0]
    assert "within 1,600 retrieved characters" in recommendation["reasons"][0]
    printed = capsys.readouterr().out
    assert "evidence@2" in printed
    assert "page hit@1,600 chr" in printed
