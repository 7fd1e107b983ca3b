"""Telling a document's format from its first bytes, then from its name.

Magic bytes win over names: a zip container holding `word/document.xml` is docx whatever it is
called, `%PDF-` is PDF. Then a source file's extension (`.py`, `.go`, `.ts`, ...:
`partita.text.code._languages`) makes it code, before markup (`<!DOCTYPE html`, `<html`, ...)
makes it HTML (a `.tsx` file may start with a tag). Markdown and plain text, which have no
signature, are told by extension (`.md`/`.markdown` versus anything else). A Markdown file may
start with an HTML block (`<p align="center">`, common in READMEs) and is still Markdown: under
a Markdown name only a whole HTML document (`<!DOCTYPE html`, `<html`) is HTML.

A name claims a format (`format_for_extension`); the content wins when the two disagree, and
`partita.partition` warns that it did (`FormatMismatchWarning`).
"""

from __future__ import annotations

import io
import os
import re

from partita.partitioners._formats import FORMAT_TABLE
from partita.text.code._languages import LANGUAGES, language_for_filename

__all__ = [
    "CONTENT_TYPES",
    "FORMATS",
    "FORMAT_NAMES",
    "READABLE_EXTENSIONS",
    "detect_file_format",
    "detect_format",
    "format_for_content_type",
    "format_for_extension",
]

FORMATS = tuple(FORMAT_TABLE)
"""The formats partita partitions (`partita.partitioners._formats`)."""

FORMAT_NAMES = {key: fmt.name for key, fmt in FORMAT_TABLE.items()}
"""How messages name each of `FORMATS`."""

_EXTENSION_FORMATS = {ext: key for key, fmt in FORMAT_TABLE.items() for ext in fmt.extensions}

READABLE_EXTENSIONS = frozenset(_EXTENSION_FORMATS) | {
    ext for language in LANGUAGES.values() for ext in language.extensions
}
"""The extensions of the files partita reads when it searches a directory (documents and source
code; elements files are left out, as a tree of documents often holds unrelated `.json`)."""

CONTENT_TYPES = {key: fmt.content_type for key, fmt in FORMAT_TABLE.items()}
"""The MIME type partita records in `filetype` for each format."""

_CONTENT_TYPE_ALIASES = {
    **{v: k for k, v in CONTENT_TYPES.items()},
    "application/xhtml+xml": "html",
    "text/x-markdown": "md",
    **{language.mime_type: "code" for language in LANGUAGES.values()},
}

_MARKUP_TAG = re.compile(
    rb"<(!doctype\s+html|html|head|body|meta|title|div|p|table|h[1-6]|section|article|main|span|ul|"
    rb"ol|a|br|style|script|link|!doctype)[\s>/]",
    re.IGNORECASE,
)
"""A tag that starts an HTML document (tried where the prolog ends, never searched for)."""
_DOCUMENT_TAG = re.compile(rb"<(!doctype\s+html|html)[\s>/]", re.IGNORECASE)
"""A tag that starts a whole HTML document: what makes a file with a Markdown name HTML."""
_WHITESPACE = b" \t\n\r\f\v"
_MARKDOWN_EXTENSIONS = frozenset(FORMAT_TABLE["md"].extensions)
_HTML_EXTENSIONS = frozenset(FORMAT_TABLE["html"].extensions)


def format_for_content_type(content_type: str) -> str | None:
    """Return the format a MIME type names (parameters such as `; charset=` ignored), or None."""
    return _CONTENT_TYPE_ALIASES.get(content_type.split(";")[0].strip().lower())


def format_for_extension(filename: str | None) -> str | None:
    """Return the format the extension of `filename` claims (one of `FORMATS`), or None when it
    claims none (no extension, or one partita does not know, such as `.log` or `.bin`)."""
    if language_for_filename(filename) is not None:
        return "code"
    return _EXTENSION_FORMATS.get(os.path.splitext(filename or "")[1].lower())


def detect_format(head: bytes | str, filename: str | None = None) -> str:
    """Return the format of a document from its first bytes (or text) and its name.

    Returns one of `FORMATS`, or "zip" for a zip container that is not a Word document (which
    callers report as unsupported). `head` should hold the whole document for zip detection.
    """
    extension = os.path.splitext(filename or "")[1].lower()
    if isinstance(head, bytes):
        if head.startswith(b"PK\x03\x04"):
            members = _zip_members(head)
            if members is None:  # -- a damaged container: let a .docx name tell --
                return "docx" if extension == ".docx" else "zip"
            return "docx" if "word/document.xml" in members else "zip"
        is_code = language_for_filename(filename) is not None
        is_text = is_code or format_for_extension(filename) in ("text", "md", "html")
        if b"%PDF-" in head[:1024] and (head.startswith(b"%PDF-") or not is_text):
            # -- a PDF's header may follow some junk, but a source or text file may mention
            # -- "%PDF-" (a PDF starts with it): there, only a header at the start counts --
            return "pdf"
        if is_code:
            return "code"
        sample = head[:4096]
        if sample.startswith(b"\xef\xbb\xbf"):
            sample = sample[3:]
    elif language_for_filename(filename) is not None:
        return "code"
    else:
        sample = head[:4096].lstrip("\ufeff").encode("utf-8", "replace")
    markdown = extension in _MARKDOWN_EXTENSIONS
    if _starts_with_markup(sample, _DOCUMENT_TAG if markdown else _MARKUP_TAG):
        return "html"
    if markdown:
        return "md"
    if extension in _HTML_EXTENSIONS:
        return "html"
    return "text"


def _starts_with_markup(sample: bytes, tag: re.Pattern[bytes]) -> bool:
    """Return True when `sample` starts, after whitespace, an XML declaration and comments, with
    a tag `tag` matches.

    A scan, not one regular expression: the prolog's parts are skipped one after the other, so
    the cost is linear in the sample (a regex such as `(<!--.*?-->\\s*)*<tag` backtracks
    exponentially over a run of comments that no tag follows).
    """
    pos = len(sample) - len(sample.lstrip(_WHITESPACE))
    if sample.startswith(b"<?xml", pos):
        end = sample.find(b">", pos)
        if end < 0:
            return False
        pos = _skip_whitespace(sample, end + 1)
    while sample.startswith(b"<!--", pos):
        end = sample.find(b"-->", pos + 4)
        if end < 0:
            return False
        pos = _skip_whitespace(sample, end + 3)
    return tag.match(sample, pos) is not None


def _skip_whitespace(data: bytes, pos: int) -> int:
    while pos < len(data) and data[pos] in _WHITESPACE:
        pos += 1
    return pos


def detect_file_format(path: str) -> str:
    """Return the format of the file at `path`, reading only its head (and a zip's directory).

    Raises `OSError` when the file cannot be read.
    """
    with open(path, "rb") as f:
        head = f.read(4096)
    if head.startswith(b"PK\x03\x04"):
        members = _zip_members(path)
        if members is None:
            return "docx" if path.lower().endswith(".docx") else "zip"
        return "docx" if "word/document.xml" in members else "zip"
    return detect_format(head, path)


def _zip_members(data: bytes | str) -> frozenset[str] | None:
    """Return the member names of the zip `data` (bytes or a path), or None when the zip module
    cannot list them. Listing costs time and memory linear in the central directory, which is
    part of the file."""
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(data) if isinstance(data, bytes) else data) as archive:
            return frozenset(archive.NameToInfo)
    except Exception:  # -- BadZipFile, NotImplementedError (a zip version it does not know), ...
        return None  # -- the caller falls back on the name; the partitioner then reports it
