"""Reading order (`pdf/layout.py`) on many boxes and many columns."""

from __future__ import annotations

import pytest

from partita.partitioners.pdf._layout import reading_order


@pytest.mark.timeout(10)  # -- a hang guard: 0.6 s here; the old column assignment took 13 s --
def test_thousands_of_narrow_columns_are_read_across_in_near_linear_time() -> None:
    # -- a fuzzed PDF gave a page of 25,000 boxes in thousands of narrow columns; each box's
    # -- column was found by testing every gutter (boxes x gutters at every cut) --
    columns, rows = 5_000, 20
    boxes = [
        (2.0 * column, 10.0 * row, 2.0 * column + 1.0, 10.0 * row + 5.0)
        for row in range(rows)
        for column in range(columns)
    ]
    order = reading_order(boxes, page_width=2.0 * columns)
    assert sorted(order) == list(range(len(boxes)))
    assert order == reading_order(boxes, page_width=2.0 * columns)
    # -- columns narrower than MIN_COLUMN_SHARE of the page are read across: the first row's
    # -- boxes of the first column region come first, left to right --
    assert order[:100] == list(range(100))


def test_a_full_width_line_stays_between_two_column_regions() -> None:
    boxes = [
        (0.0, 0.0, 40.0, 5.0),  # -- left column, top region --
        (0.0, 10.0, 40.0, 15.0),
        (60.0, 0.0, 100.0, 5.0),  # -- right column, top region --
        (60.0, 10.0, 100.0, 15.0),
        (0.0, 30.0, 100.0, 35.0),  # -- a full-width heading --
        (0.0, 50.0, 40.0, 55.0),
        (0.0, 60.0, 40.0, 65.0),
        (60.0, 50.0, 100.0, 55.0),
        (60.0, 60.0, 100.0, 65.0),
    ]
    assert reading_order(boxes, page_width=100.0) == [0, 1, 2, 3, 4, 5, 6, 7, 8]
