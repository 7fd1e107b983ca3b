"""Invariants over generated documents: no paragraph or cell text is lost or reordered."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.partitioners.docx.builders import new_document, partition

_TEXT = st.text(
    alphabet=st.sampled_from(list("abcXYZ019 .,;:-_()&<>\"'é中文标题测试ÄÖ")),
    min_size=0,
    max_size=30,
)
_STYLES = st.sampled_from([None, "Heading 1", "Heading 3", "Title", "List Bullet", "List Number 2"])
_BLOCK = st.one_of(
    st.tuples(st.just("p"), _TEXT, _STYLES),
    st.tuples(st.just("table"), st.lists(_TEXT, min_size=1, max_size=4), st.none()),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_BLOCK, max_size=12))
def test_no_text_is_lost(blocks: list[tuple[str, object, str | None]]) -> None:
    doc = new_document()
    expected: list[str] = []
    for kind, content, style in blocks:
        if kind == "p":
            assert isinstance(content, str)
            doc.add_paragraph(content, style=style)
            if content.strip():
                expected.append(content.strip())
        else:
            assert isinstance(content, list)
            table = doc.add_table(rows=1, cols=len(content))
            for cell, text in zip(table.rows[0].cells, content, strict=True):
                cell.text = text
            cells = [t.strip() for t in content if t.strip()]
            if cells:
                expected.append(" ".join(cells))
    elements = partition(doc)
    texts = [e.text for e in elements]
    # -- numbered styles prefix their label: the paragraph's text ends the element's text --
    assert len(texts) == len(expected)
    for text, want in zip(texts, expected, strict=True):
        assert text.endswith(want)
    ids = [e.element_id for e in elements]
    assert len(set(ids)) == len(ids)
