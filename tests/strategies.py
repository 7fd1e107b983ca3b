"""Hypothesis strategies for element dicts in the reference's JSON schema."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

ELEMENT_TYPES = (
    "Title",
    "NarrativeText",
    "ListItem",
    "UncategorizedText",
    "Table",
    "CodeSnippet",
    "PageBreak",
    "Image",
    "Header",
    "Footer",
    "FigureCaption",
    "Address",
    "EmailAddress",
    "Formula",
    "PageNumber",
    "CompositeElement",
    "TableChunk",
)

texts = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
words = st.text(alphabet="abcdefgh 中文é", min_size=1, max_size=12)
floats = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)

coordinates = st.builds(
    lambda pts, system, w, h: {
        "points": [[x, y] for x, y in pts],
        "system": system,
        "layout_width": w,
        "layout_height": h,
    },
    st.lists(st.tuples(floats, floats), min_size=1, max_size=4),
    st.sampled_from(["PixelSpace", "PointSpace"]),
    st.integers(1, 2000),
    st.integers(1, 2000),
)

links = st.lists(
    st.fixed_dictionaries(
        {
            "text": words,
            "url": st.just("https://example.com/") | words,
            "start_index": st.integers(0, 50),
        }
    ),
    min_size=1,
    max_size=3,
)

metadata = st.fixed_dictionaries(
    {},
    optional={
        "filename": words,
        "file_directory": words,
        "filetype": st.sampled_from(["text/plain", "application/pdf"]),
        "last_modified": st.just("2024-05-01T10:00:00"),
        "page_number": st.integers(1, 50),
        "category_depth": st.integers(0, 5),
        "parent_id": words,
        "text_as_html": st.just("<table><tr><td>a</td></tr></table>"),
        "languages": st.lists(st.sampled_from(["eng", "fra", "zho"]), min_size=1, max_size=3),
        "links": links,
        "link_texts": st.lists(words, min_size=1, max_size=3),
        "link_urls": st.lists(words, min_size=1, max_size=3),
        "emphasized_text_contents": st.lists(words, min_size=1, max_size=3),
        "emphasized_text_tags": st.lists(st.sampled_from(["b", "i"]), min_size=1, max_size=3),
        "coordinates": coordinates,
        "detection_class_prob": st.floats(0, 1),
        "header_footer_type": st.sampled_from(["primary", "first_page"]),
        "is_continuation": st.just(True),
        "table_id": words,
        "chunk_index": st.integers(0, 9),
        "num_carried_over_header_rows": st.integers(0, 2),
        "image_url": words,
        "url": words,
        "data_source": st.fixed_dictionaries({"url": words, "version": words}),
        "section_path": st.lists(words, min_size=1, max_size=3),
    },
)


@st.composite
def element_dicts(draw: st.DrawFn, *, with_orig: bool = True) -> dict[str, Any]:
    """Generate one element dict; chunk types may carry `orig_elements` dicts (unencoded)."""
    type_name = draw(st.sampled_from(ELEMENT_TYPES))
    item: dict[str, Any] = {
        "type": type_name,
        "element_id": draw(st.text(alphabet="0123456789abcdef", min_size=8, max_size=32)),
        "text": "" if type_name == "PageBreak" else draw(texts),
        "metadata": draw(metadata),
    }
    if with_orig and type_name in ("CompositeElement", "TableChunk") and draw(st.booleans()):
        item["orig"] = draw(st.lists(element_dicts(with_orig=False), min_size=1, max_size=3))
    return item
