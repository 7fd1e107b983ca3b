"""Hostile Markdown and plain text (`tests/robustness/hostile_html.py`): exact results, and the
bounds that keep markdown-it-py's work in proportion (`partita.partitioners._html_limits`)."""

from __future__ import annotations

import io

import pytest

from partita.elements import Element
from partita.errors import DocumentError, DocumentLimitError
from partita.partitioners import _html_limits
from partita.partitioners.markdown import partition_md
from partita.partitioners.text import partition_text
from tests.robustness.hostile_html import CASES


def _partition(name: str) -> list[Element]:
    case = next(case for case in CASES if case.name == name)
    partitioner = partition_md if case.filename.endswith(".md") else partition_text
    return partitioner(file=io.BytesIO(case.build()), metadata_filename=case.filename)


@pytest.mark.parametrize(
    "markdown",
    [
        "[" * 20_000 + "a",
        "![" * 10_000 + "a",
        "[^" * 10_000,
        "[a][" * 5_000,
    ],
)
def test_unclosed_brackets_are_kept_as_text(markdown: str) -> None:
    # -- the constructs of the md/unclosed-* cases, a tenth of their size --
    (para,) = partition_md(text=markdown)
    assert para.text == markdown


def test_links_nested_within_the_inline_bound_are_links() -> None:
    nested = "[" * 5 + "a" + "](u)" * 5
    (para,) = partition_md(text=nested)
    assert para.metadata.links is not None
    assert para.metadata.links[0].url == "u"


def test_links_nested_past_the_inline_bound_keep_their_text() -> None:
    (para,) = partition_md(text="[" * 30 + "a" + "](u)" * 30)
    assert para.text.count("a") == 1
    assert para.text.count("[") + len(para.metadata.links or ()) == 30


@pytest.mark.parametrize(
    ("case", "limit", "message"),
    [
        ("md/lazy-lines-in-deep-quote", "quote nesting",
         "quote.md: block quotes count 8,820,098 lines times their nesting"),
        ("md/emphasis-flood", "markup characters",
         "emphasis.md: the document has 600,000 markup characters, more than 150,000"),
        ("md/empty-list-item-flood", "lines",
         "items.md: the document has 600,001 lines, more than 100,000"),
    ],
)  # fmt: skip
def test_markdown_past_a_cost_bound_is_refused_before_parsing(
    case: str, limit: str, message: str
) -> None:
    with pytest.raises(DocumentLimitError) as caught:
        _partition(case)
    assert caught.value.limit == limit
    assert str(caught.value).startswith(message)


def test_a_markdown_document_over_4_mib_is_refused() -> None:
    with pytest.raises(DocumentLimitError, match="larger than 4,194,304 bytes") as caught:
        partition_md(file=io.BytesIO(b"word " * (1 << 20)), metadata_filename="big.md")
    assert caught.value.limit == "document size"


@pytest.mark.parametrize(
    ("markdown", "levels"),
    [
        # -- a thread quoted 20 deep, every line with its markers: 20 x 11 --
        (("> " * 20 + "line\n") * 10 + "\n" + "after\n", 200),
        # -- one deep line, then lazy lines up to the blank line: 30 x 4; then 2 x 1 --
        (">" * 30 + " a\nb\nc\nd\n\n> > e\n", 122),
        ("no quote at all\n" * 3, 0),
    ],
)
def test_quoted_lines_are_counted_times_their_depth(
    markdown: str, levels: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_html_limits, "MAX_QUOTED_LINE_LEVELS", levels)
    _html_limits.check_quote_nesting(markdown, "q.md")
    if levels:
        monkeypatch.setattr(_html_limits, "MAX_QUOTED_LINE_LEVELS", levels - 1)
        with pytest.raises(DocumentLimitError, match=f"count {levels:,} lines"):
            _html_limits.check_quote_nesting(markdown, "q.md")


def test_blocks_nested_past_markdown_its_limit_are_refused() -> None:
    with pytest.raises(DocumentError, match=r"deep-list\.md: blocks nested deeper than 100"):
        _partition("md/list-nested-60-deep")


def test_backtick_runs_and_deep_emphasis_parse() -> None:
    (para,) = _partition("md/backtick-runs")
    assert para.text.count("a") == 2_000
    (para,) = _partition("md/deep-emphasis-and-links")
    assert para.text.count("a") == 1


# -- plain text --


def test_a_long_cjk_line_is_text_not_a_title() -> None:
    line, last = _partition("text/long-cjk-line-before-a-block")
    assert (line.category, len(line.text), last.text) == ("NarrativeText", 4_000_000, "b")


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("text/many-blank-lines", [("NarrativeText", "a")]),
        ("text/utf16-bom-odd-length", [("NarrativeText", "ab\ufffd")]),
    ],
)
def test_blank_lines_and_odd_utf16(case: str, expected: list[tuple[str, str]]) -> None:
    assert [(e.category, e.text) for e in _partition(case)] == expected


def test_a_line_of_spaces_stays_inside_its_line() -> None:
    line, last = _partition("text/long-line-of-spaces")
    assert (line.text, last.text) == ("a" + " " * 4_000_000 + "b", "c")
