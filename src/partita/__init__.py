"""partita: documents to typed elements, and elements to chunks for retrieval.

    >>> import partita
    >>> elements = partita.partition("report.docx")          # doctest: +SKIP
    >>> json_text = partita.elements_to_json(elements)       # doctest: +SKIP

Elements, their JSON form and the chunking options follow the `unstructured` library, so its
tools read partita's output and partita reads theirs. Heavy dependencies (python-docx,
pdfplumber, lxml, tiktoken) are imported only by the partitioner or tokenizer that needs them.
"""

from partita import errors
from partita.chunking import (
    chunk,
    chunk_by_title,
    chunk_elements,
    iter_chunk_elements,
    iter_chunks_by_title,
)
from partita.elements import (
    Address,
    CheckBox,
    CodeSnippet,
    CompositeElement,
    CoordinatesMetadata,
    DataSourceMetadata,
    DocumentData,
    Element,
    ElementMetadata,
    EmailAddress,
    FigureCaption,
    Footer,
    Form,
    FormKeysValues,
    Formula,
    Header,
    Image,
    Link,
    ListItem,
    NarrativeText,
    PageBreak,
    PageNumber,
    Table,
    TableChunk,
    Text,
    Title,
)
from partita.partitioners import partition
from partita.partitioners.text import partition_text
from partita.serialization import (
    elements_from_dicts,
    elements_from_json,
    elements_to_dicts,
    elements_to_json,
    elements_to_jsonl,
    iter_elements_from_jsonl,
)

__version__ = "0.1.0"

__all__ = [
    "Address",
    "CheckBox",
    "CodeSnippet",
    "CompositeElement",
    "CoordinatesMetadata",
    "DataSourceMetadata",
    "DocumentData",
    "Element",
    "ElementMetadata",
    "EmailAddress",
    "FigureCaption",
    "Footer",
    "Form",
    "FormKeysValues",
    "Formula",
    "Header",
    "Image",
    "Link",
    "ListItem",
    "NarrativeText",
    "PageBreak",
    "PageNumber",
    "Table",
    "TableChunk",
    "Text",
    "Title",
    "chunk",
    "chunk_by_title",
    "chunk_elements",
    "elements_from_dicts",
    "elements_from_json",
    "elements_to_dicts",
    "elements_to_json",
    "elements_to_jsonl",
    "errors",
    "iter_chunk_elements",
    "iter_chunks_by_title",
    "iter_elements_from_jsonl",
    "partition",
    "partition_text",
]
