"""The chunk inspector: a document's elements and its chunks' extents over them, in one page.

`_data.py` turns elements and chunks made with provenance on into the page's model (each chunk's
extent over the elements, the ranges where chunks overlap, sizes, heading paths, pages);
`_page.py` writes the self-contained HTML page that draws it; `_command.py` is `partita inspect`.
The package exports what a caller uses; the model's parts (`ChunkView`, `ElementView`,
`Extent`, `Overlap`) are in `partita.inspection._data`.
"""

from partita.inspection._data import InspectionModel, inspection_model, model_to_json
from partita.inspection._page import model_to_html, write_page

__all__ = ["InspectionModel", "inspection_model", "model_to_html", "model_to_json", "write_page"]
