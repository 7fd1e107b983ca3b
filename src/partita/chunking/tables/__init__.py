"""Table chunking, in three stages: read the table's HTML, split it, emit the chunks.

- `read`: `text_as_html` into a table model (`read.model.HtmlTable`: rows of cells with their
  spans), by the fastest path that reads the table exactly as lxml would (`read.simple_reader`
  without a tree, `read.tree_reader` from lxml's parse);
- `split`: an oversized table into fragments that fit the window, whose HTML holds exactly
  their text (`split.table.HtmlTableSplitter`): rows packed whole (`split.rows`), rowspan-bound
  row groups split row by row (`split.row_groups`, `split.fragment`, `split.spans`), one row
  split cell by cell (`split.cells`), header rows repeated (`split.headers`);
- `emit`: a table alone in its pre-chunk becomes one `Table` or `TableChunk`s (`emit`).

A stage imports only the stages before it.
"""
