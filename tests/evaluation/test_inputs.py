"""Configurations, questions and documents: what evaluation reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import partita
from partita.elements import NarrativeText, Title
from partita.evaluation._configurations import (
    DEFAULT_CONFIGURATIONS,
    parse_configuration,
    read_configurations,
)
from partita.evaluation._documents import document_text, joined_text
from partita.evaluation._questions import (
    QuestionsFileError,
    QuestionSkippedWarning,
    locate,
    place_questions,
    read_question_file,
    read_questions,
    skipped_lines,
)
from partita.evaluation._spans import Span

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "evaluation"


def test_a_configuration_is_a_strategy_and_typed_options() -> None:
    config = parse_configuration("recursive:max_tokens=200,tokenizer=cl100k_base,overlap=0")
    assert (config.strategy, dict(config.options)) == (
        "recursive",
        {"max_tokens": 200, "tokenizer": "cl100k_base", "overlap": 0},
    )
    separators = parse_configuration(r"by_title:text_splitting_separators=\n\n|. ,overlap_all=true")
    assert separators.options == {"text_splitting_separators": ["\n\n", ". "], "overlap_all": True}
    assert all(parse_configuration(s) for s in DEFAULT_CONFIGURATIONS)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("by_title:max_charactrs=10", "max_charactrs"),
        ("nosuch:max_characters=10", "nosuch"),
        ("by_title:max_characters", "name=value"),
        ("by_title:max_characters=-1", "max_characters"),
    ],
)
def test_a_bad_configuration_fails_before_any_chunking(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_configuration(spec)


def test_configurations_from_toml_and_json(tmp_path: Path) -> None:
    toml = tmp_path / "c.toml"
    toml.write_text(
        '[[configuration]]\nstrategy = "token"\nmax_tokens = 250\noverlap = 125\n'
        'tokenizer = "cl100k_base"\n\n[[configuration]]\nname = "small"\nstrategy = "basic"\n'
        "max_characters = 300\n",
        encoding="utf-8",
    )
    first, second = read_configurations(toml)
    assert first.name == "token:max_tokens=250,overlap=125,tokenizer=cl100k_base"
    assert (second.name, dict(second.options)) == ("small", {"max_characters": 300})
    data = tmp_path / "c.json"
    data.write_text(json.dumps([{"strategy": "sentence", "options": {"max_characters": 200}}]))
    (only,) = read_configurations(data)
    assert (only.strategy, dict(only.options)) == ("sentence", {"max_characters": 200})


def test_chroma_questions_keep_their_spans(tmp_path: Path) -> None:
    path = tmp_path / "questions_df.csv"
    refs = json.dumps([{"content": "Tea", "start_index": 2, "end_index": 5}])
    path.write_text(
        f'question,references,corpus_id\n"What?","{refs.replace(chr(34), chr(34) * 2)}",tea\n'
    )
    (question,) = read_questions(path)
    assert (question.id, question.text, question.references) == (
        "q0001",
        "What?",
        (Span("tea", 2, 5),),
    )


def test_jsonl_answers_are_located_in_the_documents() -> None:
    texts = {p.stem: p.read_text(encoding="utf-8") for p in CORPUS.glob("*.md")}
    questions = read_questions(CORPUS / "questions.jsonl", texts)
    answers = [
        json.loads(line)["answer"]
        for line in (CORPUS / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert len(questions) == len(answers) == 9
    for question, answer in zip(questions, answers, strict=True):
        (reference,) = question.references
        text = texts[reference.corpus][reference.start : reference.end]
        assert text.split() == answer.split()
    assert questions[0].references[0].corpus == "tea"  # -- its line break matched a newline --
    assert locate("no such words anywhere", texts) is None


def test_a_question_whose_answer_is_nowhere_is_skipped_naming_its_line(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    lines = [
        {"question": "Where?", "answer": "absent text"},
        {"question": "What?", "answer": "present"},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    placed, skipped = place_questions(read_question_file(path), {"a": "present text"})
    assert [q.text for q in placed] == ["What?"]
    assert placed[0].references == (Span("a", 0, 7),)
    (left_out,) = skipped
    assert (left_out.id, left_out.text) == ("q0001", "Where?")
    assert left_out.where == f"{path}:1"
    assert left_out.reason == "its answer 'absent text' is in no document"
    with pytest.warns(QuestionSkippedWarning, match=r"q\.jsonl:1: question skipped"):
        assert [q.id for q in read_questions(path, {"a": "present text"})] == ["q0002"]


def test_a_chroma_question_of_another_corpus_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "questions_df.csv"
    refs = json.dumps([{"content": "Tea", "start_index": 2, "end_index": 5}]).replace('"', '""')
    path.write_text(f'question,references,corpus_id\n"What?","{refs}",tea\n"Who?","{refs}",wiki\n')
    placed, skipped = place_questions(read_question_file(path), {"tea": "A Tea leaf"})
    assert [q.text for q in placed] == ["What?"]
    assert [s.reason for s in skipped] == ["its document 'wiki' is not among the documents"]
    _, short = place_questions(read_question_file(path), {"tea": "A T", "wiki": "A Tea"})
    assert [s.reason for s in short] == ["its answer ends past the end of document 'tea'"]


def test_questions_skipped_for_one_reason_share_a_line() -> None:
    skipped = [
        ("q.csv:2", "its document 'wiki' is not among the documents"),
        ("q.csv:3", "its answer 'x' is in no document"),
        ("q.csv:4", "its document 'wiki' is not among the documents"),
        ("q.csv:5", "its document 'wiki' is not among the documents"),
    ]
    assert skipped_lines(skipped) == [
        "q.csv:2 and 2 more questions: its document 'wiki' is not among the documents",
        "q.csv:3: its answer 'x' is in no document",
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"question": "q", "answer": "a"}\nnot json\n', r"q\.jsonl:2: not a JSON object"),
        ('{"answer": "a"}\n', r'q\.jsonl:1: no "question"'),
        ('{"question": "q"}\n', r'q\.jsonl:1: no "answer" text'),
        ('{"question": "q", "answers": ["a", 3]}\n', r'q\.jsonl:1: no "answer" text'),
        ("\n\n", r"q\.jsonl: no questions in it"),
    ],
)
def test_a_file_that_is_not_questions_names_its_line(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(QuestionsFileError, match=message):
        read_question_file(path)


def test_a_questions_file_not_in_utf8_or_not_chroma_s_csv_is_refused(tmp_path: Path) -> None:
    latin = tmp_path / "q.jsonl"
    latin.write_bytes('{"question": "caf\u00e9", "answer": "x"}\n'.encode("latin-1"))
    with pytest.raises(QuestionsFileError, match="not UTF-8 text"):
        read_question_file(latin)
    other = tmp_path / "q.csv"
    other.write_text("question,answer\nq,a\n", encoding="utf-8")
    with pytest.raises(QuestionsFileError, match="no column corpus_id, references"):
        read_question_file(other)


def test_chunks_are_placed_in_the_file_text_by_their_provenance() -> None:
    path = CORPUS / "bicycles.md"
    document = document_text(path, partita.partition(path))
    assert document.coverage == 1.0
    assert document.text == path.read_text(encoding="utf-8")
    chunks = partita.chunk(document.elements, "sentence", max_characters=120)
    for c in chunks:
        span = document.chunk_span(c)
        assert span is not None
        placed = document.text[span[0] : span[1]]
        assert placed.split() == c.text.split() or c.text.split()[0] in placed


def test_elements_without_a_source_file_are_joined() -> None:
    elements = [Title("Heading"), NarrativeText("Body text here.")]
    document = joined_text("doc", elements)
    assert document.text == "Heading\n\nBody text here."
    assert document.span_of(elements[1].element_id, 0, 4) == (9, 13)
