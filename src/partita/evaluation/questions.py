"""Questions with known answers: Chroma's `questions_df.csv`, or a simple JSON Lines file.

- **Chroma's format** (`question,references,corpus_id`): `references` is a JSON list of
  `{"content", "start_index", "end_index"}` spans of the corpus file `corpus_id` (its stem: the
  corpus `wikitexts.md` is `wikitexts`), character offsets into the file as Python reads it as
  text. The spans are kept as they are (Chroma's evaluation scores against them).
- **JSON Lines**: one object per line, `{"question": ..., "answer": "..."}` (or `"answers": [...]`
  for several passages), optionally `"document"` naming the document (file name or stem) the
  answer is in. Each answer is found in the documents' texts by the tool: exactly, else with any
  run of whitespace matching any other; an answer found nowhere raises `ValueError` naming its
  line, since a question without a located answer cannot be scored.
- A question's id is its 1-based line number (`q0001`), stable across runs so two runs' scores
  pair up.
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from partita.evaluation.spans import Span

__all__ = ["Question", "document_key", "locate", "read_questions"]


@dataclass(frozen=True, slots=True)
class Question:
    """A question, its id, and the spans that answer it (`Span.corpus` names the document by
    its key)."""

    id: str
    text: str
    references: tuple[Span, ...]


def document_key(name: str) -> str:
    """The key a document is matched by: its file name without directory and extension."""
    return os.path.splitext(os.path.basename(name))[0]


def read_questions(
    path: str | os.PathLike[str], texts: Mapping[str, str] | None = None
) -> list[Question]:
    """The questions of `path`: Chroma's CSV (by its header) or JSON Lines, whose answers are
    located in `texts` (document key to text)."""
    name = os.fspath(path)
    with open(name, encoding="utf-8", newline="") as f:
        head = f.readline()
    if head.startswith("question,") or name.lower().endswith(".csv"):
        return list(_iter_chroma(name))
    return list(_iter_jsonl(name, texts or {}))


def _iter_chroma(path: str) -> Iterator[Question]:
    csv.field_size_limit(1 << 24)
    with open(path, encoding="utf-8", newline="") as f:
        for number, row in enumerate(csv.DictReader(f), start=1):
            document = document_key(row["corpus_id"])
            references = tuple(
                Span(document, int(r["start_index"]), int(r["end_index"]))
                for r in json.loads(row["references"])
            )
            yield Question(f"q{number:04d}", row["question"], references)


def _iter_jsonl(path: str, texts: Mapping[str, str]) -> Iterator[Question]:
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            entry = json.loads(line)
            answers = entry.get("answers") or [entry.get("answer")]
            wanted = entry.get("document")
            candidates = (
                {document_key(wanted): texts[document_key(wanted)]}
                if wanted and document_key(wanted) in texts
                else texts
            )
            references: list[Span] = []
            for answer in answers:
                found = locate(str(answer or ""), candidates)
                if found is None:
                    raise ValueError(f"{path}:{number}: the answer {answer!r} is in no document")
                references.append(found)
            yield Question(f"q{number:04d}", str(entry["question"]), tuple(references))


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
