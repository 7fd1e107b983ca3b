"""Table chunking, in three stages: read the table's HTML, split it, emit the chunks.

- `read`: `text_as_html` into a table model (`read._model.HtmlTable`: rows of cells with their
  spans), by the fastest path that reads the table exactly as lxml would (`read._simple_reader`
  without a tree, `read._tree_reader` from lxml's parse);
- `split`: an oversized table into fragments that fit the window, whose HTML holds exactly
  their text (`split._table.HtmlTableSplitter`): rows packed whole (`split._rows`), rowspan-bound
  row groups split row by row (`split._row_groups`, `split._fragment`, `split._spans`), one row
  split cell by cell (`split._cells`), header rows repeated (`split._headers`);
- `_emit`: a table alone in its pre-chunk becomes one `Table` or `TableChunk`s (`_emit`).

A stage imports only the stages before it.
"""
