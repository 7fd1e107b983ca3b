"""Questions with known answers: Chroma's `questions_df.csv`, or a simple JSON Lines file.

- **Chroma's format** (`question,references,corpus_id`): `references` is a JSON list of
  `{"content", "start_index", "end_index"}` spans of the corpus file `corpus_id` (its stem: the
  corpus `wikitexts.md` is `wikitexts`), character offsets into the file as Python reads it as
  text. The spans are kept as they are (Chroma's evaluation scores against them).
- **JSON Lines**: one object per line, `{"question": ..., "answer": "..."}` (or `"answers": [...]`
  for several passages), optionally `"document"` naming the document (file name or stem) the
  answer is in. Each answer is found in the documents' texts by the tool: exactly, else with any
  run of whitespace matching any other.
- **Evidence pages** (FinanceBench's form): JSON Lines whose objects have `"evidence"`, a list
  of `{"evidence_text", "evidence_page_num"}` (the page 0-based, as FinanceBench gives it;
  `"doc_name"` on the evidence or the question, or `"document"`, names the document). Each
  evidence is placed on its page (`DocumentText.page_regions`), not searched for: its text as
  FinanceBench extracted it rarely matches a partitioner's character for character. The
  question's references are its evidence pages' regions, so "a chunk shares a character with a
  reference" means "a chunk lies on an evidence page" (page hit), and `Question.evidence` keeps
  each evidence text for `partita.evaluation.evidence`'s recall. The `answer` is not searched for.
- **Reading and placing are two steps.** `read_question_file` parses the file alone, before any
  document is read: a file that is not questions (bad JSON, a missing field, not UTF-8, no
  questions at all) is a `QuestionsFileError` naming the file and line. `place_questions` then
  finds every answer in the documents' texts; a question that cannot be scored there (an answer
  found in no document, a Chroma corpus that is not among the documents, a span past its
  document's end) is **skipped**, not an error: it comes back as a `SkippedQuestion` with the
  reason in words. `read_questions` does both and warns (`QuestionSkippedWarning`) once per
  skipped question.
- A question's id is its 1-based line number (`q0001`); results also keep its text, which is
  what two runs' scores are paired by (`_compare`).
"""

from __future__ import annotations

import csv
import json
import os
import re
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from partita.evaluation._spans import Span

__all__ = [
    "AskedQuestion",
    "Evidence",
    "Question",
    "QuestionSkippedWarning",
    "QuestionsFileError",
    "SkippedQuestion",
    "document_key",
    "locate",
    "place_questions",
    "read_question_file",
    "read_questions",
    "skipped_lines",
]


class QuestionsFileError(ValueError):
    """A questions file that cannot be read as questions; the message names the file (and
    line)."""


class QuestionSkippedWarning(UserWarning):
    """A question was left out because it cannot be scored on the documents given."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """An evidence passage: its `text`, its `page` (1-based) and the `region` of its document's
    text that page covers (`region.corpus` names the document)."""

    text: str
    page: int
    region: Span


@dataclass(frozen=True, slots=True)
class Question:
    """A question, its id, and the spans that answer it (`Span.corpus` names the document by
    its key); for an evidence-page question, its `evidence` too (and its references are the
    evidence pages' regions)."""

    id: str
    text: str
    references: tuple[Span, ...]
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True, slots=True)
class AskedQuestion:
    """A question as its file gives it, before its answers are placed: `where` is
    `path:line`; JSON Lines give `answers` (and maybe a `document`), or `evidence` as
    `(document or None, page 1-based, text)`; Chroma's CSV gives `references`."""

    id: str
    text: str
    where: str
    answers: tuple[str, ...] = ()
    document: str | None = None
    references: tuple[Span, ...] | None = None
    evidence: tuple[tuple[str | None, int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class SkippedQuestion:
    """A question left out of the evaluation, and why (`reason`, in words)."""

    id: str
    text: str
    where: str
    reason: str


def document_key(name: str) -> str:
    """The key a document is matched by: its file name without directory and extension."""
    return os.path.splitext(os.path.basename(name))[0]


def read_question_file(path: str | os.PathLike[str]) -> list[AskedQuestion]:
    """The questions of `path`, Chroma's CSV (by its header or extension) or JSON Lines, as
    written. Raise `QuestionsFileError` for a file that is not questions, `OSError` for one that
    cannot be opened."""
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8", newline="") as f:
            head = f.readline()
        if head.startswith("question,") or name.lower().endswith(".csv"):
            asked = list(_iter_chroma(name))
        else:
            asked = list(_iter_jsonl(name))
    except UnicodeDecodeError as exc:
        raise QuestionsFileError(f"{name}: not UTF-8 text ({exc.reason})") from None
    if not asked:
        raise QuestionsFileError(f"{name}: no questions in it")
    return asked


def place_questions(
    asked: Sequence[AskedQuestion],
    texts: Mapping[str, str] | None,
    pages: Mapping[str, Mapping[int, tuple[int, int]]] | None = None,
) -> tuple[list[Question], list[SkippedQuestion]]:
    """The questions of `asked` whose answers lie in `texts` (document key to text), and those
    skipped, with why. With `texts` None, Chroma spans are taken as they are (not checked).
    Evidence-page questions are placed by `pages` (document key to `page_regions()`)."""
    placed: list[Question] = []
    skipped: list[SkippedQuestion] = []
    for question in asked:
        if question.evidence:
            evidence, reason = _evidence(question, pages or {})
            references = tuple(dict.fromkeys(e.region for e in evidence))
            if reason is None:
                placed.append(Question(question.id, question.text, references, evidence))
            else:
                skipped.append(SkippedQuestion(question.id, question.text, question.where, reason))
            continue
        references, reason = _references(question, texts)
        if reason is None:
            placed.append(Question(question.id, question.text, references))
        else:
            skipped.append(SkippedQuestion(question.id, question.text, question.where, reason))
    return placed, skipped


def read_questions(
    path: str | os.PathLike[str],
    texts: Mapping[str, str] | None = None,
    pages: Mapping[str, Mapping[int, tuple[int, int]]] | None = None,
) -> list[Question]:
    """The questions of `path` whose answers lie in `texts` (document key to text; evidence
    pages in `pages`; see `place_questions`). Each question skipped is warned about
    (`QuestionSkippedWarning`)."""
    placed, skipped = place_questions(read_question_file(path), texts, pages)
    for question in skipped:
        warnings.warn(
            f"{question.where}: question skipped: {question.reason}",
            QuestionSkippedWarning,
            stacklevel=2,
        )
    return placed


def skipped_lines(skipped: Iterable[tuple[str, str]]) -> list[str]:
    """One line per reason of the skipped questions given as `(where, reason)`, in order: the
    question's `where: reason`, or for a reason several share, the first one's `where`, how
    many more, and the reason."""
    groups: dict[str, list[str]] = {}
    for where, reason in skipped:
        groups.setdefault(reason, []).append(where)
    return [
        f"{places[0]}: {reason}"
        if len(places) == 1
        else f"{places[0]} and {len(places) - 1:,} more questions: {reason}"
        for reason, places in groups.items()
    ]


def _references(
    question: AskedQuestion, texts: Mapping[str, str] | None
) -> tuple[tuple[Span, ...], str | None]:
    """The question's reference spans, or the reason it cannot be scored."""
    if question.references is not None:
        if texts is None:
            return question.references, None
        for span in question.references:
            text = texts.get(span.corpus)
            if text is None:
                return (), f"its document {span.corpus!r} is not among the documents"
            if span.end > len(text):
                return (), f"its answer ends past the end of document {span.corpus!r}"
        return question.references, None
    texts = texts or {}
    wanted = document_key(question.document) if question.document else None
    candidates = {wanted: texts[wanted]} if wanted is not None and wanted in texts else texts
    references: list[Span] = []
    for answer in question.answers:
        found = locate(answer, candidates)
        if found is None:
            return (), f"its answer {_shortened(answer)!r} is in no document"
        references.append(found)
    return tuple(references), None


def _evidence(
    question: AskedQuestion, pages: Mapping[str, Mapping[int, tuple[int, int]]]
) -> tuple[tuple[Evidence, ...], str | None]:
    """The question's evidence placed on its pages, or the reason it cannot be scored."""
    placed: list[Evidence] = []
    for document, page, text in question.evidence:
        name = document or question.document
        if not name:
            return (), "it names no document for its evidence"
        key = document_key(name)
        regions = pages.get(key)
        if regions is None:
            return (), f"its document {key!r} is not among the documents"
        region = regions.get(page)
        if region is None:
            return (), f"its evidence page {page} has no text in document {key!r}"
        placed.append(Evidence(text, page, Span(key, *region)))
    return tuple(placed), None


def _shortened(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _iter_chroma(path: str) -> Iterator[AskedQuestion]:
    csv.field_size_limit(1 << 24)
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        missing = {"question", "references", "corpus_id"} - set(reader.fieldnames or ())
        if missing:
            columns = ", ".join(sorted(missing))
            raise QuestionsFileError(f"{path}: not Chroma's questions CSV (no column {columns})")
        for number, row in enumerate(reader, start=1):
            where = f"{path}:{reader.line_num}"
            document = document_key(row["corpus_id"] or "")
            try:
                references = tuple(
                    Span(document, int(r["start_index"]), int(r["end_index"]))
                    for r in json.loads(row["references"] or "")
                )
            except (ValueError, TypeError, KeyError) as exc:
                raise QuestionsFileError(
                    f"{where}: references are not a JSON list of start_index/end_index ({exc})"
                ) from None
            text = row["question"] or ""
            yield AskedQuestion(f"q{number:04d}", text, where, (), None, references)


def _iter_jsonl(path: str) -> Iterator[AskedQuestion]:
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                entry = json.loads(line)
            except ValueError as exc:
                raise QuestionsFileError(f"{where}: not a JSON object ({exc})") from None
            if not isinstance(entry, dict) or not isinstance(entry.get("question"), str):
                raise QuestionsFileError(f'{where}: no "question" (a JSON object with a string)')
            document = entry.get("document") or entry.get("doc_name")
            if "evidence" in entry:
                evidence = _evidence_entries(entry["evidence"], where)
                yield AskedQuestion(
                    f"q{number:04d}",
                    entry["question"],
                    where,
                    document=str(document) if document else None,
                    evidence=evidence,
                )
                continue
            answers = entry.get("answers") or [entry.get("answer")]
            if not isinstance(answers, list) or not all(
                isinstance(a, str) and a.strip() for a in answers
            ):
                raise QuestionsFileError(f'{where}: no "answer" text (or "answers", a list)')
            yield AskedQuestion(
                f"q{number:04d}",
                entry["question"],
                where,
                tuple(answers),
                str(document) if document else None,
            )


def _evidence_entries(value: object, where: str) -> tuple[tuple[str | None, int, str], ...]:
    """The `(document, page 1-based, text)` of an `"evidence"` list; `QuestionsFileError` for one
    that is not a non-empty list of `{"evidence_text", "evidence_page_num"}` objects."""
    problem = (
        f'{where}: "evidence" is a list of {{"evidence_text", "evidence_page_num"}} objects'
        " (the page 0-based)"
    )
    if not isinstance(value, list) or not value:
        raise QuestionsFileError(problem)
    found: list[tuple[str | None, int, str]] = []
    for item in value:
        if not isinstance(item, dict):
            raise QuestionsFileError(problem)
        text, page = item.get("evidence_text"), item.get("evidence_page_num")
        if not isinstance(text, str) or not text.strip():
            raise QuestionsFileError(problem)
        if not isinstance(page, int) or isinstance(page, bool) or page < 0:
            raise QuestionsFileError(problem)
        document = item.get("doc_name") or item.get("document")
        found.append((str(document) if document else None, page + 1, text))
    return tuple(found)


def locate(answer: str, texts: Mapping[str, str]) -> Span | None:
    """The first place `answer` occurs in `texts`: exactly, else whitespace-insensitively."""
    answer = answer.strip()
    if not answer:
        return None
    for document, text in texts.items():
        start = text.find(answer)
        if start >= 0:
            return Span(document, start, start + len(answer))
    pattern = re.compile(r"\s+".join(re.escape(word) for word in answer.split()))
    for document, text in texts.items():
        match = pattern.search(text)
        if match:
            return Span(document, match.start(), match.end())
    return None
