"""Integrations: partita's chunks where users already work.

Principles:

- **Optional and one-way.** Nothing else in partita imports this package; each integration is
  its own submodule and imports its library (LangChain, LlamaIndex) when that submodule is
  imported, never before. `import partita.integrations` and `partita.integrations.records`
  need no extra.
- **One flat record form.** Every integration derives its metadata from `records`: an `id`, the
  `text`, and flat scalar metadata (str, int, float, bool) that Chroma, Qdrant payload indexes
  and LanceDB accept as they are.

Submodules and the extra each needs:

- `partita.integrations.records`: `chunk_to_record`, `iter_records` (no extra);
- `partita.integrations.langchain`: `PartitaLoader`, `chunks_to_documents`
  (`pip install "partita[langchain]"`);
- `partita.integrations.llamaindex`: `PartitaReader`, `PartitaNodeParser`
  (`pip install "partita[llamaindex]"`).
"""

from __future__ import annotations

from partita.integrations.records import (
    Scalar,
    VectorRecord,
    chunk_to_record,
    iter_records,
    parse_sources,
)

__all__ = ["Scalar", "VectorRecord", "chunk_to_record", "iter_records", "parse_sources"]
