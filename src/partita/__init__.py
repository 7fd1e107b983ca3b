"""partita: documents to typed elements, and elements to chunks for retrieval.

    >>> import partita
    >>> elements = partita.partition("report.docx")          # doctest: +SKIP
    >>> json_text = partita.elements_to_json(elements)       # doctest: +SKIP

Elements, their JSON form and the chunking options follow the `unstructured` library, so its
tools read partita's output and partita reads theirs. `import partita` loads the element
classes only: chunking, the JSON functions and each partitioner load on first access, and heavy
dependencies (lxml, pypdfium2, markdown-it-py, tiktoken) only with the partitioner or tokenizer
that needs them.
"""

import typing as _typing

from partita import errors
from partita._lazy import lazy_exports as _lazy_exports
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

if _typing.TYPE_CHECKING:
    from partita.chunking import (
        chunk,
        chunk_by_title,
        chunk_elements,
        iter_chunk_elements,
        iter_chunks_by_title,
    )
    from partita.partitioners import partition
    from partita.partitioners.code import partition_code
    from partita.partitioners.docx import partition_docx
    from partita.partitioners.html import partition_html
    from partita.partitioners.markdown import partition_md
    from partita.partitioners.pdf import partition_pdf
    from partita.partitioners.text import partition_text
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

_LAZY_EXPORTS = {
    **dict.fromkeys(
        (
            "chunk",
            "chunk_by_title",
            "chunk_elements",
            "iter_chunk_elements",
            "iter_chunks_by_title",
        ),
        "partita.chunking",
    ),
    **dict.fromkeys(
        (
            "elements_from_dicts",
            "elements_from_json",
            "elements_to_dicts",
            "elements_to_json",
            "elements_to_jsonl",
            "iter_elements_from_jsonl",
        ),
        "partita.serialization",
    ),
    "partition": "partita.partitioners",
    # -- each format's partitioner: the format table's (`partitioners._formats`, which a test
    # -- checks this against), written here so that `import partita` does not load it --
    "partition_code": "partita.partitioners.code",
    "partition_docx": "partita.partitioners.docx",
    "partition_html": "partita.partitioners.html",
    "partition_md": "partita.partitioners.markdown",
    "partition_pdf": "partita.partitioners.pdf",
    "partition_text": "partita.partitioners.text",
    "split_sentences": "partita.text.sentences",
}
"""Every public name but the element classes and `errors`, imported from its module on first
access: `import partita` costs the elements alone, and chunking, JSON and each partitioner load
when first used."""

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY_EXPORTS)
