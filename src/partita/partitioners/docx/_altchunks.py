"""Imported content (`w:altChunk`): another document's content, read where it is imported.

A `w:altChunk r:id="..."` stands among the blocks of a body, a cell, a note or a header; its
relationship (in the part it stands in) names a part of the package, and `[Content_Types].xml`
says what that part is. Word renders the part in place; partita reads it with its own partitioner
for that format, and its elements take the altChunk's place in reading order:

- HTML (`text/html`, `application/xhtml+xml`): `partita.partitioners.html`;
- MHT (`message/rfc822`, `multipart/related`: MIME HTML): its first `text/html` part, else its
  first `text/plain` part, the Content-Transfer-Encoding decoded and the MIME charset honoured;
- plain text (`text/plain`): `partita.partitioners.text`;
- WordprocessingML: a document part of the same package (`...document.main+xml`), or a whole
  .docx (`...wordprocessingml.document`) opened from the part's bytes. It is partitioned as a
  document of its own (its styles, numbering and notes), without headers, footers or page breaks.

The elements belong to the host document: its filename and filetype, and the page number where
the altChunk stands. What cannot be read is left out, named with the reason, in the host's one
`DocxContentWarning` (`_losses`): a missing relationship or part, an external target (never
fetched), an unknown content type, a part that is not what its type says, an import nested more
than `MAX_IMPORT_DEPTH` deep, or one past a bound. An import is read whole before any of its
elements is given, so it is kept or left out whole.

Bounds: imports count against the host's bounds. Their reads go into the host's `ReadTally`
(`MAX_TOTAL_BYTES`, `MAX_XML_NODES`) and their elements into its budget (`MAX_ELEMENTS`,
`MAX_OUTPUT_CHARS`); the HTML and text they hold may reach `MAX_HTML_BYTES` together, one HTML
document's worth. An import that passes a bound is left out, its reading undone from the tally,
and the imports after it are left out unread: the host document reads on, and the work imports
can cost stays bounded (at most one bound's worth wasted).
"""

from __future__ import annotations

import email
import email.policy
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from email.message import Message

from lxml import etree

from partita.errors import DocumentError, DocumentLimitError
from partita.partitioners._build import Draft
from partita.partitioners._html_limits import MAX_HTML_BYTES
from partita.partitioners._source import decode_text
from partita.partitioners.docx import _ns as ns
from partita.partitioners.docx._limits import MAX_IMPORT_DEPTH, Budget, draft_chars
from partita.partitioners.docx._losses import LossReport
from partita.partitioners.docx._package import DocxPackage, Relationship
from partita.partitioners.html import iter_html_drafts
from partita.partitioners.text import iter_text_drafts

__all__ = ["AltChunkReader", "Imports"]

_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_MHT_TYPES = frozenset({"message/rfc822", "multipart/related"})
_TEXT_TYPES = frozenset({"text/plain"})
_WML_PART_TYPES = frozenset(
    {
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
        "application/vnd.ms-word.document.macroenabled.main+xml",
        "application/vnd.ms-word.template.macroenabledtemplate.main+xml",
    }
)
_WML_PACKAGE_TYPES = frozenset(
    {
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.template",
        "application/vnd.ms-word.document.macroenabled.12",
        "application/vnd.ms-word.template.macroenabled.12",
    }
)

ReadDocument = Callable[[DocxPackage, "Imports", int], Iterator[Draft]]
"""Partitions an imported WordprocessingML document at a depth: `_document.iter_document_drafts`
(passed in, as that module builds the readers)."""


class Imports:
    """The imports of one host document, at every depth: the host's loss report, the partitioner
    for imported documents, the HTML and text read so far, and whether a bound stopped them."""

    def __init__(self, host: str, losses: LossReport, read_document: ReadDocument) -> None:
        self.host = host
        """The host document's name, for messages."""
        self.losses = losses
        self.read_document = read_document
        self.markup_bytes = 0
        """Bytes of HTML and text imported so far, against `MAX_HTML_BYTES`."""
        self.stopped = False
        """True once an import passed a bound: the imports after it are not read."""


@dataclass(slots=True)
class AltChunkReader:
    """Reads the altChunks standing in one part (`part`: a document, header or notes part) of
    `package`, found `depth` imports deep, into drafts; `budget` is that document's, `rels` the
    part's relationships (read on the first altChunk when not given)."""

    imports: Imports
    package: DocxPackage
    part: str
    budget: Budget
    depth: int
    rels: dict[str, Relationship] | None = field(default=None, kw_only=True)

    def read(self, alt_chunk: etree._Element) -> list[Draft]:
        """Return the drafts of the part `alt_chunk` imports, or none (the part left out, and
        named with the reason in the loss report)."""
        imports = self.imports
        if imports.stopped:
            imports.losses.add("imported parts not read after a bound was reached")
            return []
        rel_id = alt_chunk.get(ns.R_ID) or ""
        what = f"altChunk {rel_id!r} in {self.part}"
        tally = self.package.tally
        saved = (tally.bytes_read, tally.nodes, imports.markup_bytes)
        try:
            if self.rels is None:
                self.rels = self.package.relationships(self.part)
            rel = self.rels.get(rel_id)
            if rel is None:
                raise DocumentError("no such relationship")
            what = f"altChunk {rel.target}"
            if rel.is_external:
                raise DocumentError("an external target is not fetched")
            return _within_room(self._drafts(rel.target), self.budget)
        except DocumentLimitError as exc:
            tally.bytes_read, tally.nodes, imports.markup_bytes = saved
            imports.stopped = True
            why = f"{_reason(exc)}; the imports after it are not read"
        except (DocumentError, RecursionError) as exc:
            why = _reason(exc)
        imports.losses.leave_out(f"{what} ({why})")
        return []

    def _drafts(self, target: str) -> Iterator[Draft]:
        """Generate the drafts of part `target`; `DocumentError` when it cannot be read."""
        package = self.package
        if not package.has_part(target):
            raise DocumentError("the part is missing")
        content_type = package.content_type(target)
        if content_type is None:
            raise DocumentError("the package gives the part no content type")
        media_type, _, params = content_type.partition(";")
        media_type = media_type.strip()
        name = f"{self.imports.host} (altChunk {target})"
        if media_type in _WML_PART_TYPES or media_type in _WML_PACKAGE_TYPES:
            if self.depth >= MAX_IMPORT_DEPTH:
                raise DocumentError(f"imported documents nest more than {MAX_IMPORT_DEPTH} deep")
            if media_type in _WML_PART_TYPES:
                nested = package.with_main_part(target, name)
            else:
                nested = DocxPackage.open(package.read(target), name, tally=package.tally)
            return self.imports.read_document(nested, self.imports, self.depth + 1)
        if not (media_type in _HTML_TYPES or media_type in _MHT_TYPES or media_type in _TEXT_TYPES):
            raise DocumentError(f"content type {media_type} is not one partita reads")
        data = package.read(target)
        self._spend_markup(len(data))
        if media_type in _MHT_TYPES:
            media_type, text = _mht_text(data)
        else:
            text = _decoded(data, _charset(params))
        if media_type in _HTML_TYPES:
            return iter_html_drafts(text, name=name, origin="docx")
        if isinstance(text, bytes):
            text = decode_text(text, None, name)
        return iter_text_drafts(text)

    def _spend_markup(self, size: int) -> None:
        imports = self.imports
        imports.markup_bytes += size
        if imports.markup_bytes > MAX_HTML_BYTES:
            raise DocumentLimitError(
                f"the HTML and text imported pass {MAX_HTML_BYTES:,} bytes together",
                limit="document size",
            )


def _within_room(drafts: Iterable[Draft], budget: Budget) -> list[Draft]:
    """Return `drafts` as a list, or raise `DocumentLimitError` as soon as they would pass the
    bounds on elements and output size of `budget` (the document the import stands in)."""
    out: list[Draft] = []
    chars = 0
    for draft in drafts:
        out.append(draft)
        chars += draft_chars(draft)
        if not budget.has_room(len(out), chars):
            raise DocumentLimitError(
                "its elements would pass the document's bound on elements or output size",
                limit="elements",
            )
    return out


def _mht_text(data: bytes) -> tuple[str, str | bytes]:
    """Return ("text/html" or "text/plain", the text) of the first HTML part of the MIME message
    `data`, else its first plain-text part; `DocumentError` when it has neither."""
    message = email.message_from_bytes(data, policy=email.policy.compat32)
    found: Message | None = None
    for part in message.walk():
        kind = part.get_content_type()
        if kind == "text/html":
            found = part
            break
        if kind == "text/plain" and found is None:
            found = part
    if found is None:
        raise DocumentError("the MHT holds no text/html or text/plain part")
    payload = found.get_payload(decode=True)
    if not isinstance(payload, bytes):
        raise DocumentError("the MHT's text part holds no content")
    return found.get_content_type(), _decoded(payload, found.get_content_charset())


def _charset(params: str) -> str | None:
    """The `charset` among the content type parameters `params` ("; charset=utf-8")."""
    for param in params.split(";"):
        key, _, value = param.partition("=")
        if key.strip() == "charset" and value.strip():
            return value.strip().strip('"')
    return None


def _decoded(data: bytes, charset: str | None) -> str | bytes:
    """`data` decoded by `charset` (bad bytes as U+FFFD), or left as bytes for the partitioner to
    sniff when there is no charset or it is not a text encoding Python knows."""
    if charset:
        try:
            return data.decode(charset, errors="replace")
        except LookupError:  # -- unknown, or no text encoding ("base64") --
            pass
    return data


def _reason(exc: BaseException) -> str:
    """The message of `exc` without the file name a `DocumentError` starts with."""
    if isinstance(exc, RecursionError):
        return "it nests too deeply to read"
    message = str(exc)
    filename = getattr(exc, "filename", None)
    if filename and message.startswith(f"{filename}: "):
        message = message[len(filename) + 2 :]
    return message
