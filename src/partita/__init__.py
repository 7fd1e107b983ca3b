"""partita: documents to typed elements, and elements to chunks for retrieval.

    >>> import partita
    >>> elements = partita.partition("report.docx")          # doctest: +SKIP
    >>> json_text = partita.elements_to_json(elements)       # doctest: +SKIP

Elements, their JSON form and the chunking options follow the `unstructured` library, so its
tools read partita's output and partita reads theirs. Heavy dependencies (lxml, pdfplumber,
markdown-it-py, tiktoken) are imported only by the partitioner or tokenizer that needs them:
`partition_code`, `partition_docx`, `partition_html`, `partition_md` and `partition_pdf` load on
first access.
"""

import typing as _typing

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
    Navigation,
    PageBreak,
    PageNumber,
    Table,
    TableChunk,
    Text,
    Title,
)
from partita.partitioners import partition
from partita.partitioners.formats import FORMAT_TABLE as _FORMAT_TABLE
from partita.partitioners.text import partition_text

if _typing.TYPE_CHECKING:
    from partita.partitioners.code import partition_code
    from partita.partitioners.docx import partition_docx
    from partita.partitioners.html import partition_html
    from partita.partitioners.markdown import partition_md
    from partita.partitioners.pdf import partition_pdf
from partita.serialization import (
    elements_from_dicts,
    elements_from_json,
    elements_to_dicts,
    elements_to_json,
    elements_to_jsonl,
    iter_elements_from_jsonl,
)
from partita.text.sentences import split_sentences

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
    "Navigation",
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
    "partition_code",
    "partition_docx",
    "partition_html",
    "partition_md",
    "partition_pdf",
    "partition_text",
    "split_sentences",
]

_LAZY_PARTITIONERS = {fmt.function: fmt.module for fmt in _FORMAT_TABLE.values()}
"""The format partitioners by name, each imported on first access (`partition_text` already is)."""


def __getattr__(name: str) -> _typing.Any:
    """Import a format's partitioner on first access (PEP 562), keeping `import partita` light."""
    module_name = _LAZY_PARTITIONERS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'partita' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module_name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY_PARTITIONERS})
