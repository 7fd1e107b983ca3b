"""Integrations: partita's chunks where users already work.

Principles:

- **Optional and one-way.** Nothing else in partita imports this package; each integration is
  its own submodule and imports its library (LangChain, LlamaIndex) when that submodule is
  imported, never before. `import partita.integrations` needs no extra; importing an
  integration without its extra raises `ImportError` naming it (`pip install
  'partita[langchain]'`).
- **One flat record form.** Every integration derives its metadata from the vector-store record
  (`partita.serialization.records`, re-exported here; the batch and Ray rows use it too): an
  `id`, the `text`, and flat scalar metadata (str, int, float, bool) that Chroma, Qdrant payload
  indexes and LanceDB accept as they are.
- **In each library's words, one key per fact.** An integration renames the record's keys to
  its library's conventions, and no fact is stated under two names: a LangChain `Document`
  has `source` and unstructured's loaders' `category` (for `element_type`); a LlamaIndex node
  has `SimpleDirectoryReader`'s `file_path`, `file_name`, `file_type` and `last_modified_date`
  (for `file_directory`, `filename`, `filetype` and `last_modified`).

Submodules and the extra each needs (the records, `chunk_to_record` and `iter_records`, need
none):

- `partita.integrations.langchain`: `PartitaLoader`, `chunks_to_documents`, and
  `SmallToBigRetriever` with `parent_documents` (small-to-big and token budgets around any
  retriever) (`pip install 'partita[langchain]'`);
- `partita.integrations.llamaindex`: `PartitaReader`, `PartitaNodeParser`, `chunks_to_nodes`
  (`pip install 'partita[llamaindex]'`);
- `partita.integrations.llamaindex_parents`: `SmallToBigPostprocessor` with `parent_nodes`
  (the same for LlamaIndex; the same extra).
"""

from __future__ import annotations

from partita.serialization.records import (
    Scalar,
    VectorRecord,
    chunk_to_record,
    iter_records,
    parse_sources,
)

__all__ = ["Scalar", "VectorRecord", "chunk_to_record", "iter_records", "parse_sources"]
