"""The reference's (`unstructured`) element schema: type names and metadata field tables.

`TYPE_TO_ELEMENT_CLASS` maps a JSON `type` to its element class, the reference's aliases
included, and partita's own type "Navigation" (which the reference's reader skips, as it skips
every type it does not know). The field tables sort the declared metadata fields by how they are
written and read: plain values, sequences (stored as tuples) and the fields with their own
encoding.
"""

from __future__ import annotations

from collections.abc import Mapping

from partita.elements import (
    Address,
    CheckBox,
    CodeSnippet,
    CompositeElement,
    DocumentData,
    Element,
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

__all__ = [
    "FIELD_ORDER",
    "FIELD_RANK",
    "KNOWN_FIELDS",
    "PLAIN_FIELDS",
    "SEQUENCE_FIELDS",
    "SPECIAL_FIELDS",
    "TYPE_TO_ELEMENT_CLASS",
]

TYPE_TO_ELEMENT_CLASS: Mapping[str, type[Element]] = {
    **{
        cls.category: cls
        for cls in (
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
    },
    # -- the reference's aliases, from layout models and older versions --
    "Text": NarrativeText,
    "Paragraph": NarrativeText,
    "Abstract": NarrativeText,
    "Threading": NarrativeText,
    "Value": NarrativeText,
    "Link": NarrativeText,
    "Section-header": Title,
    "Headline": Title,
    "Subheadline": Title,
    "Field-Name": Title,
    "BulletedText": ListItem,
    "List-item": ListItem,
    "Page-header": Header,
    "Page-footer": Footer,
    "Footnote": Footer,
    "Caption": FigureCaption,
    "Figure": Image,
    "Picture": Image,
}
"""JSON `type` to element class, including the reference's aliases."""

PLAIN_FIELDS = frozenset(
    {
        "attached_to_filename",
        "category_depth",
        "chunk_index",
        "detection_class_prob",
        "email_message_id",
        "enrichment_origins",
        "file_directory",
        "filename",
        "filetype",
        "header_footer_type",
        "image_base64",
        "image_mime_type",
        "image_path",
        "image_url",
        "is_continuation",
        "is_extracted",
        "key_value_pairs",
        "last_modified",
        "num_carried_over_header_rows",
        "page_name",
        "page_number",
        "parent_id",
        "routing",
        "routing_score",
        "segment_end_seconds",
        "segment_start_seconds",
        "signature",
        "subject",
        "table_as_cells",
        "table_extraction_method",
        "table_id",
        "text_as_html",
        "url",
    }
)
SEQUENCE_FIELDS = frozenset(
    {
        "bcc_recipient",
        "cc_recipient",
        "emphasized_text_contents",
        "emphasized_text_tags",
        "languages",
        "link_start_indexes",
        "link_texts",
        "link_urls",
        "section_path",
        "sent_from",
        "sent_to",
    }
)
SPECIAL_FIELDS = frozenset({"coordinates", "data_source", "links", "orig_elements"})
KNOWN_FIELDS = PLAIN_FIELDS | SEQUENCE_FIELDS | SPECIAL_FIELDS | {"detection_origin"}

# -- the fields written to dicts, in the order the reference's `ElementMetadata.__init__` assigns
# -- them (dict order matters only to readers of `elements_to_dicts`; JSON sorts keys) --
FIELD_ORDER = tuple(
    name
    for name in [
        "attached_to_filename",
        "bcc_recipient",
        "category_depth",
        "cc_recipient",
        "coordinates",
        "data_source",
        "detection_class_prob",
        "enrichment_origins",
        "emphasized_text_contents",
        "emphasized_text_tags",
        "file_directory",
        "filename",
        "filetype",
        "header_footer_type",
        "image_base64",
        "image_mime_type",
        "image_url",
        "image_path",
        "is_continuation",
        "languages",
        "last_modified",
        "link_start_indexes",
        "link_texts",
        "link_urls",
        "links",
        "email_message_id",
        "orig_elements",
        "page_name",
        "page_number",
        "parent_id",
        "routing",
        "routing_score",
        "sent_from",
        "sent_to",
        "signature",
        "subject",
        "text_as_html",
        "table_as_cells",
        "table_extraction_method",
        "table_id",
        "chunk_index",
        "num_carried_over_header_rows",
        "url",
        "segment_end_seconds",
        "segment_start_seconds",
        "is_extracted",
        "key_value_pairs",
        "section_path",
    ]
)


FIELD_RANK = {name: rank for rank, name in enumerate((*FIELD_ORDER, "detection_origin", "extra"))}
