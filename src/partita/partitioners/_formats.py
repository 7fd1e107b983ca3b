"""The formats partita partitions, in one table: what detection, dispatch and search read.

Each format has a key ("docx", "pdf", "html", "md", "text", "code"), the name messages call it
by, the MIME type that names it, the file extensions that claim it, and its partitioner, which
`partita.partition` imports only when a document of that format comes (so `import partita`
stays light). Source code is claimed by the extensions of `partita.text.code._languages`, not by
its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["FORMAT_TABLE", "DocumentFormat"]


@dataclass(frozen=True, slots=True)
class DocumentFormat:
    """One format partita partitions: `partition` imports `module` and calls its `function`."""

    name: str
    """How messages name the format ("Word (docx)", "plain text", ...)."""
    content_type: str
    """The MIME type that names the format."""
    extensions: tuple[str, ...]
    """The file extensions (lower case, with the dot) that claim the format."""
    module: str
    function: str


FORMAT_TABLE: Mapping[str, DocumentFormat] = {
    "docx": DocumentFormat(
        "Word (docx)",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        (".docx",),
        "partita.partitioners.docx",
        "partition_docx",
    ),
    "pdf": DocumentFormat(
        "PDF", "application/pdf", (".pdf",), "partita.partitioners.pdf", "partition_pdf"
    ),
    "html": DocumentFormat(
        "HTML",
        "text/html",
        (".html", ".htm", ".xhtml"),
        "partita.partitioners.html",
        "partition_html",
    ),
    "md": DocumentFormat(
        "Markdown",
        "text/markdown",
        (".md", ".markdown", ".mdown", ".mkd"),
        "partita.partitioners.markdown",
        "partition_md",
    ),
    "text": DocumentFormat(
        "plain text", "text/plain", (".txt",), "partita.partitioners.text", "partition_text"
    ),
    "code": DocumentFormat(
        "source code", "text/x-python", (), "partita.partitioners.code", "partition_code"
    ),
}
"""Format key to format, in the order `FORMATS` lists them."""
