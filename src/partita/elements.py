"""Document elements: small immutable values with the reference library's names and JSON types.

An element is a piece of a document in reading order: a `Title`, a paragraph of `NarrativeText`,
a `ListItem`, a `Table`, ... Chunking produces `CompositeElement`, `Table` and `TableChunk`.
Every element has `text`, a deterministic `element_id`, a `metadata` (`ElementMetadata`) and a
class-level `category`, which is its `"type"` in JSON.

Elements and their metadata are frozen dataclasses: derive a changed copy with
`dataclasses.replace(element, text=...)` or `element.metadata.replace(page_number=2)`. Sequence
fields are stored as tuples; constructors accept lists, as the reference's constructors do
(`Title("Intro", metadata=ElementMetadata(page_number=1, languages=["eng"]))`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, ClassVar, TypeVar

from partita._metadata_fields import FieldSpec, field_specs, spec

__all__ = [
    "ELEMENT_TYPES",
    "METADATA_FIELDS",
    "METADATA_FIELD_NAMES",
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
    "document_key",
    "element_id_for",
    "metadata_from_fields",
    "new_element",
]

Point = tuple[float, float]
_E = TypeVar("_E", bound="Element")


@dataclass(frozen=True, slots=True)
class CoordinatesMetadata:
    """Where an element stands on its page: corner `points` in a named coordinate `system`.

    `system` is the reference's class name: "PixelSpace" (origin top left), "PointSpace" (PDF
    points, origin bottom left), "RelativeCoordinateSystem" (0..1) or "CoordinateSystem".
    """

    points: tuple[Point, ...]
    system: str
    layout_width: float | None = None
    layout_height: float | None = None

    def __post_init__(self) -> None:
        points = self.points
        if not isinstance(points, tuple) or not all(type(p) is tuple for p in points):
            object.__setattr__(self, "points", tuple((p[0], p[1]) for p in points))


@dataclass(frozen=True, slots=True)
class DataSourceMetadata:
    """Where a document came from (the reference's `data_source` sub-object)."""

    url: str | None = None
    version: str | None = None
    record_locator: Mapping[str, Any] | None = None
    date_created: str | None = None
    date_modified: str | None = None
    date_processed: str | None = None
    permissions_data: Sequence[Mapping[str, Any]] | None = None


@dataclass(frozen=True, slots=True)
class Link:
    """A hyperlink in an element's text: `start_index` is its offset in the element's text.

    Subscripting by field name (`link["url"]`) works, as it does on the reference's dict links.
    """

    text: str | None
    url: str
    start_index: int | None = None

    def __getitem__(self, key: str) -> Any:
        if key not in ("text", "url", "start_index"):
            raise KeyError(key)
        return getattr(self, key)


@dataclass(frozen=True, kw_only=True)
class ElementMetadata:
    """What is known about an element besides its text.

    Field names and meanings are the reference library's (`unstructured`), plus `section_path`,
    the heading texts an element sits under, from the top level down (a Title's own path ends with
    its own text). Unset fields are None. Fields the reference does not declare but which were read
    from JSON are kept in `extra` and written back out.

    `filename` given as a path is split on construction: `filename="/x/y/a.pdf"` gives
    `filename="a.pdf"` and `file_directory="/x/y"`, as in the reference.

    An instance stores only its set fields (unset ones read as the class-level None), so a
    mostly empty metadata is small, and copies with changes (`replace`) are cheap.

    Each field is declared with its spec (`partita._metadata_fields.spec`): its JSON form and
    how a chunk takes it from its elements; the modules that treat fields by kind derive their
    lists from these (`METADATA_FIELDS`). The fields are declared in the order the reference's
    `ElementMetadata.__init__` assigns them, the order in which `elements_to_dicts` writes them.
    """

    attached_to_filename: str | None = spec("str", "first")
    bcc_recipient: tuple[str, ...] | None = spec("strs", "first")
    category_depth: int | None = spec("int", "drop")
    cc_recipient: tuple[str, ...] | None = spec("strs", "first")
    coordinates: CoordinatesMetadata | None = spec("coordinates", "drop")
    data_source: DataSourceMetadata | None = spec("data_source", "first")
    detection_class_prob: float | None = spec("number", "drop")
    enrichment_origins: Mapping[str, Sequence[Mapping[str, str]]] | None = spec("origins", "merge")
    emphasized_text_contents: tuple[str, ...] | None = spec("strs", "concatenate", bulky=True)
    emphasized_text_tags: tuple[str, ...] | None = spec("strs", "concatenate", bulky=True)
    file_directory: str | None = spec("str", "first")
    filename: str | None = spec("str", "first")
    filetype: str | None = spec("str", "first")
    header_footer_type: str | None = spec("str", "drop")
    image_base64: str | None = spec("str", "drop")
    image_mime_type: str | None = spec("str", "drop")
    image_url: str | None = spec("str", "drop")
    image_path: str | None = spec("str", "drop")
    is_continuation: bool | None = spec("bool", "drop")
    languages: tuple[str, ...] | None = spec("strs", "unique")
    last_modified: str | None = spec("str", "first")
    link_start_indexes: tuple[int, ...] | None = spec("ints", "drop", bulky=True)
    link_texts: tuple[str, ...] | None = spec("strs", "concatenate", bulky=True)
    link_urls: tuple[str, ...] | None = spec("strs", "concatenate", bulky=True)
    links: tuple[Link, ...] | None = spec("links", "drop", bulky=True)
    email_message_id: str | None = spec("str", "first")
    orig_elements: tuple[Element, ...] | None = spec("orig_elements", "drop")
    page_name: str | None = spec("str", "first")
    page_number: int | None = spec("int", "first")
    parent_id: str | None = spec("str", "drop")
    routing: str | None = spec("str", "drop")
    routing_score: float | None = spec("number", "drop")
    sent_from: tuple[str, ...] | None = spec("strs", "first")
    sent_to: tuple[str, ...] | None = spec("strs", "first")
    signature: str | None = spec("str", "first")
    subject: str | None = spec("str", "first")
    text_as_html: str | None = spec("str", "join", bulky=True)
    table_as_cells: Mapping[str, Any] | None = spec("cells", "first", bulky=True)
    table_extraction_method: str | None = spec("str", "first")
    table_id: str | None = spec("str", "drop")
    chunk_index: int | None = spec("int", "drop")
    num_carried_over_header_rows: int | None = spec("int", "drop")
    url: str | None = spec("str", "first")
    segment_end_seconds: float | None = spec("number", "drop")
    segment_start_seconds: float | None = spec("number", "drop")
    is_extracted: str | None = spec("str", "drop")
    key_value_pairs: Sequence[Mapping[str, Any]] | None = spec("objects", "drop")
    section_path: tuple[str, ...] | None = spec("strs", "first")
    detection_origin: str | None = spec("unwritten", "drop")
    """Debugging aid: never serialized, as in the reference."""
    extra: Mapping[str, Any] | None = None
    """Undeclared fields read from JSON (the reference's "ad-hoc" fields), kept for round trips."""

    def __post_init__(self) -> None:
        fields = self.__dict__
        sparse = {k: v for k, v in fields.items() if v is not None}
        for name in _NORMALIZED_FIELDS.intersection(sparse):
            sparse[name] = _normalized(name, sparse[name])
        filename: Any = sparse.get("filename")  # -- a path is accepted too, as by the reference --
        if filename == "":
            del sparse["filename"]
        elif filename is not None and (os.sep in filename or (os.altsep and os.altsep in filename)):
            directory, name = os.path.split(filename)
            if name:
                sparse["filename"] = name
            else:
                del sparse["filename"]
            if directory and "file_directory" not in sparse:
                sparse["file_directory"] = directory
        object.__setattr__(self, "__dict__", sparse)

    def replace(self, **changes: Any) -> ElementMetadata:
        """Return a copy of this metadata with the fields named in `changes` set (None unsets).

        Raises `TypeError` for a name that is not a field.
        """
        fields = dict(self.__dict__)
        for name, value in changes.items():
            if value is None:
                if name not in _FIELD_NAME_SET:
                    raise TypeError(f"ElementMetadata has no field {name!r}")
                fields.pop(name, None)
            elif name in _NORMALIZED_FIELDS:
                fields[name] = _normalized(name, value)
            elif name in _FIELD_NAME_SET:
                fields[name] = value
            else:
                raise TypeError(f"ElementMetadata has no field {name!r}")
        return _metadata_from_fields(fields)

    def set_fields(self) -> dict[str, Any]:
        """Return the fields that are set, as a new dict of name to value."""
        return dict(self.__dict__)

    def set_fields_view(self) -> Mapping[str, Any]:
        """Return the fields that are set, name to stored value, in the order they were set: the
        metadata's own storage, typed read-only and not copied, for code that reads many
        metadata fast (chunking, JSON writing). Never modify it; `set_fields` returns a copy.
        """
        return self.__dict__

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{f.name}={self.__dict__[f.name]!r}"
            for f in dataclasses.fields(self)
            if f.name in self.__dict__
        )
        return f"ElementMetadata({shown})"


METADATA_FIELDS: Mapping[str, FieldSpec] = field_specs(ElementMetadata)
"""The declared metadata fields (all but `extra`), name to spec, in declaration order: the one
table of fields, from which serialization, validation and chunking derive their lists."""

METADATA_FIELD_NAMES: tuple[str, ...] = tuple(METADATA_FIELDS)
"""Names of the declared metadata fields, in declaration order."""

_FIELD_NAME_SET = frozenset(f.name for f in dataclasses.fields(ElementMetadata))
# -- the fields `_normalized` stores in their own form: sequences as tuples, links as `Link`s --
_NORMALIZED_FIELDS = frozenset(
    name
    for name, field_spec in METADATA_FIELDS.items()
    if field_spec.json in ("strs", "ints", "links", "orig_elements")
).union({"filename"})


def _normalized(name: str, value: Any) -> Any:
    """Return `value` as stored for field `name`: sequences as tuples, links as `Link`s."""
    if name == "filename":
        return value if isinstance(value, str) else os.fspath(value)
    if name == "links":
        if type(value) is tuple and all(type(x) is Link for x in value):
            return value
        return tuple(_to_link(x) for x in value)
    return value if type(value) is tuple else tuple(value)


def metadata_from_fields(fields: dict[str, Any]) -> ElementMetadata:
    """Return metadata holding `fields`, trusted as they are: no validation, no normalization.

    The fast way to derive metadata from existing metadata (chunking, reading JSON back). Every
    key must be a field name and every value set (not None) and stored as the field stores it
    (sequences as tuples, links as `Link`s; values read from another metadata's
    `set_fields_view()` are). The dict becomes the metadata's storage: the caller must not
    modify it afterwards. Build metadata from untrusted values with `ElementMetadata(...)` or
    `replace`, which validate and normalize.
    """
    metadata = object.__new__(ElementMetadata)
    object.__setattr__(metadata, "__dict__", fields)
    return metadata


_metadata_from_fields = metadata_from_fields
"""The earlier, private name of `metadata_from_fields`."""


_EMPTY_METADATA = ElementMetadata()


def _to_link(value: Link | Mapping[str, Any]) -> Link:
    if isinstance(value, Link):
        return value
    return Link(text=value.get("text"), url=value["url"], start_index=value.get("start_index"))


def document_key(
    file_directory: str | None, filename: str | None, content_digest: str | None = None
) -> str | None:
    """Return the key that sets the element ids of one document apart from every other
    document's, or None when the document has neither a directory nor a `content_digest`.

    A document is identified by its path as given, split into `file_directory` and `filename`,
    or, without a path, by `content_digest` (the hex SHA-256 of its content). A bare file name
    (no directory) gets None: its ids are the reference's (`element_id_for` without a key).
    Different arguments give different keys, each length-prefixed and starting with NUL, so that
    no keyed hash input equals another document's, nor any reference hash input (those start
    with a file name or "None").
    """
    if not file_directory and not content_digest:
        return None
    parts = (file_directory or "", filename or "", content_digest or "")
    return "\x00" + "".join(f"{len(part)}:{part}\x00" for part in parts)


def element_id_for(
    filename: str | None,
    text: str,
    page_number: int | None,
    seq: int,
    *,
    key: str | None = None,
) -> str:
    """Return the deterministic id of an element, 32 hex digits.

    `seq` is the element's 0-based position among the elements of its page (of the whole document
    when it has no pages). Without `key` it is the reference's hash,
    `sha256(f"{filename}{text}{page_number}{seq}")`, so partita and the reference give the same
    ids to the same elements of a document named by a bare file name. With `key` (the document's
    `document_key`) it is `sha256(f"{key}{text}\\0{page_number}\\0{seq}")`: no two documents
    with different keys share an id.
    """
    if key is None:
        data = f"{filename}{text}{page_number}{seq}"
    else:
        data = f"{key}{text}\x00{page_number}\x00{seq}"
    return hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def new_element(cls: type[_E], text: str, element_id: str, metadata: ElementMetadata) -> _E:
    """Return an element of type `cls` built from trusted, already-normal values: no validation.

    The fast way to build many elements from values partita made itself (chunks, elements read
    back from JSON): `text` a str, `element_id` the id to keep, `metadata` as it is. Build
    elements from untrusted values with their constructors, which validate.
    """
    element = _object_new(cls)
    _set_text(element, text)
    _set_element_id(element, element_id)
    _set_metadata(element, metadata)
    _set_embeddings(element, None)
    return element


_new_element = new_element
"""The earlier, private name of `new_element`."""


@dataclass(frozen=True, slots=True)
class Element:
    """A semantically coherent piece of a document.

    Construct as the reference does: `Title("Intro", metadata=ElementMetadata(page_number=1))`.
    Without an explicit `element_id` the id is `element_id_for(filename, text, page_number, 0)`,
    keyed by `document_key(file_directory, filename)`: deterministic, and unique within a
    document once a partitioner has numbered its elements.
    """

    text: str = ""
    _: KW_ONLY
    element_id: str = ""
    metadata: ElementMetadata = field(default=_EMPTY_METADATA)
    embeddings: tuple[float, ...] | None = None

    category: ClassVar[str] = "UncategorizedText"
    """The element's type name in JSON and in the reference library."""

    def __post_init__(self) -> None:
        text: Any = self.text
        if text is None:
            object.__setattr__(self, "text", "")
        elif not isinstance(text, str):
            raise TypeError(f"element text must be a str, got {type(text).__name__}")
        if not self.element_id:
            meta = self.metadata
            key = document_key(meta.file_directory, meta.filename)
            element_id = element_id_for(meta.filename, self.text, meta.page_number, 0, key=key)
            object.__setattr__(self, "element_id", element_id)
        if self.embeddings is not None and type(self.embeddings) is not tuple:
            object.__setattr__(self, "embeddings", tuple(self.embeddings))

    @property
    def id(self) -> str:
        """The element's id (the reference's name for `element_id`)."""
        return self.element_id

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text!r}, element_id={self.element_id!r})"


# -- the slot setters of Element, for `_new_element` (they bypass the frozen `__setattr__`) --
_object_new = object.__new__
_SLOTS: dict[str, Any] = dict(vars(Element))
_set_text = _SLOTS["text"].__set__
_set_element_id = _SLOTS["element_id"].__set__
_set_metadata = _SLOTS["metadata"].__set__
_set_embeddings = _SLOTS["embeddings"].__set__
del _SLOTS


class Text(Element):
    """Text of no particular kind (JSON type "UncategorizedText")."""

    __slots__ = ()


class Title(Text):
    """A heading. The only element type that starts a section in `by_title` chunking."""

    __slots__ = ()

    category: ClassVar[str] = "Title"


class NarrativeText(Text):
    """A paragraph of prose."""

    __slots__ = ()

    category: ClassVar[str] = "NarrativeText"


class ListItem(Text):
    """An item of a bulleted or numbered list."""

    __slots__ = ()

    category: ClassVar[str] = "ListItem"


class Table(Text):
    """A table: `text` is its cell texts, `metadata.text_as_html` its structure."""

    __slots__ = ()

    category: ClassVar[str] = "Table"


class TableChunk(Table):
    """A piece of a table too large for one chunk; produced only by chunking."""

    __slots__ = ()

    category: ClassVar[str] = "TableChunk"


class CompositeElement(Text):
    """A chunk made of one or more text elements; produced only by chunking."""

    __slots__ = ()

    category: ClassVar[str] = "CompositeElement"


class Header(Text):
    """A running header (page or section header)."""

    __slots__ = ()

    category: ClassVar[str] = "Header"


class Footer(Text):
    """A running footer (page or section footer)."""

    __slots__ = ()

    category: ClassVar[str] = "Footer"


class PageBreak(Text):
    """The boundary between two pages; its text is empty."""

    __slots__ = ()

    category: ClassVar[str] = "PageBreak"


class Image(Text):
    """A picture; `text` is its alternative text, if any."""

    __slots__ = ()

    category: ClassVar[str] = "Image"


class FigureCaption(Text):
    """The caption of a figure or table."""

    __slots__ = ()

    category: ClassVar[str] = "FigureCaption"


class Address(Text):
    """A postal address."""

    __slots__ = ()

    category: ClassVar[str] = "Address"


class EmailAddress(Text):
    """An e-mail address."""

    __slots__ = ()

    category: ClassVar[str] = "EmailAddress"


class Formula(Text):
    """A mathematical formula."""

    __slots__ = ()

    category: ClassVar[str] = "Formula"


class CodeSnippet(Text):
    """Program code; chunking keeps its whitespace verbatim."""

    __slots__ = ()

    category: ClassVar[str] = "CodeSnippet"


class PageNumber(Text):
    """A printed page number."""

    __slots__ = ()

    category: ClassVar[str] = "PageNumber"


class Navigation(Text):
    """A navigation menu: a page's links to other pages or to its own parts (a `<nav>`, a list
    a page marks as a menu), one line per entry, its links in `metadata.links`.

    partita's type (JSON type "Navigation"); the reference has none, and its JSON reader skips
    it. Partitioning keeps it; chunking leaves it out of every chunk (`partita.chunking.
    furniture`), so chunks of the same elements are the reference's.
    """

    __slots__ = ()

    category: ClassVar[str] = "Navigation"


class Form(Text):
    """Text of a form."""

    __slots__ = ()

    category: ClassVar[str] = "Form"


class FormKeysValues(Text):
    """Key-value pairs of a form (see `metadata.key_value_pairs`)."""

    __slots__ = ()

    category: ClassVar[str] = "FormKeysValues"


class DocumentData(Text):
    """Document-level data that belongs to no single element."""

    __slots__ = ()

    category: ClassVar[str] = "DocumentData"


@dataclass(frozen=True, slots=True, repr=False)
class CheckBox(Element):
    """A check box of a form; it has no text, only `checked`."""

    checked: bool = field(default=False, kw_only=True)

    category: ClassVar[str] = "CheckBox"


ELEMENT_TYPES: tuple[type[Element], ...] = (
    Address,
    CheckBox,
    CodeSnippet,
    CompositeElement,
    DocumentData,
    EmailAddress,
    FigureCaption,
    Footer,
    Form,
    FormKeysValues,
    Formula,
    Header,
    Image,
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
"""Every element type, one per JSON `type` (`category`; `Text`'s is "UncategorizedText"): the
classes above, all but the base `Element`."""
