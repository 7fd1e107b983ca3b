"""Evaluation: measure chunking configurations on the user's own documents.

`partita evaluate DOCS... [--config SPEC]... [--questions FILE] [-o report.html]` and
`evaluate(...)`: the documents are partitioned once, each configuration (a strategy and its
options, `_configurations`) chunks them, and each is measured (`_run`):

- intrinsic figures (`_intrinsic`): sizes in characters and tokens, the share above the embedding
  model's window, semantic coherence (mean pairwise similarity of a chunk's sentences) and
  boundary quality (1 − similarity of adjacent chunks), chunks ending mid-sentence, orphaned
  headings;
- with questions (`_questions`: Chroma's `questions_df.csv`, JSON Lines of question and answer,
  or FinanceBench's evidence pages), retrieval (`_retrieval`, `_spans`, `evidence`): Chroma's
  character-span recall, precision, IoU and precision_Ω, hit rate, MRR, precision/recall/F1 at
  k, page hit and evidence recall for evidence pages, each with the characters retrieved, at
  top-k and at matched budgets of characters and tokens, and a curve against retrieved tokens;
- how to retrieve is part of a configuration: small-to-big (`parent_tokens`) and budgeted
  retrieval (`budget_tokens`); the peers' chunkings are baselines (`_baselines`: token windows
  over the plain text, one chunk per page);
- efficiency: chunking time, chunks per second, tokens to embed, embedding time.

Chunks are placed in their documents by their provenance (`_documents`); embeddings come from
any callable behind one protocol, the offline default all-MiniLM-L6-v2 (`partita.embeddings`, the
`embed` extra), cached on disk. Without an embedder (sizes and boundaries only) nothing imports
numpy, so that much runs on the core install. Results are plain data written as JSON; `report`
renders them as a Markdown table and a self-contained HTML page, `_compare` pairs two runs'
per-question scores (by question text) in a bootstrap, and `_recommend` picks among the measured
configurations, giving the measured figures it rests on. `partita evaluate` checks its whole
command line before it reads a document (`_preflight`); `_command` is that command line.

Names load on first use, so `import partita.evaluation` costs nothing until then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from partita._lazy import lazy_exports

if TYPE_CHECKING:
    from partita.evaluation._configurations import (
        Configuration,
        parse_configuration,
        read_configurations,
    )
    from partita.evaluation._documents import DocumentText, document_text
    from partita.evaluation._questions import Question, read_questions
    from partita.evaluation._recommend import recommend
    from partita.evaluation._run import evaluate
    from partita.evaluation._spans import Span

__all__ = [
    "Configuration",
    "DocumentText",
    "Question",
    "Span",
    "document_text",
    "evaluate",
    "parse_configuration",
    "read_configurations",
    "read_questions",
    "recommend",
]

_EXPORTS = {
    "Configuration": "partita.evaluation._configurations",
    "parse_configuration": "partita.evaluation._configurations",
    "read_configurations": "partita.evaluation._configurations",
    "DocumentText": "partita.evaluation._documents",
    "document_text": "partita.evaluation._documents",
    "Question": "partita.evaluation._questions",
    "read_questions": "partita.evaluation._questions",
    "recommend": "partita.evaluation._recommend",
    "evaluate": "partita.evaluation._run",
    "Span": "partita.evaluation._spans",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
