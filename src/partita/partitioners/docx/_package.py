"""Opening a .docx safely: the zip, its parts and their relationships, with typed errors.

A .docx is a zip of XML parts. `DocxPackage.open` checks that the bytes are a zip holding a main
document part, and every read is bounded: a part may not inflate past `MAX_PART_BYTES`, nor all
parts read together past `MAX_TOTAL_BYTES` (a zip bomb is refused, whatever sizes its directory
claims). XML is parsed without entity expansion, DTD loading or network access, and with libxml2's
default depth and node-size limits. Every failure is a `DocumentError` naming the file.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from dataclasses import dataclass

from lxml import etree

from partita.errors import DocumentError
from partita.partitioners.docx._ns import (
    PKG_REL_NS,
    REL_OFFICE_DOCUMENT,
    STRICT_REL_OFFICE_DOCUMENT,
)

__all__ = ["MAX_PART_BYTES", "MAX_TOTAL_BYTES", "DocxPackage", "Relationship"]

MAX_PART_BYTES = 256 * 1024 * 1024
"""The most one part may inflate to."""
MAX_TOTAL_BYTES = 512 * 1024 * 1024
"""The most all the parts read from one package may inflate to together."""

_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True, remove_pis=True
)
_CHUNK = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Relationship:
    """A relationship of a part: its `type` URI and `target` (a part name; a URL if external)."""

    type: str
    target: str
    is_external: bool


class DocxPackage:
    """The parts of one .docx, read on demand with bounded decompression."""

    def __init__(self, archive: zipfile.ZipFile, name: str, main_part: str) -> None:
        self._archive = archive
        self._names = {info.filename.lstrip("/"): info for info in archive.infolist()}
        self._read_total = 0
        self.name = name
        """The file's name, for error messages."""
        self.main_part = main_part
        """The part name of the main document, usually `word/document.xml`."""

    @classmethod
    def open(cls, data: bytes, name: str) -> DocxPackage:
        """Return the package in `data`; `DocumentError` if it is not a readable .docx."""
        if not data.startswith(b"PK"):
            raise DocumentError("not a .docx file (no zip signature)", filename=name)
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
        except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError) as exc:
            raise DocumentError(
                f"not a readable .docx (corrupt zip: {exc})", filename=name
            ) from exc
        package = cls(archive, name, "")
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

    def read(self, part: str) -> bytes:
        """Return the bytes of `part`, bounded by the package's size limits."""
        info = self._names.get(part)
        if info is None:
            raise DocumentError(f"missing part {part}", filename=self.name)
        if info.file_size > MAX_PART_BYTES:
            raise DocumentError(
                f"part {part} is too large ({info.file_size} bytes)", filename=self.name
            )
        out = bytearray()
        try:
            with self._archive.open(info) as stream:
                while chunk := stream.read(_CHUNK):
                    out += chunk
                    self._read_total += len(chunk)
                    if len(out) > MAX_PART_BYTES or self._read_total > MAX_TOTAL_BYTES:
                        raise DocumentError(
                            f"part {part} inflates beyond the size limit (zip bomb?)",
                            filename=self.name,
                        )
        except DocumentError:
            raise
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, RuntimeError) as exc:
            raise DocumentError(f"cannot read part {part}: {exc}", filename=self.name) from exc
        return bytes(out)

    def parse(self, part: str) -> etree._Element:
        """Return the root element of the XML `part`."""
        data = self.read(part)
        try:
            return etree.fromstring(data, _PARSER)
        except etree.XMLSyntaxError as exc:
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

    def _find_main_part(self) -> str | None:
        for rel in self.relationships("").values():
            if rel.type in (REL_OFFICE_DOCUMENT, STRICT_REL_OFFICE_DOCUMENT) and self.has_part(
                rel.target
            ):
                return rel.target
        return "word/document.xml" if self.has_part("word/document.xml") else None


def _resolve(directory: str, target: str) -> str:
    if target.startswith("/"):
        return posixpath.normpath(target).lstrip("/")
    return posixpath.normpath(posixpath.join(directory, target)).lstrip("/")
