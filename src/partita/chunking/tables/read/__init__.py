"""Reading a table's `text_as_html` into rows and cells (the first stage of table chunking)."""
