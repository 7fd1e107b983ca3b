"""`partita.chunking.tables.split._table`: HTML table splitting, byte-identical to
unstructured's."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml.etree import ParserError
from unstructured.chunking.base import ChunkingOptions, _HtmlTableSplitter
from unstructured.common.html_table import HtmlTable as RefHtmlTable

from partita.chunking.tables.read._model import HtmlTable, leading_header_row_count
from partita.chunking.tables.split._table import HtmlTableSplitter
from partita.text.sizing._sizer import CHARACTERS, Sizer, sizer_for
from tests.chunking.table_strategies import (
    char_windows,
    html_tables,
    simple_tables,
    spanning_tables,
    token_windows,
)

_ITEMS = "".join(f"<tr><td>Item{i}</td><td>{i}</td><td>{i}.00</td></tr>" for i in range(1, 9))
_PRICE_LIST = (
    "<table><thead><tr><th>Name</th><th>Qty</th><th>Price</th></tr></thead>"
    f"<tbody>{_ITEMS}</tbody></table>"
)
_LOREM = "lorem ipsum dolor " * 6
"""A 108-character cell (107 once its trailing space is normalized away)."""


def _split(
    html: str,
    maxlen: int,
    *,
    headers: bool = True,
    sizer: Sizer = CHARACTERS,
) -> tuple[list[tuple[str, str]], int]:
    table = HtmlTable.from_html_text(html)
    splitter = HtmlTableSplitter(
        table,
        maxlen=maxlen,
        sizer=sizer,
        header_row_count=leading_header_row_count(table) if headers else 0,
    )
    return list(splitter.iter_subtables()), splitter.carried_over_header_row_count


# -- packing rows ---------------------------------------------------------------------------------


def test_rows_are_packed_and_headers_repeat_on_continuation_chunks() -> None:
    chunks, carried = _split(_PRICE_LIST, 60)

    assert [text for text, _html in chunks] == [
        "Name Qty Price Item1 1 1.00 Item2 2 2.00 Item3 3 3.00",
        "Name Qty Price Item4 4 4.00 Item5 5 5.00 Item6 6 6.00",
        "Name Qty Price Item7 7 7.00 Item8 8 8.00",
    ]
    assert chunks[0][1].startswith("<table><tr><td>Name</td><td>Qty</td><td>Price</td></tr>")
    assert chunks[1][1] == (
        "<table><thead><tr><th>Name</th><th>Qty</th><th>Price</th></tr></thead>"
        "<tr><td>Item4</td><td>4</td><td>4.00</td></tr><tr><td>Item5</td><td>5</td><td>5.00</td>"
        "</tr><tr><td>Item6</td><td>6</td><td>6.00</td></tr></table>"
    )
    assert carried == 1


def test_without_header_repetition_continuation_chunks_have_only_body_rows() -> None:
    chunks, carried = _split(_PRICE_LIST, 60, headers=False)

    assert chunks[1][0].startswith("Item")
    assert chunks[1][1].startswith("<table><tr><td>Item")
    assert carried == 0


def test_an_oversized_cell_is_split_into_pieces_whose_html_fits() -> None:
    chunks, _carried = _split(f"<table><tr><td>{_LOREM}</td></tr></table>", 60)

    assert [text for text, _html in chunks] == [
        "lorem ipsum dolor lorem",
        "ipsum dolor lorem ipsum",
        "dolor lorem ipsum dolor",
        "lorem ipsum dolor lorem",
        "ipsum dolor",
    ]
    assert all(len(html) <= 60 for _text, html in chunks)


def test_a_large_first_body_row_makes_every_cell_piece_repeat_the_header() -> None:
    html = (
        "<table><thead><tr><th>H1</th><th>H2</th></tr></thead>"
        f"<tr><td>{_LOREM}</td><td>short</td></tr><tr><td>a</td><td>b</td></tr></table>"
    )

    chunks, carried = _split(html, 60)

    header = "<table><thead><tr><th>H1</th><th>H2</th></tr></thead>"
    assert chunks == [
        ("H1 H2", "<table><tr><td>H1</td><td>H2</td></tr></table>"),
        *[("H1 H2 lorem ipsum dolor", f"{header}<tr><td>lorem ipsum dolor</td></tr></table>")] * 6,
        ("H1 H2 short", f"{header}<tr><td>short</td></tr></table>"),
        ("H1 H2 a b", f"{header}<tr><td>a</td><td>b</td></tr></table>"),
    ]
    assert carried == 1
    # -- the six 17-character pieces of the 108-character cell --
    assert [len(text) - len("H1 H2 ") for text, _html in chunks[1:7]] == [17] * 6


def test_header_repetition_is_disabled_when_a_header_row_takes_over_half_the_window() -> None:
    html = f"<table><tr><th>{'h' * 40}</th></tr>{_ITEMS}</table>"

    chunks, carried = _split(html, 60)

    assert carried == 0
    assert not any(text.startswith("hhh") for text, _html in chunks[1:])


def test_header_repetition_is_disabled_when_a_header_rows_group_would_split_at_reduced_budget() -> (
    None
):
    body = "".join(f"<tr><td>{'x' * 30} {i}</td></tr>" for i in range(2))
    html = (
        f"<table><thead><tr><th>{'a' * 20}</th></tr><tr><th rowspan='3'>{'b' * 20}</th></tr>"
        f"</thead>{body}</table>"
    )

    chunks, carried = _split(html, 60)

    assert carried == 0
    assert [text for text, _html in chunks] == [
        "a" * 20,
        f"{'b' * 20} {'x' * 30} 0",
        f"{'b' * 20} {'x' * 30} 1",
    ]


def test_a_clipped_header_span_ends_the_chunk_at_its_section() -> None:
    html = (
        "<table><thead><tr><th rowspan='0'>A</th><th>B</th></tr><tr><th>C</th></tr></thead>"
        f"<tbody><tr><th>D</th></tr><tr><td>{'y' * 40}</td></tr></tbody></table>"
    )

    chunks, carried = _split(html, 50)

    assert carried == 3
    assert chunks == [
        ("A B C", '<table><tr><td rowspan="2">A</td><td>B</td></tr><tr><td>C</td></tr></table>'),
        (
            f"A B C D D {'y' * 40}",
            '<table><thead><tr><th rowspan="3">A</th><th>B</th></tr><tr><th>C</th></tr>'
            f"<tr><th>D</th></tr></thead><tr><td>D</td></tr><tr><td>{'y' * 40}</td></tr></table>",
        ),
    ]


def test_an_unparseable_source_header_row_repeats_as_its_compact_html() -> None:
    html = (
        "<table><thead><tr><th>H</th></tr>junk</thead>"
        f"<tbody><tr><td>{'y' * 40}</td></tr><tr><td>{'z' * 40}</td></tr></tbody></table>"
    )

    chunks, _carried = _split(html, 50)

    assert chunks[1] == (
        f"H {'z' * 40}",
        f"<table><thead><tr><td>H</td></tr>junk</thead><tr><td>{'z' * 40}</td></tr></table>",
    )


# -- rowspans -------------------------------------------------------------------------------------


def test_rows_bound_by_a_rowspan_stay_in_one_chunk() -> None:
    html = (
        '<table><tr><td>aaaaaaaaaa</td></tr><tr><td rowspan="2">span</td><td>bbbbbbbbbb</td></tr>'
        "<tr><td>cccccccccc</td></tr></table>"
    )

    chunks, _carried = _split(html, 30)

    assert chunks == [
        ("aaaaaaaaaa", "<table><tr><td>aaaaaaaaaa</td></tr></table>"),
        (
            "span bbbbbbbbbb cccccccccc",
            '<table><tr><td rowspan="2">span</td><td>bbbbbbbbbb</td></tr>'
            "<tr><td>cccccccccc</td></tr></table>",
        ),
    ]


def test_a_rowspan_reaching_past_the_table_is_clipped_to_the_rows_present() -> None:
    chunks, _carried = _split('<table><tr><td rowspan="9">a</td><td>b</td></tr></table>', 50)

    assert chunks == [("a b", "<table><tr><td>a</td><td>b</td></tr></table>")]


def test_rowspan_zero_reaches_only_the_end_of_its_section() -> None:
    html = (
        '<table><tbody><tr><td rowspan="0">x</td><td>1</td></tr><tr><td>2</td></tr></tbody>'
        "<tbody><tr><td>3</td><td>4</td></tr></tbody></table>"
    )

    chunks, _carried = _split(html, 50)

    assert chunks == [
        ("x 1 2", '<table><tr><td rowspan="2">x</td><td>1</td></tr><tr><td>2</td></tr></table>'),
        ("3 4", "<table><tr><td>3</td><td>4</td></tr></table>"),
    ]


def test_an_oversized_rowspan_group_re_materializes_the_covered_column() -> None:
    rows = "".join(f"<tr><td>row {i} {'x' * 20}</td></tr>" for i in range(2, 5))
    html = f'<table><tr><td rowspan="4">label</td><td>row 1 {"x" * 20}</td></tr>{rows}</table>'

    chunks, _carried = _split(html, 60)

    assert [text for text, _html in chunks] == [
        f"label row 1 {'x' * 20} row 2 {'x' * 20}",
        f"label row 3 {'x' * 20} row 4 {'x' * 20}",
    ]
    assert chunks[1][1] == (
        f'<table><tr><td rowspan="2">label</td><td>row 3 {"x" * 20}</td></tr>'
        f"<tr><td>row 4 {'x' * 20}</td></tr></table>"
    )


def test_token_mode_splits_an_oversized_cell_to_the_token_budget_less_ten() -> None:
    sizer = sizer_for("cl100k_base")
    html = f"<table><tr><td>{'word ' * 40}</td></tr></table>"

    chunks, _carried = _split(html, 20, sizer=sizer)

    assert [sizer.measure(text) for text, _html in chunks] == [10, 10, 10, 10]


@pytest.mark.parametrize("row", ["<tr><!-- note --><td>a</td></tr>", "<tr><td>a</td><?pi x?></tr>"])
def test_a_comment_among_the_cells_of_a_row_fails_as_in_the_reference(row: str) -> None:
    table = HtmlTable.from_html_text(f"<table>{row}</table>")
    ref = _HtmlTableSplitter(
        RefHtmlTable.from_html_text(f"<table>{row}</table>"), ChunkingOptions.new(max_characters=50)
    )

    with pytest.raises(ValueError, match="not an XML element"):
        list(ref._iter_subtables())
    with pytest.raises(ValueError, match="not an XML element"):
        list(HtmlTableSplitter(table, maxlen=50).iter_subtables())


# -- differential: the reference's `_HtmlTableSplitter` -----------------------------------------


def _assert_splits_match_reference(
    html: str,
    maxlen: int,
    new_options: Callable[[int], ChunkingOptions],
    sizer: Sizer,
) -> None:
    try:
        ref_table = RefHtmlTable.from_html_text(html)
    except (ParserError, ValueError):
        # -- the chunker splits such a table by text alone --
        with pytest.raises(ValueError):
            HtmlTable.from_html_text(html)
        return
    table = HtmlTable.from_html_text(html)
    for header_row_count in sorted({0, leading_header_row_count(table)}):
        ref = _HtmlTableSplitter(ref_table, new_options(maxlen), header_row_count=header_row_count)
        ours = HtmlTableSplitter(
            table, maxlen=maxlen, sizer=sizer, header_row_count=header_row_count
        )
        try:
            expected = list(ref._iter_subtables()), ref.carried_over_header_row_count
        except Exception as error:
            # -- where the reference fails, so must partita: never a different output --
            with pytest.raises(type(error)):
                list(ours.iter_subtables())
            continue
        assert (list(ours.iter_subtables()), ours.carried_over_header_row_count) == expected


_tables = st.one_of(
    html_tables(),
    html_tables(span_rate=40),
    spanning_tables(),
    simple_tables(),
    simple_tables(plain=True),
    simple_tables(near_miss=True),
    simple_tables(rich=True),
)

_SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""Each example runs both splitters several times over, too slow for hypothesis' defaults."""


def _char_options(maxlen: int) -> ChunkingOptions:
    return ChunkingOptions.new(max_characters=maxlen)


def _token_options(maxlen: int) -> ChunkingOptions:
    return ChunkingOptions.new(max_tokens=maxlen, tokenizer="cl100k_base")


@settings(_SETTINGS, max_examples=400)
@given(_tables, st.lists(char_windows, min_size=1, max_size=2))
def test_character_splits_match_the_reference(html: str, maxlens: list[int]) -> None:
    for maxlen in maxlens:
        _assert_splits_match_reference(html, maxlen, _char_options, CHARACTERS)


@settings(_SETTINGS, max_examples=80)
@given(_tables, st.integers(1, 49))
def test_character_splits_match_the_reference_in_windows_too_small_for_html(
    html: str, maxlen: int
) -> None:
    _assert_splits_match_reference(html, maxlen, _char_options, CHARACTERS)


_CL100K = sizer_for("cl100k_base")


@settings(_SETTINGS, max_examples=300)
@given(_tables, st.lists(token_windows, min_size=1, max_size=2))
def test_token_splits_match_the_reference(html: str, maxlens: list[int]) -> None:
    for maxlen in maxlens:
        _assert_splits_match_reference(html, maxlen, _token_options, _CL100K)


@settings(_SETTINGS, max_examples=50)
@given(_tables, st.integers(1, 14))
def test_token_splits_match_the_reference_in_windows_too_small_for_html(
    html: str, maxlen: int
) -> None:
    _assert_splits_match_reference(html, maxlen, _token_options, _CL100K)


def test_a_cell_split_starves_when_its_room_cannot_hold_two_characters_or_tokens() -> None:
    from partita.chunking.tables.read._model import format_td
    from partita.chunking.tables.split._cells import is_cell_split_starved
    from partita.chunking.tables.split._fragment import parse_row

    (cell,) = parse_row([f"<td>{_LOREM}</td>"]).iter_cells()
    # -- a quote has the longest escaped spelling, and the lorem cell has spaces --
    probe = format_td("' '", 1, rowspan=1)
    two_chars = len(f"<table><tr>{probe}</tr></table>")
    assert is_cell_split_starved(cell, two_chars - 1, CHARACTERS)
    assert not is_cell_split_starved(cell, two_chars, CHARACTERS)
    tokens = sizer_for("cl100k_base")
    assert is_cell_split_starved(cell, 11, tokens)  # -- the markup leaves one token --
    assert not is_cell_split_starved(cell, 12, tokens)
