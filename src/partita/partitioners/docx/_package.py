"""Opening a .docx safely: the zip, its parts and their relationships, with typed errors.

A .docx is a zip of XML parts. `DocxPackage.open` checks that the bytes are a zip holding a main
document part, and everything read is bounded (`_limits`): the zip may list at most
`MAX_ZIP_ENTRIES` entries, stored or deflated (the only methods OPC allows); a part may not
inflate past `MAX_PART_BYTES`, nor all parts read together past `MAX_TOTAL_BYTES` (a zip bomb is
refused, whatever sizes its directory claims); the parts parsed may hold at most `MAX_XML_NODES`
nodes together, counted before parsing, so a flood of tiny elements is refused before libxml2
spends memory on it. A bound exceeded is a `DocumentLimitError` naming it; libxml2 running out of
memory is a `MemoryError`, not "malformed XML". The sizes and node counts are kept in a
`ReadTally`, which a package opened inside another (an imported .docx: `_altchunks`) shares with
it, so that the bounds hold for everything one document reads.

XML is parsed without entity expansion, DTD loading or network access, and within libxml2's
default limits (depth 256, a text node 10 MB, entity amplification 5x), whose breach is a
`DocumentLimitError` too ("XML parser limits"). Every other failure is a `DocumentError`
naming the file.
"""

from __future__ import annotations

import copy
import io
import posixpath
import re
import zipfile
import zlib
from dataclasses import dataclass

from lxml import etree

from partita.errors import DocumentError, DocumentLimitError
from partita.partitioners.docx import _limits as limits
from partita.partitioners.docx._ns import (
    PKG_REL_NS,
    REL_OFFICE_DOCUMENT,
    STRICT_REL_OFFICE_DOCUMENT,
)

__all__ = ["DocxPackage", "ReadTally", "Relationship", "count_zip_entries", "estimate_xml_nodes"]

_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True, remove_pis=True
)
_CHUNK = 1024 * 1024
_PARSER_LIMIT_ERRORS = frozenset(
    (etree.ErrorTypes.ERR_RESOURCE_LIMIT, etree.ErrorTypes.ERR_NAME_TOO_LONG)
)
"""libxml2's own bounds (without XML_PARSE_HUGE, which partita never sets)."""
_PARSE_HUGE_HINT = re.compile(r",? *(?:use|try) XML_PARSE_HUGE(?: option)?\s*")
_CENTRAL_DIRECTORY_ENTRY = b"PK\x01\x02"
_END_RECORD = b"PK\x05\x06"
_END_RECORD_SIZE = 22
_ZIP64_LOCATOR = b"PK\x06\x07"
_ZIP64_LOCATOR_SIZE = 20
_ZIP64_RECORD = b"PK\x06\x06"
_ZIP64_RECORD_SIZE = 56
_OPC_METHODS = frozenset((zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED))
"""The compression methods an OPC package may use (ECMA-376 Part 2, Annex C)."""
_CONTENT_TYPES_PART = "[Content_Types].xml"
_CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"


def count_zip_entries(data: bytes) -> int:
    """Return an upper bound on the entries the zip module will list for the zip `data`: the
    entry signatures in the central directory, located as `zipfile` locates it (the end record,
    with or without a comment, and its ZIP64 extension). Only that region is scanned, so the
    check costs little even for a large file; 0 when there is no end record (the zip module
    then refuses the file itself)."""
    end = len(data) - _END_RECORD_SIZE
    if not (end >= 0 and data.startswith(_END_RECORD, end) and data.endswith(b"\0\0")):
        end = data.rfind(_END_RECORD, max(len(data) - 65_536 - _END_RECORD_SIZE, 0))
        if end < 0 or end + _END_RECORD_SIZE > len(data):
            return 0
    size = int.from_bytes(data[end + 12 : end + 16], "little")
    start = end - size
    locator = end - _ZIP64_LOCATOR_SIZE
    if locator >= 0 and data.startswith(_ZIP64_LOCATOR, locator):
        record = locator - _ZIP64_RECORD_SIZE
        if record >= 0 and data.startswith(_ZIP64_RECORD, record):
            size = int.from_bytes(data[record + 40 : record + 48], "little")
            start = record - size
    if start < 0:
        return 0
    return data.count(_CENTRAL_DIRECTORY_ENTRY, start, start + size)


def estimate_xml_nodes(data: bytes) -> int:
    """Return an upper estimate of the nodes libxml2 builds for the XML `data`.

    Every element, comment and CDATA section starts with `<`, every attribute and namespace
    declaration has a `=`, every entity reference starts with `&`; a text node lies between two
    of these, and end tags (`</`, counted too) pay for it. `=` and `&` in text overcount, which
    only matters for a document near the bound. Counting costs a pass at memchr speed.
    """
    return data.count(b"<") + data.count(b"=") + data.count(b"&")


@dataclass(frozen=True, slots=True)
class Relationship:
    """A relationship of a part: its `type` URI and `target` (a part name; a URL if external)."""

    type: str
    target: str
    is_external: bool


@dataclass(slots=True)
class ReadTally:
    """What reading one document has cost so far: bytes inflated (against `MAX_TOTAL_BYTES`)
    and XML nodes parsed (against `MAX_XML_NODES`)."""

    bytes_read: int = 0
    nodes: int = 0


class DocxPackage:
    """The parts of one .docx, read on demand with bounded decompression and parsing."""

    def __init__(
        self,
        archive: zipfile.ZipFile,
        name: str,
        main_part: str,
        tally: ReadTally | None = None,
    ) -> None:
        self._archive = archive
        self._names = {info.filename.lstrip("/"): info for info in archive.infolist()}
        self._content_types: tuple[dict[str, str], dict[str, str]] | None = None
        self.tally = tally if tally is not None else ReadTally()
        """The bytes and nodes read so far, shared with the packages this one imports."""
        self.name = name
        """The file's name, for error messages."""
        self.main_part = main_part
        """The part name of the main document, usually `word/document.xml`."""

    @classmethod
    def open(cls, data: bytes, name: str, *, tally: ReadTally | None = None) -> DocxPackage:
        """Return the package in `data`; `DocumentError` if it is not a readable .docx,
        `DocumentLimitError` if its zip lists more than `MAX_ZIP_ENTRIES` entries.

        `tally`, when given, is the reading cost of the document this package is imported into:
        this package's reads count against the same bounds.
        """
        if not data.startswith(b"PK"):
            raise DocumentError("not a .docx file (no zip signature)", filename=name)
        # -- the zip module lists every entry before anything can be checked: count first --
        if count_zip_entries(data) > limits.MAX_ZIP_ENTRIES:
            raise DocumentLimitError(
                f"the zip lists more than {limits.MAX_ZIP_ENTRIES:,} entries",
                filename=name,
                limit="zip entries",
            )
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
        except (
            zipfile.BadZipFile,
            zipfile.LargeZipFile,
            ValueError,
            OSError,
            EOFError,
            NotImplementedError,  # -- a zip version or feature the zip module lacks --
        ) as exc:
            raise DocumentError(f"not a readable .docx (zip: {exc})", filename=name) from exc
        package = cls(archive, name, "", tally)
        main = package._find_main_part()
        if main is None:
            raise DocumentError(
                "not a .docx: the zip holds no main document part (word/document.xml)",
                filename=name,
            )
        package.main_part = main
        return package

    def has_part(self, part: str) -> bool:
        """True when the package holds `part`."""
        return part in self._names

    def with_main_part(self, part: str, name: str) -> DocxPackage:
        """Return this package seen with `part` (a WordprocessingML document part it holds, such
        as an imported one) as its main document, named `name` in errors; reads count against
        the same tally."""
        self.content_type(part)  # -- the content types are read once, and shared --
        view = copy.copy(self)
        view.main_part = part
        view.name = name
        return view

    def content_type(self, part: str) -> str | None:
        """Return the content type `[Content_Types].xml` gives `part` (its `Override`, else the
        `Default` for its extension), lowercased, parameters kept; None when it gives none.

        Part names and extensions compare ignoring case, as OPC requires.
        """
        if self._content_types is None:
            self._content_types = self._read_content_types()
        overrides, defaults = self._content_types
        found = overrides.get(part.lower())
        if found is None:
            extension = posixpath.splitext(part)[1][1:].lower()
            found = defaults.get(extension) if extension else None
        return found

    def read(self, part: str) -> bytes:
        """Return the bytes of `part`, bounded by `MAX_PART_BYTES` and `MAX_TOTAL_BYTES`."""
        info = self._names.get(part)
        if info is None:
            raise DocumentError(f"missing part {part}", filename=self.name)
        if info.compress_type not in _OPC_METHODS:
            raise DocumentError(
                f"part {part} uses zip compression method {info.compress_type}; a .docx may"
                " only store or deflate its parts",
                filename=self.name,
            )
        if info.file_size > limits.MAX_PART_BYTES:
            raise self._too_large(part)
        out = bytearray()
        try:
            with self._archive.open(info) as stream:
                while chunk := stream.read(_CHUNK):
                    out += chunk
                    self.tally.bytes_read += len(chunk)
                    if len(out) > limits.MAX_PART_BYTES:
                        raise self._too_large(part)
                    if self.tally.bytes_read > limits.MAX_TOTAL_BYTES:
                        raise DocumentLimitError(
                            f"the parts read inflate beyond the document size limit"
                            f" ({limits.MAX_TOTAL_BYTES:,} bytes; zip bomb?) at part {part}",
                            filename=self.name,
                            limit="document size",
                        )
        except DocumentError:
            raise
        except (
            zipfile.BadZipFile,
            zlib.error,
            EOFError,
            OSError,
            ValueError,
            RuntimeError,
            NotImplementedError,
        ) as exc:
            raise DocumentError(f"cannot read part {part}: {exc}", filename=self.name) from exc
        return bytes(out)

    def parse(self, part: str) -> etree._Element:
        """Return the root element of the XML `part`, bounded by `MAX_XML_NODES` (counted over
        every part parsed) as well as by the size limits."""
        data = self.read(part)
        self.tally.nodes += estimate_xml_nodes(data)
        if self.tally.nodes > limits.MAX_XML_NODES:
            raise DocumentLimitError(
                f"the parts parsed hold more than {limits.MAX_XML_NODES:,} XML nodes (elements,"
                f" attributes, entity references) at part {part}",
                filename=self.name,
                limit="XML nodes",
            )
        try:
            return etree.fromstring(data, _PARSER)
        except etree.XMLSyntaxError as exc:
            code = getattr(exc, "code", None)
            if code == etree.ErrorTypes.ERR_NO_MEMORY:
                raise MemoryError(f"{self.name}: out of memory parsing {part}") from exc
            if code in _PARSER_LIMIT_ERRORS:
                reason = _PARSE_HUGE_HINT.sub("", str(exc))
                raise DocumentLimitError(
                    f"part {part} exceeds the XML parser's limits (depth 256, text node"
                    f" 10,000,000 bytes, entity amplification 5x): {reason}",
                    filename=self.name,
                    limit="XML parser limits",
                ) from exc
            raise DocumentError(f"malformed XML in {part}: {exc}", filename=self.name) from exc

    def parse_optional(self, part: str | None) -> etree._Element | None:
        """Return the root element of `part`, or None when `part` is None or absent."""
        if part is None or part not in self._names:
            return None
        return self.parse(part)

    def relationships(self, part: str) -> dict[str, Relationship]:
        """Return the relationships of `part` by id, with internal targets as part names."""
        directory, base = posixpath.split(part)
        rels_part = posixpath.join(directory, "_rels", base + ".rels")
        root = self.parse_optional(rels_part)
        if root is None:
            return {}
        rels: dict[str, Relationship] = {}
        for rel in root.iter(f"{{{PKG_REL_NS}}}Relationship"):
            rel_id, target = rel.get("Id"), rel.get("Target")
            if not rel_id or target is None:
                continue
            external = rel.get("TargetMode") == "External"
            if not external:
                target = _resolve(directory, target)
            rels[rel_id] = Relationship(rel.get("Type", ""), target, external)
        return rels

    def _read_content_types(self) -> tuple[dict[str, str], dict[str, str]]:
        """The `Override` content types by lowercased part name and `Default` ones by extension."""
        overrides: dict[str, str] = {}
        defaults: dict[str, str] = {}
        root = self.parse_optional(_CONTENT_TYPES_PART)
        if root is None:
            return overrides, defaults
        for el in root:
            content_type = (el.get("ContentType") or "").strip().lower()
            if not content_type:
                continue
            if el.tag == f"{{{_CT_NS}}}Override":
                part = (el.get("PartName") or "").lstrip("/").lower()
                overrides.setdefault(part, content_type)
            elif el.tag == f"{{{_CT_NS}}}Default":
                defaults.setdefault((el.get("Extension") or "").lower(), content_type)
        return overrides, defaults

    def _find_main_part(self) -> str | None:
        for rel in self.relationships("").values():
            if rel.type in (REL_OFFICE_DOCUMENT, STRICT_REL_OFFICE_DOCUMENT) and self.has_part(
                rel.target
            ):
                return rel.target
        return "word/document.xml" if self.has_part("word/document.xml") else None

    def _too_large(self, part: str) -> DocumentLimitError:
        return DocumentLimitError(
            f"part {part} inflates beyond the part size limit ({limits.MAX_PART_BYTES:,} bytes;"
            " zip bomb?)",
            filename=self.name,
            limit="part size",
        )


def _resolve(directory: str, target: str) -> str:
    if target.startswith("/"):
        return posixpath.normpath(target).lstrip("/")
    return posixpath.normpath(posixpath.join(directory, target)).lstrip("/")
